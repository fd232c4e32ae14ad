//! The one `AppState`: the signals a person changes, and the memos derived from them by
//! the domain functions of [`crate::lab`]. Provided once by the root component; every
//! component reads it with [`use_app_state`].

use attnlab_core::tokenize::Token;
use attnlab_plot::Heatmap;
use leptos::prelude::*;

use crate::lab::{self, CellReading, Outcome, Variant};

/// Everything the lab's components share. All fields are `Copy` handles.
#[derive(Debug, Clone, Copy)]
pub struct AppState {
    /// The text in the box, exactly as typed (never trimmed or cut).
    pub sentence: RwSignal<String>,
    /// The attention variant shown.
    pub variant: RwSignal<Variant>,
    /// Which head the heatmap shows.
    pub head: RwSignal<usize>,
    /// The heatmap cell (row, column) under the pointer.
    pub hover: RwSignal<Option<(usize, usize)>>,
    /// Every token of the text.
    pub tokens: Memo<Vec<Token>>,
    /// The attention over the first [`lab::MAX_TOKENS`] tokens.
    pub outcome: Memo<Outcome>,
    /// The figure of the selected head.
    pub heatmap: Memo<Option<Heatmap>>,
    /// A sentence to show above the figure, if any.
    pub notice: Memo<Option<String>>,
    /// The cell under the pointer, read out.
    pub reading: Memo<Option<CellReading>>,
}

impl AppState {
    /// Creates the signals and memos, starting from the default sentence and variant.
    pub fn new() -> AppState {
        let sentence = RwSignal::new(lab::DEFAULT_SENTENCE.to_string());
        let variant = RwSignal::new(Variant::default());
        let head = RwSignal::new(0);
        let hover = RwSignal::new(None);
        let tokens = Memo::new(move |_| sentence.with(|s| lab::tokens_of(s)));
        let outcome = Memo::new(move |_| tokens.with(|t| variant.with(|v| lab::compute(t, v))));
        let heatmap =
            Memo::new(move |_| outcome.with(|o| variant.with(|v| lab::heatmap(o, head.get(), v))));
        let notice = Memo::new(move |_| outcome.with(lab::notice));
        let reading = Memo::new(move |_| {
            let cell = hover.get()?;
            heatmap.with(|h| h.as_ref().and_then(|h| lab::read_cell(h, cell)))
        });
        AppState {
            sentence,
            variant,
            head,
            hover,
            tokens,
            outcome,
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
            assert_eq!(state.tokens.with(Vec::len), 11);
            assert_eq!(state.notice.get(), None);
            assert_eq!(
                state.heatmap.with(|h| h.as_ref().map(Heatmap::n_rows)),
                Some(11)
            );

            state.hover.set(Some((7, 1)));
            let reading = state.reading.get().expect("a reading");
            assert_eq!(
                (reading.query.1.as_str(), reading.key.1.as_str()),
                ("it", "animal")
            );

            state.sentence.set("   ".into());
            assert_eq!(state.tokens.with(Vec::len), 0);
            assert!(state.notice.get().is_some());
            assert_eq!(state.heatmap.get(), None);
            assert_eq!(state.reading.get(), None);

            state.sentence.set("我爱机器学习".into());
            state.head.set(3);
            let title = state
                .heatmap
                .with(|h| h.as_ref().map(|h| h.title().to_string()));
            assert!(title.is_some_and(|t| t.starts_with("Head 3")));
        });
    }
}
