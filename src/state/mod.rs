//! The one `AppState`: the lab's state held once in a store (what a link carries), the
//! few signals around it (the language, brought tensors, the hovered cell, the link's
//! notice), and what is derived from them by the domain functions of `attnlab_lab` (the
//! lab's domain model, shared with the CLI): [`derived`], one module for the lab's
//! figures and for the real model page's. Provided once by the root component; every
//! component reads it with [`use_app_state`].
//!
//! Each field of the state is read and written on its own (`state.lab.text()`,
//! `state.lab.view().head()`: [`LabFields`], [`ViewFields`]); an edit by the lab's rules
//! changes the state in place through [`AppState::edit`], which wakes the readers of the
//! fields it changed and no others.
//!
//! The memos follow `attnlab_lab::compute`'s steps, so a change recomputes only what it
//! touches:
//!
//! ```text
//! text, mode, pad_to ─▶ queries ─┐            source ─▶ keys ─┐
//! model ─────────────────────────┴▶ encoded ─▶ projected ◀────┘   (shared by all variants)
//! variants[i] ─▶ variant i ─▶ problem i (with projected) ─▶ heads i ─▶ grid i ─▶ selected i
//!                                                         └─────▶ average i ─▶ average figure i
//! two variants' heads (or averages) and figures ─▶ comparison
//! ```
//!
//! Every memo is built from the ones before it, once: none is a placeholder replaced
//! later. A variant's errors (its problem's or a head's) reach its panel through one memo,
//! [`derived::VariantMemos::error`]; what every variant shares (no text, refused model
//! settings, a cut text) reaches the notice above the figures through [`Derived::notice`].
//!
//! A temperature drag on variant B reruns B's problem and B's heads, and repaints B's
//! canvases only: the variants are one field of the store, and A's first memo (`variant
//! 0` above) finds A unchanged, so nothing after it reruns.
//!
//! A variant's heads (`heads i` above) are computed by [`heads_job`]: a large variant's
//! heads run over several tasks so that typing never waits for them, and its figures keep
//! showing the last result, all of one request, until the newest lands. The native tests
//! run the same scheduler, on an executor they drive task by task ([`tasks`]).

use attnlab_formats::tensors::Brought;
use attnlab_i18n::Lang;
use attnlab_i18n::Said;
pub use attnlab_lab::CompareWhat;
use attnlab_lab::state::PretrainedView;
use attnlab_lab::{LabState, Variant, View};
use attnlab_link::Loaded;
use leptos::prelude::*;
use reactive_stores::Store;
use std::sync::Arc;

/// An edit of the variant list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VariantEdit {
    /// A new variant with the default settings and the next free name.
    Add,
    /// A copy of variant `i`, after the others.
    Duplicate(usize),
    /// Variant `i` removed (its memos with it).
    Remove(usize),
}

/// Everything the lab's components share. All fields are `Copy` handles.
#[derive(Debug, Clone, Copy)]
pub struct AppState {
    /// The lab's whole state, as a link carries it (texts, mode, model settings, the
    /// variants, the view, the real model's page), held once: each field is read and
    /// written on its own ([`LabFields`], [`ViewFields`]), and an edit by the lab's rules
    /// goes through [`AppState::edit`].
    pub lab: Store<LabState>,
    /// The language every text is shown in (a link's `lang=`, else the one chosen
    /// before, else the browser's).
    pub lang: RwSignal<Lang>,
    /// Tensors brought in place of the sentence (`None`: the sentence through the seeded
    /// model). The sentence and the settings stay as they were, for when they are put away.
    pub brought: RwSignal<Option<Arc<Brought>>>,
    /// The heatmap cell (row, column) under the pointer, in any variant (token strip).
    pub hover: RwSignal<Option<(usize, usize)>>,
    /// A notice about what the app changed for the person, in every language: the link
    /// the page was opened with was repaired or unreadable, or a switch to cross-attention
    /// turned causal masks off.
    pub repair_notice: RwSignal<Option<Said>>,
    /// What is computed from the rest: the tokens, each variant's memos and figures, the
    /// comparison ([`derived`]).
    pub derived: Derived,
}

impl AppState {
    /// The state of the lab opened with `lab`.
    pub fn from_lab(lab: LabState) -> AppState {
        let lab = Store::new(lab);
        let lang = RwSignal::new(Lang::default());
        let brought = RwSignal::new(None);
        AppState {
            lab,
            lang,
            brought,
            hover: RwSignal::new(None),
            repair_notice: RwSignal::new(None),
            derived: Derived::new(lab, lang, brought),
        }
    }

    /// The state of the lab opened with the link fragment `fragment` (`""`: defaults),
    /// with a notice when the link was repaired or unreadable, in the link's language
    /// (else `lang`).
    pub fn from_fragment(fragment: &str, lang: Lang) -> AppState {
        let Loaded { state, notice } = attnlab_link::load(fragment);
        let lang = attnlab_link::lang_of(fragment).unwrap_or(lang);
        // A visit without a lab in its link opens on a sentence in its language.
        let (_, lab_part) = attnlab_link::split_lang(fragment.trim().trim_start_matches('#'));
        let state = if lab_part.trim().is_empty() {
            LabState::default_in(lang)
        } else {
            state
        };
        let app = AppState::from_lab(state);
        app.lang.set(lang);
        app.repair_notice.set(notice);
        app
    }

    /// Applies `f` to the lab's state in place, by the lab's rules (`LabState`'s
    /// methods), and tells the readers of the fields it changed; returns what `f` returns.
    /// A change of the variants' count goes through [`AppState::edit_variants`] or
    /// [`AppState::apply`], whose slots follow.
    pub fn edit<R>(&self, f: impl FnOnce(&mut LabState) -> R) -> R {
        store::edit(self.lab, f)
    }

    /// Applies `f` to variant `i`'s settings (nothing when there is no variant `i`).
    pub fn edit_variant(&self, i: usize, f: impl FnOnce(&mut Variant)) {
        self.edit(|lab| {
            if let Some(v) = lab.variants.get_mut(i) {
                f(v);
            }
        });
    }

    /// Applies `f` to the real model page's part of the state (nothing on the toy model).
    pub fn edit_model_page(&self, f: impl FnOnce(&mut PretrainedView)) {
        self.edit(|lab| {
            if let Some(p) = &mut lab.pretrained {
                f(p);
            }
        });
    }

    /// Applies `edit` to the variant list by the lab's rules ([`LabState::add_variant`],
    /// …): the slots follow, the other variants keep their memos. Returns why the edit
    /// was refused, as a sentence in every language.
    pub fn edit_variants(&self, edit: VariantEdit) -> Result<(), Said> {
        let removed = self.edit(|lab| match edit {
            VariantEdit::Add => lab.add_variant().map(|_| None),
            VariantEdit::Duplicate(i) => lab.duplicate_variant(i).map(|_| None),
            VariantEdit::Remove(i) => lab.remove_variant(i).map(|()| Some(i)),
        })?;
        self.sync_slots(removed);
        Ok(())
    }

    /// Makes the slots follow the lab's variants (after variant `removed` was removed):
    /// the slots kept keep their memos and learn their new places, missing slots are
    /// created. Returns the slots dropped.
    fn sync_slots(&self, removed: Option<usize>) -> Vec<VariantSlot> {
        let (slots, factory) = (self.derived.variants, self.derived.factory);
        let count = self.lab.variants().with_untracked(Vec::len);
        let mut dropped = Vec::new();
        slots.update(|slots| {
            if let Some(i) = removed
                && i < slots.len()
            {
                dropped.push(slots.remove(i));
            }
            dropped.extend(slots.split_off(count.min(slots.len())));
        });
        let have = slots.with_untracked(Vec::len);
        if have < count {
            let new: Vec<_> = (have..count).map(|i| factory.slot(i)).collect();
            slots.update(|slots| slots.extend(new));
        }
        slots.with_untracked(|slots| {
            for (i, slot) in slots.iter().enumerate() {
                slot.place(i);
            }
        });
        dropped
    }

    /// Puts the whole app in `lab`'s state, as a link opening it would, without a new
    /// page: the state is replaced (the readers of the fields that change are told) and
    /// the variant slots follow (through the same code as [`AppState::edit_variants`]);
    /// brought tensors are put away.
    pub fn apply(&self, lab: LabState) {
        self.edit(|state| *state = lab);
        // The slots dropped keep their memos until the views that showed them are gone:
        // the rest of the state changes too, and a panel still on the page for a moment
        // must not read a disposed memo.
        drop_later(self.sync_slots(None));
        self.brought.set(None);
        self.hover.set(None);
        self.repair_notice.set(None);
    }

    /// The lab's state as a link carries it: the head and the variant shown (a head past
    /// the model's count is never written to a link). Tracked: it follows every change.
    pub fn link_state(&self) -> LabState {
        let count = self.derived.variants.with(Vec::len);
        self.lab.with(|lab| {
            let mut lab = lab.clone();
            lab.view.variant = View::shown_variant(lab.view.variant, count);
            lab.view.head = View::shown_head(lab.view.head, lab.model.heads);
            lab
        })
    }

    /// The head every page shows (the selected one, within the head count).
    pub fn shown_head(&self) -> usize {
        View::shown_head(
            self.lab.view().head().get(),
            self.derived.used_model.with(|m| m.heads),
        )
    }

    /// The slot of the variant every page shows ([`Derived::shown_variant`]); `None`
    /// only while there is no variant.
    pub fn shown_slot(&self) -> Option<VariantSlot> {
        let i = self.derived.shown_variant.get();
        self.derived.variants.with(|slots| slots.get(i).cloned())
    }
}

/// Drops `slots` (and with them their memos) once the effects this change woke have run:
/// in the browser after a zero timeout; natively, where no view shows them, at once.
fn drop_later(slots: Vec<VariantSlot>) {
    #[cfg(target_arch = "wasm32")]
    if !slots.is_empty() {
        set_timeout(move || drop(slots), std::time::Duration::ZERO);
    }
    #[cfg(not(target_arch = "wasm32"))]
    drop(slots);
}

/// Creates the app state from the page's URL fragment and provides it to every
/// component below the caller; `first_lang` is the language when the link names none.
pub fn provide_app_state(first_lang: Lang) -> AppState {
    let hash = web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .unwrap_or_default();
    let hash = hash.trim_start_matches('#');
    let fragment = unsaved_edits(hash).unwrap_or_else(|| hash.to_string());
    let state = AppState::from_fragment(&fragment, first_lang);
    provide_context(state);
    #[cfg(target_arch = "wasm32")]
    rehearse_when_idle(state);
    state
}

/// Once the page is first idle, computes an edit of the sentence (a letter appended) with
/// the model and the first variant ([`attnlab_lab::compute::rehearse_edit`]) and writes the link once,
/// without using either: the browser compiles a wasm function when it is first called,
/// optimises it after it has run a while, and grows the memory when a keystroke's results
/// first sit beside the ones on screen, and the first keystroke would otherwise wait for
/// all that (about 30 ms at 512 tokens). Nothing on the page changes.
#[cfg(target_arch = "wasm32")]
fn rehearse_when_idle(state: AppState) {
    use wasm_bindgen::{JsCast, JsValue};
    let rehearse = wasm_bindgen::closure::Closure::once_into_js(move || {
        let (Some(model), Some(lab)) = (
            state.derived.used_model.try_get_untracked(),
            state.lab.try_with_untracked(LabState::clone),
        ) else {
            return;
        };
        let variant = lab
            .variants
            .first()
            .cloned()
            .unwrap_or_else(|| Variant::named("A"));
        let score = attnlab_lab::compute::rehearse_edit(&model, &variant, &lab.text);
        let link = attnlab_link::encode(&lab);
        std::hint::black_box((score, link));
    });
    let window = js_sys::global();
    let idle = js_sys::Reflect::get(&window, &JsValue::from_str("requestIdleCallback"))
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
    match idle {
        Some(f) => {
            let _ = f.call1(&window, &rehearse);
        }
        None => {
            if let Ok(f) = rehearse.dyn_into::<js_sys::Function>() {
                let _ = web_sys::window().map(|w| w.set_timeout_with_callback(&f));
            }
        }
    }
}

/// The key under which the page keeps its latest state in `sessionStorage`, written at
/// every change (the address bar is written at most every 200 ms, after a paint): a
/// reload at any moment, even one that races the address bar's last write, keeps every
/// keystroke.
pub const LATEST_KEY: &str = "attnlab:latest";

/// How many of the addresses the page put in the address bar (or opened with) it keeps
/// beside its latest state: a reload reopens one of the last two, whatever the timing.
pub const ADDRESSES_KEPT: usize = 4;

/// What the page keeps: its latest state (a fragment), then each address it wrote or
/// opened with, newest last, one a line (a fragment has no line break).
pub fn kept_record<'a>(latest: &str, addresses: impl IntoIterator<Item = &'a str>) -> String {
    let mut record = latest.to_string();
    for address in addresses {
        record.push('\n');
        record.push_str(address.trim_start_matches('#'));
    }
    record
}

/// The state to reopen from a [`kept_record`] at `address` (the fragment, `#` or not):
/// its latest state when the address is one the page wrote or opened with; `None` when
/// it is another (a link pasted or opened since is what the person asked for).
pub fn reopened<'a>(record: &'a str, address: &str) -> Option<&'a str> {
    let address = address.trim_start_matches('#');
    let mut lines = record.split('\n');
    let latest = lines.next().filter(|l| !l.is_empty())?;
    lines.any(|a| a == address).then_some(latest)
}

/// The state kept by the page that last showed this tab, when this page is a reload of
/// it (not a link or an address opened in the same tab) at an address it wrote.
fn unsaved_edits(address: &str) -> Option<String> {
    let window = web_sys::window()?;
    let storage = window.session_storage().ok()??;
    let saved = storage.get_item(LATEST_KEY).ok()??;
    let _ = storage.remove_item(LATEST_KEY);
    is_reload(&window)
        .then(|| reopened(&saved, address).map(str::to_string))
        .flatten()
}

/// Forgets the kept state: the page is about to open a link the person asked for.
pub fn forget_latest() {
    let storage = web_sys::window().and_then(|w| w.session_storage().ok().flatten());
    if let Some(storage) = storage {
        let _ = storage.remove_item(LATEST_KEY);
    }
}

/// Whether this page was opened by a reload (Navigation Timing's `type`).
fn is_reload(window: &web_sys::Window) -> bool {
    use wasm_bindgen::{JsCast, JsValue};
    let Some(performance) = window.performance() else {
        return false;
    };
    let get = |target: &JsValue, key: &str| js_sys::Reflect::get(target, &JsValue::from_str(key));
    let entries = get(performance.as_ref(), "getEntriesByType")
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .and_then(|f| {
            f.call1(performance.as_ref(), &JsValue::from_str("navigation"))
                .ok()
        });
    entries
        .and_then(|e| get(&e, "0").ok())
        .and_then(|entry| get(&entry, "type").ok())
        .and_then(|t| t.as_string())
        .is_some_and(|t| t == "reload")
}

/// Keeps `latest` (a fragment) beside the addresses this page wrote or opened with, for
/// [`provide_app_state`] to pick up on a reload.
pub fn remember_latest<'a>(latest: &str, addresses: impl IntoIterator<Item = &'a str>) {
    let storage = web_sys::window().and_then(|w| w.session_storage().ok().flatten());
    if let Some(storage) = storage {
        let _ = storage.set_item(LATEST_KEY, &kept_record(latest, addresses));
    }
}

/// The app state provided by [`provide_app_state`].
pub fn use_app_state() -> AppState {
    expect_context::<AppState>()
}

mod heads_job;
pub use heads_job::input_began;
mod store;
pub use store::{LabFields, ViewFields};
mod tasks;
#[cfg(test)]
pub use tasks::settle;
mod derived;
#[cfg(test)]
mod tests;

pub use derived::{Compared, Derived, ModelFigures, VariantSlot, example_pair, use_measured};
