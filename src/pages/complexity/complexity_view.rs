use attnlab_pages::complexity::{
    self, D_CHOICES, D_DEFAULT, FIT_FROM_N, Kind, Measurements, N_MAX, Report, Request,
};
use attnlab_plot::number;
use leptos::prelude::*;

use super::TimingTable;
use crate::canvas::LineChartCanvas;
use crate::i18n::{Lang, t, use_lang};
use crate::workers::{Failure, TimingWorker};

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
        (RunState::Idle, l) => l
            .pick(
                "Not started: press Start to time both kinds in a background worker.",
                "尚未开始：按“开始”在后台线程中为两种注意力计时。",
            )
            .to_string(),
        (RunState::Running { done, total }, l) => {
            let next = planned.with(|r| {
                let k = r.kinds.len().max(1);
                r.sizes
                    .get(done / k)
                    .copied()
                    .zip(r.kinds.get(done % k).copied())
            });
            match (next, l) {
                (Some((n, kind)), Lang::En) => format!(
                    "Running: {done} of {total} measured; timing n = {n}, {}…",
                    kind.label_in(l)
                ),
                (Some((n, kind)), Lang::Zh) => format!(
                    "运行中：已测 {done} / {total} 个点；正在计时 n = {n}，{}…",
                    kind.label_in(l)
                ),
                (None, Lang::En) => format!("Running: {done} of {total} measured…"),
                (None, Lang::Zh) => format!("运行中：已测 {done} / {total} 个点…"),
            }
        }
        (RunState::Finished { total }, Lang::En) => format!("Finished: {total} points measured."),
        (RunState::Finished { total }, Lang::Zh) => format!("完成：共测得 {total} 个点。"),
        (RunState::Cancelled { done, total }, Lang::En) => {
            format!("Cancelled after {done} of {total} points; the measured points are kept.")
        }
        (RunState::Cancelled { done, total }, Lang::Zh) => {
            format!("在 {done} / {total} 个点后取消；已测得的点保留。")
        }
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
        let text = match (fit, l) {
            (Some(f), Lang::En) => format!(
                "{label}: slope {} (least squares over n = {}…{}, {} points; O(n{power}) predicts {})",
                number::decimals(f.slope, 2),
                f.from_n,
                f.to_n,
                f.points,
                kind.expected_slope()
            ),
            (Some(f), Lang::Zh) => format!(
                "{label}：斜率 {}（在 n = {}…{} 上的最小二乘，{} 个点；O(n{power}) 预测为 {}）",
                number::decimals(f.slope, 2),
                f.from_n,
                f.to_n,
                f.points,
                kind.expected_slope()
            ),
            (None, Lang::En) => format!("{label}: no slope yet (needs two sizes)"),
            (None, Lang::Zh) => format!("{label}：还没有斜率（需要两个规模）"),
        };
        (
            text,
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
            <h2 class="section-title" id="complexity-title">{t(
                "Complexity, measured in this browser",
                "复杂度：在这个浏览器中实测",
            )}</h2>
            <p class="explain-lead" data-testid="complexity-lesson">
                {t(
                    "Softmax attention compares every query with every key: n² dot products of length d, so doubling n \
                     quadruples the time (slope 2 on log–log axes), even streamed over key blocks with O(n·d) memory. \
                     Linear attention computes φ(Q)(φ(K)ᵀV): the keys are summed once into a d × d state that each query \
                     reads, n·d² work, so doubling n doubles the time (slope 1). Below n ≈ d the d² per token costs about \
                     as much as the n scores it saves: that is where the curves can cross.",
                    "softmax 注意力把每个查询与每个键相比：n² 个长度为 d 的点积，所以 n 翻倍时间变为四倍\
                     （双对数坐标下斜率为 2），即使按键块流式计算、只用 O(n·d) 内存也是如此。\
                     线性注意力计算 φ(Q)(φ(K)ᵀV)：键只被求和一次，得到一个 d × d 的状态供每个查询读取，\
                     工作量为 n·d²，所以 n 翻倍时间也翻倍（斜率为 1）。当 n ≈ d 以下时，每个词元的 d² 代价\
                     与它省下的 n 个分数差不多：两条曲线就可能在那里相交。",
                )}
            </p>
            <div class="complexity-controls" role="group" aria-label=t("Timing run", "计时运行")>
                <label>{t("largest n ", "最大的 n ")}
                    <select data-testid="complexity-max-n" prop:disabled=running
                        on:change=move |ev| {
                            if let Ok(v) = event_target_value(&ev).parse() { max_n.set(v) }
                        }>
                        {complexity::max_n_choices().into_iter().map(|n| view! {
                            <option value=n selected=move || max_n.get() == n>{n}</option>
                        }).collect_view()}
                    </select>
                </label>
                <label>{t("head width d ", "头的宽度 d ")}
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
                        lang.get().pick("Start", "开始")
                    } else {
                        lang.get().pick("Start again", "重新开始")
                    }}
                </button>
                <button type="button" data-testid="complexity-cancel" prop:disabled=move || !running()
                    on:click=cancel>{t("Cancel", "取消")}</button>
                <progress data-testid="complexity-progress" aria-label=t("Points measured", "已测的点")
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
                            match lang.get() {
                                Lang::En => format!("Each point: random unit-normal Q, K, V (seeded), one call timed and then repeated until a batch lasts ≥ {batch} ms; the median of up to {samples} batches (calls of ≥ {long} ms are timed once). The fit uses n ≥ {FIT_FROM_N}, where the fixed cost of a call no longer flattens the curves."),
                                Lang::Zh => format!("每个点：按种子生成服从标准正态分布的随机 Q、K、V，先计时一次调用，再重复直到一批持续 ≥ {batch} 毫秒；取至多 {samples} 批的中位数（≥ {long} 毫秒的调用只计时一次）。拟合使用 n ≥ {FIT_FROM_N} 的点，在那里一次调用的固定开销不再使曲线变平。"),
                            }
                        }}
                    </p>
                    <TimingTable measurements=measurements/>
                </div>
            </div>
        </section>
    }
}
