use attnlab_lab::tokens::clip_text;
use attnlab_lab::{DEFAULT_SENTENCE, DEFAULT_SOURCE, DEFAULT_TARGET, Mode};
use leptos::prelude::*;

use crate::state::use_app_state;

/// The examples offered, as (label, text).
const EXAMPLES: [(&str, &str); 6] = [
    (
        "The animal didn't cross the street… (coreference)",
        DEFAULT_SENTENCE,
    ),
    (
        "我爱机器学习 (Chinese: one token per character)",
        DEFAULT_SOURCE,
    ),
    (
        "小猫坐在垫子上，因为它很累。 (Chinese)",
        "小猫坐在垫子上，因为它很累。",
    ),
    (
        "The bank by the river… (word sense)",
        "I sat on the bank of the river and watched the bank across the street close for the night.",
    ),
    ("A long paragraph (about 90 tokens)", LONG_PARAGRAPH),
    ("I love machine learning", DEFAULT_TARGET),
];

const LONG_PARAGRAPH: &str = "Attention lets every word look at every other word and decide how much of it to take in. \
In a translation model, the decoder attends to the encoder's words while it writes the output one word at a time. \
A head that attends mostly to the previous word learns something like a bigram; a head that spreads its weight evenly \
learns an average of the sentence. Masks decide which words may be seen at all: a causal mask hides the future, \
a window keeps only the neighbours, and padding hides the filler at the end of a batch.";

/// The text box(es): the sentence (or, in cross-attention, the target and the source),
/// an example picker and the mode. What is typed is kept exactly as typed, whatever is
/// drawn, up to [`attnlab_lab::tokens::MAX_TEXT_CHARS`] characters: a longer paste keeps
/// its beginning and the box says what was cut.
#[component]
pub fn SentenceInput() -> impl IntoView {
    let state = use_app_state();
    let cross = move || state.mode.get() == Mode::Cross;
    let set_mode = move |mode: Mode| {
        if state.mode.get_untracked() == mode {
            return;
        }
        let mut lab = state.lab.get_untracked();
        lab.set_mode(mode);
        state.sentence.set(lab.text);
        state.mode.set(mode);
    };
    view! {
        <fieldset class="mode" data-testid="mode">
            <legend class="field-label">"Attention"</legend>
            <label>
                <input type="radio" name="mode" data-testid="mode-self"
                    prop:checked=move || !cross() on:change=move |_| set_mode(Mode::SelfAttention)/>
                " self (one sentence)"
            </label>
            <label>
                <input type="radio" name="mode" data-testid="mode-cross"
                    prop:checked=cross on:change=move |_| set_mode(Mode::Cross)/>
                " cross (encoder–decoder)"
            </label>
        </fieldset>
        <label class="field-label" for="sentence-input">
            {move || if cross() { "Target (queries, the decoder's words)" } else { "Sentence" }}
        </label>
        <TextBox text=state.sentence id="sentence-input" rows=3 cut_testid="text-cut"
            placeholder="Type a sentence, in any language…"/>
        <label class="example-picker">
            <span class="field-label-inline">"Examples "</span>
            <select data-testid="examples" on:change=move |ev| {
                let i: usize = event_target_value(&ev).parse().unwrap_or(usize::MAX);
                if let Some((_, text)) = EXAMPLES.get(i) {
                    state.sentence.set(text.to_string());
                }
            }>
                <option value="" selected=true disabled=true>"pick an example…"</option>
                {EXAMPLES.iter().enumerate().map(|(i, (label, _))| view! { <option value=i.to_string()>{*label}</option> }).collect_view()}
            </select>
        </label>
        <Show when=cross>
            <label class="field-label" for="source-input">"Source (keys and values, the encoder's words)"</label>
            <TextBox text=state.source id="source-input" rows=2 cut_testid="source-cut"
                placeholder="The sentence being translated…"/>
        </Show>
    }
}

/// A text box bound to `text`, keeping at most [`attnlab_lab::tokens::MAX_TEXT_CHARS`]
/// characters: what a longer paste lost is said under it (`cut_testid`).
#[component]
pub fn TextBox(
    /// The text.
    text: RwSignal<String>,
    /// The element's id and test id.
    id: &'static str,
    /// Visible lines.
    rows: u32,
    /// Shown while empty.
    placeholder: &'static str,
    /// Test id of the sentence saying what was cut.
    cut_testid: &'static str,
) -> impl IntoView {
    let cut = RwSignal::new(None::<String>);
    let on_input = move |ev: leptos::ev::Event| {
        let (kept, said) = clip_text(&event_target_value(&ev));
        cut.set(said);
        text.set(kept);
    };
    view! {
        <textarea id=id class="sentence-input" data-testid=id rows=rows spellcheck="false"
            autocomplete="off" placeholder=placeholder
            prop:value=move || text.get() on:input=on_input></textarea>
        {move || cut.get().map(|s| view! { <p class="why is-shown" role="status" data-testid=cut_testid>{s}</p> })}
    }
}
