use attnlab_lab::Page;
use attnlab_lab::state::{Checkpoint, PretrainedView};
use leptos::prelude::*;

use crate::i18n::{Lang, t, tr, use_lang};
use crate::model::{Status, use_model_session};
use crate::state::{LabFields, ViewFields, use_app_state};

/// "Model: toy (seeded) | MiniLM-L6 (real) | multilingual-E5-small". Choosing a real model loads it (once per
/// visit; from the browser's cache after the first) and opens its page; with it, the
/// layer and head to show large.
#[component]
pub fn ModelChoice() -> impl IntoView {
    let state = use_app_state();
    let session = use_model_session();
    let lang = use_lang();
    let real = move || state.lab.pretrained().with(Option::is_some);
    let choose_toy = move |_| state.lab.pretrained().set(None);
    let choose_real = move |c: Checkpoint| {
        if state
            .lab
            .pretrained()
            .with_untracked(|p| p.is_none_or(|p| p.checkpoint != c))
        {
            state.lab.pretrained().set(Some(PretrainedView::new(c)));
        }
        state.lab.view().page().set(Page::Model);
    };
    let chosen = move || state.lab.pretrained().with(|p| p.map(|p| p.checkpoint));
    let shape = move || chosen().map_or((0, 0), Checkpoint::shape);
    let layer_head = move || {
        state
            .lab
            .pretrained()
            .with(|p| p.map_or((0, 0), |p| (p.layer, p.head)))
    };
    let set = move |f: &dyn Fn(&mut PretrainedView)| state.edit_model_page(f);
    let status = move || {
        let lang = lang.get();
        let Some(c) = chosen() else {
            return String::new();
        };
        match session.status_of(c) {
            Status::Idle | Status::Starting => tr(lang, "starting…", "正在启动…").to_string(),
            Status::Loading { loaded, total } => match (total, lang) {
                (Some(t), Lang::En) if t > 0 => format!("loading {}%", (100 * loaded.min(t)) / t),
                (Some(t), Lang::Zh) if t > 0 => format!("正在加载 {}%", (100 * loaded.min(t)) / t),
                _ => tr(lang, "loading…", "正在加载…").into(),
            },
            Status::Ready(_) => tr(lang, "ready", "已就绪").into(),
            Status::Failed { missing: true, .. } => {
                tr(lang, "not in this build", "不在此构建中").into()
            }
            Status::Failed { .. } => tr(lang, "failed to load", "加载失败").into(),
            Status::Cancelled => tr(lang, "cancelled", "已取消").into(),
        }
    };
    let options = |count: usize| {
        (0..count)
            .map(|i| view! { <option value=i.to_string()>{i.to_string()}</option> })
            .collect_view()
    };
    view! {
        <div class="model-choice" role="radiogroup" aria-label=t("Model", "模型") data-testid="model-choice">
            <h2 class="field-label">{t("Model", "模型")}</h2>
            <label class="knob check">
                <input type="radio" name="model-kind" data-testid="model-toy"
                    prop:checked=move || !real() on:change=choose_toy/>
                {t(" toy (seeded)", " 玩具（种子）模型")}
            </label>
            {Checkpoint::ALL.into_iter().map(|c| view! {
                <label class="knob check">
                    <input type="radio" name="model-kind" data-testid=format!("model-{}", c.name())
                        prop:checked=move || state.lab.pretrained().with(|p| p.is_some_and(|p| p.checkpoint == c))
                        on:change=move |_| choose_real(c)/>
                    {move || format!(" {}", c.label(lang.get()))}
                </label>
            }).collect_view()}
            <Show when=real>
                <p class="hint" data-testid="model-choice-status">{move || format!("{}: {}", chosen().map_or("", Checkpoint::short_name), status())}</p>
                <div class="knobs">
                    <label class="knob">{t("layer ", "层 ")}
                        <select data-testid="side-layer" prop:value=move || layer_head().0.to_string()
                            on:change=move |ev| if let Ok(l) = event_target_value(&ev).parse() { set(&|p| p.layer = l) }>
                            {move || options(shape().0)}
                        </select>
                    </label>
                    <label class="knob">{t("head ", "头 ")}
                        <select data-testid="side-head" prop:value=move || layer_head().1.to_string()
                            on:change=move |ev| if let Ok(h) = event_target_value(&ev).parse() { set(&|p| p.head = h) }>
                            {move || options(shape().1)}
                        </select>
                    </label>
                </div>
                <p class="hint" data-testid="model-caveat">{move || chosen().map_or("", |c| c.caveat(lang.get()))}</p>
                <p class="hint">{t(
                    "The real model is shown on its own page; the other pages explain the toy model below.",
                    "真实模型在它自己的页面上展示；其他页面讲解下面的玩具模型。",
                )}</p>
            </Show>
        </div>
    }
}
