use attnlab_model_page::protocol::Place;
use attnlab_plot::number;
use leptos::prelude::*;

use crate::i18n::{Lang, t, tr, use_lang};
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
        None => view! { <p class="hint">{tr(lang, "Pick a variant and where it goes, then run the model with it.", "选择一个变体和它放置的位置，然后用它运行模型。")}</p> }.into_any(),
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
                let rest = match lang {
                    Lang::En => view! {
                        {format!("”: similarity {own} with the model's own attention, {with} with ")}
                        <span translate="no">{variant.clone()}</span>
                        {format!(" — a change of {change}.")}
                    }.into_any(),
                    Lang::Zh => view! {
                        {format!("”：使用模型自身的注意力时相似度为 {own}，使用 ")}
                        <span translate="no">{variant.clone()}</span>
                        {format!(" 时为 {with}，变化 {change}。")}
                    }.into_any(),
                };
                view! {
                    <p data-testid="substitution-pair">
                        "“" <span translate="no">{first}</span> {tr(lang, "” and “", "”和“")}
                        <span translate="no">{p.other}</span> {rest}
                    </p>
                }
            });
            let (cosine, ms) = (number::decimals(s.cosine, 4), number::rounded(s.millis, 3));
            let place = s.place.describe(lang);
            let headline = match lang {
                Lang::En => view! {
                    <span translate="no">{variant.clone()}</span>
                    {format!(" in {place}: the sentence embedding's cosine to the model's own is {cosine} ({ms} ms).")}
                }.into_any(),
                Lang::Zh => view! {
                    {format!("在{place}使用 ")}
                    <span translate="no">{variant.clone()}</span>
                    {format!("：句子嵌入与模型自身嵌入的余弦相似度为 {cosine}（{ms} 毫秒）。")}
                }.into_any(),
            };
            view! {
                <p class="substitution-cosine" data-testid="substitution-cosine" data-cosine=s.cosine.to_string()>
                    {headline}
                </p>
                {pair}
                <table class="layer-changes" data-testid="substitution-layers">
                    <thead><tr>
                        <th>{tr(lang, "layer", "层")}</th>
                        <th>{tr(lang, "mean |ΔA|", "平均 |ΔA|")}</th>
                        <th>{tr(lang, "max |ΔA|", "最大 |ΔA|")}</th>
                        <th>{tr(lang, "heads compared", "比较的头数")}</th>
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
        <section class="panel substitution" aria-label=t("Substitute a variant inside the model", "在模型内部替换为一个变体") data-testid="substitution">
            <h2 class="section-title">{t("Inside the model: what does a variant change?", "在模型内部：一个变体会改变什么？")}</h2>
            <p class="hint">{t(
                "Run the whole model with a lab variant in place of its softmax attention and see what follows: \
                 every later layer reads what the changed heads wrote. “What does linear attention lose?” — asked of a trained model.",
                "用实验室的一个变体替换模型的 softmax 注意力，运行整个模型，看看会发生什么：\
                 之后的每一层都会读取被改动的头写下的内容。“线性注意力丢失了什么？”——向一个训练过的模型提问。",
            )}</p>
            <div class="knobs">
                <label class="knob">{t("variant ", "变体 ")}
                    <select data-testid="substitution-variant" prop:value=move || shown_variant().to_string()
                        on:change=move |ev| if let Ok(i) = event_target_value(&ev).parse() { chosen.set(i) }>
                        {move || names().into_iter().enumerate().map(|(i, n)| view! { <option value=i.to_string() translate="no">{n}</option> }).collect_view()}
                    </select>
                </label>
                <div class="knob" role="radiogroup" aria-label=t("Where", "位置")>
                    {[
                        (Reach::Head, "this head", "这个头"),
                        (Reach::Layer, "this layer", "这一层"),
                        (Reach::Every, "every layer", "每一层"),
                    ].into_iter().map(|(r, label, zh)| view! {
                        <label class="check">
                            <input type="radio" name="substitution-reach" data-testid=format!("substitution-{}", label.replace(' ', "-"))
                                prop:checked=move || reach.get() == r on:change=move |_| reach.set(r)/>
                            {move || format!(" {}", lang.get().pick(label, zh))}
                        </label>
                    }).collect_view()}
                </div>
                <label class="knob pair-input">{t("compare with ", "与之比较 ")}
                    <input type="text" data-testid="substitution-pair-text" translate="no" prop:value=move || pair.get()
                        on:input=move |ev| pair.set(event_target_value(&ev))/>
                </label>
            </div>
            <div class="knobs">
                <button type="button" class="primary" data-testid="substitution-run" on:click=run
                    disabled=move || session.substituting.get()>
                    {move || if session.substituting.get() {
                        tr(lang.get(), "Running…", "正在运行…")
                    } else {
                        tr(lang.get(), "Run the model with it", "用它运行模型")
                    }}
                </button>
                <button type="button" data-testid="substitution-example" on:click=example>
                    {t("Example: ", "示例：")}
                    <span translate="no">"“the cat sat on the mat” vs “a cat was sitting on a mat”"</span>
                </button>
            </div>
            {result}
        </section>
    }
}
