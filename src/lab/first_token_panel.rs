use attnlab_i18n::msg;
use attnlab_lab::first_token;
use attnlab_plot::Heatmap;
use leptos::prelude::*;

use crate::canvas::{HeatmapCanvas, Pointing};
use crate::i18n::text;
use crate::state::use_app_state;

/// The weight each head of each variant puts on the first key token
/// ([`attnlab_lab::first_token`]): one row per variant, one column per head, so a window
/// with sinks, softmax+1 or a sink logit shows beside softmax where the weight goes.
///
/// A disclosure, closed at first: the figure is computed and painted only while it is
/// open, so the lab's interaction does not pay for a canvas nobody looks at.
#[component]
pub fn FirstTokenPanel() -> impl IntoView {
    let state = use_app_state();
    let open = RwSignal::new(false);
    let figure: Signal<Option<Heatmap>> = Signal::from(Memo::new(move |_| {
        if !open.get() {
            return None;
        }
        let lang = state.lang.get();
        // Nothing to show before there is a key.
        state
            .derived
            .key_tokens
            .with(|t| t.labels().first().cloned())?;
        let heads = state.derived.used_model.with(|m| m.heads);
        let rows: Vec<(String, Option<Vec<Option<f32>>>)> = state.derived.variants.with(|slots| {
            slots
                .iter()
                .map(|slot| {
                    let (name, kind) = slot.variant.with(|v| (v.name.clone(), v.attention));
                    let shares = slot.memos.computed.with(|c| {
                        let heads = c.heads.as_ref().ok()?;
                        Some(
                            heads
                                .iter()
                                .map(|h| first_token::head_share(kind, h))
                                .collect(),
                        )
                    });
                    (name, shares)
                })
                .collect()
        });
        first_token::lab_figure(&rows, heads, lang).ok()
    }));
    view! {
        <details class="panel first-token" data-testid="first-token"
            on:toggle=move |ev| {
                use wasm_bindgen::JsCast;
                let el = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlDetailsElement>().ok());
                open.set(el.is_some_and(|d| d.open()));
            }>
            <summary class="section-title" data-testid="first-token-open">{text(msg::lab::FIRST_TOKEN_PANEL_TITLE)}</summary>
            <Show when=move || open.get()>
                <p class="hint">{text(msg::lab::FIRST_TOKEN_PANEL_HINT)}</p>
                <HeatmapCanvas figure=figure pointing=Pointing::Reading
                    testid="first-token-heatmap" kind="first-token"/>
            </Show>
        </details>
    }
}
