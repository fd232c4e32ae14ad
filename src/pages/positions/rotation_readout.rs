use attnlab_pages::positions::{self, RotationCheck};
use attnlab_plot::number;
use leptos::prelude::*;

use super::PositionView;
use crate::i18n::{Lang, t, tr};
use crate::state::{LabFields, use_app_state};
use crate::widgets::knob::{Knob, why_id};

/// The measured residual of `PE(p+k) = R_k·PE(p)` for the chosen offset `k`, or why
/// there is no `R_k` (learned positions, or none).
#[component]
pub fn RotationReadout(
    /// The PE table drawn on the page.
    table: Memo<positions::PeTable>,
    /// The page's own view settings (the offset `k`).
    local: PositionView,
) -> impl IntoView {
    let state = use_app_state();
    let lang = state.lang;
    let k_refused = RwSignal::new(false);
    let k_error = move || {
        k_refused.get().then(|| {
            tr(
                lang.get(),
                "k is a whole number from 0 to 511",
                "k 是 0 到 511 之间的整数",
            )
            .to_string()
        })
    };
    let check = Memo::new(move |_| {
        let k = local.k.get();
        state
            .lab
            .model()
            .with(|m| table.with(|t| positions::rotation_check(&m.position, t, k)))
    });
    let on_k = move |ev: leptos::ev::Event| match event_target_value(&ev).trim().parse::<usize>() {
        Ok(k) if k < 512 => {
            k_refused.set(false);
            local.k.set(k);
        }
        _ => k_refused.set(true),
    };
    view! {
        <div class="explain-figure rotation" data-testid="pe-rotation-panel">
            <h3 class="figure-title">{t("Moving by k positions is one rotation", "移动 k 个位置就是一次旋转")}</h3>
            <p class="explain-note">
                {t(
                    "For every offset k there is a block-diagonal rotation R_k, the same for every position p, with PE(p+k) = R_k\u{b7}PE(p): \
                     each (sin, cos) pair turns by the angle \u{3c9}_i\u{b7}k. That is why attention can read relative positions.",
                    "对每个偏移 k，都有一个分块对角的旋转 R_k，对每个位置 p 都相同，使 PE(p+k) = R_k\u{b7}PE(p)：\
                     每一对 (sin, cos) 转过角度 \u{3c9}_i\u{b7}k。这就是注意力能够读出相对位置的原因。",
                )}
            </p>
            {move || view! {
            <Knob label=tr(lang.get(), "offset k", "偏移 k") id="pos-k" why=Signal::derive(k_error)>
                <input type="number" min="0" max="511" step="1" data-testid="pos-k"
                    aria-describedby=why_id("pos-k")
                    prop:value=move || local.k.get().to_string()
                    on:change=on_k/>
            </Knob>
            }}
            {move || match (check.get(), lang.get()) {
                (RotationCheck::Residual { k, residual, checked }, l) => view! {
                    <p class="readout">
                        {tr(l, "max over p of ", "对 p 取最大值 ")}
                        <span translate="no">"|PE(p+" {k} ") \u{2212} R_" {k} "\u{b7}PE(p)| = "</span>
                        <strong data-testid="pe-rotation" data-value=residual.to_string()>{number::readable(residual)}</strong>
                        {match l {
                            Lang::En => format!(" over {checked} positions p (f32 rounding: the identity holds exactly)."),
                            Lang::Zh => format!("，共 {checked} 个位置 p（只是 f32 舍入误差：恒等式精确成立）。"),
                        }}
                    </p>
                }.into_any(),
                (RotationCheck::TooFewPositions { k, n }, l) => view! {
                    <p class="explain-message" data-testid="pe-rotation-message">
                        {match l {
                            Lang::En => format!("With {n} positions there is no pair p, p + {k}: choose a smaller k or draw more positions."),
                            Lang::Zh => format!("只有 {n} 个位置时不存在 p 与 p + {k} 这样的一对：请选择更小的 k，或画出更多位置。"),
                        }}
                    </p>
                }.into_any(),
                (RotationCheck::NoRotation(why), l) => view! {
                    <p class="explain-message" data-testid="pe-rotation-message">{why.get(l)}</p>
                }.into_any(),
            }}
        </div>
    }
}
