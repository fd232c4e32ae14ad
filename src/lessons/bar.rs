//! The lesson bar: the open step's title and text in the learner's language, step k of
//! n, Previous/Next, and the keys a presentation clicker sends.

use attnlab_i18n::msg;
use attnlab_lessons::StepKind;
use leptos::ev::KeyboardEvent;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::predict::PredictPanel;
use super::strings::paragraphs;
use super::{Player, use_player};

/// What a key does in a lesson: the step it moves by, if any.
fn step_key(key: &str) -> Option<isize> {
    match key {
        "ArrowRight" | "PageDown" | " " => Some(1),
        "ArrowLeft" | "PageUp" => Some(-1),
        _ => None,
    }
}

/// Whether a key pressed on `target` belongs to it: text fields, selects and editable
/// text keep every key, and buttons, links and summaries keep Space (it clicks them).
fn target_keeps(target: Option<web_sys::EventTarget>, key: &str) -> bool {
    let Some(el) = target.and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok()) else {
        return false;
    };
    if el.is_content_editable() {
        return true;
    }
    match el.tag_name().to_ascii_lowercase().as_str() {
        "input" | "textarea" | "select" => true,
        "button" | "a" | "summary" => key == " ",
        _ => false,
    }
}

/// Listens for the keys that move between steps while a lesson is open. Keys another
/// control already used (the page tabs' and canvases' arrows) are left to it.
fn listen_for_keys(player: Player) {
    // In an effect, so the page's own key handlers are registered before this one.
    Effect::new(move |_| {
        let handle = window_event_listener(leptos::ev::keydown, move |ev: KeyboardEvent| {
            if player.open.get_untracked().is_none()
                || ev.default_prevented()
                || ev.ctrl_key()
                || ev.alt_key()
                || ev.meta_key()
            {
                return;
            }
            let key = ev.key();
            let Some(by) = step_key(&key) else {
                return;
            };
            if target_keeps(ev.target(), &key) {
                return;
            }
            ev.prevent_default();
            player.advance(by);
        });
        on_cleanup(move || handle.remove());
    });
}

/// The step a swipe of (`dx`, `dy`) CSS pixels turns to: at least 60 px, and mostly
/// sideways (so scrolling the page is not a swipe); leftwards is the next step.
fn swipe_step(dx: i32, dy: i32) -> Option<isize> {
    (dx.abs() >= 60 && dx.abs() > 2 * dy.abs()).then_some(if dx < 0 { 1 } else { -1 })
}

/// The bar of the open lesson step (nothing outside a lesson).
#[component]
pub fn LessonBar() -> impl IntoView {
    let Some(player) = use_player() else {
        return ().into_any();
    };
    listen_for_keys(player);
    let lang = player.lang;
    // A swipe across the bar turns the step, as on a phone's book: leftwards to the next.
    let swipe_from = StoredValue::new(None::<(i32, i32)>);
    let touch_at = |ev: &leptos::ev::TouchEvent| {
        ev.changed_touches()
            .get(0)
            .map(|t| (t.client_x(), t.client_y()))
    };
    let on_touchstart = move |ev: leptos::ev::TouchEvent| swipe_from.set_value(touch_at(&ev));
    let on_touchend = move |ev: leptos::ev::TouchEvent| {
        let (Some((x0, y0)), Some((x1, y1))) = (swipe_from.get_value(), touch_at(&ev)) else {
            return;
        };
        swipe_from.set_value(None);
        if let Some(by) = swipe_step(x1 - x0, y1 - y0) {
            player.advance(by);
        }
    };
    let bar = move || {
        let (lesson, index, step) = player.step()?;
        let l = lang.get();
        let text = lesson.text(l);
        let words = text.step(&step.id);
        let total = lesson.steps.len();
        let title = words.map(|w| w.title.clone()).unwrap_or_default();
        let body = words.map(|w| w.text.clone()).unwrap_or_default();
        let predict = match step.kind {
            StepKind::Predict(question) => Some(view! { <PredictPanel question=question/> }),
            StepKind::Explain => None,
        };
        Some(view! {
            <section class="lesson-bar" data-testid="lesson-bar" aria-label=msg::lessons::LESSONS_BUTTON.get(l)
                data-lesson=lesson.id.clone() data-step=step.id.clone() lang=l.code()
                on:touchstart=on_touchstart on:touchend=on_touchend>
                <header class="lesson-bar-head">
                    <span class="lesson-name" data-testid="lesson-name">{text.title.clone()}</span>
                    <span class="lesson-step-of" data-testid="lesson-step-of">{msg::lessons::LessonsStepOf { k: &(index + 1), n: &total }.say(l)}</span>
                    <button type="button" class="lesson-leave" data-testid="lesson-leave"
                        on:click=move |_| player.leave()>{msg::lessons::LESSONS_LEAVE.get(l)}</button>
                </header>
                <h2 class="lesson-step-title" data-testid="lesson-step-title">{title}</h2>
                <div class="lesson-text" data-testid="lesson-text">{paragraphs(&body)}</div>
                {predict}
                <p class="hint" aria-live="polite" data-testid="lesson-reading">
                    {move || player.reading.get().then(|| msg::lessons::LESSONS_READING_TENSORS.get(lang.get()))}
                </p>
                {move || player.tensors_error.get().map(|e| view! {
                    <p class="notice" role="alert" data-testid="lesson-tensors-error">
                        {step.tensors.as_ref().map(|f| msg::lessons::LessonsTensorsFailed { path: &f.path, why: &e.text(lang.get()) }.say(lang.get()))}
                    </p>
                })}
                <nav class="lesson-nav">
                    <button type="button" data-testid="lesson-prev" disabled={index == 0}
                        on:click=move |_| player.advance(-1)>{msg::lessons::LESSONS_PREVIOUS_STEP.get(l)}</button>
                    <ol class="lesson-dots" aria-hidden="true">
                        {(0..total).map(|k| view! { <li class:is-current=k == index></li> }).collect_view()}
                    </ol>
                    <button type="button" data-testid="lesson-next" disabled={index + 1 >= total}
                        on:click=move |_| player.advance(1)>{msg::lessons::LESSONS_NEXT_STEP.get(l)}</button>
                </nav>
                <p class="hint lesson-keys">{msg::lessons::LESSONS_KEYS_HINT.get(l)}</p>
            </section>
        })
    };
    view! { <div class="lesson-bar-region">{bar}</div> }.into_any()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clicker_keys_move_and_others_do_not() {
        assert_eq!(step_key("PageDown"), Some(1));
        assert_eq!(step_key("PageUp"), Some(-1));
        assert_eq!(step_key(" "), Some(1));
        assert_eq!(step_key("ArrowLeft"), Some(-1));
        assert_eq!(step_key("Enter"), None);
        assert_eq!(step_key("a"), None);
    }

    #[test]
    fn a_sideways_swipe_turns_the_step_and_a_scroll_does_not() {
        assert_eq!(swipe_step(-120, 10), Some(1));
        assert_eq!(swipe_step(90, -20), Some(-1));
        // Too short, or mostly up and down (the page scrolling).
        assert_eq!(swipe_step(-40, 0), None);
        assert_eq!(swipe_step(-100, 80), None);
        assert_eq!(swipe_step(0, 300), None);
    }
}
