//! The way into the lessons: the "Lessons" button and the language switch beside the
//! page tabs, and the list of lessons with their summaries and progress; a link to a
//! lesson or step that does not exist opens the list with its notice, and lessons that
//! failed to load are named with their file and step.

use attnlab_i18n::msg;
use attnlab_lessons::Catalog;
use leptos::prelude::*;

use super::{Opening, use_player};

/// The "Lessons" button and the app's language switch (English | 中文).
#[component]
pub fn LessonsEntry() -> impl IntoView {
    let Some(player) = use_player() else {
        return ().into_any();
    };
    let lang = player.lang;
    view! {
        <div class="lessons-entry">
            <button type="button" class="lessons-button" data-testid="lessons-open"
                aria-expanded=move || player.list_open.get().to_string()
                on:click=move |_| {
                    // The list is in the lessons' module: fetched at the first click.
                    player.with_code(|_| ());
                    player.list_open.update(|o| *o = !*o);
                }>
                {move || msg::lessons::LESSONS_BUTTON.get(lang.get())}
            </button>
            <crate::i18n::LanguageSwitch/>
        </div>
    }
    .into_any()
}

/// The lesson list (when open).
#[component]
pub fn LessonList() -> impl IntoView {
    let Some(player) = use_player() else {
        return ().into_any();
    };
    let lang = player.lang;
    // The lessons are read and checked when the list first opens, not with the page.
    let list = move || {
        let (catalog, errors) = Catalog::embedded();
        let l = lang.get();
        let items = catalog
            .lessons()
            .iter()
            .map(|lesson| {
                let text = lesson.text(l);
                let progress = player.progress.with(|p| p.of(lesson));
                let open = move |_| {
                    // Where the learner stopped: the first step not seen, else the start.
                    let at = lesson
                        .steps
                        .iter()
                        .position(|s| !player.progress.with_untracked(|p| p.has_seen(&lesson.id, &s.id)))
                        .filter(|_| progress.seen > 0)
                        .unwrap_or(0);
                    player.open_step(lesson, at, Opening::StepState);
                };
                let id = lesson.id.clone();
                view! {
                    <li class="lesson-item" data-testid="lesson-item" data-lesson=lesson.id.clone()
                        class:is-complete=progress.is_complete()>
                        <h3>{format!("{}. {}", lesson.number, text.title)}</h3>
                        <p>{text.summary.clone()}</p>
                        <p class="lesson-progress" data-testid="lesson-progress">
                            <progress max=progress.total.to_string() value=progress.seen.to_string()></progress>
                            " "{msg::lessons::LessonsSeenOf { seen: &progress.seen, total: &progress.total }.say(l)}
                        </p>
                        <button type="button" data-testid="lesson-start" on:click=open>
                            {if progress.seen > 0 { msg::lessons::LESSONS_CONTINUE } else { msg::lessons::LESSONS_START }.get(l)}
                        </button>
                        {(progress.seen > 0).then(|| view! {
                            <button type="button" class="lesson-reset" data-testid="lesson-reset"
                                on:click=move |_| player.reset(&id)>{msg::lessons::LESSONS_RESET_PROGRESS.get(l)}</button>
                        })}
                    </li>
                }
            })
            .collect_view();
        let failed = (!errors.is_empty()).then(|| {
            view! {
                <div class="notice" role="alert" data-testid="lesson-load-errors">
                    <p>{msg::lessons::LESSONS_NOT_LOADED.get(l)}</p>
                    <ul>{errors.iter().map(|e| view! { <li>{e.to_string()}</li> }).collect_view()}</ul>
                </div>
            }
        });
        view! {
            <section class="lesson-list panel" data-testid="lesson-list" lang=l.code()>
                <header class="lesson-list-head">
                    <h2 class="section-title">{msg::lessons::LESSONS_LIST_TITLE.get(l)}</h2>
                    <button type="button" data-testid="lesson-list-close"
                        on:click=move |_| player.list_open.set(false)>{msg::lessons::LESSONS_LIST_CLOSE.get(l)}</button>
                </header>
                {move || player.notice.get().map(|e| view! {
                    <p class="notice" role="status" data-testid="lesson-notice">{e.message(lang.get())}</p>
                })}
                {failed}
                <ol class="lesson-items">{items}</ol>
            </section>
        }
    };
    view! { <Show when=move || player.list_open.get()>{list}</Show> }.into_any()
}
