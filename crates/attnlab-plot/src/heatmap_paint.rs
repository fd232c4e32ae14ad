//! Drawing a [`Heatmap`] on any plotters backend, where its [`Layout`] puts every part.

use plotters::coord::Shift;
use plotters::prelude::{
    DrawingArea, DrawingAreaErrorKind, DrawingBackend, FontStyle, FontTransform, PathElement,
    RGBAColor, RGBColor, Rectangle,
};
use plotters::style::text_anchor::{HPos, VPos};
use plotters::style::{Color, ShapeStyle};

use crate::cell_map::{CellMap, grid_gap};
use crate::cells::{self, Colouring};
use crate::heatmap::Heatmap;
use crate::layout::{
    Layout, SUB_PX, SideColumns, SidePlan, col_caption, legend, plan_layout, row_caption,
    short_axis,
};
use crate::legend::{Beside, Legend};
use crate::number;
use crate::scale::ColorScale;
use crate::style::{
    BACKGROUND, CellText, DrawResult, EMPTY_ROW_INK, ENTROPY_BAR, ENTROPY_TRACK, HeatmapStyle, INK,
    LIGHT_INK, MUTED_INK, Parts, anchored, font, p,
};
use crate::text;
use crate::words::Words;

/// Draws `data` as a heatmap filling `area`, and returns where its cells are.
///
/// Query tokens label the rows (left), key tokens the columns (top; rotated when they do
/// not fit across a cell). When the cells are too small for a label each, every k-th
/// token is labelled (k = 2, 5, 10, …) with its index, as `#10 street`. A legend on the
/// right shows the colour scale with numeric ticks (always including both ends of the
/// range). Blocked cells are grey with a diagonal hatch; empty rows are hatched, their
/// label starts with "∅" and, when the row is tall enough, "∅ empty row" is written
/// across it. Differences ([`ColorScale::Diverging`]) write positive values with a "+".
/// Text sizes are pixels times `style.scale`.
///
/// When the heatmap carries row entropies ([`Heatmap::with_row_entropy`]), a side panel
/// between the matrix and the legend shows one horizontal bar per row, on the rows' own
/// edges: a light track as long as the row's largest possible entropy (`ln` of its
/// allowed keys) and a dark bar as long as `H_i`, both on one axis from 0 to `ln m`; when
/// rows are tall enough, `H_i` in nats and its normalised value in percent are written
/// beside it. Empty rows show "∅". [`CellMap::entropy_row_at`] finds the row under the
/// pointer there. On a narrow area the panel gives the matrix room: below 720 px
/// (unscaled) it drops the percent column, below 560 px it shows the bars alone on a
/// shorter axis, and the legend (with smaller ticks) and the margins narrow. Below
/// 420 px (a phone) the matrix takes the whole width: the axis captions share one line
/// under the title, the legend lies under the matrix and the panel is left out.
///
/// The area is filled with [`BACKGROUND`] first. An empty matrix draws only the title and
/// returns [`CellMap::EMPTY`].
pub fn draw_heatmap<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &Heatmap,
    style: &HeatmapStyle,
) -> Result<CellMap, DrawingAreaErrorKind<DB::ErrorType>> {
    paint_heatmap_parts(area, data, style, Parts::All)
}

/// Repaints only what depends on `data`'s values — the cells (with their numbers and
/// empty-row banners) and the rows of the entropy panel — over a figure that
/// [`draw_heatmap`] drew on the same area with the same [`crate::HeatmapFrame`]; title, labels,
/// captions, panel headings and legend are left as they are. The result is pixel for
/// pixel what [`draw_heatmap`] would draw, in a fraction of the backend calls (a slider
/// drag changes the values of a figure and nothing else). Over a different frame the
/// result is undefined: compare frames first.
pub fn repaint_heatmap_values<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &Heatmap,
    style: &HeatmapStyle,
) -> Result<CellMap, DrawingAreaErrorKind<DB::ErrorType>> {
    paint_heatmap_parts(area, data, style, Parts::Values)
}

/// Repaints the values, as [`repaint_heatmap_values`], and the legend's scale (its bar,
/// ticks and their numbers) over a figure [`draw_heatmap`] drew on the same area with a
/// frame that differed in its range alone ([`crate::HeatmapFrame::differs_in_range_alone`]):
/// pixel for pixel what [`draw_heatmap`] would draw. Title, labels, captions and the
/// legend's caption and swatch are left as they are. A legend under the matrix (a
/// phone's) is drawn in full, with everything else.
pub fn repaint_heatmap_values_and_scale<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &Heatmap,
    style: &HeatmapStyle,
) -> Result<CellMap, DrawingAreaErrorKind<DB::ErrorType>> {
    paint_heatmap_parts(area, data, style, Parts::ValuesAndScale)
}

fn paint_heatmap_parts<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &Heatmap,
    style: &HeatmapStyle,
    parts: Parts,
) -> Result<CellMap, DrawingAreaErrorKind<DB::ErrorType>> {
    let s = style.px_scale();
    let (w, h) = area.dim_in_pixel();
    let (w, h) = (w as f64, h as f64);
    let (n, m) = (data.n_rows(), data.n_cols());
    // A legend under the matrix (a phone's) is drawn only with everything.
    let parts = match parts {
        Parts::ValuesAndScale if crate::layout::legend_room(data, s, w).is_none() => Parts::All,
        _ => parts,
    };
    let all = parts == Parts::All || n == 0 || m == 0;
    if all {
        area.fill(&BACKGROUND)?;
    }
    if n == 0 || m == 0 {
        if !data.title().is_empty() {
            let title = text::clip(data.title(), 22.0 * s, w - 28.0 * s);
            let st = anchored(
                font(22.0 * s, FontStyle::Bold).color(&INK),
                HPos::Center,
                VPos::Center,
            );
            area.draw_text(&title, &st, p(w / 2.0, 14.0 * s + 22.0 * s * 0.85))?;
        }
        return Ok(CellMap::EMPTY);
    }

    let l = plan_layout(data, s, (w, h));
    let base = area.get_base_pixel();
    let mut map = CellMap::new(
        (l.mx as i32, l.my as i32),
        l.cell,
        (n, m),
        grid_gap(l.cell, s),
    );
    let mat_w = (map.edge_x(m) - map.edge_x(0)) as f64;
    let centre_x = l.mx + mat_w / 2.0;

    if all {
        draw_frame(area, data, &l, &map, centre_x, s, w)?;
    }
    cells::paint_cells(
        area,
        data,
        &map,
        &Colouring::of(data, style.palette),
        s,
        style.cell_field,
    )?;
    draw_values(area, data, &map, s, style)?;
    draw_banners(area, data, &l, &map, (centre_x, mat_w), s)?;

    let mut figure_right = l.mx + mat_w;
    if let Some(side) = &l.side {
        let x = figure_right + side.gap;
        draw_entropy_panel(area, data, &map, side, x, s, parts)?;
        map = map.with_entropy_panel((x.round() as i32, (x + side.width).round() as i32));
        figure_right = x + side.width;
    }
    let legend = Legend {
        palette: style.palette,
        ..legend(data, l.legend_gap)
    };
    let beside = Beside {
        figure_right,
        top: l.my,
        bar_h: l.legend_h,
        s,
        tick_px: l.tick_px,
        field: style.cell_field,
    };
    match (parts, l.below) {
        _ if all => match l.below {
            Some(_) => {
                let bottom = (map.edge_y(n)) as f64;
                legend.draw_below(area, l.mx, bottom, mat_w, s, l.tick_px, style.cell_field)?;
            }
            None => legend.draw(area, &beside)?,
        },
        (Parts::ValuesAndScale, None) => legend.redraw_scale(area, &beside)?,
        _ => {}
    }
    Ok(map.shifted(base))
}

/// The parts of a heatmap that do not depend on its values: title (over the matrix's
/// centre `centre_x`), axis captions, row and column labels.
fn draw_frame<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &Heatmap,
    l: &Layout,
    map: &CellMap,
    centre_x: f64,
    s: f64,
    w: f64,
) -> DrawResult<DB> {
    // Title and axis captions.
    if !data.title().is_empty() {
        let title = text::clip(data.title(), l.title_px, w - 28.0 * s);
        let tw = text::width(&title, l.title_px);
        let x = centre_x.clamp(
            14.0 * s + tw / 2.0,
            (w - 14.0 * s - tw / 2.0).max(14.0 * s + tw / 2.0),
        );
        let st = anchored(
            font(l.title_px, FontStyle::Bold).color(&INK),
            HPos::Center,
            VPos::Center,
        );
        area.draw_text(&title, &st, p(x, l.title_y))?;
    }
    if let Some(line) = l.below {
        // One line from the matrix's left edge: "keys →   queries ↓".
        let caption = anchored(
            font(l.axis_px, FontStyle::Normal).color(&MUTED_INK),
            HPos::Left,
            VPos::Center,
        );
        let both = format!("{}   {}", col_caption(data), row_caption(data));
        let x =
            l.mx.min(w - l.pad - text::width(&both, l.axis_px))
                .max(l.pad);
        area.draw_text(&both, &caption, p(x, line))?;
    } else {
        let caption = anchored(
            font(l.axis_px, FontStyle::Normal).color(&MUTED_INK),
            HPos::Right,
            VPos::Bottom,
        );
        // Keep clear of the first row and column labels, which overhang small cells.
        let overhang = (l.plan.px * 0.6 - l.cell / 2.0).max(0.0);
        let caption_x = l.mx - 7.0 * s - overhang;
        let caption_y = l.my - 6.0 * s - overhang;
        area.draw_text(&row_caption(data), &caption, p(caption_x, caption_y))?;
        let above = caption_y - 1.35 * l.axis_px;
        area.draw_text(&col_caption(data), &caption, p(caption_x, above))?;
    }

    // Row labels, right-aligned against the matrix.
    let label_font = font(l.plan.px, FontStyle::Normal);
    for (i, t) in &l.rows {
        let ink = if data.is_empty_row(*i) {
            &EMPTY_ROW_INK
        } else {
            &INK
        };
        let (_, c) = map.cell_centre(*i, 0).expect("row in range");
        let st = anchored(label_font.color(ink), HPos::Right, VPos::Center);
        area.draw_text(t, &st, p(l.mx - l.row_gap, c))?;
    }
    // Column labels above the matrix: rotated to read upwards, or across when they fit.
    for (j, t) in &l.cols {
        let (c, _) = map.cell_centre(0, *j).expect("column in range");
        let st = if l.plan.col_rotated {
            anchored(
                label_font.color(&INK).transform(FontTransform::Rotate270),
                HPos::Left,
                VPos::Center,
            )
        } else {
            anchored(label_font.color(&INK), HPos::Center, VPos::Bottom)
        };
        area.draw_text(t, &st, p(c, l.my - 7.0 * s))?;
    }
    Ok(())
}

/// Empty rows: a banner across the row, centred on the matrix (`centre_x`, `mat_w`
/// wide), when it is tall enough.
fn draw_banners<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &Heatmap,
    l: &Layout,
    map: &CellMap,
    (centre_x, mat_w): (f64, f64),
    s: f64,
) -> DrawResult<DB> {
    let banner_px = (l.cell * 0.62).min(16.0 * s);
    if banner_px >= 11.0 * s {
        let banner = data.words().empty_row;
        let bw = text::width(banner, banner_px) + 12.0 * s;
        if bw <= mat_w {
            for &i in data.empty_rows() {
                let (_, cy) = map.cell_centre(i, 0).expect("row in range");
                let half = (bw / 2.0, banner_px * 0.75);
                let white = RGBAColor(255, 255, 255, 0.92);
                area.draw(&Rectangle::new(
                    [
                        p(centre_x - half.0, cy - half.1),
                        p(centre_x + half.0, cy + half.1),
                    ],
                    white.filled(),
                ))?;
                let st = anchored(
                    font(banner_px, FontStyle::Bold).color(&EMPTY_ROW_INK),
                    HPos::Center,
                    VPos::Center,
                );
                area.draw_text(banner, &st, p(centre_x, cy))?;
            }
        }
    }
    Ok(())
}

/// The number written in a cell: two decimals; differences signed.
fn cell_label(data: &Heatmap, v: f32) -> String {
    match data.scale() {
        ColorScale::Diverging => number::signed_decimals(v, 2),
        ColorScale::Sequential => number::decimals(v, 2),
    }
}

/// Values inside the cells, when they are large enough (and `style` asks for them).
fn draw_values<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &Heatmap,
    map: &CellMap,
    s: f64,
    style: &HeatmapStyle,
) -> DrawResult<DB> {
    let value_px = (map.cell_size() * 0.3).min(15.0 * s);
    let widest_value = if data.range().min() < 0.0 {
        "\u{2212}0.00"
    } else {
        "0.00"
    };
    let annotate = style.cell_text == CellText::Auto
        && map.gap() > 0
        && value_px >= 10.0 * s
        && text::width(widest_value, value_px) + 6.0 * s <= map.cell_size();
    if !annotate {
        return Ok(());
    }
    let colouring = Colouring::of(data, style.palette);
    let value_font = font(value_px, FontStyle::Normal);
    let m = data.n_cols();
    for i in 0..data.n_rows() {
        for j in 0..m {
            if data.is_blocked(i, j) {
                continue;
            }
            let (a, b) = map.drawn_rect(i, j).expect("in range");
            let v = data.values()[i * m + j];
            let ink = if lightness(colouring.colour(v)) > 0.55 {
                &INK
            } else {
                &LIGHT_INK
            };
            let st = anchored(value_font.color(ink), HPos::Center, VPos::Center);
            let c = ((a.0 + b.0) as f64 / 2.0, (a.1 + b.1) as f64 / 2.0);
            area.draw_text(&cell_label(data, v), &st, p(c.0, c.1))?;
        }
    }
    Ok(())
}

/// The row-entropy side panel, its left edge at `x`: headings (with `Parts::All`) and
/// one bar (and numbers) per row.
fn draw_entropy_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &Heatmap,
    map: &CellMap,
    side: &SidePlan,
    x: f64,
    s: f64,
    parts: Parts,
) -> DrawResult<DB> {
    let (n, m) = (data.n_rows(), data.n_cols());
    let max_nats = (m as f64).ln();
    let (nats_right, right) = (side.nats_right(x, s), side.share_right(x, s));
    let share = side.columns == SideColumns::BarsNatsShare;
    let x0 = x.round() as i32;
    match parts {
        Parts::All => draw_entropy_headings(area, map, side, x, s, max_nats, data.words())?,
        // The rows' band back to the background: from just left of the axis line (a
        // canvas strokes a 1-pixel line across two pixel columns) to the panel's right
        // edge, a little above and below the rows for the numbers' glyphs. The gap to
        // the matrix is blank, the headings sit further up.
        Parts::Values | Parts::ValuesAndScale => {
            let margin = (3.0 * s).round() as i32;
            area.draw(&Rectangle::new(
                [
                    (x0 - margin, map.edge_y(0) - margin),
                    ((x + side.width).round() as i32, map.edge_y(n) + margin),
                ],
                BACKGROUND.filled(),
            ))?
        }
    }
    // The bars share one axis, 0 to ln m nats (the entropy of uniform attention over
    // every key).
    let per_nat = if max_nats > 0.0 {
        side.bar_w / max_nats
    } else {
        0.0
    };
    let text_px = side
        .text_px
        .filter(|_| map.cell_size() >= 11.0 * s)
        .map(|px| px.min(map.cell_size() * 0.85));
    for i in 0..n {
        let (y0, y1) = (map.edge_y(i), map.edge_y(i + 1));
        if y0 == y1 {
            continue;
        }
        let hgt = (y1 - y0) as f64;
        let inset = if hgt >= 6.0 {
            (hgt * 0.18).round() as i32
        } else {
            0
        };
        let (b0, b1) = (y0 + inset, (y1 - inset).max(y0 + inset + 1));
        let cy = (y0 + y1) as f64 / 2.0;
        if data.is_empty_row(i) {
            if hgt >= 8.0 * s {
                let px = text_px.unwrap_or(hgt * 0.9).min(hgt * 0.9);
                let st = anchored(
                    font(px, FontStyle::Bold).color(&EMPTY_ROW_INK),
                    HPos::Left,
                    VPos::Center,
                );
                area.draw_text("\u{2205}", &st, p(x + 2.0 * s, cy))?;
            }
            continue;
        }
        let Some((nats, normalised)) = data.row_entropy(i) else {
            continue;
        };
        let track = ((data.allowed_in_row(i).max(1) as f64).ln() * per_nat).min(side.bar_w);
        let bar = (nats.max(0.0) as f64 * per_nat).min(side.bar_w);
        if track >= 0.5 {
            area.draw(&Rectangle::new(
                [(x0, b0), ((x + track).round() as i32, b1)],
                ENTROPY_TRACK.filled(),
            ))?;
        }
        if bar >= 0.5 {
            area.draw(&Rectangle::new(
                [(x0, b0), ((x + bar).round() as i32, b1)],
                ENTROPY_BAR.filled(),
            ))?;
        }
        if let Some(px) = text_px {
            let st = |c| {
                anchored(
                    font(px, FontStyle::Normal).color(c),
                    HPos::Right,
                    VPos::Center,
                )
            };
            let nats = number::decimals(nats, 2);
            area.draw_text(&nats, &st(&INK), p(nats_right, cy))?;
            if !share {
                continue;
            }
            // With one allowed key the largest entropy is 0: no share to speak of.
            let share = if data.allowed_in_row(i) > 1 {
                number::percent(normalised.clamp(0.0, 1.0))
            } else {
                "\u{2013}".to_string()
            };
            area.draw_text(&share, &st(&MUTED_INK), p(right, cy))?;
        }
    }
    // The axis' zero: a thin line the bars start from.
    area.draw(&PathElement::new(
        vec![(x0, map.edge_y(0)), (x0, map.edge_y(n) - 1)],
        ShapeStyle::from(MUTED_INK).stroke_width(1),
    ))?;
    Ok(())
}

/// The entropy panel's title and column headings (or its axis), above the rows.
fn draw_entropy_headings<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    map: &CellMap,
    side: &SidePlan,
    x: f64,
    s: f64,
    max_nats: f64,
    words: &Words,
) -> DrawResult<DB> {
    let top = map.edge_y(0) as f64;
    let small_px = SUB_PX * s;
    let (nats_right, right) = (side.nats_right(x, s), side.share_right(x, s));
    let heading = anchored(
        font(side.header_px, FontStyle::Bold).color(&INK),
        HPos::Left,
        VPos::Bottom,
    );
    let sub_y = top - 8.0 * s;
    area.draw_text(
        side.columns.title(words),
        &heading,
        p(x, sub_y - 1.45 * small_px),
    )?;
    let sub = |h| {
        anchored(
            font(small_px, FontStyle::Normal).color(&MUTED_INK),
            h,
            VPos::Bottom,
        )
    };
    match side.text_px {
        Some(_) => {
            area.draw_text(words.nats, &sub(HPos::Right), p(nats_right, sub_y))?;
            if side.columns == SideColumns::BarsNatsShare {
                area.draw_text(words.share, &sub(HPos::Right), p(right, sub_y))?;
            }
        }
        None if side.columns == SideColumns::Bars => {
            area.draw_text(&short_axis(max_nats), &sub(HPos::Left), p(x, sub_y))?;
        }
        None => {
            let axis = format!(
                "0 \u{2013} {} {}",
                number::decimals(max_nats, 2),
                words.nats
            );
            area.draw_text(&axis, &sub(HPos::Left), p(x, sub_y))?;
        }
    }
    Ok(())
}

/// Perceived lightness of a colour (0 dark – 1 light), to pick legible text on it.
fn lightness(c: RGBColor) -> f64 {
    (0.299 * c.0 as f64 + 0.587 * c.1 as f64 + 0.114 * c.2 as f64) / 255.0
}
