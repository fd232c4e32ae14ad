//! The position-encodings page: the PE table, chosen dimensions as curves, `PE(a)·PE(b)`
//! (a function of `a − b` only), the residual of `PE(p+k) = R_k·PE(p)`, RoPE, long
//! context and ALiBi, and the bag-of-words shuffle. The encoding knobs edit the shared model settings, so the lab
//! follows; the maths is in `attnlab_pages::positions`.

mod bag_of_words;
mod pe_curves;
mod position_knobs;
mod rope_panel;
mod rotation_readout;

pub use bag_of_words::BagOfWordsPanel;
pub use pe_curves::PeCurves;
pub use position_knobs::PositionKnobs;
pub use rope_panel::RopePanel;
pub use rotation_readout::RotationReadout;

use attnlab_core::position::PositionKind;
use attnlab_i18n::msg;
use attnlab_lab::state::MAX_TOKENS;
use attnlab_pages::positions;
use attnlab_plot::number;
use leptos::prelude::*;

use crate::canvas::{HeatmapCanvas, Pointing};
use crate::i18n::text;
use crate::state::{LabFields, use_app_state};

/// Positions drawn when none are asked for, at the least: enough for the slow
/// dimensions' waves to show (a sentence's dozen positions show barely a turn of them).
pub const POSITIONS_DRAWN_AT_LEAST: usize = 64;

/// The page's local view settings (not part of the model): how many positions to draw,
/// which dimensions as curves, the offset `k` of the rotation check.
#[derive(Debug, Clone, Copy)]
pub struct PositionView {
    /// Positions drawn; `None` = as many as the sentence has tokens, and at least
    /// [`POSITIONS_DRAWN_AT_LEAST`].
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
    let lang = state.lang;
    let local = PositionView {
        count: RwSignal::new(None),
        dims: RwSignal::new(None),
        k: RwSignal::new(1),
    };
    let n = Memo::new(move |_| {
        let tokens = state.derived.tokens.with(|t| t.used().len());
        local
            .count
            .get()
            .unwrap_or(tokens.max(POSITIONS_DRAWN_AT_LEAST))
            .clamp(1, MAX_TOKENS)
    });
    let invalid = Memo::new(move |_| {
        state.lab.model().with(|m| {
            m.position
                .validate(m.d_model)
                .err()
                .map(|e| attnlab_lab::explain(&e))
        })
    });
    let table = Memo::new(move |_| state.lab.model().with(|m| positions::table(m, n.get())));
    let kind = move || state.lab.model().with(|m| m.position.kind);
    let pe_figure = Signal::derive(move || {
        if invalid.with(Option::is_some) || kind() == PositionKind::None {
            return None;
        }
        table.with(|t| positions::table_heatmap(t, lang.get()).ok())
    });
    let dot = Memo::new(move |_| table.with(positions::dot_matrix));
    let dot_figure = Signal::derive(move || {
        if invalid.with(Option::is_some) || kind() == PositionKind::None {
            return None;
        }
        dot.with(|g| positions::dot_heatmap(g, lang.get()).ok())
    });
    let spread = Memo::new(move |_| dot.with(positions::diagonal_spread));
    let input_shape = move || {
        state.derived.encoded.with(|x| {
            x.as_ref().ok().map(|x| {
                let how = match state.lab.model().with(|m| m.position.combine) {
                    attnlab_core::position::Combine::Add => "x = e + PE",
                    attnlab_core::position::Combine::Concat { .. } => "x = [e, PE]",
                };
                let (n, d, p) = (x.x.nrows(), x.x.ncols(), x.positions.ncols());
                msg::positions::PositionsInputShape {
                    how: &how,
                    n: &n,
                    d: &d,
                    p: &p,
                }
                .say(lang.get())
            })
        })
    };

    view! {
        <section class="explain positions" data-testid="positions-page" aria-label=text(msg::positions::POSITIONS_TITLE)>
            <h2 class="section-title">{text(msg::positions::POSITIONS_TITLE)}</h2>
            <p class="explain-lead">
                {text(msg::positions::POSITIONS_LEAD_START)}
                <span translate="no">"\u{3c9}_i = base^(\u{2212}2i/d)"</span>
                {text(msg::positions::POSITIONS_LEAD_END)}
            </p>
            <PositionKnobs local=local/>
            <p class="explain-note" data-testid="pe-input-shape">{input_shape}</p>
            {move || state.brought.with(Option::is_some).then(|| view! {
                <p class="hint" data-testid="positions-brought">
                    {text(msg::positions::POSITIONS_BROUGHT)}
                </p>
            })}
            {move || invalid.get().map(|msg| view! { <p class="explain-message" data-testid="positions-invalid">{msg}</p> })}
            {move || (kind() == PositionKind::None).then(|| view! {
                <p class="explain-message" data-testid="pe-none-message">
                    {text(msg::positions::POSITIONS_NONE)}
                </p>
            })}
            <div class="positions-figures">
                <figure class="explain-figure wide" data-testid="pe-table-figure">
                    <figcaption>
                        {text(msg::positions::POSITIONS_TABLE_CAPTION)}
                        {move || state.lab.model().with(|m| super::with_symbols(&positions::describe(&m.position, lang.get())))}
                    </figcaption>
                    <HeatmapCanvas figure=pe_figure testid="pe-heatmap" kind="matrix" pointing=Pointing::Reading/>
                </figure>
                <figure class="explain-figure wide" data-testid="pe-curves-figure">
                    <figcaption>{text(msg::positions::POSITIONS_CURVES_CAPTION)}</figcaption>
                    <PeCurves table=table local=local/>
                </figure>
                <figure class="explain-figure" data-testid="pe-dot-figure">
                    <figcaption>
                        {text(msg::positions::POSITIONS_DOT_CAPTION)}
                        <strong data-testid="pe-diagonal-spread" data-value=move || spread.get().to_string()>
                            {move || number::readable(spread.get())}
                        </strong>
                        {move || match kind() {
                            PositionKind::Sinusoidal => msg::positions::POSITIONS_SPREAD_SINUSOIDAL,
                            PositionKind::Learned => msg::positions::POSITIONS_SPREAD_LEARNED,
                            PositionKind::None => msg::positions::POSITIONS_SPREAD_NONE,
                        }
                        .get(lang.get())}
                    </figcaption>
                    <HeatmapCanvas figure=dot_figure testid="pe-dot-heatmap" kind="matrix" pointing=Pointing::Reading/>
                </figure>
                <RotationReadout table=table local=local/>
            </div>
            <RopePanel positions=n/>
            <BagOfWordsPanel/>
        </section>
    }
}
