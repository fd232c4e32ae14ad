use attnlab_i18n::msg;
use leptos::html::Dialog;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::{QrLinks, QrSvg, Shown};
use crate::i18n::{Lang, text, use_lang};

/// The link bar's "show QR code" button.
#[component]
pub fn QrButton(links: QrLinks) -> impl IntoView {
    view! {
        <button type="button" class="qr-button" data-testid="show-qr" aria-haspopup="dialog"
            on:click=move |_| links.show(Shown::Current)>
            {text(msg::shell::QR_DIALOG_OPEN)}
        </button>
    }
}

/// The dialog that shows a link's code over most of the screen, or why the link is too
/// long for one and what to show instead. A modal `<dialog>`: the keyboard stays in it,
/// Esc closes it, and the focus goes back to what opened it.
#[component]
pub fn QrDialog(links: QrLinks) -> impl IntoView {
    let lang = use_lang();
    let dialog = NodeRef::<Dialog>::new();
    let opener = StoredValue::new_local(None::<web_sys::HtmlElement>);
    Effect::new(move |_| {
        let open = links.open.get();
        let Some(d) = dialog.get() else {
            return;
        };
        if open && !d.open() {
            opener.set_value(focused_element());
            let _ = d.show_modal();
        } else if !open && d.open() {
            d.close();
        }
    });
    // Esc, the close button or anything else that closed it.
    let on_close = move |_| {
        links.open.set(false);
        if let Some(el) = opener.get_value() {
            let _ = el.focus();
        }
    };
    view! {
        <dialog node_ref=dialog class="qr-dialog" data-testid="qr-dialog" aria-labelledby="qr-title"
            on:close=on_close>
            <h2 id="qr-title">{text(msg::shell::QR_DIALOG_TITLE)}</h2>
            {move || links.open.get().then(|| body(links, lang.get()))}
            <button type="button" class="qr-close" data-testid="qr-close"
                on:click=move |_| links.open.set(false)>
                {text(msg::shell::QR_DIALOG_CLOSE)}
            </button>
        </dialog>
    }
}

/// The code of the link the dialog shows, or why not and what instead.
fn body(links: QrLinks, lang: Lang) -> impl IntoView + use<> {
    let which = match links.shown.get() {
        Shown::Step if links.step.with(Option::is_some) => Shown::Step,
        _ => Shown::Current,
    };
    let Some((link, code)) = links.code(which) else {
        return ().into_any();
    };
    match code {
        Ok(qr) => {
            let (label, caption) = match which {
                Shown::Current => (
                    msg::shell::QR_DIALOG_ALT.get(lang),
                    msg::shell::QR_DIALOG_CAPTION.get(lang),
                ),
                Shown::Step => (
                    msg::shell::QR_DIALOG_LESSON_ALT.get(lang),
                    msg::shell::QR_DIALOG_LESSON_CAPTION.get(lang),
                ),
            };
            view! {
                <QrSvg qr=qr label=label testid="qr-code"/>
                {if super::is_loopback(&link) {
                    // The caption would promise what the code cannot do.
                    view! {
                        <p class="qr-caption qr-loopback" data-testid="qr-caption" data-shown=which.code()
                            data-loopback="true">{super::loopback_note(lang)}</p>
                    }.into_any()
                } else {
                    view! { <p class="qr-caption" data-testid="qr-caption" data-shown=which.code()>{caption}</p> }.into_any()
                }}
                <p class="qr-link" data-testid="qr-link" translate="no">{link}</p>
            }
            .into_any()
        }
        Err(too_long) => {
            let instead = match links.step.with(Option::is_some) {
                true => view! {
                    <button type="button" data-testid="qr-show-step"
                        on:click=move |_| links.shown.set(Shown::Step)>
                        {msg::shell::QR_DIALOG_SHOW_LESSON.get(lang)}
                    </button>
                }
                .into_any(),
                false => view! {
                    <p data-testid="qr-shorten">
                        {msg::shell::QR_DIALOG_SHORTEN.get(lang)}
                    </p>
                }
                .into_any(),
            };
            view! {
                <p class="qr-too-long" data-testid="qr-too-long">{too_long.message(lang)}</p>
                {instead}
            }
            .into_any()
        }
    }
}

/// The element that has the focus, if any.
fn focused_element() -> Option<web_sys::HtmlElement> {
    web_sys::window()?
        .document()?
        .active_element()?
        .dyn_into::<web_sys::HtmlElement>()
        .ok()
}
