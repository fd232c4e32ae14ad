//! The lesson player: the guided lessons of `attnlab_lessons` shown in the page.
//!
//! [`Player`] is the player's state, provided once beside the `AppState`: the language
//! of the lessons (remembered; the first visit follows the browser's), the lesson and
//! step open, the learner's prediction, the progress (remembered through
//! `attnlab_lessons::Progress`) and the notice of a link to a lesson or step that
//! does not exist. Opening a step puts the whole app in the step's state the way a link
//! does ([`AppState::apply`]), selects its query and stage, and reads its tensors (in the
//! file reader's worker, so the readers stay out of the page's wasm).
//!
//! - [`list`]: the "Lessons" button, the language switch and the lesson list;
//! - [`bar`]: the lesson bar (title, text, step k of n, Previous/Next, the keys);
//! - [`predict`]: a "predict, then reveal" step's choices and reveal;
//! - [`mod@pointer`]: the outline on the figure a step points at, and on its row, column or
//!   cell;
//! - [`strings`]: a step's text as paragraphs (the player's own words are the
//!   catalogue's `lessons` area).
//!
//! The lessons and the code that shows them ([`LessonsCode`]: the list, the bar, the
//! pointers, the catalog and its reader) are a module of their own (`#[lazy]`), fetched
//! when the list first opens or a link names a step; the player's state and the Lessons
//! button are in the main module.

mod bar;
mod list;
mod pointer;
mod predict;
pub mod strings;
#[cfg(test)]
mod tests;

use std::sync::Arc;

use attnlab_lessons::{Catalog, Lang, Lesson, LessonError, LoadError, Progress, STORAGE_KEY, Step};
use attnlab_link::LessonLink;
use attnlab_pages::steps::StageKind;
use leptos::prelude::*;

pub use list::LessonsEntry;

use crate::state::AppState;
use attnlab_workers::FilesWorker;

/// What a lesson step selects on pages that keep their own selection (the steps page's
/// query and stage); provided as context so those pages can follow it.
#[derive(Debug, Clone, Copy)]
pub struct LessonFocus {
    /// The query token to select.
    pub query: RwSignal<Option<usize>>,
    /// The stage of the steps page to show.
    pub stage: RwSignal<Option<StageKind>>,
}

/// How a step is opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opening {
    /// With the step's own state (a click, a key, a link naming only the step).
    StepState,
    /// Keeping the app's state (a link that carries the learner's changed state).
    KeepState,
}

/// The lesson player's state. All fields are `Copy` handles.
#[derive(Clone, Copy)]
pub struct Player {
    state: AppState,
    /// The app's language ([`AppState::lang`]), which the lessons are shown in.
    pub lang: RwSignal<Lang>,
    /// The lesson and step open (`None`: no lesson).
    pub open: RwSignal<Option<(&'static Lesson, usize)>>,
    /// Whether the lesson list is shown.
    pub list_open: RwSignal<bool>,
    /// A link named a lesson or step that does not exist.
    pub notice: RwSignal<Option<LessonError>>,
    /// The steps seen.
    pub progress: RwSignal<Progress>,
    /// A predict step's choice, once picked (the reveal follows).
    pub picked: RwSignal<Option<usize>>,
    /// The step's tensors are being read.
    pub reading: RwSignal<bool>,
    /// Why the step's tensors could not be read.
    pub tensors_error: RwSignal<Option<attnlab_formats::tensors::Refusal>>,
    /// What the step selects on the steps page.
    pub focus: LessonFocus,
    worker: StoredValue<Option<FilesWorker>, LocalStorage>,
    /// The lessons' module, once it is in.
    pub code: RwSignal<Option<LessonsCode>>,
    /// The page's own lesson link while the step it names waits for the lessons' module:
    /// the address keeps it until the step opens.
    pending: RwSignal<Option<String>>,
}

/// What the lessons' module holds: the lessons this build carries (read and checked on
/// the first call, with the errors of those left out) and the views of the player.
#[derive(Clone, Copy)]
pub struct LessonsCode {
    /// The lessons, and the errors of those that failed to load.
    pub catalog: fn() -> (&'static Catalog, &'static [LoadError]),
    list: fn() -> AnyView,
    bar: fn() -> AnyView,
    pointers: fn() -> AnyView,
}

/// The lessons and the player's views: a module of their own, fetched when first needed.
#[lazy]
fn lessons_code() -> LessonsCode {
    LessonsCode {
        catalog: Catalog::embedded,
        list: || view! { <list::LessonList/> }.into_any(),
        bar: || view! { <bar::LessonBar/> }.into_any(),
        pointers: || view! { <pointer::PointerOverlay/> }.into_any(),
    }
}

/// The lesson list (when open), once the lessons' module is in.
pub fn lesson_list(player: Player) -> impl IntoView {
    move || player.code.get().map(|code| (code.list)())
}

/// The open step's bar, once the lessons' module is in.
pub fn lesson_bar(player: Player) -> impl IntoView {
    move || player.code.get().map(|code| (code.bar)())
}

/// The outlines of the open step's pointers, once the lessons' module is in.
pub fn lesson_pointers(player: Player) -> impl IntoView {
    move || player.code.get().map(|code| (code.pointers)())
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// The steps seen, as stored. Steps of lessons this build does not carry are dropped when
/// progress is next saved (a lesson is open then, so the catalog is read anyway): reading
/// and checking the lessons is left until they are used, off the page's first paint.
fn stored_progress() -> Progress {
    storage()
        .and_then(|s| s.get_item(STORAGE_KEY).ok().flatten())
        .map(|json| Progress::from_json(&json))
        .unwrap_or_default()
}

impl Player {
    fn new(state: AppState) -> Player {
        Player {
            state,
            lang: state.lang,
            open: RwSignal::new(None),
            list_open: RwSignal::new(false),
            notice: RwSignal::new(None),
            progress: RwSignal::new(stored_progress()),
            picked: RwSignal::new(None),
            reading: RwSignal::new(false),
            tensors_error: RwSignal::new(None),
            focus: LessonFocus {
                query: RwSignal::new(None),
                stage: RwSignal::new(None),
            },
            worker: StoredValue::new_local(None),
            code: RwSignal::new(None),
            pending: RwSignal::new(None),
        }
    }

    /// Runs `then` with the lessons' module, fetching it first if it is not in yet.
    pub fn with_code(self, then: impl FnOnce(LessonsCode) + 'static) {
        if let Some(code) = self.code.get_untracked() {
            then(code);
            return;
        }
        leptos::task::spawn_local(async move {
            let code = lessons_code().await;
            if self.code.get_untracked().is_none() {
                self.code.set(Some(code));
            }
            then(code);
        });
    }

    /// The step open, if any.
    pub fn step(&self) -> Option<(&'static Lesson, usize, &'static Step)> {
        self.open
            .get()
            .and_then(|(l, i)| l.steps.get(i).map(|s| (l, i, s)))
    }

    /// The step open, if any, without tracking it.
    pub fn step_untracked(&self) -> Option<(&'static Lesson, usize, &'static Step)> {
        self.open
            .get_untracked()
            .and_then(|(l, i)| l.steps.get(i).map(|s| (l, i, s)))
    }

    /// Opens step `index` of `lesson`.
    pub fn open_step(&self, lesson: &'static Lesson, index: usize, opening: Opening) {
        let Some(step) = lesson.steps.get(index) else {
            return;
        };
        // A reading for the previous step ends here: its tensors must not land now.
        self.worker.set_value(None);
        self.reading.set(false);
        self.tensors_error.set(None);
        self.picked.set(None);
        self.notice.set(None);
        self.list_open.set(false);
        if opening == Opening::StepState {
            self.state.apply(step.state.clone());
        }
        self.focus
            .query
            .set(step.selection.query.or(step.selection.cell.map(|c| c.0)));
        self.focus
            .stage
            .set(step.pointers.iter().find_map(|p| p.stage));
        self.state.hover.set(step.selection.cell);
        self.open.set(Some((lesson, index)));
        if let Some(file) = &step.tensors {
            self.read_tensors(lesson, index, file);
        }
        self.progress.update(|p| {
            p.mark_seen(&lesson.id, &step.id);
        });
        self.save_progress();
    }

    /// Moves `by` steps within the open lesson (nothing past either end).
    pub fn advance(&self, by: isize) {
        let Some((lesson, index)) = self.open.get_untracked() else {
            return;
        };
        let next = index as isize + by;
        if next >= 0 && (next as usize) < lesson.steps.len() {
            self.open_step(lesson, next as usize, Opening::StepState);
        }
    }

    /// Leaves the lesson: the app keeps its state, the link becomes the state's own.
    pub fn leave(&self) {
        self.worker.set_value(None);
        self.reading.set(false);
        self.open.set(None);
        self.picked.set(None);
        self.focus.query.set(None);
        self.focus.stage.set(None);
    }

    /// Forgets the steps seen of `lesson`.
    pub fn reset(&self, lesson: &str) {
        self.progress.update(|p| p.reset(lesson));
        self.save_progress();
    }

    fn save_progress(&self) {
        // A step is open or was (the module is in): steps of lessons this build does not
        // carry are dropped.
        if let Some(code) = self.code.get_untracked() {
            self.progress
                .update_untracked(|p| p.retain_known((code.catalog)().0));
        }
        if let Some(s) = storage() {
            let _ = s.set_item(
                STORAGE_KEY,
                &self.progress.with_untracked(Progress::to_json),
            );
        }
    }

    /// The link of the open step: `lesson=ID/STEP`, followed by `&` and `v1` (the
    /// state's own fragment) once the learner has changed the step's state; `None`
    /// outside a lesson.
    pub fn fragment(&self, v1: &str) -> Option<String> {
        if let Some(link) = self.pending.get() {
            return Some(link);
        }
        let (lesson, index) = self.open.get()?;
        let step = lesson.steps.get(index)?;
        let changed = self.state.link_state() != step.state;
        Some(lesson.link(index).fragment(changed.then_some(v1)))
    }

    /// The open step's own link, `lesson=ID/STEP` (its state as the lesson sets it,
    /// whatever was changed since); `None` outside a lesson.
    pub fn step_fragment(&self) -> Option<String> {
        let (lesson, index) = self.open.get()?;
        Some(lesson.link(index).fragment(None))
    }

    /// Reads `file` in the file reader's worker; its tensors replace the sentence if the
    /// step is still open when they arrive.
    fn read_tensors(
        &self,
        lesson: &'static Lesson,
        index: usize,
        file: &'static attnlab_lessons::TensorFile,
    ) {
        let player = *self;
        let name = file
            .path
            .rsplit('/')
            .next()
            .unwrap_or(&file.path)
            .to_string();
        let bytes = js_sys::Uint8Array::from(file.json.as_bytes()).buffer();
        self.reading.set(true);
        let done = move |outcome: Result<
            attnlab_formats::tensors::Brought,
            attnlab_formats::tensors::Refusal,
        >| {
            let still = player
                .open
                .get_untracked()
                .is_some_and(|(l, i)| std::ptr::eq(l, lesson) && i == index);
            if !still {
                return;
            }
            player.reading.set(false);
            match outcome {
                Ok(b) => player.state.brought.set(Some(Arc::new(b))),
                Err(e) => player.tensors_error.set(Some(e)),
            }
        };
        match FilesWorker::spawn_in(vec![(name, bytes)], done) {
            Ok(worker) => self.worker.set_value(Some(worker)),
            Err(e) => {
                self.reading.set(false);
                self.tensors_error.set(Some(e));
            }
        }
    }
}

/// Creates the player, opens the lesson step the page's link names (or the list with a
/// notice when it names one that does not exist), and provides the player and its
/// focus to every component below the caller.
pub fn provide_player(state: AppState) -> Player {
    let player = Player::new(state);
    provide_context(player);
    provide_context(player.focus);
    let hash = web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default();
    let (_, hash) = attnlab_link::split_lang(hash.trim_start_matches('#'));
    if let (Some(link), rest) = LessonLink::split(&hash) {
        let keep = !rest.is_empty();
        player.pending.set(Some(hash.to_string()));
        player.with_code(move |code| {
            player.pending.set(None);
            open_link(player, code, &link, keep);
        });
    }
    player
}

/// Opens what `link` names; `keep`: the link carries the learner's state after it (else
/// the step's own).
fn open_link(player: Player, code: LessonsCode, link: &LessonLink, keep: bool) {
    match (code.catalog)().0.find(link) {
        Ok((lesson, index)) => {
            let opening = match keep {
                false => Opening::StepState,
                true => Opening::KeepState,
            };
            player.open_step(lesson, index, opening);
        }
        Err(e) => {
            player.notice.set(Some(e));
            player.list_open.set(true);
        }
    }
}

/// The player provided by [`provide_player`], if any.
pub fn use_player() -> Option<Player> {
    use_context::<Player>()
}
