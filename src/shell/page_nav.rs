use attnlab_i18n::msg;
use attnlab_lab::Page;
use leptos::ev::KeyboardEvent;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::i18n::{Tr, text, use_lang};
use crate::state::{LabFields, ViewFields, use_app_state};

/// The pages a person can open, in order, with their tab labels. A page missing here
/// is not offered (a link naming it opens the lab).
pub const PAGES: &[(Page, Tr)] = &[
    (Page::Lab, msg::shell::PAGE_NAV_LAB),
    (Page::Model, msg::shell::PAGE_NAV_REAL_MODEL),
    (Page::Steps, msg::shell::PAGE_NAV_STEP_BY_STEP),
    (Page::Block, msg::shell::PAGE_NAV_BLOCK),
    (Page::Positions, msg::shell::PAGE_NAV_POSITIONS),
    (Page::Scaling, msg::shell::PAGE_NAV_WHY_D_K),
    (Page::Linear, msg::shell::PAGE_NAV_LINEAR_ATTENTION),
    (Page::Decoding, msg::shell::PAGE_NAV_DECODING),
    (Page::Lines, msg::shell::PAGE_NAV_LINES),
    (Page::Complexity, msg::shell::PAGE_NAV_COMPLEXITY),
];

/// Whether `page` has a view in this build.
pub fn offered(page: Page) -> bool {
    PAGES.iter().any(|&(p, _)| p == page)
}

/// The tabs above the main area: the lab and the explanatory views. Every view reads
/// the same sentence, model and variants; the open page is part of the link. Arrow
/// keys move between tabs.
#[component]
pub fn PageNav() -> impl IntoView {
    let state = use_app_state();
    let lang = use_lang();
    let shown = move || {
        let p = state.lab.view().page().get();
        if offered(p) { p } else { Page::Lab }
    };
    let on_key = move |ev: KeyboardEvent| {
        let step: isize = match ev.key().as_str() {
            "ArrowRight" => 1,
            "ArrowLeft" => -1,
            _ => return,
        };
        ev.prevent_default();
        let at = PAGES.iter().position(|&(p, _)| p == shown()).unwrap_or(0) as isize;
        let next = (at + step).rem_euclid(PAGES.len() as isize) as usize;
        let page = PAGES[next].0;
        state.lab.view().page().set(page);
        focus_tab(page);
    };
    view! {
        <nav class="page-nav" role="tablist" aria-label=text(msg::shell::PAGE_NAV_VIEWS) on:keydown=on_key>
            {PAGES
                .iter()
                .map(|&(page, label)| {
                    let selected = move || shown() == page;
                    view! {
                        <button type="button" role="tab" class="page-tab"
                            id=format!("tab-{}", page.name())
                            data-testid=format!("page-{}", page.name())
                            aria-selected=move || selected().to_string()
                            tabindex=move || if selected() { "0" } else { "-1" }
                            on:click=move |_| state.lab.view().page().set(page)>
                            {move || label.get(lang.get())}
                        </button>
                    }
                })
                .collect_view()}
        </nav>
    }
}

fn focus_tab(page: Page) {
    let tab = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(&format!("tab-{}", page.name())))
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
    if let Some(tab) = tab {
        let _ = tab.focus();
    }
}
