use attnlab_lab::fragment;
use attnlab_lab::pretrained::protocol::Place;
use attnlab_plot::number;
use leptos::prelude::*;

use crate::model::use_model_session;
use crate::state::use_app_state;

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
    let chosen = RwSignal::new(1usize);
    let reach = RwSignal::new(Reach::Every);
    // The sentence pair the page reads together, when there is one; else an example.
    let pair = RwSignal::new(state.pair.with_untracked(|p| {
        if p.trim().is_empty() {
            PAIR.to_string()
        } else {
            p.clone()
        }
    }));
    Effect::new(move |_| {
        let together = state.pair.get();
        if !together.trim().is_empty() {
            pair.set(together);
        }
    });
    let names = move || {
        state.variants.with(|s| {
            s.iter()
                .map(|v| v.variant.with(|v| v.name.clone()))
                .collect::<Vec<_>>()
        })
    };
    let shown_variant = move || chosen.get().min(names().len().saturating_sub(1));
    let place = move || {
        let (layer, head) = state
            .pretrained
            .with(|p| p.map_or((0, 0), |p| (p.layer, p.head)));
        match reach.get() {
            Reach::Head => Place::Head { layer, head },
            Reach::Layer => Place::Layer { layer },
            Reach::Every => Place::Every,
        }
    };
    let run = move |_| {
        let link = fragment::encode(&state.lab.get_untracked());
        let other = pair.get_untracked();
        session.substitute(
            state.sentence.get_untracked(),
            Some(other).filter(|p| !p.trim().is_empty()),
            link,
            shown_variant(),
            place(),
        );
    };
    let example = move |_| {
        state.sentence.set(FIRST.to_string());
        pair.set(PAIR.to_string());
    };
    let result = move || {
        match session.substituted.get() {
        None => view! { <p class="hint">"Pick a variant and where it goes, then run the model with it."</p> }.into_any(),
        Some(Err(e)) => view! { <p class="variant-error" role="alert" data-testid="substitution-error">{e}</p> }.into_any(),
        Some(Ok(s)) => {
            let top = s.layers.iter().map(|l| l.mean_abs).fold(0.0f32, f32::max).max(f32::MIN_POSITIVE);
            let pair = s.pair.clone().map(|p| view! {
                <p data-testid="substitution-pair">
                    {format!("“{}” and “{}”: similarity {} with the model's own attention, {} with {} — a change of {}.",
                        state.sentence.get_untracked(), p.other,
                        number::decimals(p.own, 3), number::decimals(p.substituted, 3), s.variant,
                        number::signed_decimals(p.substituted - p.own, 3))}
                </p>
            });
            view! {
                <p class="substitution-cosine" data-testid="substitution-cosine" data-cosine=s.cosine.to_string()>
                    {format!("{} in {}: the sentence embedding's cosine to the model's own is {} ({} ms).",
                        s.variant, s.place.describe(), number::decimals(s.cosine, 4), number::rounded(s.millis, 3))}
                </p>
                {pair}
                <table class="layer-changes" data-testid="substitution-layers">
                    <thead><tr><th>"layer"</th><th>"mean |ΔA|"</th><th>"max |ΔA|"</th><th>"heads compared"</th><th></th></tr></thead>
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
        <section class="panel substitution" aria-label="Substitute a variant inside the model" data-testid="substitution">
            <h2 class="section-title">"Inside the model: what does a variant change?"</h2>
            <p class="hint">"Run the whole model with a lab variant in place of its softmax attention and see what follows: \
                every later layer reads what the changed heads wrote. “What does linear attention lose?” — asked of a trained model."</p>
            <div class="knobs">
                <label class="knob">"variant "
                    <select data-testid="substitution-variant" prop:value=move || shown_variant().to_string()
                        on:change=move |ev| if let Ok(i) = event_target_value(&ev).parse() { chosen.set(i) }>
                        {move || names().into_iter().enumerate().map(|(i, n)| view! { <option value=i.to_string()>{n}</option> }).collect_view()}
                    </select>
                </label>
                <div class="knob" role="radiogroup" aria-label="Where">
                    {[(Reach::Head, "this head"), (Reach::Layer, "this layer"), (Reach::Every, "every layer")].into_iter().map(|(r, label)| view! {
                        <label class="check">
                            <input type="radio" name="substitution-reach" data-testid=format!("substitution-{}", label.replace(' ', "-"))
                                prop:checked=move || reach.get() == r on:change=move |_| reach.set(r)/>
                            {format!(" {label}")}
                        </label>
                    }).collect_view()}
                </div>
                <label class="knob pair-input">"compare with "
                    <input type="text" data-testid="substitution-pair-text" prop:value=move || pair.get()
                        on:input=move |ev| pair.set(event_target_value(&ev))/>
                </label>
            </div>
            <div class="knobs">
                <button type="button" class="primary" data-testid="substitution-run" on:click=run
                    disabled=move || session.substituting.get()>
                    {move || if session.substituting.get() { "Running…" } else { "Run the model with it" }}
                </button>
                <button type="button" data-testid="substitution-example" on:click=example>
                    "Example: “the cat sat on the mat” vs “a cat was sitting on a mat”"
                </button>
            </div>
            {result}
        </section>
    }
}
