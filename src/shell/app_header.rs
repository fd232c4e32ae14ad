use attnlab_lab::state::Checkpoint;
use leptos::prelude::*;

use crate::i18n::{t, use_lang};

/// A text whose `code` spans (between backquotes) are shown as code and whose `{names}`
/// (between braces) as they are, both in no language.
fn with_code(text: &'static str) -> impl IntoView {
    let mut parts = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find(['`', '{']) {
        let close = if rest[at..].starts_with('`') {
            '`'
        } else {
            '}'
        };
        let Some(len) = rest[at + 1..].find(close) else {
            break;
        };
        parts.push(rest[..at].into_any());
        let inner = &rest[at + 1..at + 1 + len];
        parts.push(if close == '`' {
            view! { <code translate="no">{inner}</code> }.into_any()
        } else {
            view! { <span translate="no">{inner}</span> }.into_any()
        });
        rest = &rest[at + 2 + len..];
    }
    parts.push(rest.into_any());
    parts.collect_view()
}

/// The page title, a one-line invitation, and the About panel (what attnlab is, and
/// whose model it can load).
#[component]
pub fn AppHeader() -> impl IntoView {
    let lang = use_lang();
    view! {
        <header class="app-header">
            <h1>{t("attnlab — Attention Lab", "attnlab — 注意力实验室")}</h1>
            <p class="tagline">
                {t(
                    "Type a sentence and see how much each word (a query, on a row) attends to every word (a key, in a column).",
                    "输入一句话，看每个词（查询，位于行）对每个词（键，位于列）分配了多少注意力。",
                )}
            </p>
            <details class="about" data-testid="about">
                <summary>{t("About", "关于")}</summary>
                <p>{t(
                    "attnlab is a laboratory for the attention mechanism: change the attention function itself and watch every matrix change. Everything runs in this page; nothing is sent anywhere.",
                    "attnlab 是注意力机制的实验室：直接改动注意力函数本身，观察每个矩阵如何随之变化。所有计算都在本页面内完成，不会向任何地方发送数据。",
                )}</p>
                {Checkpoint::ALL.into_iter().map(|c| view! {
                    <p data-testid=format!("about-model-{}", c.name())>{move || with_code(c.attribution(lang.get()))}</p>
                }).collect_view()}
            </details>
        </header>
    }
}
