use attnlab_lab::pages::complexity::{
    self, D_CHOICES, D_DEFAULT, FIT_FROM_N, Kind, Measurements, N_MAX, Report, Request,
};
use attnlab_plot::number;
use leptos::prelude::*;

use super::TimingTable;
use super::timing_worker::TimingWorker;
use crate::canvas::LineChartCanvas;

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
    Failed(String),
}

/// The complexity page: Start/Cancel, the sizes and head width, a progress bar, the
/// log–log chart, the slopes and the crossover, and the table of measured points.
#[component]
pub fn ComplexityView() -> impl IntoView {
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
            Report::Ready => {}
            Report::Progress { done, total, point } => {
                let _ = measurements.try_update(|m| m.points.push(point));
                let _ = run.try_set(RunState::Running { done, total });
            }
            Report::Finished { total } => {
                let _ = run.try_set(RunState::Finished { total });
            }
            Report::Failed { message } => {
                let _ = run.try_set(RunState::Failed(message));
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
    let status = move || match run.get() {
        RunState::Idle => {
            "Not started: press Start to time both kinds in a background worker.".to_string()
        }
        RunState::Running { done, total } => {
            let next = planned.with(|r| {
                let k = r.kinds.len().max(1);
                r.sizes
                    .get(done / k)
                    .copied()
                    .zip(r.kinds.get(done % k).copied())
            });
            match next {
                Some((n, kind)) => format!(
                    "Running: {done} of {total} measured; timing n = {n}, {}…",
                    kind.label()
                ),
                None => format!("Running: {done} of {total} measured…"),
            }
        }
        RunState::Finished { total } => format!("Finished: {total} points measured."),
        RunState::Cancelled { done, total } => {
            format!("Cancelled after {done} of {total} points; the measured points are kept.")
        }
        RunState::Failed(why) => format!("Failed: {why}"),
    };
    let state_name = move || match run.get() {
        RunState::Idle => "idle",
        RunState::Running { .. } => "running",
        RunState::Finished { .. } => "finished",
        RunState::Cancelled { .. } => "cancelled",
        RunState::Failed(_) => "failed",
    };

    let chart = Signal::derive(move || {
        Some(planned.with(|p| measurements.with(|m| complexity::chart(m, &p.sizes))))
    });
    let slope = move |kind: Kind| {
        let fit = measurements.with(|m| m.fit(kind));
        let text = match fit {
            Some(f) => format!(
                "{}: slope {} (least squares over n = {}…{}, {} points; O(n{}) predicts {})",
                kind.label(),
                number::decimals(f.slope, 2),
                f.from_n,
                f.to_n,
                f.points,
                if kind == Kind::Softmax { "²" } else { "" },
                kind.expected_slope()
            ),
            None => format!("{}: no slope yet (needs two sizes)", kind.label()),
        };
        (
            text,
            fit.map(|f| format!("{:.4}", f.slope)).unwrap_or_default(),
        )
    };
    let crossover = move || measurements.with(Measurements::crossover_text);
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
            <h2 class="section-title" id="complexity-title">"Complexity, measured in this browser"</h2>
            <p class="explain-lead" data-testid="complexity-lesson">
                "Softmax attention compares every query with every key: n² dot products of length d, so doubling n "
                "quadruples the time (slope 2 on log–log axes), even streamed over key blocks with O(n·d) memory. "
                "Linear attention computes φ(Q)(φ(K)ᵀV): the keys are summed once into a d × d state that each query "
                "reads, n·d² work, so doubling n doubles the time (slope 1). Below n ≈ d the d² per token costs about "
                "as much as the n scores it saves: that is where the curves can cross."
            </p>
            <div class="complexity-controls" role="group" aria-label="Timing run">
                <label>"largest n "
                    <select data-testid="complexity-max-n" prop:disabled=running
                        on:change=move |ev| {
                            if let Ok(v) = event_target_value(&ev).parse() { max_n.set(v) }
                        }>
                        {complexity::max_n_choices().into_iter().map(|n| view! {
                            <option value=n selected=move || max_n.get() == n>{n}</option>
                        }).collect_view()}
                    </select>
                </label>
                <label>"head width d "
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
                    {move || if matches!(run.get(), RunState::Idle) { "Start" } else { "Start again" }}
                </button>
                <button type="button" data-testid="complexity-cancel" prop:disabled=move || !running()
                    on:click=cancel>"Cancel"</button>
                <progress data-testid="complexity-progress" aria-label="Points measured"
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
                        {format!("Each point: random unit-normal Q, K, V (seeded), one call timed and then repeated until a batch lasts ≥ {} ms; the median of up to {} batches (calls of ≥ {} ms are timed once). The fit uses n ≥ {FIT_FROM_N}, where the fixed cost of a call no longer flattens the curves.",
                            complexity::MIN_BATCH_MS, complexity::SAMPLES, complexity::LONG_CALL_MS)}
                    </p>
                    <TimingTable measurements=measurements/>
                </div>
            </div>
        </section>
    }
}
