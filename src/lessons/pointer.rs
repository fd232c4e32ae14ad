//! The pointer: an outline around each figure the open step points at (found by its
//! `data-testid`), and a second one around its row, column or cell, from the cell
//! geometry the heatmap canvas records after each paint (`data-cells`, `data-rows`,
//! `data-cols`). Both are boxes over the page, kept on their figures while the page
//! lays out and paints (checked a few times a second).

use std::time::Duration;

use attnlab_lessons::{Pointer, Region, Step};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::use_player;
use crate::state::{AppState, use_app_state};

/// How often the boxes follow their figures.
const FOLLOW: Duration = Duration::from_millis(250);

/// A box over the page, in document CSS pixels.
#[derive(Debug, Clone, PartialEq)]
struct Outline {
    left: f64,
    top: f64,
    width: f64,
    height: f64,
    /// The figure's name in lesson files.
    figure: &'static str,
    /// The region's words (`row 1`, `column 2`, `cell 1, 2`); `None` for the figure.
    region: Option<String>,
}

impl Outline {
    fn style(&self) -> String {
        format!(
            "left: {:.1}px; top: {:.1}px; width: {:.1}px; height: {:.1}px;",
            self.left, self.top, self.width, self.height
        )
    }
}

/// `"…"` for a CSS attribute selector.
fn quoted(text: &str) -> String {
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
}

/// The CSS selector of the element `pointer` names.
fn selector(pointer: &Pointer, state: &AppState) -> String {
    let variant = pointer
        .variant
        .unwrap_or_else(|| state.derived.shown_variant.get_untracked());
    let own = format!(
        "[data-testid={}]",
        quoted(pointer.figure.testid_for(variant))
    );
    if pointer.figure.per_variant() {
        let name = state.derived.variants.with_untracked(|slots| {
            slots
                .get(variant)
                .map(|s| s.variant.with_untracked(|v| v.name.clone()))
        });
        if let Some(name) = name {
            return format!("[data-variant={}] {own}", quoted(&name));
        }
    }
    match pointer.stage {
        Some(stage) => format!("[data-stage={}] {own}", quoted(&format!("{stage:?}"))),
        None => own,
    }
}

/// The rows, columns and cell area (backing pixels) a heatmap canvas last painted.
fn cell_geometry(el: &web_sys::Element) -> Option<(usize, usize, [f64; 4])> {
    let rows: usize = el.get_attribute("data-rows")?.parse().ok()?;
    let cols: usize = el.get_attribute("data-cols")?.parse().ok()?;
    let edges: Vec<f64> = el
        .get_attribute("data-cells")?
        .split(' ')
        .filter_map(|v| v.parse().ok())
        .collect();
    let edges: [f64; 4] = edges.try_into().ok()?;
    (rows > 0 && cols > 0).then_some((rows, cols, edges))
}

/// The box of `region` on the canvas `el`, whose box on the page is `rect`.
fn region_box(
    el: &web_sys::Element,
    rect: &web_sys::DomRect,
    region: Region,
    origin: (f64, f64),
    figure: &'static str,
) -> Option<Outline> {
    let canvas = el.dyn_ref::<web_sys::HtmlCanvasElement>()?;
    let (rows, cols, [x0, y0, x1, y1]) = cell_geometry(el)?;
    let (sx, sy) = (
        rect.width() / f64::from(canvas.width().max(1)),
        rect.height() / f64::from(canvas.height().max(1)),
    );
    let (cw, ch) = ((x1 - x0) / cols as f64, (y1 - y0) / rows as f64);
    let ((c0, c1), (r0, r1), words) = match region {
        Region::Row(i) if i < rows => ((0, cols), (i, i + 1), format!("row {i}")),
        Region::Col(j) if j < cols => ((j, j + 1), (0, rows), format!("column {j}")),
        Region::Cell(i, j) if i < rows && j < cols => {
            ((j, j + 1), (i, i + 1), format!("cell {i}, {j}"))
        }
        _ => return None,
    };
    let left = x0 + c0 as f64 * cw;
    let top = y0 + r0 as f64 * ch;
    Some(Outline {
        left: origin.0 + rect.left() + left * sx,
        top: origin.1 + rect.top() + top * sy,
        width: (c1 - c0) as f64 * cw * sx,
        height: (r1 - r0) as f64 * ch * sy,
        figure,
        region: Some(words),
    })
}

/// The elements `step` points at that are on the page now, in the step's order (each
/// once).
fn pointed(step: &Step, state: &AppState) -> Vec<web_sys::Element> {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return Vec::new();
    };
    let mut out: Vec<web_sys::Element> = Vec::new();
    for pointer in &step.pointers {
        if let Ok(Some(el)) = document.query_selector(&selector(pointer, state))
            && !out.contains(&el)
        {
            out.push(el);
        }
    }
    out
}

/// The attribute on the elements the open step points at: presentation mode gives them
/// the screen (style/display.css), a phone puts them right under the step's text
/// (style/phone.css).
const POINTED: &str = "data-lesson-pointed";

/// The attribute on the elements that hold a pointed one, up to the page's column.
const HOLDS: &str = "data-lesson-holds";

/// The marks of the elements `pointed`: each pointed at, and what holds it up to the
/// page's column (`.lab-main`).
fn marks(pointed: Vec<web_sys::Element>) -> Vec<(web_sys::Element, &'static str)> {
    let mut out: Vec<(web_sys::Element, &'static str)> = Vec::new();
    for el in &pointed {
        let mut up = el.parent_element();
        while let Some(holder) = up {
            if holder.matches(".lab-main, body").unwrap_or(true) {
                break;
            }
            up = holder.parent_element();
            if !pointed.contains(&holder) && !out.iter().any(|(e, _)| *e == holder) {
                out.push((holder, HOLDS));
            }
        }
    }
    out.extend(pointed.into_iter().map(|el| (el, POINTED)));
    out
}

/// Sets the marks `now` and removes those of `old` that `now` has not.
fn mark(old: &[(web_sys::Element, &'static str)], now: &[(web_sys::Element, &'static str)]) {
    for (el, name) in old.iter().filter(|m| !now.contains(m)) {
        let _ = el.remove_attribute(name);
    }
    for (el, name) in now.iter().filter(|(el, name)| !el.has_attribute(name)) {
        let _ = el.set_attribute(name, "");
    }
}

/// Where the pointers of `step` are on the page now (figures not on the page are left
/// out), and the first figure's element.
fn locate(step: &Step, state: &AppState) -> (Vec<Outline>, Option<web_sys::Element>) {
    let Some(window) = web_sys::window() else {
        return (Vec::new(), None);
    };
    let Some(document) = window.document() else {
        return (Vec::new(), None);
    };
    let origin = (
        window.scroll_x().unwrap_or(0.0),
        window.scroll_y().unwrap_or(0.0),
    );
    let mut out = Vec::new();
    let mut first = None;
    for pointer in &step.pointers {
        let Ok(Some(el)) = document.query_selector(&selector(pointer, state)) else {
            continue;
        };
        let rect = el.get_bounding_client_rect();
        if rect.width() <= 0.0 || rect.height() <= 0.0 {
            continue;
        }
        let figure = pointer.figure.name();
        out.push(Outline {
            left: origin.0 + rect.left(),
            top: origin.1 + rect.top(),
            width: rect.width(),
            height: rect.height(),
            figure,
            region: None,
        });
        if let Some(region) = pointer.region
            && let Some(b) = region_box(&el, &rect, region, origin, figure)
        {
            out.push(b);
        }
        first.get_or_insert(el);
    }
    (out, first)
}

/// How far to scroll down (CSS pixels, never up) so that a figure whose box ends at
/// `figure_bottom` fits in a window `height` tall, keeping the step's text, whose top is
/// at `text_top`, on screen: the text first, the figure as far as it then goes.
fn scroll_down_by(figure_bottom: f64, text_top: f64, height: f64) -> f64 {
    let over = figure_bottom - height + MARGIN;
    over.min(text_top - MARGIN).max(0.0)
}

/// Room kept between the window's edge and the step's text or figure.
const MARGIN: f64 = 8.0;

/// Brings the step's text and its figure `el` on screen together. Where the lesson bar
/// stays put while the page scrolls (presentation mode's column beside the figures), the
/// column comes to the top of the window, and the figure into view if it still is not;
/// elsewhere the bar comes to the top of the window, then the page scrolls on as far as
/// the figure needs and the text allows.
fn scroll_to(el: &web_sys::Element) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let scroll = |el: &web_sys::Element, block| {
        let options = web_sys::ScrollIntoViewOptions::new();
        options.set_block(block);
        options.set_behavior(web_sys::ScrollBehavior::Instant);
        el.scroll_into_view_with_scroll_into_view_options(&options);
    };
    let document = window.document();
    let find = |testid: &str| {
        document.as_ref().and_then(|d| {
            d.query_selector(&format!("[data-testid={testid}]"))
                .ok()
                .flatten()
        })
    };
    let (Some(bar), Some(text)) = (find("lesson-bar"), find("lesson-text")) else {
        scroll(el, web_sys::ScrollLogicalPosition::Nearest);
        return;
    };
    let region = bar.parent_element().unwrap_or_else(|| bar.clone());
    let sticky = window
        .get_computed_style(&region)
        .ok()
        .flatten()
        .and_then(|s| s.get_property_value("position").ok())
        .is_some_and(|p| p == "sticky");
    let height = window
        .inner_height()
        .ok()
        .and_then(|h| h.as_f64())
        .unwrap_or(0.0);
    if sticky {
        scroll(&region, web_sys::ScrollLogicalPosition::Start);
        let r = el.get_bounding_client_rect();
        if r.top() < 0.0 || r.bottom() > height {
            scroll(el, web_sys::ScrollLogicalPosition::Nearest);
        }
        return;
    }
    scroll(&bar, web_sys::ScrollLogicalPosition::Start);
    let by = scroll_down_by(
        el.get_bounding_client_rect().bottom(),
        text.get_bounding_client_rect().top(),
        height,
    );
    if by > 0.0 {
        window.scroll_by_with_x_and_y(0.0, by);
    }
}

/// How long after a step opens its figure is brought back into view when its size
/// changes (a page laying out, a canvas taking its natural height), in follow ticks.
const SETTLE_TICKS: u32 = 8;

/// The outlines of the open step's pointers.
#[component]
pub fn PointerOverlay() -> impl IntoView {
    let Some(player) = use_player() else {
        return ().into_any();
    };
    let state = use_app_state();
    let outlines = RwSignal::new(Vec::<Outline>::new());
    // The elements marked as pointed at.
    let marked = StoredValue::new_local(Vec::<(web_sys::Element, &'static str)>::new());
    // The step whose first figure was brought into view, the figure's size then, and
    // the ticks since (a figure that changes size while the page settles is brought
    // into view again).
    let scrolled = StoredValue::new(None::<((usize, usize), (f64, f64), u32)>);
    let follow = move || {
        let Some((lesson, index, step)) = player.step_untracked() else {
            marked.update_value(|old| {
                mark(old, &[]);
                old.clear();
            });
            outlines.set(Vec::new());
            return;
        };
        // Marked first: the presentation layout follows the marks, then the boxes are
        // measured in it.
        let now = marks(pointed(step, &state));
        marked.update_value(|old| {
            mark(old, &now);
            *old = now;
        });
        let (now, first) = locate(step, &state);
        let key = (std::ptr::from_ref(lesson) as usize, index);
        if let Some(el) = first {
            let rect = el.get_bounding_client_rect();
            let size = (rect.width().round(), rect.height().round());
            let again = match scrolled.get_value() {
                Some((k, at, ticks)) if k == key => {
                    (at != size && ticks < SETTLE_TICKS).then_some(ticks)
                }
                _ => Some(0),
            };
            if let Some(ticks) = again {
                scrolled.set_value(Some((key, size, ticks)));
                scroll_to(&el);
                // Positions change with the scroll: measure again.
                let (again, _) = locate(step, &state);
                outlines.set(again);
                return;
            }
            scrolled.update_value(|s| {
                if let Some((_, _, ticks)) = s {
                    *ticks = ticks.saturating_add(1);
                }
            });
        }
        if outlines.with_untracked(|o| *o != now) {
            outlines.set(now);
        }
    };
    Effect::new(move |_| {
        player.open.track();
        scrolled.set_value(None);
        follow();
    });
    if let Ok(handle) = set_interval_with_handle(follow, FOLLOW) {
        on_cleanup(move || handle.clear());
    }
    on_cleanup(move || {
        marked.try_update_value(|old| {
            mark(old, &[]);
            old.clear();
        });
    });
    view! {
        <div class="lesson-pointers" aria-hidden="true">
            <For each=move || outlines.get().into_iter().enumerate()
                key=|(k, o)| (*k, o.region.is_some())
                children=move |(k, _)| {
                    let outline = move || outlines.with(|o| o.get(k).cloned());
                    view! {
                        <div class=move || match outline().and_then(|o| o.region) {
                                Some(_) => "lesson-region",
                                None => "lesson-pointer",
                            }
                            data-testid=move || match outline().and_then(|o| o.region) {
                                Some(_) => "lesson-region",
                                None => "lesson-pointer",
                            }
                            data-figure=move || outline().map(|o| o.figure)
                            data-region=move || outline().and_then(|o| o.region)
                            style=move || outline().map(|o| o.style()).unwrap_or_default()></div>
                    }
                }/>
        </div>
    }
    .into_any()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_scrolls_for_the_figure_as_far_as_the_text_allows() {
        // The figure fits: nothing to do.
        assert_eq!(scroll_down_by(600.0, 100.0, 720.0), 0.0);
        // It ends 100 px below the window: the page scrolls by that (and the margin).
        assert_eq!(scroll_down_by(820.0, 300.0, 720.0), 108.0);
        // Too tall for the window with the text: the text's top stays on screen.
        assert_eq!(scroll_down_by(1500.0, 120.0, 720.0), 112.0);
        // The text at the top already: no scroll.
        assert_eq!(scroll_down_by(1500.0, 4.0, 720.0), 0.0);
    }
}
