//! The pointer: an outline around each figure the open step points at (found by its
//! `data-testid`), and a second one around its row, column or cell, from the cell
//! geometry the heatmap canvas records after each paint (`data-cells`, `data-rows`,
//! `data-cols`). Both are boxes over the page, kept on their figures while the page
//! lays out and paints (checked a few times a second).

use std::time::Duration;

use attnlab_lab::lessons::{Pointer, Region, Step};
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
        .unwrap_or_else(|| state.shown_variant.get_untracked());
    let own = format!(
        "[data-testid={}]",
        quoted(pointer.figure.testid_for(variant))
    );
    if pointer.figure.per_variant() {
        let name = state.variants.with_untracked(|slots| {
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

/// Brings the lesson bar to the top of the window, and `el` into it when it would start
/// too low.
fn scroll_to(el: &web_sys::Element) {
    let scroll = |el: &web_sys::Element, block| {
        let options = web_sys::ScrollIntoViewOptions::new();
        options.set_block(block);
        options.set_behavior(web_sys::ScrollBehavior::Instant);
        el.scroll_into_view_with_scroll_into_view_options(&options);
    };
    // The lesson bar at the top, then as little more as the figure needs.
    let bar = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector("[data-testid=lesson-bar]").ok().flatten());
    if let Some(bar) = bar {
        scroll(&bar, web_sys::ScrollLogicalPosition::Start);
    }
    // The step's text stays on screen unless the figure would start in the window's
    // lower part (or below it): then the figure comes first.
    let height = web_sys::window()
        .and_then(|w| w.inner_height().ok())
        .and_then(|h| h.as_f64())
        .unwrap_or(0.0);
    if el.get_bounding_client_rect().top() > height * FIGURE_BELOW {
        scroll(el, web_sys::ScrollLogicalPosition::Nearest);
    }
}

/// The share of the window's height below which a figure's top makes the page scroll to
/// it.
const FIGURE_BELOW: f64 = 0.6;

/// The outlines of the open step's pointers.
#[component]
pub fn PointerOverlay() -> impl IntoView {
    let Some(player) = use_player() else {
        return ().into_any();
    };
    let state = use_app_state();
    let outlines = RwSignal::new(Vec::<Outline>::new());
    // The step whose first figure was brought into view (once per opening).
    let scrolled = StoredValue::new(None::<(usize, usize)>);
    let follow = move || {
        let Some((lesson, index, step)) = player.step_untracked() else {
            outlines.set(Vec::new());
            return;
        };
        let (now, first) = locate(step, &state);
        let key = (std::ptr::from_ref(lesson) as usize, index);
        if let Some(el) = first
            && scrolled.get_value() != Some(key)
        {
            scrolled.set_value(Some(key));
            scroll_to(&el);
            // Positions change with the scroll: measure again.
            let (again, _) = locate(step, &state);
            outlines.set(again);
            return;
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
