use attnlab_lab::state::{Checkpoint, PretrainedView};
use attnlab_plot::number;
use leptos::prelude::*;

use crate::i18n::{Lang, t, use_lang};
use crate::model::{Status, use_model_session};
use crate::state::{LabFields, use_app_state};

fn megabytes(bytes: u64) -> String {
    format!("{} MB", number::decimals(bytes as f64 / 1e6, 1))
}

/// The real model's state: offer it, show the download with a cancel button, say where
/// it came from and how long it took, or why it is not there.
#[component]
pub fn ModelStatusPanel() -> impl IntoView {
    let state = use_app_state();
    let session = use_model_session();
    let lang = use_lang();
    let checkpoint = move || {
        state
            .lab
            .pretrained()
            .with(|p| p.map_or(Checkpoint::MiniLmL6, |p| p.checkpoint))
    };
    let use_real = move |_| {
        let c = checkpoint();
        // Choosing the real model starts the load (`model::drive`); after a cancel or a
        // failure of this checkpoint, this asks again.
        if state.lab.pretrained().with_untracked(Option::is_none) {
            state.lab.pretrained().set(Some(PretrainedView::new(c)));
        }
        let stopped = matches!(
            session.status.get_untracked(),
            Status::Cancelled | Status::Failed { .. }
        );
        if session.checkpoint.get_untracked() == Some(c) && stopped {
            session.load(c);
        }
    };
    let body = move || {
        let c = checkpoint();
        let lang = lang.get();
        let label = c.label(lang);
        let chosen = state.lab.pretrained().with(Option::is_some);
        match session.status_of(c) {
            _ if !chosen => view! {
                <p>{t(
                    "The lab's figures come from a toy model with seeded random weights: the mechanics are right, but the patterns mean nothing. \
                     Load a real pretrained transformer to see what a trained model attends to.",
                    "实验室的图来自一个权重由种子随机生成的玩具模型：机制是对的，但图案没有意义。\
                     加载一个真实的预训练 Transformer，看看训练过的模型关注什么。",
                )}</p>
                <button type="button" class="primary" data-testid="model-load" on:click=use_real>
                    {match lang {
                        Lang::En => format!("Load {label} (about {})", megabytes(c.approximate_bytes())),
                        Lang::Zh => format!("加载 {label}（约 {}）", megabytes(c.approximate_bytes())),
                    }}
                </button>
            }.into_any(),
            Status::Idle | Status::Starting => view! {
                <p role="status" data-testid="model-status">{t("Starting the model worker…", "正在启动模型工作线程…")}</p>
                <button type="button" data-testid="model-cancel" on:click=move |_| session.cancel()>{t("Cancel", "取消")}</button>
            }.into_any(),
            Status::Loading { loaded, total } => {
                let of = total.filter(|&t| t >= loaded);
                let text = match (of, lang) {
                    (Some(t), Lang::En) => format!("Downloading {label}: {} of {}", megabytes(loaded), megabytes(t)),
                    (Some(t), Lang::Zh) => format!("正在下载 {label}：{} / {}", megabytes(loaded), megabytes(t)),
                    (None, Lang::En) => format!("Downloading {label}: {}", megabytes(loaded)),
                    (None, Lang::Zh) => format!("正在下载 {label}：{}", megabytes(loaded)),
                };
                view! {
                    <p role="status" data-testid="model-status">{text}</p>
                    <progress data-testid="model-progress" max=of.unwrap_or(0).to_string() value=loaded.to_string()
                        aria-label=t("download progress", "下载进度")></progress>
                    <button type="button" data-testid="model-cancel" on:click=move |_| session.cancel()>{t("Cancel", "取消")}</button>
                }.into_any()
            }
            Status::Ready(loaded) => {
                let (size, ms) = (megabytes(loaded.bytes), number::rounded(loaded.millis, 3));
                let (layers, heads, max) = (loaded.layers, loaded.heads, loaded.max_tokens);
                let text = match (lang, loaded.from_cache) {
                    (Lang::En, cache) => {
                        let from = if cache { "from this browser's cache" } else { "from the network" };
                        format!("{label} is ready: {size} loaded {from} in {ms} ms ({layers} layers × {heads} heads; texts are cut at {max} tokens).")
                    }
                    (Lang::Zh, cache) => {
                        let from = if cache { "从本浏览器的缓存" } else { "从网络" };
                        format!("{label} 已就绪：{ms} 毫秒内{from}加载了 {size}（{layers} 层 × {heads} 个头；文本在 {max} 个词元处截断）。")
                    }
                };
                view! {
                    <p role="status" data-testid="model-status" data-from-cache=loaded.from_cache.to_string()>
                        {text}
                    </p>
                }.into_any()
            }
            Status::Failed { message, missing } => view! {
                <p role="alert" class="variant-error" data-testid="model-status">
                    {match (missing, lang) {
                        (true, _) => c.how_to_get(lang).to_string(),
                        (false, Lang::En) => format!("The model could not be loaded: {}.", message.en),
                        (false, Lang::Zh) => format!("模型无法加载：{}。", message.zh),
                    }}
                </p>
                <button type="button" data-testid="model-load" on:click=use_real>{t("Try again", "重试")}</button>
            }.into_any(),
            Status::Cancelled => view! {
                <p role="status" data-testid="model-status">{t("Loading was cancelled; nothing was kept.", "加载已取消；没有保留任何内容。")}</p>
                <button type="button" data-testid="model-load" on:click=use_real>{t("Load again", "重新加载")}</button>
            }.into_any(),
        }
    };
    view! {
        <section class="panel model-status" aria-label=t("The real model", "真实模型")>
            <h2 class="section-title">{move || checkpoint().label(lang.get())}</h2>
            {body}
            <p class="model-caveat">{move || checkpoint().caveat(lang.get())}</p>
        </section>
    }
}
