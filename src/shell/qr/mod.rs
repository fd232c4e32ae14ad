//! The page's link as a QR code, so a class can open on their phones what the projector
//! shows: a dialog opened from the link bar, and in presentation mode a code in the
//! corner that opens it. The code and the rule on its size are `attnlab_lab::qr`'s; it is
//! drawn here as inline SVG, black on white with its quiet zone in every theme.

mod corner;
mod dialog;

use attnlab_lab::qr::{self, Qr, TooLong};
use leptos::prelude::*;

pub use corner::QrCorner;
pub use dialog::{QrButton, QrDialog};

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
