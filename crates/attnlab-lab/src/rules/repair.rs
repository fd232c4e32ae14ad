//! What [`LabState::repair`](crate::LabState::repair) changes in a state, one value at a
//! time, and how it says so in every language.

use attnlab_core::model::Projection;
use attnlab_core::position::Combine;
use attnlab_plot::number;

use super::ModelRules;
use crate::state::{
    BASE_RANGE, D_MODEL_RANGE, D_POS_RANGE, HEADS_RANGE, LINES_THRESHOLD_RANGE, LINFORMER_K_RANGE,
    LabState, MAX_NAME_CHARS, MAX_TOKENS, ModelConfig, STRIDE_RANGE, TEMPERATURE_RANGE, Variant,
    View, WINDOW_RANGE, Zoom,
};
use attnlab_i18n::said::Said;
use attnlab_i18n::{Lang, Tr};

pub(super) fn clamp_usize(
    value: &mut usize,
    range: &std::ops::RangeInclusive<usize>,
    what: Said,
    fixes: &mut Vec<Said>,
) {
    let clamped = (*value).clamp(*range.start(), *range.end());
    if clamped != *value {
        let (lo, hi) = (range.start(), range.end());
        fixes.push(Said::new(
            format!(
                "{} {value} is outside {lo}–{hi}, so it is {clamped}",
                what.en
            ),
            format!("{} {value} 超出 {lo}–{hi}，因此取 {clamped}", what.zh),
        ));
        *value = clamped;
    }
}

/// A technical name, the same in every language.
fn named(name: &str) -> Said {
    Said::new(name, name)
}

pub(super) fn repair_model(m: &mut ModelConfig, fixes: &mut Vec<Said>) {
    clamp_usize(&mut m.d_model, &D_MODEL_RANGE, named("d_model"), fixes);
    if m.sinusoids_added() && m.d_model % 2 == 1 {
        let (odd, even) = (m.d_model, m.d_model - 1);
        fixes.push(Said::new(
            format!("sinusoidal positions need an even d_model, so d_model {odd} is {even}"),
            format!("正弦位置编码需要偶数的 d_model，因此 d_model {odd} 改为 {even}"),
        ));
        m.d_model = even;
    }
    if m.projection == Projection::Identity && m.heads != 1 {
        let h = m.heads;
        fixes.push(Said::new(
            format!("identity projections have one head, so heads {h} is 1"),
            format!("恒等投影只有一个头，因此头数 {h} 改为 1"),
        ));
        m.heads = 1;
    }
    clamp_usize(
        &mut m.heads,
        &HEADS_RANGE,
        Tr::new("heads", "头数").into(),
        fixes,
    );
    if !m.d_model.is_multiple_of(m.heads) {
        let divisor = (1..=m.heads)
            .rev()
            .find(|h| m.d_model.is_multiple_of(*h))
            .unwrap_or(1);
        let (h, d) = (m.heads, m.d_model);
        fixes.push(Said::new(
            format!("{h} heads do not divide d_model = {d}, so there are {divisor}"),
            format!("{h} 个头不能整除 d_model = {d}，因此改为 {divisor} 个头"),
        ));
        m.heads = divisor;
    }
    if !(m.position.base.is_finite() && BASE_RANGE.contains(&m.position.base)) {
        let base = if m.position.base.is_nan() {
            attnlab_core::position::DEFAULT_BASE
        } else {
            m.position
                .base
                .clamp(*BASE_RANGE.start(), *BASE_RANGE.end())
        };
        let (was, lo, hi) = (m.position.base, BASE_RANGE.start(), BASE_RANGE.end());
        fixes.push(Said::new(
            format!("the sinusoid base {was} is outside {lo}–{hi}, so it is {base}"),
            format!("正弦基数 {was} 超出 {lo}–{hi}，因此取 {base}"),
        ));
        m.position.base = base;
    }
    if let Combine::Concat { d_pos } = &mut m.position.combine {
        clamp_usize(d_pos, &D_POS_RANGE, named("d_pos"), fixes);
        if *d_pos % 2 == 1 {
            let (odd, even) = (*d_pos, *d_pos - 1);
            fixes.push(Said::new(
                format!("d_pos is even (sine–cosine pairs), so d_pos {odd} is {even}"),
                format!("d_pos 为偶数（正弦–余弦成对），因此 d_pos {odd} 改为 {even}"),
            ));
            *d_pos -= 1;
        }
    }
}

pub(super) fn repair_name(state: &mut LabState, i: usize, fixes: &mut Vec<Said>) {
    let cut: String = state.variants[i]
        .name
        .trim()
        .chars()
        .take(MAX_NAME_CHARS)
        .collect();
    let mut fixed = cut.trim_end().to_string();
    let taken = |n: &str, s: &LabState| s.variants[..i].iter().any(|v| v.name == n);
    if fixed.is_empty() || taken(&fixed, state) {
        fixed = ('A'..='Z')
            .map(String::from)
            .find(|n| !state.variants.iter().any(|v| &v.name == n))
            .unwrap_or_else(|| format!("V{}", i + 1));
    }
    if fixed != state.variants[i].name {
        let n = i + 1;
        fixes.push(Said::new(
            format!(
                "variant {n} was renamed {fixed} (names are unique, 1–{MAX_NAME_CHARS} characters)"
            ),
            format!("变体 {n} 已改名为 {fixed}（名称唯一，1–{MAX_NAME_CHARS} 个字符）"),
        ));
        state.variants[i].name = fixed;
    }
}

pub(super) fn repair_variant(v: &mut Variant, fixes: &mut Vec<Said>) {
    let name = v.name.clone();
    let (lo, hi) = (*TEMPERATURE_RANGE.start(), *TEMPERATURE_RANGE.end());
    if !(v.temperature.is_finite() && TEMPERATURE_RANGE.contains(&v.temperature)) {
        let t = if v.temperature.is_nan() {
            1.0
        } else {
            v.temperature.clamp(lo, hi)
        };
        let (was, lo, hi, now) = (
            number::full(v.temperature),
            number::full(lo),
            number::full(hi),
            number::full(t),
        );
        fixes.push(Said::new(
            format!("variant {name}: the temperature {was} is outside {lo}–{hi}, so it is {now}"),
            format!("变体 {name}：温度 {was} 超出 {lo}–{hi}，因此取 {now}"),
        ));
        v.temperature = t;
    }
    let what = |s: Said| {
        Said::new(
            format!("variant {name}: {}", s.en),
            format!("变体 {name}：{}", s.zh),
        )
    };
    clamp_usize(
        &mut v.linformer_k,
        &LINFORMER_K_RANGE,
        what(named("Linformer k")),
        fixes,
    );
    if let Some(r) = &mut v.masks.window {
        let radius = what(Tr::new("the window radius", "窗口半径").into());
        clamp_usize(r, &WINDOW_RANGE, radius, fixes);
    }
    if let Some(s) = &mut v.masks.strided {
        let stride = what(Tr::new("the stride", "步长").into());
        clamp_usize(s, &STRIDE_RANGE, stride, fixes);
    }
    let global_before = v.masks.global.len();
    v.masks.global.sort_unstable();
    v.masks.global.dedup();
    v.masks.global.retain(|&g| g < MAX_TOKENS);
    let custom_before = v.masks.custom.len();
    v.masks.custom.sort_unstable();
    v.masks.custom.dedup();
    v.masks
        .custom
        .retain(|&(i, j)| i < MAX_TOKENS && j < MAX_TOKENS);
    if v.masks.global.len() != global_before || v.masks.custom.len() != custom_before {
        fixes.push(what(Said::new(
            format!(
                "repeated token indices and indices of {MAX_TOKENS} or more were left out of the masks"
            ),
            format!("重复的词元下标以及不小于 {MAX_TOKENS} 的下标已从掩码中去掉"),
        )));
    }
    for kind in v.masks.on() {
        if let (Some(en), Some(zh)) = (
            v.why_not_mask(kind, Lang::En),
            v.why_not_mask(kind, Lang::Zh),
        ) {
            v.masks.turn_off(kind);
            fixes.push(what(Said::new(
                format!("the {} mask was turned off ({en})", kind.shown(Lang::En)),
                format!("{}掩码已关闭（{zh}）", kind.shown(Lang::Zh)),
            )));
        }
    }
}

pub(super) fn repair_view(view: &mut View, variants: usize, heads: usize, fixes: &mut Vec<Said>) {
    if let Some(zoom) = view.zoom {
        let last = MAX_TOKENS - 1;
        let fixed = Zoom::new(
            (zoom.queries.0.min(last), zoom.queries.1.min(last)),
            (zoom.keys.0.min(last), zoom.keys.1.min(last)),
        );
        if fixed != zoom {
            let said = |z: Zoom, zh: bool| {
                let ((a, b), (c, d)) = (z.queries, z.keys);
                if zh {
                    format!("查询 {a}–{b}、键 {c}–{d}")
                } else {
                    format!("queries {a}–{b}, keys {c}–{d}")
                }
            };
            fixes.push(Said::new(
                format!(
                    "the zoom {} is outside 0–{last} or reversed, so it is {}",
                    said(zoom, false),
                    said(fixed, false)
                ),
                format!(
                    "缩放范围 {} 超出 0–{last} 或前后颠倒，因此取 {}",
                    said(zoom, true),
                    said(fixed, true)
                ),
            ));
            view.zoom = Some(fixed);
        }
    }
    let threshold = view.lines_threshold;
    let (lo, hi) = (*LINES_THRESHOLD_RANGE.start(), *LINES_THRESHOLD_RANGE.end());
    let fixed = threshold.clamp(lo, hi);
    if fixed != threshold {
        let weight = |t: usize| number::full(t as f32 / 1000.0);
        let (was, lo, hi, now) = (weight(threshold), weight(lo), weight(hi), weight(fixed));
        fixes.push(Said::new(
            format!("the lines' least weight {was} is outside {lo}–{hi}, so it is {now}"),
            format!("连线的最小权重 {was} 超出 {lo}–{hi}，因此取 {now}"),
        ));
        view.lines_threshold = fixed;
    }
    let before = *view;
    view.variant = view.variant.min(variants - 1);
    view.head = view.head.min(heads.max(1) - 1);
    let (a, b) = view.compare;
    view.compare = if variants < 2 {
        (0, 0)
    } else if a != b && a < variants && b < variants {
        (a, b)
    } else {
        (0, 1)
    };
    if *view != before {
        fixes.push(Said::new(
            "the selected variant, head or compared pair did not exist, so the first ones are shown",
            "所选的变体、头或比较的一对不存在，因此显示第一个",
        ));
    }
}
