use attnlab_i18n::msg;
use attnlab_lab::first_token;
use attnlab_plot::Heatmap;
use leptos::prelude::*;

use crate::canvas::{HeatmapCanvas, Pointing};
use crate::i18n::{text, use_lang};
use crate::state::use_app_state;

/// The weight each head of each variant puts on the first key token
/// ([`attnlab_lab::first_token`]): one row per variant, one column per head, so a window
/// with sinks, softmax+1 or a sink logit shows beside softmax where the weight goes.
#[component]
pub fn FirstTokenPanel() -> impl IntoView {
    let state = use_app_state();
    let lang = use_lang();
    let figure: Signal<Option<Heatmap>> = Signal::from(Memo::new(move |_| {
        let lang = lang.get();
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
        <section class="panel first-token" data-testid="first-token" aria-label=text(msg::lab::FIRST_TOKEN_PANEL_LABEL)>
            <h2 class="section-title">{text(msg::lab::FIRST_TOKEN_PANEL_TITLE)}</h2>
            <p class="hint">{text(msg::lab::FIRST_TOKEN_PANEL_HINT)}</p>
            <HeatmapCanvas figure=figure pointing=Pointing::Reading
                testid="first-token-heatmap" kind="first-token"/>
        </section>
    }
}
