use attnlab_i18n::msg;
use attnlab_lab::Page;
use attnlab_lab::state::{Checkpoint, PretrainedView};
use leptos::prelude::*;

use crate::i18n::{text, use_lang};
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
            Status::Idle | Status::Starting => {
                msg::shell::MODEL_CHOICE_STARTING.get(lang).to_string()
            }
            Status::Loading { loaded, total } => match total {
                Some(t) if t > 0 => msg::shell::ModelChoiceLoadingPercent {
                    percent: &((100 * loaded.min(t)) / t),
                }
                .say(lang),
                _ => msg::shell::MODEL_CHOICE_LOADING.get(lang).into(),
            },
            Status::Ready(_) => msg::shell::MODEL_CHOICE_READY.get(lang).into(),
            Status::Failed { missing: true, .. } => {
                msg::shell::MODEL_CHOICE_NOT_IN_BUILD.get(lang).into()
            }
            Status::Failed { .. } => msg::shell::MODEL_CHOICE_FAILED_LOAD.get(lang).into(),
            Status::Cancelled => msg::shell::MODEL_CHOICE_CANCELLED.get(lang).into(),
        }
    };
    let options = |count: usize| {
        (0..count)
            .map(|i| view! { <option value=i.to_string()>{i.to_string()}</option> })
            .collect_view()
    };
    view! {
        <div class="model-choice" role="radiogroup" aria-label=text(msg::shell::MODEL_CHOICE_MODEL) data-testid="model-choice">
            <h2 class="field-label">{text(msg::shell::MODEL_CHOICE_MODEL)}</h2>
            <label class="knob check">
                <input type="radio" name="model-kind" data-testid="model-toy"
                    prop:checked=move || !real() on:change=choose_toy/>
                {text(msg::shell::MODEL_CHOICE_TOY_SEEDED)}
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
                    <label class="knob">{text(msg::shell::MODEL_CHOICE_LAYER)}
                        <select data-testid="side-layer" prop:value=move || layer_head().0.to_string()
                            on:change=move |ev| if let Ok(l) = event_target_value(&ev).parse() { set(&|p| p.layer = l) }>
                            {move || options(shape().0)}
                        </select>
                    </label>
                    <label class="knob">{text(msg::shell::MODEL_CHOICE_HEAD)}
                        <select data-testid="side-head" prop:value=move || layer_head().1.to_string()
                            on:change=move |ev| if let Ok(h) = event_target_value(&ev).parse() { set(&|p| p.head = h) }>
                            {move || options(shape().1)}
                        </select>
                    </label>
                </div>
                <p class="hint" data-testid="model-caveat">{move || chosen().map_or("", |c| c.caveat(lang.get()))}</p>
                <p class="hint">{text(msg::shell::MODEL_CHOICE_REAL_MODEL_SHOWN)}</p>
            </Show>
        </div>
    }
}
