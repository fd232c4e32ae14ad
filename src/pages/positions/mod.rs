//! The position-encodings page: the PE table, chosen dimensions as curves, `PE(a)·PE(b)`
//! (a function of `a − b` only), the residual of `PE(p+k) = R_k·PE(p)`, and the
//! bag-of-words shuffle. The encoding knobs edit the shared model settings, so the lab
//! follows; the maths is in `attnlab_lab::pages::positions`.

mod bag_of_words;
mod pe_curves;
mod position_knobs;
mod rotation_readout;

pub use bag_of_words::BagOfWordsPanel;
pub use pe_curves::PeCurves;
pub use position_knobs::PositionKnobs;
pub use rotation_readout::RotationReadout;

use attnlab_core::position::PositionKind;
use attnlab_lab::Tokens;
use attnlab_lab::pages::positions;
use attnlab_lab::state::MAX_TOKENS;
use attnlab_plot::number;
use leptos::prelude::*;

use crate::canvas::{HeatmapCanvas, Pointing};
use crate::state::use_app_state;

/// The page's local view settings (not part of the model): how many positions to draw,
/// which dimensions as curves, the offset `k` of the rotation check.
#[derive(Debug, Clone, Copy)]
pub struct PositionView {
    /// Positions drawn; `None` = as many as the sentence has tokens.
    pub count: RwSignal<Option<usize>>,
    /// The dimensions drawn as curves, as typed.
    pub dims: RwSignal<Option<String>>,
    /// The offset `k` of `PE(p+k) = R_k·PE(p)`.
    pub k: RwSignal<usize>,
}

/// The position-encodings page.
#[component]
pub fn PositionsPage() -> impl IntoView {
    let state = use_app_state();
    let local = PositionView {
        count: RwSignal::new(None),
        dims: RwSignal::new(None),
        k: RwSignal::new(1),
    };
    let n = Memo::new(move |_| {
        let tokens = state.tokens.with(|t| t.used().len());
        local.count.get().unwrap_or(tokens).clamp(1, MAX_TOKENS)
    });
    let invalid = Memo::new(move |_| {
        state.model.with(|m| {
            m.position
                .validate(m.d_model)
                .err()
                .map(|e| attnlab_lab::explain(&e))
        })
    });
    let table = Memo::new(move |_| state.model.with(|m| positions::table(m, n.get())));
    let kind = move || state.model.with(|m| m.position.kind);
    let pe_figure = Signal::derive(move || {
        if invalid.with(Option::is_some) || kind() == PositionKind::None {
            return None;
        }
        table.with(|t| positions::table_heatmap(t).ok())
    });
    let dot = Memo::new(move |_| table.with(positions::dot_matrix));
    let dot_figure = Signal::derive(move || {
        if invalid.with(Option::is_some) || kind() == PositionKind::None {
            return None;
        }
        dot.with(|g| positions::dot_heatmap(g).ok())
    });
    let spread = Memo::new(move |_| dot.with(positions::diagonal_spread));
    let token_count = move || state.tokens.with(Tokens::is_empty);
    let input_shape = move || {
        state.encoded.with(|x| {
            x.as_ref().ok().map(|x| {
                let how = match state.model.with(|m| m.position.combine) {
                    attnlab_core::position::Combine::Add => "x = e + PE",
                    attnlab_core::position::Combine::Concat { .. } => "x = [e, PE]",
                };
                format!(
                    "The lab's input: {how}, so X is {} tokens \u{d7} {} (positions {} wide).",
                    x.x.nrows(),
                    x.x.ncols(),
                    x.positions.ncols()
                )
            })
        })
    };

    view! {
        <section class="explain positions" data-testid="positions-page" aria-label="Position encodings">
            <h2 class="section-title">"Position encodings"</h2>
            <p class="explain-lead">
                "Attention compares every token with every other one, and nothing in that comparison says where a token stands: "
                "without positions, shuffling the words shuffles the attention matrix and changes nothing else. "
                "A position encoding adds to each token a vector PE(p) for its place p. The sinusoids use a frequency per pair of dimensions, "
                "\u{3c9}_i = base^(\u{2212}2i/d), so that moving by k positions is the same rotation R_k at every place, "
                "and PE(a)\u{b7}PE(b) depends only on the distance a \u{2212} b."
            </p>
            <PositionKnobs local=local/>
            <p class="explain-note" data-testid="pe-input-shape">{input_shape}</p>
            {move || state.brought.with(Option::is_some).then(|| view! {
                <p class="hint" data-testid="positions-brought">
                    "This page shows the seeded model's position encodings for the sentence in the box. "
                    "Brought tensors already carry whatever positions their own model added."
                </p>
            })}
            {move || invalid.get().map(|msg| view! { <p class="explain-message" data-testid="positions-invalid">{msg}</p> })}
            {move || (kind() == PositionKind::None).then(|| view! {
                <p class="explain-message" data-testid="pe-none-message">
                    "Positions are off: every PE(p) is the zero vector, so the model sees the sentence as a bag of words. "
                    "Choose sinusoidal or learned positions to draw them — and see the shuffle check below."
                </p>
            })}
            {move || token_count().then(|| view! {
                <p class="explain-note">"No sentence yet: the figures show the first position only; type a sentence or set the number of positions."</p>
            })}
            <div class="positions-figures">
                <figure class="explain-figure wide" data-testid="pe-table-figure">
                    <figcaption>
                        "The position vectors: one row per position, one column per dimension (red +, blue \u{2212}) \u{b7} "
                        {move || state.model.with(|m| positions::describe(&m.position))}
                    </figcaption>
                    <HeatmapCanvas figure=pe_figure testid="pe-heatmap" kind="matrix" pointing=Pointing::Reading/>
                </figure>
                <figure class="explain-figure wide" data-testid="pe-curves-figure">
                    <figcaption>"The chosen dimensions as curves over position: low dimensions turn fast, high ones slowly."</figcaption>
                    <PeCurves table=table local=local/>
                </figure>
                <figure class="explain-figure" data-testid="pe-dot-figure">
                    <figcaption>
                        "PE(a)\u{b7}PE(b): constant along each diagonal when it depends only on a \u{2212} b. Largest spread along a diagonal: "
                        <strong data-testid="pe-diagonal-spread" data-value=move || spread.get().to_string()>
                            {move || number::readable(spread.get())}
                        </strong>
                        {move || match kind() {
                            PositionKind::Sinusoidal => " (\u{2248} 0: only the distance matters).",
                            PositionKind::Learned => " (learned vectors know nothing of distance).",
                            PositionKind::None => " (all zeros).",
                        }}
                    </figcaption>
                    <HeatmapCanvas figure=dot_figure testid="pe-dot-heatmap" kind="matrix" pointing=Pointing::Reading/>
                </figure>
                <RotationReadout table=table local=local/>
            </div>
            <BagOfWordsPanel/>
        </section>
    }
}
