use attnlab_i18n::msg;
use attnlab_lab::state::{
    Activation, BLOCK_FFN_MULTIPLES, BLOCK_LAYERS_RANGE, BlockView, HEADS_RANGE, Norm,
};
use leptos::prelude::*;

use crate::i18n::text;
use crate::state::{LabFields, ViewFields, use_app_state};

/// The Block page's settings, each a select written to the link: layers, post-LN or
/// pre-LN, ReLU or GELU, heads (those that do not divide `d` disabled, and the reason
/// said when the one chosen does not), the feed-forward's width, the layer shown.
#[component]
pub fn BlockKnobs(
    /// The width `d` of `X`.
    #[prop(into)]
    width: Signal<usize>,
) -> impl IntoView {
    let state = use_app_state();
    let lang = state.lang;
    let block = state.lab.view().block();
    let set = move |f: &dyn Fn(&mut BlockView)| {
        let mut b = block.get_untracked();
        f(&mut b);
        if b != block.get_untracked() {
            block.set(b);
        }
    };
    let layers = move || {
        block
            .with(|b| b.layers)
            .clamp(*BLOCK_LAYERS_RANGE.start(), *BLOCK_LAYERS_RANGE.end())
    };
    let heads_reason = move || {
        let (heads, d) = (block.with(|b| b.heads), width.get());
        (heads == 0 || !d.is_multiple_of(heads)).then(|| {
            msg::block::BlockHeadsReason {
                heads: &heads,
                d: &d,
            }
            .say(lang.get())
        })
    };
    let parse = |ev: &leptos::ev::Event| event_target_value(ev).parse::<usize>().ok();

    view! {
        <div class="view-pickers block-knobs" data-testid="block-knobs">
            <label class="view-picker">
                <span>{text(msg::block::BLOCK_KNOB_LAYERS)}</span>
                <select data-testid="block-layers"
                    on:change=move |ev| if let Some(v) = parse(&ev) { set(&|b| b.layers = v) }>
                    {BLOCK_LAYERS_RANGE.map(|l| view! {
                        <option value=l.to_string() selected=move || layers() == l>{l}</option>
                    }).collect_view()}
                </select>
            </label>
            <label class="view-picker">
                <span>{text(msg::block::BLOCK_KNOB_NORM)}</span>
                <select data-testid="block-norm"
                    on:change=move |ev| {
                        if let Some(n) = Norm::parse(&event_target_value(&ev)) {
                            set(&|b| b.norm = n)
                        }
                    }>
                    <option value="post" selected=move || block.with(|b| b.norm == Norm::Post)>{text(msg::block::BLOCK_NORM_POST)}</option>
                    <option value="pre" selected=move || block.with(|b| b.norm == Norm::Pre)>{text(msg::block::BLOCK_NORM_PRE)}</option>
                </select>
            </label>
            <label class="view-picker">
                <span>{text(msg::block::BLOCK_KNOB_ACTIVATION)}</span>
                <select data-testid="block-activation"
                    on:change=move |ev| {
                        if let Some(a) = Activation::parse(&event_target_value(&ev)) {
                            set(&|b| b.activation = a)
                        }
                    }>
                    <option value="relu" selected=move || block.with(|b| b.activation == Activation::Relu)>{text(msg::block::BLOCK_ACTIVATION_RELU)}</option>
                    <option value="gelu" selected=move || block.with(|b| b.activation == Activation::Gelu)>{text(msg::block::BLOCK_ACTIVATION_GELU)}</option>
                </select>
            </label>
            <label class="view-picker">
                <span>{text(msg::block::BLOCK_KNOB_HEADS)}</span>
                <select data-testid="block-heads"
                    aria-invalid=move || heads_reason().is_some().then_some("true")
                    aria-describedby=move || heads_reason().is_some().then_some("block-heads-reason")
                    on:change=move |ev| if let Some(v) = parse(&ev) { set(&|b| b.heads = v) }>
                    {HEADS_RANGE.map(|h| view! {
                        <option value=h.to_string()
                            disabled=move || !width.get().is_multiple_of(h)
                            selected=move || block.with(|b| b.heads == h)>{h}</option>
                    }).collect_view()}
                </select>
            </label>
            <label class="view-picker">
                <span>{text(msg::block::BLOCK_KNOB_FFN)}</span>
                <select data-testid="block-ffn"
                    on:change=move |ev| if let Some(v) = parse(&ev) { set(&|b| b.ffn_multiple = v) }>
                    {BLOCK_FFN_MULTIPLES.map(|k| view! {
                        <option value=k.to_string() selected=move || block.with(|b| b.ffn_multiple == k)>
                            {move || msg::block::BlockFfnOption { multiple: &k, width: &(k * width.get()) }.say(lang.get())}
                        </option>
                    }).collect_view()}
                </select>
            </label>
            <label class="view-picker">
                <span>{text(msg::block::BLOCK_KNOB_SHOWN)}</span>
                <select data-testid="block-shown"
                    on:change=move |ev| if let Some(v) = parse(&ev) { set(&|b| b.shown = v) }>
                    {move || (0..layers()).map(|l| view! {
                        <option value=l.to_string() selected=move || block.with(|b| b.shown.min(layers() - 1) == l)>
                            {move || msg::block::BlockShownOption { layer: &(l + 1) }.say(lang.get())}
                        </option>
                    }).collect_view()}
                </select>
            </label>
            {move || heads_reason().map(|r| view! {
                <p class="knob-reason" id="block-heads-reason" data-testid="block-heads-reason">{r}</p>
            })}
        </div>
    }
}
