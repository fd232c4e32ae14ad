use attnlab_core::attention::AttentionKind;
use attnlab_i18n::msg;
use attnlab_lab::Tokens;
use attnlab_lab::explain::explain;
use attnlab_pages::linear::default_kernel;
use leptos::prelude::*;

use super::{
    CausalityNotes, FavorPanel, KernelPanel, LinearPickers, LinformerPanel, ProblemMemo, RnnStepper,
};
use crate::i18n::text;
use crate::state::use_app_state;

/// The linear-attention page: the pickers, softmax against the chosen kernel variant,
/// the RNN stepper, Linformer's maps, FAVOR+'s error and the causality statements, all on the selected
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
        None => Err(msg::linear::LINEAR_NO_VARIANT
            .get(state.lang.get())
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
        <section class="explain linear-lab" data-testid="linear-page" aria-label=text(msg::linear::LINEAR_PAGE_LABEL)>
            <h2 class="section-title">{text(msg::linear::LINEAR_PAGE_TITLE)}</h2>
            <p class="explain-lead">
                {text(msg::linear::LINEAR_LEAD)}
            </p>
            <LinearPickers kind=kind on_kind=Callback::new(move |k| picked.set(Some(k)))/>
            <Show when=has_tokens fallback=|| view! {
                <p class="why is-shown" data-testid="linear-empty">{text(msg::linear::LINEAR_EMPTY)}</p>
            }>
                <KernelPanel problem=problem head=head kind=kind/>
                <RnnStepper problem=problem head=head kind=kind/>
                <LinformerPanel problem=problem head=head/>
                <FavorPanel problem=problem head=head/>
                <CausalityNotes selected=variant_kind/>
            </Show>
        </section>
    }
}
