use attnlab_i18n::msg;
use attnlab_pages::complexity::{
    self, D_CHOICES, D_DEFAULT, FIT_FROM_N, Kind, Measurements, N_MAX, Report, Request,
};
use attnlab_plot::number;
use leptos::prelude::*;

use super::{TimingTable, WhyAttention};
use crate::canvas::LineChartCanvas;
use crate::i18n::{text, use_lang};
use attnlab_workers::{Failure, TimingWorker};

/// Where a run is.
#[derive(Debug, Clone, PartialEq)]
enum RunState {
    /// Nothing started yet.
    Idle,
    /// Points measured of the total; the worker is on the next one.
    Running { done: usize, total: usize },
    /// Every point measured.
    Finished { total: usize },
    /// Stopped by the person after `done` points.
    Cancelled { done: usize, total: usize },
    /// The worker could not run.
    Failed(Failure),
}

/// The complexity page: Start/Cancel, the sizes and head width, a progress bar, the
/// log–log chart, the slopes and the crossover, and the table of measured points.
#[component]
pub fn ComplexityView() -> impl IntoView {
    let lang = use_lang();
    let max_n = RwSignal::new(N_MAX);
    let d = RwSignal::new(D_DEFAULT);
    let measurements = RwSignal::new(Measurements::default());
    let planned = RwSignal::new(Request::new(N_MAX, D_DEFAULT));
    let run = RwSignal::new(RunState::Idle);
    let worker = StoredValue::new_local(None::<TimingWorker>);
    on_cleanup(move || {
        let _ = worker.try_set_value(None);
    });

    let running = move || matches!(run.get(), RunState::Running { .. });
    let start = move |_| {
        let request = Request::new(max_n.get_untracked(), d.get_untracked());
        let total = request.total();
        worker.set_value(None); // ends a previous run
        measurements.set(Measurements::default());
        planned.set(request.clone());
        run.set(RunState::Running { done: 0, total });
        let spawned = TimingWorker::spawn(&request, move |report| match report {
            Ok(Report::Ready) => {}
            Ok(Report::Progress { done, total, point }) => {
                let _ = measurements.try_update(|m| m.points.push(point));
                let _ = run.try_set(RunState::Running { done, total });
            }
            Ok(Report::Finished { total }) => {
                let _ = run.try_set(RunState::Finished { total });
            }
            Ok(Report::Failed { message }) => {
                let _ = run.try_set(RunState::Failed(Failure::Refused(message)));
            }
            Err(failure) => {
                let _ = run.try_set(RunState::Failed(failure));
            }
        });
        match spawned {
            Ok(w) => worker.set_value(Some(w)),
            Err(e) => run.set(RunState::Failed(e)),
        }
    };
    let cancel = move |_| {
        worker.set_value(None);
        if let RunState::Running { done, total } = run.get_untracked() {
            run.set(RunState::Cancelled { done, total });
        }
    };

    let done = move || match run.get() {
        RunState::Running { done, total } | RunState::Cancelled { done, total } => (done, total),
        RunState::Finished { total } => (total, total),
        _ => (0, planned.with(Request::total)),
    };
    let status = move || match (run.get(), lang.get()) {
        (RunState::Idle, l) => msg::complexity::COMPLEXITY_STATUS_IDLE.get(l).to_string(),
        (RunState::Running { done, total }, l) => {
            let next = planned.with(|r| {
                let k = r.kinds.len().max(1);
                r.sizes
                    .get(done / k)
                    .copied()
                    .zip(r.kinds.get(done % k).copied())
            });
            match next {
                Some((n, kind)) => msg::complexity::ComplexityStatusRunning {
                    done: &done,
                    total: &total,
                    n: &n,
                    kind: &kind.label_in(l),
                }
                .say(l),
                None => msg::complexity::ComplexityStatusRunningCount {
                    done: &done,
                    total: &total,
                }
                .say(l),
            }
        }
        (RunState::Finished { total }, l) => {
            msg::complexity::ComplexityStatusFinished { total: &total }.say(l)
        }
        (RunState::Cancelled { done, total }, l) => msg::complexity::ComplexityStatusCancelled {
            done: &done,
            total: &total,
        }
        .say(l),
        (RunState::Failed(why), l) => why.sentence(l),
    };
    let state_name = move || match run.get() {
        RunState::Idle => "idle",
        RunState::Running { .. } => "running",
        RunState::Finished { .. } => "finished",
        RunState::Cancelled { .. } => "cancelled",
        RunState::Failed(_) => "failed",
    };

    let chart = Signal::derive(move || {
        let lang = lang.get();
        Some(planned.with(|p| measurements.with(|m| complexity::chart(m, &p.sizes, lang))))
    });
    let slope = move |kind: Kind| {
        let fit = measurements.with(|m| m.fit(kind));
        let l = lang.get();
        let label = kind.label_in(l);
        let power = if kind == Kind::Softmax { "²" } else { "" };
        let said = match fit {
            Some(f) => msg::complexity::ComplexitySlope {
                label: &label,
                slope: &number::decimals(f.slope, 2),
                from: &f.from_n,
                to: &f.to_n,
                points: &f.points,
                power: &power,
                expected: &kind.expected_slope(),
            }
            .say(l),
            None => msg::complexity::ComplexityNoSlope { label: &label }.say(l),
        };
        (
            said,
            fit.map(|f| format!("{:.4}", f.slope)).unwrap_or_default(),
        )
    };
    let crossover = move || {
        let lang = lang.get();
        measurements.with(|m| m.crossover_text(lang))
    };
    let crossover_n = move || {
        measurements.with(|m| {
            m.crossover()
                .measured
                .map(|n| format!("{n:.1}"))
                .unwrap_or_default()
        })
    };

    view! {
        <section class="explain complexity" data-testid="complexity-view" aria-labelledby="complexity-title">
            <h2 class="section-title" id="complexity-title">{text(msg::complexity::COMPLEXITY_TITLE)}</h2>
            <p class="explain-lead" data-testid="complexity-lesson">
                {text(msg::complexity::COMPLEXITY_LESSON)}
            </p>
            <div class="complexity-controls" role="group" aria-label=text(msg::complexity::COMPLEXITY_RUN_LABEL)>
                <label>{text(msg::complexity::COMPLEXITY_MAX_N_LABEL)}
                    <select data-testid="complexity-max-n" prop:disabled=running
                        on:change=move |ev| {
                            if let Ok(v) = event_target_value(&ev).parse() { max_n.set(v) }
                        }>
                        {complexity::max_n_choices().into_iter().map(|n| view! {
                            <option value=n selected=move || max_n.get() == n>{n}</option>
                        }).collect_view()}
                    </select>
                </label>
                <label>{text(msg::complexity::COMPLEXITY_D_LABEL)}
                    <select data-testid="complexity-d" prop:disabled=running
                        on:change=move |ev| {
                            if let Ok(v) = event_target_value(&ev).parse() { d.set(v) }
                        }>
                        {D_CHOICES.into_iter().map(|v| view! {
                            <option value=v selected=move || d.get() == v>{v}</option>
                        }).collect_view()}
                    </select>
                </label>
                <button type="button" data-testid="complexity-start" prop:disabled=running on:click=start>
                    {move || if matches!(run.get(), RunState::Idle) {
                        msg::complexity::COMPLEXITY_START
                    } else {
                        msg::complexity::COMPLEXITY_START_AGAIN
                    }.get(lang.get())}
                </button>
                <button type="button" data-testid="complexity-cancel" prop:disabled=move || !running()
                    on:click=cancel>{text(msg::complexity::COMPLEXITY_CANCEL)}</button>
                <progress data-testid="complexity-progress" aria-label=text(msg::complexity::COMPLEXITY_PROGRESS_LABEL)
                    max=move || done().1.max(1) value=move || done().0></progress>
            </div>
            <p class="complexity-status" data-testid="complexity-status" data-state=state_name
                role="status" aria-live="polite">{status}</p>
            <div class="complexity-body">
                <LineChartCanvas chart=chart testid="complexity-chart" class="complexity-chart"/>
                <div class="complexity-side">
                    <ul class="complexity-results">
                        {Kind::ALL.into_iter().map(|kind| view! {
                            <li data-testid=format!("complexity-slope-{}", kind.name())
                                data-slope=move || slope(kind).1>{move || slope(kind).0}</li>
                        }).collect_view()}
                        <li data-testid="complexity-crossover" data-n=crossover_n>{crossover}</li>
                    </ul>
                    <p class="complexity-note">
                        {move || {
                            let (batch, samples, long) =
                                (complexity::MIN_BATCH_MS, complexity::SAMPLES, complexity::LONG_CALL_MS);
                            msg::complexity::ComplexityTimingNote {
                                batch: &batch,
                                samples: &samples,
                                long: &long,
                                from: &FIT_FROM_N,
                            }
                            .say(lang.get())
                        }}
                    </p>
                    <TimingTable measurements=measurements/>
                </div>
            </div>
            <WhyAttention/>
        </section>
    }
}
