//! The one `AppState`: the signals a person changes, and the memos derived from them by
//! the domain functions of `attnlab_lab` (the lab's domain model, shared with the CLI).
//! Provided once by the root component; every component reads it with
//! [`use_app_state`].
//!
//! The memos follow `attnlab_lab::compute`'s steps, so a change recomputes only what it
//! touches: the text → tokens → `X`; the model settings → the projected heads; the
//! variant → its problem; the head picker → one head.

use attnlab_core::CoreError;
use attnlab_core::attention::{HeadResult, Problem};
use attnlab_core::model::{Encoded, Projected};
use attnlab_lab::compute::{self, Tokens};
use attnlab_lab::figure::{self, CellReading};
use attnlab_lab::{DEFAULT_SENTENCE, LabState, ModelSettings, Variant};
use attnlab_plot::Heatmap;
use leptos::prelude::*;

/// Everything the lab's components share. All fields are `Copy` handles.
#[derive(Debug, Clone, Copy)]
pub struct AppState {
    /// The text in the box, exactly as typed (never trimmed or cut).
    pub sentence: RwSignal<String>,
    /// The model settings (shared by every variant).
    pub model: RwSignal<ModelSettings>,
    /// The attention variant shown.
    // Written by the variant controls, which come with the full lab (issue 3).
    #[allow(dead_code)]
    pub variant: RwSignal<Variant>,
    /// Which head the heatmap shows.
    pub head: RwSignal<usize>,
    /// The heatmap cell (row, column) under the pointer.
    pub hover: RwSignal<Option<(usize, usize)>>,
    /// Every token of the text (the first `attnlab_lab::MAX_TOKENS` are used).
    pub tokens: Memo<Tokens>,
    /// The figure of the selected head.
    pub heatmap: Memo<Option<Heatmap>>,
    /// A sentence to show above the figure, if any.
    pub notice: Memo<Option<String>>,
    /// The cell under the pointer, read out.
    pub reading: Memo<Option<CellReading>>,
}

impl AppState {
    /// Creates the signals and memos, starting from the default sentence, model and
    /// variant A of the lab's default state.
    pub fn new() -> AppState {
        let defaults = LabState::default();
        let sentence = RwSignal::new(DEFAULT_SENTENCE.to_string());
        let model = RwSignal::new(defaults.model);
        let variant = RwSignal::new(defaults.variants[0].clone());
        let head = RwSignal::new(0);
        let hover = RwSignal::new(None);
        let pad_to = Memo::new(move |_| model.with(|m| m.pad_to));
        let tokens = Memo::new(move |_| sentence.with(|s| Tokens::new(s, pad_to.get())));
        // The steps between the text and the figure; each reruns only when what it reads
        // changes (a temperature drag reruns the problem and one head, not the projection).
        let encoded: Memo<Result<Encoded, CoreError>> =
            Memo::new(move |_| tokens.with(|t| model.with(|m| compute::encode(m, t))));
        let projected: Memo<Result<Projected, CoreError>> = Memo::new(move |_| {
            encoded.with(|x| {
                let x = x.as_ref().map_err(Clone::clone)?;
                model.with(|m| compute::project(m, x, None))
            })
        });
        let problem: Memo<Result<Problem, CoreError>> = Memo::new(move |_| {
            projected.with(|p| {
                let p = p.as_ref().map_err(Clone::clone)?;
                model.with(|m| variant.with(|v| tokens.with(|t| compute::problem(m, p, v, t))))
            })
        });
        let head_result: Memo<Result<HeadResult, CoreError>> = Memo::new(move |_| {
            problem.with(|p| {
                let p = p.as_ref().map_err(Clone::clone)?;
                let last = p.heads().len().saturating_sub(1);
                compute::compute_head(p, head.get().min(last))
            })
        });
        let heatmap = Memo::new(move |_| {
            if tokens.with(Tokens::is_empty) {
                return None;
            }
            head_result.with(|r| {
                let r = r.as_ref().ok()?;
                let h = head.get().min(model.with(|m| m.heads).saturating_sub(1));
                let title = model.with(|m| variant.with(|v| figure::head_title(m, v, h)));
                let rows = tokens.with(Tokens::labels);
                let cols = tokens.with(|t| variant.with(|v| compute::key_labels(t, v)));
                figure::head_heatmap(title, &rows, &cols, r).ok()
            })
        });
        let notice = Memo::new(move |_| {
            tokens.with(|t| head_result.with(|r| compute::notice(t, r.as_ref().err())))
        });
        let reading = Memo::new(move |_| {
            let cell = hover.get()?;
            heatmap.with(|h| h.as_ref().and_then(|h| figure::read_cell(h, cell)))
        });
        AppState {
            sentence,
            model,
            variant,
            head,
            hover,
            tokens,
            heatmap,
            notice,
            reading,
        }
    }
}

impl Default for AppState {
    fn default() -> Self {
        AppState::new()
    }
}

/// Creates the app state and provides it to every component below the caller.
pub fn provide_app_state() -> AppState {
    let state = AppState::new();
    provide_context(state);
    state
}

/// The app state provided by [`provide_app_state`].
pub fn use_app_state() -> AppState {
    expect_context::<AppState>()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memos_follow_the_sentence_and_the_pointer() {
        let owner = Owner::new();
        owner.with(|| {
            let state = AppState::new();
            assert_eq!(state.tokens.with(Tokens::total), 11);
            assert_eq!(state.notice.get(), None);
            assert_eq!(
                state.heatmap.with(|h| h.as_ref().map(Heatmap::n_rows)),
                Some(11)
            );
            assert_eq!(
                state
                    .heatmap
                    .with(|h| h.as_ref().map(|h| h.title().to_string())),
                Some(
                    "Head 0 \u{b7} scaled dot-product softmax \u{b7} 4 heads \u{b7} d_model 64"
                        .into()
                )
            );

            state.hover.set(Some((7, 1)));
            let reading = state.reading.get().expect("a reading");
            assert_eq!(
                (reading.query.1.as_str(), reading.key.1.as_str()),
                ("it", "animal")
            );

            state.sentence.set("   ".into());
            assert_eq!(state.tokens.with(Tokens::total), 0);
            assert!(state.notice.get().unwrap().contains("type a sentence"));
            assert_eq!(state.heatmap.get(), None);
            assert_eq!(state.reading.get(), None);

            state.sentence.set("我爱机器学习".into());
            state.head.set(3);
            let title = state
                .heatmap
                .with(|h| h.as_ref().map(|h| h.title().to_string()));
            assert!(title.is_some_and(|t| t.starts_with("Head 3")));
            // A head that does not exist shows the last one.
            state.head.set(99);
            let title = state
                .heatmap
                .with(|h| h.as_ref().map(|h| h.title().to_string()));
            assert!(title.is_some_and(|t| t.starts_with("Head 3")));
        });
    }

    #[test]
    fn knobs_reach_the_figure_and_settings_errors_are_sentences() {
        let owner = Owner::new();
        owner.with(|| {
            let state = AppState::new();
            let before = state.heatmap.get().expect("a figure");
            state.variant.update(|v| v.temperature = 0.5);
            let after = state.heatmap.get().expect("a figure");
            assert_ne!(before.values(), after.values(), "τ = 0.5 sharpens the rows");

            state.model.update(|m| m.heads = 5);
            let msg = state.notice.get().expect("a notice");
            assert!(msg.starts_with("These settings cannot be used:"), "{msg}");
            assert_eq!(state.heatmap.get(), None);
        });
    }

    #[test]
    fn long_text_is_cut_at_512_tokens_and_says_so() {
        let owner = Owner::new();
        owner.with(|| {
            let state = AppState::new();
            state.sentence.set("word ".repeat(600));
            let msg = state.notice.get().expect("a notice");
            assert!(
                msg.contains("600 tokens") && msg.contains("first 512"),
                "{msg}"
            );
            assert_eq!(
                state.heatmap.with(|h| h.as_ref().map(Heatmap::n_rows)),
                Some(512)
            );
        });
    }
}
