use attnlab_i18n::msg;
use attnlab_model_page::protocol::Place;
use attnlab_plot::number;
use leptos::prelude::*;

use crate::i18n::marked::{MARK, with_marked};
use crate::i18n::{text, use_lang};
use crate::model::use_model_session;
use crate::state::{LabFields, use_app_state};

/// The second sentence the pair opens with (the first is the sentence being studied).
const PAIR: &str = "a cat was sitting on a mat";
/// The first sentence of the example pair.
const FIRST: &str = "the cat sat on the mat";

/// Which of the three places the person picked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reach {
    Head,
    Layer,
    Every,
}

/// Runs the whole model with a lab variant in place of its softmax attention (one head,
/// one layer or every layer) and shows the consequence: each layer's attention change,
/// the sentence embedding's cosine to the model's own, and a pair of sentences'
/// similarity with and without the variant.
#[component]
pub fn SubstitutionPanel() -> impl IntoView {
    let state = use_app_state();
    let session = use_model_session();
    let lang = use_lang();
    let chosen = RwSignal::new(1usize);
    let reach = RwSignal::new(Reach::Every);
    // The sentence pair the page reads together, when there is one; else an example.
    let pair = RwSignal::new(state.lab.pair().with_untracked(|p| {
        if p.trim().is_empty() {
            PAIR.to_string()
        } else {
            p.clone()
        }
    }));
    Effect::new(move |_| {
        let together = state.lab.pair().get();
        if !together.trim().is_empty() {
            pair.set(together);
        }
    });
    let names = move || {
        state.derived.variants.with(|s| {
            s.iter()
                .map(|v| v.variant.with(|v| v.name.clone()))
                .collect::<Vec<_>>()
        })
    };
    let shown_variant = move || chosen.get().min(names().len().saturating_sub(1));
    let place = move || {
        let (layer, head) = state
            .lab
            .pretrained()
            .with(|p| p.map_or((0, 0), |p| (p.layer, p.head)));
        match reach.get() {
            Reach::Head => Place::Head { layer, head },
            Reach::Layer => Place::Layer { layer },
            Reach::Every => Place::Every,
        }
    };
    let run = move |_| {
        let link = attnlab_link::encode(&untrack(|| state.link_state()));
        let other = pair.get_untracked();
        session.substitute(
            state.lab.text().get_untracked(),
            Some(other).filter(|p| !p.trim().is_empty()),
            link,
            shown_variant(),
            place(),
        );
    };
    let example = move |_| {
        state.lab.text().set(FIRST.to_string());
        pair.set(PAIR.to_string());
    };
    let result = move || {
        let lang = lang.get();
        match session.substituted.get() {
        None => view! { <p class="hint">{msg::model_page::MODEL_SUBSTITUTION_IDLE.get(lang)}</p> }.into_any(),
        Some(Err(e)) => view! { <p class="variant-error" role="alert" data-testid="substitution-error">{e.get(lang).to_string()}</p> }.into_any(),
        Some(Ok(s)) => {
            let top = s.layers.iter().map(|l| l.mean_abs).fold(0.0f32, f32::max).max(f32::MIN_POSITIVE);
            let variant = s.variant.clone();
            let pair = s.pair.clone().map(|p| {
                let (own, with, change) = (
                    number::decimals(p.own, 3),
                    number::decimals(p.substituted, 3),
                    number::signed_decimals(p.substituted - p.own, 3),
                );
                let first = state.lab.text().get_untracked();
                let said = msg::model_page::ModelSubstitutionPair {
                    first: &MARK[0],
                    other: &MARK[1],
                    own: &own,
                    substituted: &with,
                    variant: &MARK[2],
                    change: &change,
                }
                .say(lang);
                // The sentences and the variant's name are kept as they are.
                let kept = [first, p.other, variant.clone()];
                view! {
                    <p data-testid="substitution-pair">
                        {with_marked(&said, |i| {
                            let text = kept[i].clone();
                            view! { <span translate="no">{text}</span> }.into_any()
                        })}
                    </p>
                }
            });
            let (cosine, ms) = (number::decimals(s.cosine, 4), number::rounded(s.millis, 3));
            let place = s.place.describe(lang);
            let said = msg::model_page::ModelSubstitutionHeadline {
                variant: &MARK[0],
                place: &place,
                cosine: &cosine,
                ms: &ms,
            }
            .say(lang);
            let headline = with_marked(&said, |_| {
                let text = variant.clone();
                view! { <span translate="no">{text}</span> }.into_any()
            });
            view! {
                <p class="substitution-cosine" data-testid="substitution-cosine" data-cosine=s.cosine.to_string()>
                    {headline}
                </p>
                {pair}
                <table class="layer-changes" data-testid="substitution-layers">
                    <thead><tr>
                        <th>{msg::model_page::MODEL_TABLE_LAYER.get(lang)}</th>
                        <th>{msg::model_page::MODEL_MEAN_DELTA.get(lang)}</th>
                        <th>{msg::model_page::MODEL_MAX_DELTA.get(lang)}</th>
                        <th>{msg::model_page::MODEL_HEADS_COMPARED.get(lang)}</th>
                        <th></th>
                    </tr></thead>
                    <tbody>
                        {s.layers.iter().map(|l| {
                            let width = format!("width: {}%", number::decimals(100.0 * l.mean_abs / top, 1));
                            view! {
                                <tr data-testid="substitution-layer">
                                    <td>{l.layer}</td>
                                    <td>{number::decimals(l.mean_abs, 4)}</td>
                                    <td>{number::decimals(l.max_abs, 3)}</td>
                                    <td>{l.heads}</td>
                                    <td class="bar-cell"><span class="rank-bar"><span style=width></span></span></td>
                                </tr>
                            }
                        }).collect_view()}
                    </tbody>
                </table>
            }.into_any()
        }
    }
    };
    view! {
        <section class="panel substitution" aria-label=text(msg::model_page::MODEL_SUBSTITUTION_LABEL) data-testid="substitution">
            <h2 class="section-title">{text(msg::model_page::MODEL_SUBSTITUTION_TITLE)}</h2>
            <p class="hint">{text(msg::model_page::MODEL_SUBSTITUTION_HINT)}</p>
            <div class="knobs">
                <label class="knob">{text(msg::model_page::MODEL_SUBSTITUTION_VARIANT)}
                    <select data-testid="substitution-variant" prop:value=move || shown_variant().to_string()
                        on:change=move |ev| if let Ok(i) = event_target_value(&ev).parse() { chosen.set(i) }>
                        {move || names().into_iter().enumerate().map(|(i, n)| view! { <option value=i.to_string() translate="no">{n}</option> }).collect_view()}
                    </select>
                </label>
                <div class="knob" role="radiogroup" aria-label=text(msg::model_page::MODEL_SUBSTITUTION_WHERE)>
                    {[
                        (Reach::Head, "this-head", msg::model_page::MODEL_REACH_HEAD),
                        (Reach::Layer, "this-layer", msg::model_page::MODEL_REACH_LAYER),
                        (Reach::Every, "every-layer", msg::model_page::MODEL_REACH_EVERY),
                    ].into_iter().map(|(r, name, label)| view! {
                        <label class="check">
                            <input type="radio" name="substitution-reach" data-testid=format!("substitution-{name}")
                                prop:checked=move || reach.get() == r on:change=move |_| reach.set(r)/>
                            {move || format!(" {}", label.get(lang.get()))}
                        </label>
                    }).collect_view()}
                </div>
                <label class="knob pair-input">{text(msg::model_page::MODEL_COMPARE_WITH)}
                    <input type="text" data-testid="substitution-pair-text" translate="no" prop:value=move || pair.get()
                        on:input=move |ev| pair.set(event_target_value(&ev))/>
                </label>
            </div>
            <div class="knobs">
                <button type="button" class="primary" data-testid="substitution-run" on:click=run
                    disabled=move || session.substituting.get()>
                    {move || if session.substituting.get() {
                        msg::model_page::MODEL_RUNNING
                    } else {
                        msg::model_page::MODEL_RUN_WITH_IT
                    }.get(lang.get())}
                </button>
                <button type="button" data-testid="substitution-example" on:click=example>
                    {text(msg::model_page::MODEL_EXAMPLE)}
                    <span translate="no">"“the cat sat on the mat” vs “a cat was sitting on a mat”"</span>
                </button>
            </div>
            {result}
        </section>
    }
}
