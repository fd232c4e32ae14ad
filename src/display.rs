//! How the app looks, apart from what it shows: the theme (light, dark, or the system's),
//! the colours of the figures (colour-blind-safe palettes), and presentation mode for a
//! projector (large type and figures, thick lines, high contrast, secondary panels
//! hidden). Chosen in the header, remembered in `localStorage`; not part of the link (a
//! link shows the same lab on any screen, in the look its viewer chose).

use attnlab_i18n::msg;
use attnlab_plot::{DivergingPalette, Palette, SequentialPalette};
use leptos::prelude::*;

use crate::i18n::{Lang, text};

/// The `localStorage` keys.
const THEME_KEY: &str = "attnlab.theme";
const PALETTE_KEY: &str = "attnlab.palette";
const PRESENT_KEY: &str = "attnlab.present";

/// The colour theme.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Theme {
    /// The system's (`prefers-color-scheme`).
    #[default]
    System,
    /// Light.
    Light,
    /// Dark.
    Dark,
}

impl Theme {
    const ALL: [Theme; 3] = [Theme::System, Theme::Light, Theme::Dark];

    fn code(self) -> &'static str {
        match self {
            Theme::System => "system",
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }

    fn label(self, lang: Lang) -> &'static str {
        match self {
            Theme::System => msg::shell::DISPLAY_SYSTEM.get(lang),
            Theme::Light => msg::shell::DISPLAY_LIGHT.get(lang),
            Theme::Dark => msg::shell::DISPLAY_DARK.get(lang),
        }
    }
}

/// The look of the app. All fields are `Copy` handles.
#[derive(Debug, Clone, Copy)]
pub struct Display {
    /// The colour theme.
    pub theme: RwSignal<Theme>,
    /// The figures' colours.
    pub palette: RwSignal<Palette>,
    /// Presentation mode.
    pub presenting: RwSignal<bool>,
}

impl Display {
    /// How much larger figures draw their text and lines than on a desk.
    pub fn figure_scale(&self) -> f64 {
        if self.presenting.get() {
            PRESENT_FIGURE_SCALE
        } else {
            1.0
        }
    }
}

/// Presentation mode's figure scale: a heatmap's smallest labels (12 px on a desk) are
/// 18 px on a projector.
pub const PRESENT_FIGURE_SCALE: f64 = 1.5;

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

fn stored(key: &str) -> Option<String> {
    storage()?.get_item(key).ok()?
}

fn store(key: &str, value: &str) {
    if let Some(s) = storage() {
        let _ = s.set_item(key, value);
    }
}

fn palette_code(p: Palette) -> String {
    let seq = match p.sequential {
        SequentialPalette::YlGnBu => "ylgnbu",
        SequentialPalette::Viridis => "viridis",
        SequentialPalette::Cividis => "cividis",
    };
    let div = match p.diverging {
        DivergingPalette::RdBu => "rdbu",
        DivergingPalette::PuOr => "puor",
    };
    format!("{seq}.{div}")
}

fn parse_palette(code: &str) -> Palette {
    let (seq, div) = code.split_once('.').unwrap_or((code, ""));
    Palette {
        sequential: match seq {
            "viridis" => SequentialPalette::Viridis,
            "cividis" => SequentialPalette::Cividis,
            _ => SequentialPalette::YlGnBu,
        },
        diverging: match div {
            "puor" => DivergingPalette::PuOr,
            _ => DivergingPalette::RdBu,
        },
    }
}

/// Sets `name` on `<html>` to `value` (`None`: removes it).
pub(crate) fn set_root_attribute(name: &str, value: Option<&str>) {
    let Some(root) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    else {
        return;
    };
    let _ = match value {
        Some(v) => root.set_attribute(name, v),
        None => root.remove_attribute(name),
    };
}

/// Creates the look from what was chosen before, keeps `<html data-theme>` and
/// `<html data-presenting>` in step with it, and provides it to every component below.
pub fn provide_display() -> Display {
    let theme = stored(THEME_KEY)
        .and_then(|c| Theme::ALL.into_iter().find(|t| t.code() == c))
        .unwrap_or_default();
    let display = Display {
        theme: RwSignal::new(theme),
        palette: RwSignal::new(
            stored(PALETTE_KEY).map_or_else(Palette::default, |c| parse_palette(&c)),
        ),
        presenting: RwSignal::new(stored(PRESENT_KEY).as_deref() == Some("1")),
    };
    Effect::new(move |_| {
        let theme = display.theme.get();
        set_root_attribute("data-theme", (theme != Theme::System).then(|| theme.code()));
        store(THEME_KEY, theme.code());
    });
    Effect::new(move |_| {
        let code = palette_code(display.palette.get());
        set_root_attribute("data-palette", Some(&code));
        store(PALETTE_KEY, &code);
    });
    Effect::new(move |_| {
        let on = display.presenting.get();
        set_root_attribute("data-presenting", on.then_some("true"));
        store(PRESENT_KEY, if on { "1" } else { "0" });
    });
    // Escape leaves presentation mode (a clicker's keys step through a lesson), unless it
    // closes a modal dialog over it (the QR code's).
    let on_key = window_event_listener(leptos::ev::keydown, move |ev| {
        if ev.key() == "Escape" && display.presenting.get_untracked() && !modal_open() {
            display.presenting.set(false);
        }
    });
    on_cleanup(move || on_key.remove());
    provide_context(display);
    display
}

/// Whether a modal dialog is open: Escape is its to close.
fn modal_open() -> bool {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector("dialog:modal").ok().flatten())
        .is_some()
}

/// The look provided by [`provide_display`], or the default one.
pub fn use_display() -> Display {
    use_context::<Display>().unwrap_or_else(|| Display {
        theme: RwSignal::new(Theme::default()),
        palette: RwSignal::new(Palette::default()),
        presenting: RwSignal::new(false),
    })
}

/// The header's controls: presentation mode, the theme, the figures' colours.
#[component]
pub fn DisplayControls() -> impl IntoView {
    let display = use_display();
    let lang = crate::i18n::use_lang();
    let themes = move || {
        Theme::ALL
            .into_iter()
            .map(|th| {
                view! {
                    <option value=th.code() selected=move || display.theme.get() == th>
                        {move || th.label(lang.get())}
                    </option>
                }
            })
            .collect_view()
    };
    let sequential = [
        (SequentialPalette::YlGnBu, "ylgnbu", "YlGnBu"),
        (SequentialPalette::Viridis, "viridis", "viridis"),
        (SequentialPalette::Cividis, "cividis", "cividis"),
    ];
    let diverging = [
        (DivergingPalette::RdBu, "rdbu", "RdBu"),
        (DivergingPalette::PuOr, "puor", "PuOr"),
    ];
    let on_theme = move |ev: leptos::ev::Event| {
        let v = event_target_value(&ev);
        if let Some(th) = Theme::ALL.into_iter().find(|th| th.code() == v) {
            display.theme.set(th);
        }
    };
    let on_sequential = move |ev: leptos::ev::Event| {
        let v = event_target_value(&ev);
        if let Some((p, _, _)) = sequential.iter().find(|(_, c, _)| *c == v) {
            display.palette.update(|pal| pal.sequential = *p);
        }
    };
    let on_diverging = move |ev: leptos::ev::Event| {
        let v = event_target_value(&ev);
        if let Some((p, _, _)) = diverging.iter().find(|(_, c, _)| *c == v) {
            display.palette.update(|pal| pal.diverging = *p);
        }
    };
    view! {
        <div class="display-controls">
            <button type="button" class="present-button" data-testid="present"
                aria-pressed=move || display.presenting.get().to_string()
                title=text(msg::shell::DISPLAY_PRESENT_TITLE)
                on:click=move |_| display.presenting.update(|p| *p = !*p)>
                {text(msg::shell::DISPLAY_PRESENT)}
            </button>
            <label class="display-field">
                <span>{text(msg::shell::DISPLAY_THEME)}</span>
                <select data-testid="theme" on:change=on_theme>{themes}</select>
            </label>
            <label class="display-field">
                <span>{text(msg::shell::DISPLAY_WEIGHTS)}</span>
                <select data-testid="palette-weights" on:change=on_sequential translate="no">
                    {sequential.map(|(p, code, name)| view! {
                        <option value=code selected=move || display.palette.get().sequential == p>{name}</option>
                    }).collect_view()}
                </select>
            </label>
            <label class="display-field">
                <span>{text(msg::shell::DISPLAY_DIFFERENCES)}</span>
                <select data-testid="palette-differences" on:change=on_diverging translate="no">
                    {diverging.map(|(p, code, name)| view! {
                        <option value=code selected=move || display.palette.get().diverging == p>{name}</option>
                    }).collect_view()}
                </select>
            </label>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn palettes_round_trip_through_their_codes() {
        for sequential in [
            SequentialPalette::YlGnBu,
            SequentialPalette::Viridis,
            SequentialPalette::Cividis,
        ] {
            for diverging in [DivergingPalette::RdBu, DivergingPalette::PuOr] {
                let p = Palette {
                    sequential,
                    diverging,
                };
                assert_eq!(parse_palette(&palette_code(p)), p);
            }
        }
        assert_eq!(parse_palette("nonsense"), Palette::default());
        assert_eq!(parse_palette(""), Palette::default());
    }
}
