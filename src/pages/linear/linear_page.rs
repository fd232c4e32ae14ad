use attnlab_core::attention::AttentionKind;
use attnlab_lab::Tokens;
use attnlab_lab::explain::explain;
use attnlab_pages::linear::default_kernel;
use leptos::prelude::*;

use super::{CausalityNotes, KernelPanel, LinearPickers, LinformerPanel, ProblemMemo, RnnStepper};
use crate::i18n::{t, tr};
use crate::state::use_app_state;

/// The linear-attention page: the pickers, softmax against the chosen kernel variant,
/// the RNN stepper, Linformer's maps and the causality statements, all on the selected
/// variant's head.
#[component]
pub fn LinearPage() -> impl IntoView {
    let state = use_app_state();
    let variant_kind = Memo::new(move |_| {
        state
            .shown_slot()
            .map(|s| s.variant.with(|v| v.attention))
            .unwrap_or_default()
    });
    let problem: ProblemMemo = Memo::new(move |_| match state.shown_slot() {
        Some(slot) => slot.memos.problem.get().map_err(|e| explain(&e)),
        None => Err(tr(
            state.lang.get(),
            "There is no variant to show.",
            "没有可以显示的变体。",
        )
        .to_string()),
    });
    let picked = RwSignal::new(None::<AttentionKind>);
    let kind = Signal::derive(move || {
        picked
            .get()
            .unwrap_or_else(|| default_kernel(variant_kind.get()))
    });
    let head = Signal::derive(move || state.shown_head());
    let has_tokens = move || !state.derived.tokens.with(Tokens::is_empty);
    view! {
        <section class="explain linear-lab" data-testid="linear-page" aria-label=t("Linear attention", "线性注意力")>
            <h2 class="section-title">{t(
                "Linear attention: the same Q and K, without the n×m matrix",
                "线性注意力：同样的 Q 和 K，不构造 n×m 矩阵",
            )}</h2>
            <p class="explain-lead">
                {t(
                    "Softmax attention weighs key j for query i by exp(q·k/√d_k) and needs every pair. \
                     Linear attention replaces the similarity by φ(q)·φ(k), so the sums over keys can be \
                     taken once, Σ φ(k_j) v_jᵀ, and read by every query: O(n) instead of O(n²). \
                     The price is that its similarity matrix φ(Q)φ(K)ᵀ has rank at most the width of φ. \
                     Below, both are computed from the same Q, K, V of the selected head, with the variant's masks.",
                    "softmax 注意力按 exp(q·k/√d_k) 为查询 i 给键 j 加权，需要每一对。\
                     线性注意力把相似度换成 φ(q)·φ(k)，于是对键的求和 Σ φ(k_j) v_jᵀ 只需算一次，\
                     每个查询都可读取：O(n) 而不是 O(n²)。代价是它的相似度矩阵 φ(Q)φ(K)ᵀ 的秩至多为 φ 的宽度。\
                     下面两者都由所选头的同一组 Q、K、V 计算，并使用该变体的掩码。",
                )}
            </p>
            <LinearPickers kind=kind on_kind=Callback::new(move |k| picked.set(Some(k)))/>
            <Show when=has_tokens fallback=|| view! {
                <p class="why is-shown" data-testid="linear-empty">{t(
                    "Type a sentence to compare softmax and linear attention.",
                    "输入一个句子来比较 softmax 与线性注意力。",
                )}</p>
            }>
                <KernelPanel problem=problem head=head kind=kind/>
                <RnnStepper problem=problem head=head kind=kind/>
                <LinformerPanel problem=problem head=head/>
                <CausalityNotes selected=variant_kind/>
            </Show>
        </section>
    }
}
