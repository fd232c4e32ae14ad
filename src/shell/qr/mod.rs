//! The page's link as a QR code, so a class can open on their phones what the projector
//! shows: a dialog opened from the link bar, and in presentation mode a code in the
//! corner that opens it. The code and the rule on its size are `attnlab_link::qr`'s; it is
//! drawn here as inline SVG, black on white with its quiet zone in every theme.

mod corner;
mod dialog;

use attnlab_i18n::msg;
use attnlab_link::qr::{self, Qr, TooLong};
use leptos::prelude::*;

use crate::i18n::Lang;

pub use corner::QrCorner;
pub use dialog::{QrButton, QrDialog};

/// Whether a link's host names this computer only (`localhost`, `127.x.x.x`, `[::1]`,
/// `0.0.0.0`): a phone that scans its code reaches itself, not this page.
pub fn is_loopback(link: &str) -> bool {
    let after_scheme = link.split_once("://").map_or(link, |(_, rest)| rest);
    let authority = after_scheme
        .split(['/', '#', '?'])
        .next()
        .unwrap_or_default();
    let host = match authority.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or_default(),
        None => authority.split(':').next().unwrap_or_default(),
    };
    let host = host.to_ascii_lowercase();
    host == "localhost"
        || host.ends_with(".localhost")
        || host == "::1"
        || host == "0.0.0.0"
        || host.strip_prefix("127.").is_some_and(|rest| {
            rest.split('.').count() == 3 && rest.split('.').all(|p| p.parse::<u8>().is_ok())
        })
}

/// What the code of a loopback link cannot do, and what to do instead (the command kept
/// as it is in every language).
pub fn loopback_note(lang: Lang) -> impl IntoView + use<> {
    let before = msg::shell::QR_LOOPBACK_NOTE_BEFORE.get(lang);
    let after = msg::shell::QR_LOOPBACK_NOTE_AFTER.get(lang);
    view! { {before}<code translate="no">"cargo xtask serve --address 0.0.0.0"</code>{after} }
}

/// Which link the dialog shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shown {
    /// The page's link: the state as it is now.
    Current,
    /// The open lesson step's own link.
    Step,
}

impl Shown {
    /// Its name in the markup (`data-shown`).
    pub fn code(self) -> &'static str {
        match self {
            Shown::Current => "current",
            Shown::Step => "step",
        }
    }
}

/// The links a code can show and the dialog's state; every field is a `Copy` handle.
#[derive(Debug, Clone, Copy)]
pub struct QrLinks {
    /// The page's whole link, as the address bar has it.
    pub current: Signal<String>,
    /// The open lesson step's own whole link (`None` outside a lesson).
    pub step: Signal<Option<String>>,
    /// Whether the dialog is open.
    pub open: RwSignal<bool>,
    /// Which link the dialog shows.
    pub shown: RwSignal<Shown>,
    /// The current link's code, or why not (computed only while a code is on screen).
    current_code: Memo<Result<Qr, TooLong>>,
    /// The step link's code, if a step is open.
    step_code: Memo<Option<Result<Qr, TooLong>>>,
}

impl QrLinks {
    /// The links, with the dialog closed.
    pub fn new(current: Signal<String>, step: Signal<Option<String>>) -> QrLinks {
        QrLinks {
            current,
            step,
            open: RwSignal::new(false),
            shown: RwSignal::new(Shown::Current),
            current_code: Memo::new(move |_| current.with(|l| qr::encode(l))),
            step_code: Memo::new(move |_| step.with(|s| s.as_deref().map(qr::encode))),
        }
    }

    /// Opens the dialog on `which` link.
    pub fn show(&self, which: Shown) {
        self.shown.set(which);
        self.open.set(true);
    }

    /// `which` link and its code, or why not; `None` for the step's outside a lesson.
    fn code(&self, which: Shown) -> Option<(String, Result<Qr, TooLong>)> {
        match which {
            Shown::Current => Some((self.current.get(), self.current_code.get())),
            Shown::Step => Some((self.step.get()?, self.step_code.get()?)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::is_loopback;

    #[test]
    fn loopback_hosts_are_told_apart_from_the_network() {
        for link in [
            "http://127.0.0.1:8080/#v1.e30",
            "http://localhost:8080/",
            "http://LOCALHOST/x",
            "http://[::1]:8080/#v1",
            "http://0.0.0.0:8080/",
            "http://127.1.2.3/",
            "http://lab.localhost/",
        ] {
            assert!(is_loopback(link), "{link}");
        }
        for link in [
            "http://192.168.1.20:8080/#v1.e30",
            "https://example.org/attnlab/#v1",
            "http://127.0.0.1.example.org/",
            "http://[fe80::1]/",
            "http://10.0.0.5/",
        ] {
            assert!(!is_loopback(link), "{link}");
        }
    }
}

/// A code as an SVG image whose accessible name is `label`: white modules and quiet zone
/// drawn as one white square, the dark ones as one black path, edges kept crisp.
#[component]
pub fn QrSvg(qr: Qr, #[prop(into)] label: String, testid: &'static str) -> impl IntoView {
    let side = qr.side();
    view! {
        <svg class="qr-code" data-testid=testid data-version=qr.version() role="img"
            aria-label=label viewBox=format!("0 0 {side} {side}") shape-rendering="crispEdges"
            xmlns="http://www.w3.org/2000/svg">
            <rect width=side height=side fill="#ffffff"/>
            <path d=qr.svg_path() fill="#000000"/>
        </svg>
    }
}
