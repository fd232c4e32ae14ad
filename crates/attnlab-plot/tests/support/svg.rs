//! Drawing a heatmap into an SVG string, and reading an SVG drawn by plotters back:
//! texts, rectangles, polylines.

#![allow(dead_code)]

use std::collections::HashMap;

use attnlab_plot::{CellMap, Heatmap, HeatmapStyle, draw_heatmap};
use plotters::prelude::IntoDrawingArea;
use plotters_svg::SVGBackend;

/// `h` drawn with `style` on a `size` SVG: the SVG's text and where the cells are.
pub fn render(h: &Heatmap, size: (u32, u32), style: HeatmapStyle) -> (String, CellMap) {
    let mut svg = String::new();
    let map = {
        let area = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        let map = draw_heatmap(&area, h, &style).expect("drawing succeeds");
        area.present().expect("present");
        map
    };
    (svg, map)
}

/// One SVG element: its attributes and, for `<text>`, its text.
pub struct Tag {
    pub attrs: HashMap<String, String>,
    pub text: String,
}

pub fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

/// Every `<name …>` element of the SVG with its attributes (and text, for `<text>`).
pub fn tags(svg: &str, name: &str) -> Vec<Tag> {
    let open = format!("<{name} ");
    svg.match_indices(&open)
        .map(|(at, _)| {
            let rest = &svg[at + open.len()..];
            let end = rest.find('>').expect("tag closes");
            let mut attrs = HashMap::new();
            let mut head = &rest[..end];
            while let Some(eq) = head.find("=\"") {
                let key = head[..eq].trim().to_string();
                let after = &head[eq + 2..];
                let close = after.find('"').expect("attribute closes");
                attrs.insert(key, unescape(&after[..close]));
                head = &after[close + 1..];
            }
            let text = if name == "text" {
                let body = &rest[end + 1..];
                unescape(body[..body.find("</text>").expect("text closes")].trim())
            } else {
                String::new()
            };
            Tag { attrs, text }
        })
        .collect()
}

pub fn texts(svg: &str) -> Vec<String> {
    tags(svg, "text").into_iter().map(|t| t.text).collect()
}

pub fn num(t: &Tag, key: &str) -> i32 {
    t.attrs[key]
        .parse()
        .unwrap_or_else(|_| panic!("{key} is a number: {:?}", t.attrs[key]))
}

/// A rectangle's corners: upper-left (inclusive), lower-right (exclusive).
pub type Corners = ((i32, i32), (i32, i32));

/// The rectangles of the SVG with their fill.
pub fn rects(svg: &str) -> Vec<(Corners, String)> {
    tags(svg, "rect")
        .into_iter()
        .map(|t| {
            let (x, y) = (num(&t, "x"), num(&t, "y"));
            (
                ((x, y), (x + num(&t, "width"), y + num(&t, "height"))),
                t.attrs["fill"].clone(),
            )
        })
        .collect()
}

/// The rectangles of the SVG filled with `colour`.
pub fn rects_filled(svg: &str, colour: plotters::style::RGBColor) -> Vec<Corners> {
    let fill = hex(colour);
    rects(svg)
        .into_iter()
        .filter(|(_, f)| *f == fill)
        .map(|(r, _)| r)
        .collect()
}

/// The texts anchored outside a `w × h` area, with their anchors: none when every text
/// is drawn inside.
pub fn texts_outside(svg: &str, (w, h): (i32, i32)) -> Vec<(String, i32, i32)> {
    tags(svg, "text")
        .into_iter()
        .filter_map(|t| {
            let (x, y) = (num(&t, "x"), num(&t, "y"));
            let inside = (0..=w).contains(&x) && (0..=h).contains(&y);
            (!inside).then_some((t.text, x, y))
        })
        .collect()
}

pub fn hex(c: plotters::style::RGBColor) -> String {
    format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
}
