use attnlab_i18n::msg;
use attnlab_plot::{Focus, TokenLines, TokenLinesMap};
use leptos::ev::{KeyboardEvent, PointerEvent};
use leptos::html::Canvas;
use leptos::prelude::*;

use crate::canvas::{ExportMenu, Exported, repaint_effect};
use crate::i18n::use_lang;
use attnlab_paint::{paint_token_lines, to_backing_pixels};

/// The token-lines figure on a canvas. Pointing at a token isolates its lines; with the
/// keyboard, ArrowUp/ArrowDown move the isolated token within its column,
/// ArrowLeft/ArrowRight switch between queries and keys, Escape shows every line.
#[component]
pub fn TokenLinesCanvas(
    /// The figure (its focus is `focus`).
    #[prop(into)]
    figure: Signal<Option<TokenLines>>,
    /// The isolated token.
    focus: RwSignal<Focus>,
    /// The figure's name in test ids: `{name}-canvas`, and its Export menu's `{name}-…`.
    #[prop(default = "lines")]
    name: &'static str,
) -> impl IntoView {
    let canvas = NodeRef::<Canvas>::new();
    let map = RwSignal::new(TokenLinesMap::EMPTY);

    repaint_effect(
        canvas,
        "the token lines",
        move |el, dpr, known| figure.with(|f| paint_token_lines(el, f.as_ref(), dpr, known)),
        move |m, _| map.set(m.unwrap_or(TokenLinesMap::EMPTY)),
    );

    let on_move = move |ev: PointerEvent| {
        let Some(el) = canvas.get_untracked() else {
            return;
        };
        let (x, y) = to_backing_pixels(&el, ev.offset_x() as f64, ev.offset_y() as f64);
        let next = map
            .with_untracked(|m| m.token_at(x, y))
            .unwrap_or(Focus::None);
        if focus.get_untracked() != next {
            focus.set(next);
        }
    };
    let on_key = move |ev: KeyboardEvent| {
        let (n, m) = map.with_untracked(TokenLinesMap::tokens);
        if n == 0 || m == 0 {
            return;
        }
        let next = match (ev.key().as_str(), focus.get_untracked()) {
            ("Escape", _) => Focus::None,
            ("ArrowDown", Focus::None) | ("ArrowUp", Focus::None) => Focus::Query(0),
            ("ArrowDown", Focus::Query(i)) => Focus::Query((i + 1).min(n - 1)),
            ("ArrowUp", Focus::Query(i)) => Focus::Query(i.saturating_sub(1)),
            ("ArrowDown", Focus::Key(j)) => Focus::Key((j + 1).min(m - 1)),
            ("ArrowUp", Focus::Key(j)) => Focus::Key(j.saturating_sub(1)),
            ("ArrowRight", Focus::Query(i)) => Focus::Key(i.min(m - 1)),
            ("ArrowRight", Focus::None) => Focus::Key(0),
            ("ArrowLeft", Focus::Key(j)) => Focus::Query(j.min(n - 1)),
            ("ArrowLeft", Focus::None) => Focus::Query(0),
            _ => return,
        };
        ev.prevent_default();
        focus.set(next);
    };
    let on_focus = move |_| {
        if focus.get_untracked() == Focus::None && map.with_untracked(|m| m.tokens().0 > 0) {
            focus.set(Focus::Query(0));
        }
    };
    let lang = use_lang();
    let label = move || {
        figure.with(|f| {
            let lang = lang.get();
            match f {
                Some(f) => msg::lines::LinesCanvasLabel {
                    title: &f.title(),
                    queries: &f.queries().len(),
                    keys: &f.keys().len(),
                    heads: &f.heads().len(),
                }
                .say(lang),
                None => msg::lines::LINES_CANVAS_EMPTY.get(lang).to_string(),
            }
        })
    };
    let focus_attr = move || match focus.get() {
        Focus::None => String::new(),
        Focus::Query(i) => format!("q{i}"),
        Focus::Key(j) => format!("k{j}"),
    };
    view! {
        <div class="heatmap-frame lines-frame">
            <canvas node_ref=canvas class="lines-canvas" data-testid=format!("{name}-canvas")
                data-focus=focus_attr tabindex="0" role="img" aria-label=label
                on:pointermove=on_move on:pointerdown=on_move on:keydown=on_key on:focus=on_focus
                on:pointerleave=move |ev: PointerEvent| {
                    if ev.pointer_type() != "touch" {
                        focus.set(Focus::None);
                    }
                }></canvas>
        </div>
        <ExportMenu figure=Signal::derive(move || figure.get().map(Exported::Lines))
            canvas=canvas testid=name tensors=None command=None/>
    }
}
