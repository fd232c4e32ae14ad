use attnlab_core::attention::AttentionKind;
use attnlab_lab::Tokens;
use attnlab_lab::compute::explain;
use attnlab_lab::pages::linear_lab::default_kernel;
use leptos::prelude::*;

use super::{CausalityNotes, KernelPanel, LinearPickers, LinformerPanel, ProblemMemo, RnnStepper};
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
        None => Err("There is no variant to show.".to_string()),
    });
    let picked = RwSignal::new(None::<AttentionKind>);
    let kind = Signal::derive(move || {
        picked
            .get()
            .unwrap_or_else(|| default_kernel(variant_kind.get()))
    });
    let head = Signal::derive(move || state.shown_head());
    let has_tokens = move || !state.tokens.with(Tokens::is_empty);
    view! {
        <section class="explain linear-lab" data-testid="linear-page" aria-label="Linear attention">
            <h2 class="section-title">"Linear attention: the same Q and K, without the n×m matrix"</h2>
            <p class="explain-lead">
                "Softmax attention weighs key j for query i by exp(q·k/√d_k) and needs every pair. \
                 Linear attention replaces the similarity by φ(q)·φ(k), so the sums over keys can be \
                 taken once, Σ φ(k_j) v_jᵀ, and read by every query: O(n) instead of O(n²). \
                 The price is that its similarity matrix φ(Q)φ(K)ᵀ has rank at most the width of φ. \
                 Below, both are computed from the same Q, K, V of the selected head, with the variant's masks."
            </p>
            <LinearPickers kind=kind on_kind=Callback::new(move |k| picked.set(Some(k)))/>
            <Show when=has_tokens fallback=|| view! {
                <p class="why is-shown" data-testid="linear-empty">"Type a sentence to compare softmax and linear attention."</p>
            }>
                <KernelPanel problem=problem head=head kind=kind/>
                <RnnStepper problem=problem head=head kind=kind/>
                <LinformerPanel problem=problem head=head/>
                <CausalityNotes selected=variant_kind/>
            </Show>
        </section>
    }
}
