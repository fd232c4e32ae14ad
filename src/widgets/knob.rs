use leptos::prelude::*;

/// One control with its label, and the one-line reason it is disabled (or has no
/// effect), shown on hover and keyboard focus. The control itself should carry
/// `aria-describedby=why_id(id)` and `title` = the reason; the wrapper is focusable
/// while the control is disabled, so keyboard users reach the reason too.
#[component]
pub fn Knob(
    /// The control's label.
    #[prop(into)]
    label: String,
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
    view! {
        <div
            class="knob"
            class:is-disabled=move || why.with(Option::is_some)
            tabindex=move || why.with(Option::is_some).then_some("0")
            title=move || why.get()
        >
            <label class="knob-label">
                <span class="knob-name">{label}</span>
                {children()}
            </label>
            <span class="why" id=why_id data-testid="why" role="note">
                {move || why.get().map(|w| format!("{}.", capitalise(&w)))}
            </span>
        </div>
    }
}

/// The id of a knob's reason element.
pub fn why_id(id: &str) -> String {
    format!("{id}-why")
}

/// The sentence with its first letter in upper case.
pub fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(first) => first.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}
