use attnlab_lab::tokens::clip_text;
use attnlab_lab::{DEFAULT_SENTENCE, DEFAULT_SENTENCE_ZH, DEFAULT_SOURCE, DEFAULT_TARGET, Mode};
use leptos::prelude::*;

use crate::i18n::{Tr, t, use_lang};
use crate::state::{LabFields, use_app_state};
use leptos::text_prop::TextProp;
use reactive_stores::Field;

/// The examples offered, as (what it shows, its beginning as the menu shows it, text).
/// The sentences are content, shown as they are in every language.
const EXAMPLES: [(Tr, &str, &str); 6] = [
    (
        Tr::new("Coreference", "指代消解"),
        "The animal didn't cross the street…",
        DEFAULT_SENTENCE,
    ),
    (
        Tr::new("Chinese: one token per character", "中文：每个字一个词元"),
        "我爱机器学习",
        DEFAULT_SOURCE,
    ),
    (
        Tr::new("Chinese", "中文"),
        "小猫坐在垫子上，因为它很累。",
        DEFAULT_SENTENCE_ZH,
    ),
    (
        Tr::new("Word sense", "词义"),
        "The bank by the river…",
        "I sat on the bank of the river and watched the bank across the street close for the night.",
    ),
    (
        Tr::new(
            "A long paragraph (about 90 tokens)",
            "一段长文（约 90 个词元）",
        ),
        "Attention lets every word look at every other word…",
        LONG_PARAGRAPH,
    ),
    (
        Tr::new("A translation's target", "译文（目标句）"),
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
            state.edit(|lab| lab.set_mode(mode));
        }
    };
    view! {
        <fieldset class="mode" data-testid="mode">
            <legend class="field-label">{t("Attention", "注意力")}</legend>
            <label>
                <input type="radio" name="mode" data-testid="mode-self"
                    prop:checked=move || !cross() on:change=move |_| set_mode(Mode::SelfAttention)/>
                <span>{t("self (one sentence)", "自注意力（一个句子）")}</span>
            </label>
            <label>
                <input type="radio" name="mode" data-testid="mode-cross"
                    prop:checked=cross on:change=move |_| set_mode(Mode::Cross)/>
                <span>{t("cross (encoder–decoder)", "交叉注意力（编码器–解码器）")}</span>
            </label>
        </fieldset>
        <label class="field-label" for="sentence-input">
            {move || match (cross(), lang.get()) {
                (true, l) => l.pick("Target (queries, the decoder's words)", "目标句（查询，解码器的词）"),
                (false, l) => l.pick("Sentence", "句子"),
            }}
        </label>
        <TextBox text=state.lab.text() id="sentence-input" rows=3 cut_testid="text-cut"
            placeholder=t("Type a sentence, in any language…", "输入一个句子，任何语言都可以……")/>
        <label class="example-picker">
            <span class="field-label-inline">{t("Examples ", "示例 ")}</span>
            <select data-testid="examples" on:change=move |ev| {
                let i: usize = event_target_value(&ev).parse().unwrap_or(usize::MAX);
                if let Some((_, _, text)) = EXAMPLES.get(i) {
                    state.lab.text().set(text.to_string());
                }
            }>
                <option value="" selected=true disabled=true>{t("pick an example…", "选择一个示例……")}</option>
                // Each example under what it shows; the sentence itself is not translated.
                {EXAMPLES.iter().enumerate().map(|(i, (what, start, _))| view! {
                    <optgroup label=move || what.get(lang.get())>
                        <option value=i.to_string() translate="no">{*start}</option>
                    </optgroup>
                }).collect_view()}
            </select>
        </label>
        <Show when=cross>
            <label class="field-label" for="source-input">{t("Source (keys and values, the encoder's words)", "源句（键和值，编码器的词）")}</label>
            <TextBox text=state.lab.source() id="source-input" rows=2 cut_testid="source-cut"
                placeholder=t("The sentence being translated…", "要翻译的句子……")/>
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
