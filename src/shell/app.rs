use attnlab_i18n::msg;
use attnlab_lab::Page;
use leptos::prelude::*;

use super::token_strip::Side;
use super::{
    AppHeader, BringTensors, LinkBar, ModelChoice, ModelSettingsPanel, Notice, PageNav,
    SentenceInput, TokenStrip,
};
use crate::i18n::text;
use crate::lab::{ComparePanel, ComparedPick, FirstTokenPanel, VariantPanel, ZoomBar};
use crate::lessons::{LessonsEntry, lesson_bar, lesson_list, lesson_pointers, provide_player};
use crate::model::{ModelSession, Status, provide_model_session};
use crate::pages::block::BlockPage;
use crate::pages::complexity::ComplexityView;
use crate::pages::decoding::DecodingPage;
use crate::pages::linear::LinearPage;
use crate::pages::lines::LinesView;
use crate::pages::model::ModelPage;
use crate::pages::positions::PositionsPage;
use crate::pages::scaling::ScalingPage;
use crate::pages::steps::StepsView;
use crate::state::{
    AppState, LabFields, VariantEdit, ViewFields, provide_app_state, use_app_state,
};

/// The whole lab: the text and model on top, the variants side by side, the
/// comparison below.
#[component]
pub fn App() -> impl IntoView {
    let state = provide_app_state(crate::i18n::first_lang());
    crate::i18n::follow_in_document(state.lang);
    crate::display::provide_display();
    let session = provide_model_session();
    // Before the link bar, which writes the open lesson step's link.
    let player = provide_player(state);
    drive_model(state, session);
    let pages = LoadedPages::new();
    view! {
        <AppHeader/>
        // The look and the link: under the title on a screen, after the figures on a
        // phone (style/phone.css).
        <div class="page-tools">
            <crate::display::DisplayControls/>
            <LinkBar/>
        </div>
        <main class="lab">
            <div class="lab-side">
                <section class="panel panel-input" aria-label=text(msg::shell::LAB_PAGE_SENTENCE_TOKENS)>
                    <SentenceInput/>
                    <BringTensors/>
                    <TokenStrip side=Side::Queries/>
                    <Show when=move || {
                        state.lab.mode().get() == attnlab_lab::Mode::Cross
                            || state.brought.with(|b| b.as_ref().is_some_and(|b| b.is_cross()))
                    }>
                        <TokenStrip side=Side::Keys/>
                    </Show>
                </section>
                <section class="panel panel-model" aria-label=text(msg::shell::LAB_PAGE_MODEL_SETTINGS)>
                    <ModelChoice/>
                    <ModelSettingsPanel/>
                </section>
            </div>
            <div class="lab-main">
            <div class="page-nav-row"><PageNav/><LessonsEntry/></div>
            {lesson_list(player)}
            {lesson_bar(player)}
            <Notice/>
            {move || pages.view(state.lab.view().page().get())}
            </div>
        </main>
        {lesson_pointers(player)}
    }
}

/// A function that builds a page's view.
type MakePage = fn() -> AnyView;

/// Every page asked for so far, with its view builder once its code is in (`None`: on its
/// way). The lab's is there from the start: it is in the main module.
#[derive(Clone, Copy)]
struct LoadedPages(RwSignal<Vec<(Page, Option<MakePage>)>>);

impl LoadedPages {
    fn new() -> LoadedPages {
        LoadedPages(RwSignal::new(vec![(Page::Lab, Some(lab_page as MakePage))]))
    }

    /// `page`'s view. The lab is in the main module; every other page's code is a module
    /// of its own (`#[lazy]`; `cargo xtask` splits the app's wasm after the build), fetched
    /// the first time the page opens, with a line saying so until it is in. Once loaded, a
    /// page is built here, synchronously, as any view: a state change that re-opens it
    /// disposes the old one first.
    fn view(self, page: Page) -> AnyView {
        let known = self
            .0
            .with_untracked(|p| p.iter().find(|(q, _)| *q == page).map(|(_, make)| *make));
        match known {
            Some(Some(make)) => return make(),
            Some(None) => {}
            None => {
                self.0.update_untracked(|p| p.push((page, None)));
                leptos::task::spawn_local(async move {
                    let make = page_builder(page).await;
                    self.0.update(|p| {
                        if let Some(entry) = p.iter_mut().find(|(q, _)| *q == page) {
                            entry.1 = Some(make);
                        }
                    });
                });
            }
        }
        // Only a page still loading is asked for again when a module arrives.
        self.0.track();
        view! { <p class="page-loading" role="status">{text(msg::shell::LAB_PAGE_LOADING_PAGE)}</p> }
            .into_any()
    }
}

/// The lab page's view (in the main module).
fn lab_page() -> AnyView {
    view! { <LabPage/> }.into_any()
}

/// The builder of `page`'s view, from its module.
async fn page_builder(page: Page) -> MakePage {
    match page {
        Page::Lab => lab_page,
        Page::Steps => steps_page().await,
        Page::Block => block_page().await,
        Page::Positions => positions_page().await,
        Page::Scaling => scaling_page().await,
        Page::Linear => linear_page().await,
        Page::Lines => lines_page().await,
        Page::Complexity => complexity_page().await,
        Page::Decoding => decoding_page().await,
        Page::Model => model_page().await,
    }
}

#[lazy]
fn steps_page() -> MakePage {
    || view! { <StepsView/> }.into_any()
}

#[lazy]
fn block_page() -> MakePage {
    || view! { <BlockPage/> }.into_any()
}

#[lazy]
fn positions_page() -> MakePage {
    || view! { <PositionsPage/> }.into_any()
}

#[lazy]
fn scaling_page() -> MakePage {
    || view! { <ScalingPage/> }.into_any()
}

#[lazy]
fn linear_page() -> MakePage {
    || view! { <LinearPage/> }.into_any()
}

#[lazy]
fn lines_page() -> MakePage {
    || view! { <LinesView/> }.into_any()
}

#[lazy]
fn complexity_page() -> MakePage {
    || view! { <ComplexityView/> }.into_any()
}

#[lazy]
fn decoding_page() -> MakePage {
    || view! { <DecodingPage/> }.into_any()
}

#[lazy]
fn model_page() -> MakePage {
    || view! { <ModelPage/> }.into_any()
}

/// Keeps the model in step with the state: loads the chosen checkpoint whenever it is not
/// the one the session holds (a click, a link, a switch from one real model to the other;
/// after a cancel or a failure of the same checkpoint, only the person's "Load again"
/// asks again) and runs the sentence whenever it changes once the model is ready.
fn drive_model(state: AppState, session: ModelSession) {
    let chosen = Memo::new(move |_| state.lab.pretrained().with(|p| p.map(|p| p.checkpoint)));
    Effect::new(move |_| {
        if let Some(checkpoint) = chosen.get()
            && session.checkpoint.get_untracked() != Some(checkpoint)
        {
            session.load(checkpoint);
        }
    });
    let ready = Memo::new(move |_| {
        chosen
            .get()
            .is_some_and(|c| matches!(session.status_of(c), Status::Ready(_)))
    });
    Effect::new(move |_| {
        let text = state.lab.text().get();
        let pair = state
            .lab
            .pair()
            .with(|p| (!p.trim().is_empty()).then(|| p.clone()));
        if ready.get() && chosen.with(Option::is_some) {
            session.run_text(text, pair);
        }
    });
}

/// The lab itself: the variants side by side and their comparison.
#[component]
fn LabPage() -> impl IntoView {
    let state = use_app_state();
    let add_why = move || state.lab.with(|l| l.why_not_add_variant());
    let lang = state.lang;
    let count = move || state.derived.variants.with(Vec::len);
    // On a phone one variant is shown at a time, or their difference
    // (style/phone.css); a screen shows them all side by side and ignores this.
    let difference = RwSignal::new(false);
    let phone_show = move || {
        if difference.get() && count() > 1 {
            "difference".to_string()
        } else {
            state
                .lab
                .view()
                .variant()
                .get()
                .min(count().saturating_sub(1))
                .to_string()
        }
    };
    let names = move || {
        state.derived.variants.with(|v| {
            v.iter()
                .map(|slot| slot.variant.with(|v| v.name.clone()))
                .collect::<Vec<_>>()
        })
    };
    view! {
            <div class="variants-bar">
                <h2 class="section-title">{text(msg::shell::LAB_PAGE_VARIANTS)} <span class="token-count" data-testid="variant-count">{count}</span></h2>
                <button type="button" data-testid="add-variant" disabled=move || add_why().is_some()
                    title=move || match add_why() {
                        Some(why) => why.get(lang.get()),
                        None => msg::shell::LAB_PAGE_ADD_VARIANT_TITLE.get(lang.get()),
                    }
                    on:click=move |_| { let _ = state.edit_variants(VariantEdit::Add); }>
                    {text(msg::shell::LAB_PAGE_ADD_VARIANT)}
                </button>
                <span class="why is-shown">{move || add_why().map(|w| w.get(lang.get()))}</span>
                // With three or four variants, the two side by side in the first row are
                // the compared pair (its difference is below them); the others follow.
                <Show when=move || { count() > 2 }>
                    <div class="variants-side" role="group" data-testid="side-by-side"
                        aria-label=text(msg::shell::LAB_PAGE_SIDE_BY_SIDE_LABEL)>
                        <span class="field-label-inline">{text(msg::shell::LAB_PAGE_SIDE_BY_SIDE)}</span>
                        <ComparedPick second=false testid="side-a"
                            label=text(msg::shell::LAB_PAGE_FIRST_VARIANT_SIDE)/>
                        <ComparedPick second=true testid="side-b"
                            label=text(msg::shell::LAB_PAGE_SECOND_VARIANT_SIDE)/>
                    </div>
                </Show>
            </div>
            <Show when=move || { count() > 1 }>
                <div class="variant-switch" role="group" data-testid="variant-switch"
                    aria-label=text(msg::shell::LAB_PAGE_VARIANT_SHOWN)>
                    {move || names().into_iter().enumerate().map(|(i, name)| view! {
                        <button type="button" data-testid="variant-switch-tab" translate="no"
                            aria-pressed=move || (!difference.get() && state.lab.view().variant().get() == i).to_string()
                            on:click=move |_| {
                                difference.set(false);
                                state.lab.view().variant().set(i);
                            }>{name}</button>
                    }).collect_view()}
                    <button type="button" data-testid="variant-switch-difference"
                        aria-pressed=move || difference.get().to_string()
                        on:click=move |_| difference.set(true)>{text(msg::shell::LAB_PAGE_DIFFERENCE)}</button>
                </div>
            </Show>
            <ZoomBar/>
            <div class="lab-variants" data-phone-show=phone_show>
                <div class="variants" style=move || format!("--variant-count: {}", count())
                    data-side-by-side=move || { let (a, b) = state.lab.view().compare().get(); format!("{a} {b}") }>
                    <For
                        each=move || state.derived.variants.get()
                        key=|slot| slot.id
                        children=move |slot| view! { <VariantPanel entry=slot/> }
                    />
                </div>
                <ComparePanel/>
                <FirstTokenPanel/>
            </div>
    }
}
