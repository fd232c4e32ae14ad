use attnlab_i18n::msg;
use leptos::prelude::*;
use leptos::text_prop::TextProp;

use crate::i18n::{Lang, use_lang};

/// One control with its label, and the one-line reason it is disabled (or has no
/// effect), shown on hover and keyboard focus. The control itself should carry
/// `aria-describedby=why_id(id)` and `title` = the reason; the wrapper is focusable
/// while the control is disabled, so keyboard users reach the reason too.
#[component]
pub fn Knob(
    /// The control's label (a text, or a closure that follows the language).
    #[prop(into)]
    label: TextProp,
    /// Why the control is disabled, if it is.
    #[prop(into)]
    why: Signal<Option<String>>,
    /// A unique id for the reason (see [`why_id`]).
    #[prop(into)]
    id: String,
    /// The control.
    children: Children,
) -> impl IntoView {
    let why_id = why_id(&id);
    let lang = use_lang();
    view! {
        <div
            class="knob"
            class:is-disabled=move || why.with(Option::is_some)
            tabindex=move || why.with(Option::is_some).then_some("0")
            title=move || why.get()
        >
            <label class="knob-label">
                <span class="knob-name">{move || label.get()}</span>
                {children()}
            </label>
            <span class="why" id=why_id data-testid="why" role="note">
                {move || why.get().map(|w| sentence(&w, lang.get()))}
            </span>
        </div>
    }
}

/// The id of a knob's reason element.
pub fn why_id(id: &str) -> String {
    format!("{id}-why")
}

/// A reason as a sentence of its own in `lang`: its first letter in upper case, and a
/// full stop.
pub fn sentence(reason: &str, lang: Lang) -> String {
    msg::shell::WidgetReasonSentence {
        reason: &capitalise(reason),
    }
    .say(lang)
}

/// The sentence with its first letter in upper case.
pub fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(first) => first.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}
