use attnlab_lab::Page;
use attnlab_lab::pretrained::{Checkpoint, PretrainedView};
use leptos::prelude::*;

use crate::model::{Status, use_model_session};
use crate::state::use_app_state;

/// "Model: toy (seeded) | MiniLM-L6 (real) | multilingual-E5-small". Choosing a real model loads it (once per
/// visit; from the browser's cache after the first) and opens its page; with it, the
/// layer and head to show large.
#[component]
pub fn ModelChoice() -> impl IntoView {
    let state = use_app_state();
    let session = use_model_session();
    let real = move || state.pretrained.with(Option::is_some);
    let choose_toy = move |_| state.pretrained.set(None);
    let choose_real = move |c: Checkpoint| {
        if state
            .pretrained
            .with_untracked(|p| p.is_none_or(|p| p.checkpoint != c))
        {
            state.pretrained.set(Some(PretrainedView::new(c)));
        }
        state.page.set(Page::Model);
    };
    let chosen = move || state.pretrained.with(|p| p.map(|p| p.checkpoint));
    let shape = move || chosen().map_or((0, 0), Checkpoint::shape);
    let layer_head = move || {
        state
            .pretrained
            .with(|p| p.map_or((0, 0), |p| (p.layer, p.head)))
    };
    let set = move |f: &dyn Fn(&mut PretrainedView)| {
        state.pretrained.update(|p| {
            if let Some(p) = p {
                f(p);
            }
        })
    };
    let status = move || match session.status.get() {
        Status::Idle | Status::Starting => "starting…".to_string(),
        Status::Loading { loaded, total } => match total {
            Some(t) if t > 0 => format!("loading {}%", (100 * loaded.min(t)) / t),
            _ => "loading…".into(),
        },
        Status::Ready(_) => "ready".into(),
        Status::Failed { missing: true, .. } => "not in this build".into(),
        Status::Failed { .. } => "failed to load".into(),
        Status::Cancelled => "cancelled".into(),
    };
    let options = |count: usize| {
        (0..count)
            .map(|i| view! { <option value=i.to_string()>{i.to_string()}</option> })
            .collect_view()
    };
    view! {
        <div class="model-choice" role="radiogroup" aria-label="Model" data-testid="model-choice">
            <h2 class="field-label">"Model"</h2>
            <label class="knob check">
                <input type="radio" name="model-kind" data-testid="model-toy"
                    prop:checked=move || !real() on:change=choose_toy/>
                " toy (seeded)"
            </label>
            {Checkpoint::ALL.into_iter().map(|c| view! {
                <label class="knob check">
                    <input type="radio" name="model-kind" data-testid=format!("model-{}", c.name())
                        prop:checked=move || state.pretrained.with(|p| p.is_some_and(|p| p.checkpoint == c))
                        on:change=move |_| choose_real(c)/>
                    {format!(" {}", c.label())}
                </label>
            }).collect_view()}
            <Show when=real>
                <p class="hint" data-testid="model-choice-status">{move || format!("{}: {}", chosen().map_or("", Checkpoint::short_name), status())}</p>
                <div class="knobs">
                    <label class="knob">"layer "
                        <select data-testid="side-layer" prop:value=move || layer_head().0.to_string()
                            on:change=move |ev| if let Ok(l) = event_target_value(&ev).parse() { set(&|p| p.layer = l) }>
                            {move || options(shape().0)}
                        </select>
                    </label>
                    <label class="knob">"head "
                        <select data-testid="side-head" prop:value=move || layer_head().1.to_string()
                            on:change=move |ev| if let Ok(h) = event_target_value(&ev).parse() { set(&|p| p.head = h) }>
                            {move || options(shape().1)}
                        </select>
                    </label>
                </div>
                <p class="hint" data-testid="model-caveat">{move || chosen().map_or("", Checkpoint::caveat)}</p>
                <p class="hint">"The real model is shown on its own page; the other pages explain the toy model below."</p>
            </Show>
        </div>
    }
}
