use leptos::prelude::*;

use super::{QrLinks, QrSvg, Shown};
use crate::display::use_display;
use crate::i18n::{tr, use_lang};

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
            Shown::Current => (
                tr(
                    lang,
                    "QR code of this lab's link: enlarge",
                    "本实验链接的二维码：点击放大",
                ),
                None,
            ),
            Shown::Step => (
                tr(
                    lang,
                    "QR code of the lesson step's link (this lab's link is too long): enlarge",
                    "课程步骤链接的二维码（本实验的链接太长）：点击放大",
                ),
                Some(tr(lang, "lesson step", "课程步骤")),
            ),
        };
        let content = match shown {
            Some((_, qr)) => {
                view! { <QrSvg qr=qr label=label testid="qr-corner-code"/> }.into_any()
            }
            None => view! {
                <span class="qr-corner-none">
                    {tr(lang, "Link too long for a QR code", "链接太长，无法生成二维码")}
                </span>
            }
            .into_any(),
        };
        Some(view! {
            <button type="button" class="qr-corner" data-testid="qr-corner" data-shown=which.code()
                aria-haspopup="dialog" on:click=move |_| links.show(which)>
                {loopback.then(|| view! {
                    <span class="qr-corner-note" data-testid="qr-corner-loopback">
                        {tr(lang, "this computer only: phones cannot open it", "仅限本机：手机无法打开")}
                    </span>
                })}
                {content}
                {note.map(|n| view! { <span class="qr-corner-note">{n}</span> })}
            </button>
        })
    }
}
