//! "Predict, then reveal": the step's question and choices; once the learner picks one,
//! the answer the lab computes from the step's state, whether the pick was right, and
//! the reveal text with the answer in it.

use attnlab_i18n::msg;
use attnlab_lessons::{Lang, Question, answer, choices};
use leptos::prelude::*;

use super::strings::paragraphs;
use super::use_player;

/// The question of the open predict step.
#[component]
pub fn PredictPanel(question: Question) -> impl IntoView {
    let Some(player) = use_player() else {
        return ().into_any();
    };
    let Some((lesson, _, step)) = player.step() else {
        return ().into_any();
    };
    let lang = player.lang;
    // Computed once per step, from the step's own state (never from the learner's edits).
    let in_each = (
        choices(&question, &step.state, Lang::En),
        choices(&question, &step.state, Lang::Zh),
    );
    let answer = answer(&question, &step.state, None);
    let (choices, answer) = match (in_each, answer) {
        ((Ok(en), Ok(zh)), Ok(a)) => (en.into_iter().zip(zh).collect::<Vec<_>>(), a),
        ((Err(e), _), _) | ((_, Err(e)), _) | (_, Err(e)) => {
            return view! {
                <p class="notice" role="alert" data-testid="predict-error">
                    {move || msg::lessons::LessonsNoAnswer { why: &e.text(lang.get()) }.say(lang.get())}
                </p>
            }
            .into_any();
        }
    };
    // Until the learner answers, the page's figures and numbers, which would give the
    // answer away, are blurred (`<html data-predicting>`, style/lessons.css): from the
    // first paint of the step, and again once the step's panel is gone.
    set_predicting(true);
    Effect::new(move |_| set_predicting(player.picked.get().is_none()));
    on_cleanup(|| set_predicting(false));
    let right = answer.index();
    let words = move || lesson.text(lang.get()).step(&step.id).cloned();
    let question_text = move || words().and_then(|w| w.question).unwrap_or_default();
    let answer_label = answer.clone();
    let reveal = move || {
        let picked = player.picked.get()?;
        let l = lang.get();
        let verdict = match picked == right {
            true => msg::lessons::LESSONS_RIGHT.get(l),
            false => msg::lessons::LESSONS_WRONG.get(l),
        };
        let text = words()
            .and_then(|w| w.reveal_with(&answer_label, l))
            .unwrap_or_default();
        Some(view! {
            <div class="predict-reveal" data-testid="predict-reveal" role="status"
                data-right=(picked == right).to_string()>
                <p class="predict-verdict" data-testid="predict-verdict">
                    <strong>{verdict}</strong>" "{msg::lessons::LESSONS_ANSWER.get(l)}" "
                    <span data-testid="predict-answer">{answer_label.label(l)}</span>
                </p>
                <div class="predict-why">{paragraphs(&text)}</div>
            </div>
        })
    };
    // Tokens and variants' names are the learner's text, and a cache's name is a
    // formula (`GQA, G = 8`), not the app's words.
    let verbatim = matches!(
        question,
        Question::StrongestKey { .. } | Question::SharpestVariant | Question::SmallestCache
    );
    let buttons = choices
        .into_iter()
        .enumerate()
        .map(|(k, (en, zh))| {
            let label = move || lang.get().pick(en.clone(), zh.clone());
            let state = move || match player.picked.get() {
                None => "",
                Some(_) if k == right => "is-right",
                Some(p) if p == k => "is-wrong",
                Some(_) => "",
            };
            view! {
                <li>
                    <button type="button" class=move || format!("predict-choice {}", state())
                        data-testid="predict-choice" data-choice=k.to_string()
                        translate=verbatim.then_some("no")
                        aria-pressed=move || (player.picked.get() == Some(k)).to_string()
                        disabled=move || player.picked.get().is_some()
                        on:click=move |_| player.picked.set(Some(k))>
                        {label}
                    </button>
                </li>
            }
        })
        .collect_view();
    view! {
        <div class="predict" data-testid="predict">
            <p class="predict-question" data-testid="predict-question"><strong>{question_text}</strong></p>
            <p class="hint predict-hidden" data-testid="predict-hidden"
                hidden=move || player.picked.get().is_some()>
                {move || msg::lessons::LESSONS_FIGURES_HIDDEN.get(lang.get())}
            </p>
            <p class="hint">{move || msg::lessons::LESSONS_PREDICTION.get(lang.get())}</p>
            <ul class="predict-choices">{buttons}</ul>
            {reveal}
        </div>
    }
    .into_any()
}

/// Sets or removes `<html data-predicting>`: the figures wait for the learner's answer.
fn set_predicting(on: bool) {
    crate::display::set_root_attribute("data-predicting", on.then_some(""));
}
