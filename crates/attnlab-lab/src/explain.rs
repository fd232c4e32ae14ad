//! Errors of the core and of the figures as one sentence a student understands, in
//! either language: what the lab says when a setting, a brought file or a figure cannot
//! be computed.

use attnlab_core::attention::AttentionKind;
use attnlab_core::error::CoreError;
use attnlab_i18n::{Lang, Tr};
use attnlab_plot::HeatmapError;

/// A core error as one sentence a student understands, in English, e.g. "These settings
/// cannot be used: must divide d_model = 64 (so d_k = d_model / heads is whole), got 5
/// (heads)."
pub fn explain(e: &CoreError) -> String {
    explain_in(e, Lang::En)
}

/// A core error as one sentence a student understands, in `lang`.
pub fn explain_in(e: &CoreError, lang: Lang) -> String {
    let what = match e {
        CoreError::InvalidSetting { .. }
        | CoreError::InvalidTemperature(_)
        | CoreError::UnsupportedMask { .. } => {
            Tr::new("These settings cannot be used", "这些设置无法使用")
        }
        CoreError::Overflow { .. } => Tr::new(
            "The numbers grew too large to compute",
            "数值过大，无法计算",
        ),
        _ => Tr::new("The attention could not be computed", "无法计算注意力"),
    }
    .get(lang);
    match lang {
        Lang::En => format!("{what}: {} ({}).", e.reason(), e.path()),
        Lang::Zh => format!("{what}：{}（{}）。", reason_zh(e), e.path()),
    }
}

/// Why a figure cannot be built, in Chinese (its English is its `Display`).
pub fn heatmap_error_zh(e: &HeatmapError) -> String {
    match e {
        HeatmapError::Shape {
            field,
            expected,
            got,
        } => format!("{field} 有 {got} 项，应有 {expected} 项"),
        HeatmapError::NonFinite { row, col } => {
            format!("第 {row} 行第 {col} 列的值不是有限数")
        }
        HeatmapError::RowOutOfRange { row, rows } => {
            format!("空行 {row} 超出范围（共有 {rows} 行）")
        }
        HeatmapError::NonFiniteRowValue { field, row } => {
            format!("第 {row} 行的 {field} 不是有限数")
        }
        HeatmapError::ShapeMismatch { a, b } => {
            format!("无法比较 {}×{} 的矩阵和 {}×{} 的矩阵", a.0, a.1, b.0, b.1)
        }
    }
}

/// What is wrong, without the path, in Chinese.
pub fn reason_zh(e: &CoreError) -> String {
    match e {
        CoreError::ShapeMismatch {
            expected_zh, got, ..
        } => {
            format!("形状为 {}×{}，应为 {expected_zh}", got.0, got.1)
        }
        CoreError::NonFinite { row, col, .. } => {
            format!("第 {row} 行第 {col} 列的值不是有限数")
        }
        CoreError::NoHeads => "至少需要一个头".into(),
        CoreError::InvalidTemperature(t) => format!("必须是大于 0 的有限数，而它是 {t}"),
        CoreError::MissingParams { reason_zh, .. } => format!("缺少参数：{reason_zh}"),
        CoreError::UnsupportedMask { attention, mask } => {
            let shown = crate::state::MaskKind::ALL
                .into_iter()
                .find(|k| k.core_name() == *mask)
                .map_or(*mask, |k| k.shown(Lang::Zh));
            format!(
                "{}无法应用{shown}掩码（{}）",
                kind_label(*attention, Lang::Zh),
                mask_limitation(*attention, Lang::Zh)
            )
        }
        CoreError::IndexOutOfRange { index, len, .. } => {
            format!("下标 {index} 超出范围（必须小于 {len}）")
        }
        CoreError::InvalidSetting { reason_zh, .. } => reason_zh.clone(),
        CoreError::Overflow { what, .. } => {
            format!("{what} 超出了 f32 的范围；请缩小输入或提高温度")
        }
    }
}

/// An attention kind for people, in `lang` (`"elu+1 linear attention"`).
pub fn kind_label(kind: AttentionKind, lang: Lang) -> &'static str {
    match kind {
        AttentionKind::Linformer => return "Linformer",
        AttentionKind::Softmax => Tr::new("softmax attention", "softmax 注意力"),
        AttentionKind::Elu1 => Tr::new("elu+1 linear attention", "elu+1 线性注意力"),
        AttentionKind::Relu => Tr::new("ReLU linear attention", "ReLU 线性注意力"),
        AttentionKind::Taylor => Tr::new("Taylor linear attention", "Taylor 线性注意力"),
        AttentionKind::Efficient => Tr::new("efficient attention", "高效注意力"),
    }
    .get(lang)
}

/// Which masks an attention kind cannot apply, and why, in `lang`.
pub fn mask_limitation(kind: AttentionKind, lang: Lang) -> &'static str {
    match (kind, lang) {
        (_, Lang::En) => kind.mask_limitation(),
        (AttentionKind::Efficient, Lang::Zh) => {
            "高效注意力一次性在所有位置上归一化键，因此只能应用填充掩码"
        }
        (AttentionKind::Linformer, Lang::Zh) => {
            "Linformer 把所有位置混合成 k 个投影后的键，因此不能掩码任何键，也不能做成因果的"
        }
        (_, Lang::Zh) => "支持所有掩码",
    }
}
