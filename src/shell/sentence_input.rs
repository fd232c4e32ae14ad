use attnlab_i18n::msg;
use attnlab_lab::tokens::clip_text;
use attnlab_lab::{DEFAULT_SENTENCE, DEFAULT_SENTENCE_ZH, DEFAULT_SOURCE, DEFAULT_TARGET, Mode};
use leptos::prelude::*;

use crate::i18n::{Tr, text, use_lang};
use crate::state::{LabFields, use_app_state};
use leptos::text_prop::TextProp;
use reactive_stores::Field;

/// The examples offered, as (what it shows, its beginning as the menu shows it, text).
/// The sentences are content, shown as they are in every language.
const EXAMPLES: [(Tr, &str, &str); 6] = [
    (
        msg::shell::SENTENCE_INPUT_COREFERENCE,
        "The animal didn't cross the street…",
        DEFAULT_SENTENCE,
    ),
    (
        msg::shell::SENTENCE_INPUT_CHINESE_ONE_TOKEN,
        "我爱机器学习",
        DEFAULT_SOURCE,
    ),
    (
        msg::shell::SENTENCE_INPUT_CHINESE,
        "小猫坐在垫子上，因为它很累。",
        DEFAULT_SENTENCE_ZH,
    ),
    (
        msg::shell::SENTENCE_INPUT_WORD_SENSE,
        "The bank by the river…",
        "I sat on the bank of the river and watched the bank across the street close for the night.",
    ),
    (
        msg::shell::SENTENCE_INPUT_LONG_PARAGRAPH_ABOUT,
        "Attention lets every word look at every other word…",
        LONG_PARAGRAPH,
    ),
    (
        msg::shell::SENTENCE_INPUT_TRANSLATIONS_TARGET,
        "I love machine learning",
        DEFAULT_TARGET,
    ),
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
    let lang = use_lang();
    let cross = move || state.lab.mode().get() == Mode::Cross;
    let set_mode = move |mode: Mode| {
        if state.lab.mode().get_untracked() != mode {
            // Cross-attention turns the causal masks off; the notice says which.
            let notice = state.edit(|lab| lab.switch_mode(mode));
            state.repair_notice.set(notice);
        }
    };
    view! {
        <fieldset class="mode" data-testid="mode">
            <legend class="field-label">{text(msg::shell::SENTENCE_INPUT_ATTENTION)}</legend>
            <label>
                <input type="radio" name="mode" data-testid="mode-self"
                    prop:checked=move || !cross() on:change=move |_| set_mode(Mode::SelfAttention)/>
                <span>{text(msg::shell::SENTENCE_INPUT_SELF_ONE_SENTENCE)}</span>
            </label>
            <label>
                <input type="radio" name="mode" data-testid="mode-cross"
                    prop:checked=cross on:change=move |_| set_mode(Mode::Cross)/>
                <span>{text(msg::shell::SENTENCE_INPUT_CROSS_ENCODER_DECODER)}</span>
            </label>
        </fieldset>
        <label class="field-label" for="sentence-input">
            {move || match (cross(), lang.get()) {
                (true, l) => msg::shell::SENTENCE_INPUT_TARGET_QUERIES_DECODERS.get(l),
                (false, l) => msg::shell::SENTENCE_INPUT_LABEL.get(l),
            }}
        </label>
        <TextBox text=state.lab.text() id="sentence-input" rows=3 cut_testid="text-cut"
            placeholder=text(msg::shell::SENTENCE_INPUT_TYPE_SENTENCE_ANY)/>
        <label class="example-picker">
            <span class="field-label-inline">{text(msg::shell::SENTENCE_INPUT_EXAMPLES)}</span>
            <select data-testid="examples" on:change=move |ev| {
                let i: usize = event_target_value(&ev).parse().unwrap_or(usize::MAX);
                if let Some((_, _, text)) = EXAMPLES.get(i) {
                    state.lab.text().set(text.to_string());
                }
            }>
                <option value="" selected=true disabled=true>{text(msg::shell::SENTENCE_INPUT_PICK_EXAMPLE)}</option>
                // Each example under what it shows; the sentence itself is not translated.
                {EXAMPLES.iter().enumerate().map(|(i, (what, start, _))| view! {
                    <optgroup label=move || what.get(lang.get())>
                        <option value=i.to_string() translate="no">{*start}</option>
                    </optgroup>
                }).collect_view()}
            </select>
        </label>
        <Show when=cross>
            <label class="field-label" for="source-input">{text(msg::shell::SENTENCE_INPUT_SOURCE_KEYS_VALUES)}</label>
            <TextBox text=state.lab.source() id="source-input" rows=2 cut_testid="source-cut"
                placeholder=text(msg::shell::SENTENCE_INPUT_SENTENCE_BEING_TRANSLATED)/>
        </Show>
    }
}

/// A text box bound to `text`, keeping at most [`attnlab_lab::tokens::MAX_TEXT_CHARS`]
/// characters: what a longer paste lost is said under it (`cut_testid`).
#[component]
pub fn TextBox(
    /// The text.
    #[prop(into)]
    text: Field<String>,
    /// The element's id and test id.
    id: &'static str,
    /// Visible lines.
    rows: u32,
    /// Shown while empty (a text, or a closure that follows the language).
    #[prop(into)]
    placeholder: TextProp,
    /// Test id of the sentence saying what was cut.
    cut_testid: &'static str,
) -> impl IntoView {
    let lang = use_lang();
    let cut = RwSignal::new(None::<attnlab_i18n::Said>);
    let on_input = move |ev: leptos::ev::Event| {
        // The heads' budget in this task counts the text's own work too.
        crate::state::input_began();
        let (kept, said) = clip_text(&event_target_value(&ev));
        cut.set(said);
        text.set(kept);
    };
    view! {
        <textarea id=id class="sentence-input" data-testid=id rows=rows spellcheck="false"
            autocomplete="off" placeholder=move || placeholder.get()
            prop:value=move || text.get() on:input=on_input></textarea>
        {move || cut.get().map(|s| {
            let s = s.get(lang.get()).to_string();
            view! { <p class="why is-shown" role="status" data-testid=cut_testid>{s}</p> }
        })}
    }
}
