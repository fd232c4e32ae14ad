use attnlab_core::attention::HeadResult;
use attnlab_i18n::msg;
use attnlab_lab::compute;
use attnlab_lab::tokens::{self, Tokens};
use attnlab_pages::lines::{strongest, token_lines};
use attnlab_plot::{Focus, TokenLines, number};
use leptos::prelude::*;

use super::{HeadToggles, TokenLinesCanvas};
use crate::i18n::marked::{MARK, with_marked};
use crate::i18n::text;
use crate::state::{LabFields, ViewFields, use_app_state};
use crate::widgets::view_pickers::VariantPicker;

/// How many of a token's strongest links the readout lists per head.
const TOP: usize = 3;

/// The selected variant's heads as lines between the query tokens (left) and the key
/// tokens (right), line opacity = weight, one colour per ticked head; pointing at a
/// token (or moving to it with the arrow keys) isolates its lines and lists its
/// strongest links with their weights.
#[component]
pub fn LinesView() -> impl IntoView {
    let state = use_app_state();
    let lang = state.lang;
    let shown = RwSignal::new(vec![state.shown_head()]);
    let focus = RwSignal::new(Focus::None);

    // The ticked heads that exist, with their results.
    let results = Memo::new(move |_| -> Result<Vec<(usize, HeadResult)>, String> {
        if state.derived.tokens.with(Tokens::is_empty)
            || state.derived.key_tokens.with(Tokens::is_empty)
        {
            return Err(tokens::NOTHING_TO_ATTEND.get(state.lang.get()).to_string());
        }
        let count = state.derived.used_model.with(|m| m.heads);
        let computed = state
            .shown_slot()
            .map(|s| s.memos.computed)
            .ok_or_else(|| msg::lines::LINES_NO_VARIANT.get(lang.get()).to_string())?;
        computed.with(|c| {
            let all = c.heads.as_ref().map_err(attnlab_lab::explain::explain)?;
            Ok(shown
                .get()
                .into_iter()
                .filter(|&h| h < count)
                .filter_map(|h| Some((h, all.get(h)?.clone())))
                .collect())
        })
    });
    let labels = Memo::new(move |_| {
        let variant = state.shown_slot().map(|s| s.variant.get());
        let rows = state.derived.tokens.with(Tokens::labels);
        let cols = match variant {
            Some(v) => state
                .derived
                .key_tokens
                .with(|t| compute::key_labels(t, &v)),
            None => Vec::new(),
        };
        (rows, cols)
    });
    let title = move || {
        state
            .shown_slot()
            .map(|s| s.variant.with(|v| v.name.clone()))
            .unwrap_or_default()
    };
    let figure: Memo<Option<TokenLines>> = Memo::new(move |_| {
        let f = focus.get();
        results.with(|r| {
            let r = r.as_ref().ok()?;
            let heads: Vec<(usize, &HeadResult)> = r.iter().map(|(h, x)| (*h, x)).collect();
            labels.with(|(rows, cols)| {
                if rows.is_empty() || cols.is_empty() {
                    return None;
                }
                let lang = lang.get();
                let threshold = state.lab.view().lines_threshold().get() as f32 / 1000.0;
                // The threshold is in the title, so an exported image says it too.
                let least = number::decimals(threshold, 3);
                let name = title();
                let t = if threshold > 0.0 {
                    msg::lines::LinesFigureTitleThreshold {
                        name: &name,
                        least: &least,
                    }
                    .say(lang)
                } else {
                    msg::lines::LinesFigureTitle { name: &name }.say(lang)
                };
                token_lines(t, rows, cols, &heads, f, lang)
                    .ok()
                    .map(|l| l.with_threshold(threshold))
            })
        })
    });
    let error = move || results.with(|r| r.as_ref().err().cloned());
    // The focused token: what it is, the token itself, its index.
    let focus_name = move || {
        let l = lang.get();
        labels.with(|(rows, cols)| match focus.get() {
            Focus::Query(i) => rows
                .get(i)
                .map(|t| (msg::lines::LINES_FOCUS_QUERY.get(l), t.clone(), i)),
            Focus::Key(j) => cols
                .get(j)
                .map(|t| (msg::lines::LINES_FOCUS_KEY.get(l), t.clone(), j)),
            Focus::None => None,
        })
    };
    let readout = move || {
        let f = focus.get();
        let (what, token, index) = focus_name()?;
        let items = results.with(|r| {
            let r = r.as_ref().ok()?;
            Some(
                r.iter()
                    .map(|(h, res)| {
                        let links = strongest(res, f, TOP);
                        labels.with(|(rows, cols)| {
                            let other = |k: usize| match f {
                                Focus::Key(_) => rows.get(k).cloned().unwrap_or_default(),
                                _ => cols.get(k).cloned().unwrap_or_default(),
                            };
                            (
                                *h,
                                links
                                    .into_iter()
                                    .map(|(k, w)| (k, other(k), w))
                                    .collect::<Vec<_>>(),
                            )
                        })
                    })
                    .collect::<Vec<_>>(),
            )
        })?;
        let l = lang.get();
        let quoted = format!("\u{201c}{token}\u{201d}");
        let token = &MARK[0];
        let said = match f {
            Focus::Key(_) => msg::lines::LinesReadoutAttendedBy {
                what: &what,
                token,
                index: &index,
            }
            .say(l),
            _ => msg::lines::LinesReadoutAttendsTo {
                what: &what,
                token,
                index: &index,
            }
            .say(l),
        };
        let title = with_marked(&said, move |_| {
            view! { <span translate="no">{quoted.clone()}</span> }.into_any()
        });
        Some(view! {
            <p class="lines-readout-title">{title}</p>
            <ul class="lines-readout-list">
                {items.into_iter().map(|(h, links)| view! {
                    <li data-testid="lines-head-readout" data-head=h.to_string()>
                        <strong>{msg::lines::LinesReadoutHead { head: &h }.say(l)}</strong>
                        {links.into_iter().map(|(k, t, w)| view! {
                            <span class="lines-link" data-testid="lines-link" data-index=k.to_string()
                                data-weight=w.to_string() translate="no">
                                {format!("\u{201c}{t}\u{201d} {}", number::decimals(w, 3))}
                            </span>
                        }).collect_view()}
                    </li>
                }).collect_view()}
            </ul>
        })
    };

    view! {
        <section class="explain lines" data-testid="lines-view">
            <p class="explain-lead">
                {text(msg::lines::LINES_LEAD)}
            </p>
            <div class="steps-controls">
                <VariantPicker id="lines-variant"/>
                <HeadToggles shown=shown/>
                <LinesThreshold/>
            </div>
            {move || error().map(|e| view! { <p class="notice" role="status" data-testid="lines-error">{e}</p> })}
            <div class="lines-body">
                <TokenLinesCanvas figure=figure focus=focus/>
                <div class="lines-readout" data-testid="lines-readout" aria-live="polite">
                    {move || readout().map(|v| v.into_any()).unwrap_or_else(|| view! {
                        <p class="lines-readout-title">{text(msg::lines::LINES_READOUT_IDLE)}</p>
                    }.into_any())}
                </div>
            </div>
        </section>
    }
}

/// The least weight of a line drawn: a slider and a number, in the link (`View::lines_threshold`).
#[component]
fn LinesThreshold() -> impl IntoView {
    let state = use_app_state();
    let value =
        move || number::decimals(state.lab.view().lines_threshold().get() as f32 / 1000.0, 3);
    let set = move |text: String| {
        let Ok(w) = text.trim().parse::<f64>() else {
            return;
        };
        if !w.is_finite() {
            return;
        }
        let (lo, hi) = (
            *attnlab_lab::LINES_THRESHOLD_RANGE.start(),
            *attnlab_lab::LINES_THRESHOLD_RANGE.end(),
        );
        let t = ((w * 1000.0).round().max(0.0) as usize).clamp(lo, hi);
        if state.lab.view().lines_threshold().get_untracked() != t {
            state.lab.view().lines_threshold().set(t);
        }
    };
    view! {
        <div class="lines-threshold">
            <label for="lines-threshold">{text(msg::lines::LINES_THRESHOLD_LABEL)}</label>
            <input type="range" id="lines-threshold" data-testid="lines-threshold" min="0" max="0.5" step="0.005"
                prop:value=value on:input=move |ev| set(event_target_value(&ev))/>
            <input type="number" data-testid="lines-threshold-value" min="0" max="1" step="0.005"
                aria-label=text(msg::lines::LINES_THRESHOLD_VALUE_LABEL)
                prop:value=value on:change=move |ev| set(event_target_value(&ev))/>
            <span class="lines-threshold-note">{text(msg::lines::LINES_THRESHOLD_NOTE)}</span>
        </div>
    }
}
