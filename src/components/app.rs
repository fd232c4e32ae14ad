use leptos::prelude::*;

use super::{AppHeader, AttentionHeatmap, CellInfo, HeadPicker, Notice, SentenceInput, TokenStrip};
use crate::state::provide_app_state;

/// The whole lab: the sentence and its tokens beside the attention heatmap.
#[component]
pub fn App() -> impl IntoView {
    provide_app_state();
    view! {
        <AppHeader/>
        <main class="lab">
            <section class="panel panel-input" aria-label="Sentence and tokens">
                <SentenceInput/>
                <TokenStrip/>
            </section>
            <section class="panel panel-figure" aria-label="Attention heatmap">
                <HeadPicker/>
                <Notice/>
                <AttentionHeatmap/>
                <CellInfo/>
            </section>
        </main>
    }
}
