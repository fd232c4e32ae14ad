use attnlab_i18n::msg;
use leptos::prelude::*;

use super::{QrLinks, QrSvg, Shown};
use crate::display::use_display;
use crate::i18n::use_lang;

/// In presentation mode, the link's code in the page's corner; a click (or Enter) opens
/// the dialog with the same code over most of the screen. When the link is too long for
/// a readable code, the open lesson step's link is shown instead (and named so), else a
/// button that says why there is no code.
#[component]
pub fn QrCorner(links: QrLinks) -> impl IntoView {
    let display = use_display();
    let lang = use_lang();
    move || {
        if !display.presenting.get() {
            return None;
        }
        let lang = lang.get();
        let shown = match links.code(Shown::Current) {
            Some((_, Ok(qr))) => Some((Shown::Current, qr)),
            _ => match links.code(Shown::Step) {
                Some((_, Ok(qr))) => Some((Shown::Step, qr)),
                _ => None,
            },
        };
        let which = shown.as_ref().map_or(Shown::Current, |(w, _)| *w);
        // Above the code, which keeps its corner; only when there is a code to scan.
        let loopback = shown.is_some() && links.current.with(|l| super::is_loopback(l));
        let (label, note) = match which {
            Shown::Current => (msg::shell::QR_CORNER_ENLARGE.get(lang), None),
            Shown::Step => (
                msg::shell::QR_CORNER_LESSON_ENLARGE.get(lang),
                Some(msg::shell::QR_CORNER_LESSON_STEP.get(lang)),
            ),
        };
        let content = match shown {
            Some((_, qr)) => {
                view! { <QrSvg qr=qr label=label testid="qr-corner-code"/> }.into_any()
            }
            None => view! {
                <span class="qr-corner-none">
                    {msg::shell::QR_CORNER_TOO_LONG.get(lang)}
                </span>
            }
            .into_any(),
        };
        Some(view! {
            <button type="button" class="qr-corner" data-testid="qr-corner" data-shown=which.code()
                aria-haspopup="dialog" on:click=move |_| links.show(which)>
                {loopback.then(|| view! {
                    <span class="qr-corner-note" data-testid="qr-corner-loopback">
                        {msg::shell::QR_CORNER_LOOPBACK.get(lang)}
                    </span>
                })}
                {content}
                {note.map(|n| view! { <span class="qr-corner-note">{n}</span> })}
            </button>
        })
    }
}
