//! A variant's heads, computed a head at a time.
//!
//! A [`Job`] holds one request (the problem, the labels of its figures, the number of the
//! inputs its raw scores follow) and computes one head per [`Job::step`]. [`heads_of`]
//! asks for a new job whenever a variant's inputs change, and [`start`] runs it at once
//! while the task that asked for it has time left (`TASK_BUDGET_MS`, shared by every
//! variant's job in that task, counted from the keystroke when the text box calls
//! [`input_began`]); what is left runs in later tasks (`QUEUE_BUDGET_MS` each), so the
//! page answers input in between. A task lands one job at most (the landing's figures
//! are painted at its end), so two variants land in two tasks. A newer request ends an
//! older one at its next head, so only the newest request's heads land.
//!
//! The same scheduler runs in the browser and in the native tests: only the time and
//! the later task come from the place it runs in ([`super::tasks`]).

use attnlab_core::CoreError;
use attnlab_core::attention::{HeadResult, Problem};
use attnlab_plot::Labels;
use leptos::prelude::*;
use leptos::reactive::effect::RenderEffect;
use ndarray::ArcArray2;
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::ops::Deref;
use std::sync::Arc;

use super::tasks::{next_task, now};

/// The time the task that asks for heads spends on them before the page gets the main
/// thread back, counted from the first job it starts, or from the keystroke when the
/// text box says so ([`input_began`]): with the task's other work (the tokens, the
/// projections, the page's own updates), well under the 50 ms after which input waits.
const TASK_BUDGET_MS: f64 = 24.0;

/// The time a later task (one that only computes queued heads) spends on them: with the
/// paints of a variant that lands, under 50 ms.
const QUEUE_BUDGET_MS: f64 = 12.0;

/// What one request computed: its problem, its heads, and the labels its figures carry.
/// Every figure of a variant is drawn from one `Computed`, so the labels, the weights and
/// the problem always belong together, even while a newer request is being computed.
#[derive(Debug)]
pub struct Computed {
    /// The problem the heads were computed from.
    pub problem: Result<Problem, CoreError>,
    /// Every head, or why they cannot be computed (the problem's error, or a head's).
    pub heads: Result<Vec<HeadResult>, CoreError>,
    /// The query and key labels of the figures.
    pub labels: (Labels, Labels),
    /// The number of the score inputs the heads' raw scores follow, when they are kept.
    scored_with: Option<u64>,
}

impl Computed {
    /// What stands in for a variant's heads before its first request is computed (and
    /// is replaced before anything reads it).
    pub fn pending() -> Computed {
        let e = CoreError::InvalidSetting {
            field: "heads",
            reason: attnlab_core::Invalid::NotComputed,
        };
        Computed {
            problem: Err(e.clone()),
            heads: Err(e),
            labels: Default::default(),
            scored_with: None,
        }
    }
}

/// A [`Computed`] shared by the memos that read it; two are equal only when they are the
/// same computation, so a landing never compares weights cell by cell.
#[derive(Debug, Clone)]
pub struct Shared(Arc<Computed>);

impl PartialEq for Shared {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Deref for Shared {
    type Target = Computed;
    fn deref(&self) -> &Computed {
        &self.0
    }
}

impl From<Computed> for Shared {
    fn from(c: Computed) -> Shared {
        Shared(Arc::new(c))
    }
}

/// One request's heads, computed a head at a time.
#[derive(Debug)]
pub struct Job {
    problem: Result<Problem, CoreError>,
    labels: (Labels, Labels),
    inputs: u64,
    /// The last result, whose raw scores are kept: whole when they follow the same
    /// inputs (`same_inputs`), else where the queries and keys are unchanged (the text
    /// was edited: `Problem::raw_scores_after`).
    last: Option<Shared>,
    same_inputs: bool,
    done: Vec<HeadResult>,
    failed: Option<CoreError>,
}

impl Job {
    /// A job for `problem`, whose figures carry `labels` and whose raw scores follow the
    /// score inputs numbered `inputs`; `last` is the last result, whose raw scores are
    /// kept when they follow the same inputs, and otherwise kept where the queries and keys
    /// are unchanged. A problem that is an error has nothing to compute: its heads are
    /// that error.
    pub fn new(
        problem: Result<Problem, CoreError>,
        labels: (Labels, Labels),
        inputs: u64,
        last: Option<&Shared>,
    ) -> Job {
        let count = problem.as_ref().map_or(0, |p| p.heads().len());
        Job {
            done: Vec::with_capacity(count),
            problem,
            labels,
            inputs,
            same_inputs: last.is_some_and(|c| c.scored_with == Some(inputs)),
            last: last.cloned(),
            failed: None,
        }
    }

    /// Head `h`'s raw scores from the last result: its own when they follow the same
    /// inputs, else computed from it where the queries and keys are unchanged (`None`:
    /// computed afresh, or a kind without scores).
    fn raw_scores(&self, problem: &Problem, h: usize) -> Option<ArcArray2<f32>> {
        let last = self.last.as_ref()?;
        let (Ok(old), Ok(heads)) = (&last.problem, &last.heads) else {
            return None;
        };
        let raw = heads.get(h)?.scores.as_ref()?;
        if self.same_inputs {
            return Some(raw.clone());
        }
        problem.raw_scores_after(h, old, raw).ok().flatten()
    }

    /// Whether every head is computed, or one has failed (or the problem is an error).
    pub fn is_done(&self) -> bool {
        match &self.problem {
            Err(_) => true,
            Ok(p) => self.failed.is_some() || self.done.len() >= p.heads().len(),
        }
    }

    /// Computes the next head, unless the job is done.
    pub fn step(&mut self) {
        if self.is_done() {
            return;
        }
        let Ok(problem) = &self.problem else {
            return;
        };
        let raw = self.raw_scores(problem, self.done.len());
        match problem.compute_head_weights(self.done.len(), raw.as_ref()) {
            Ok(r) => self.done.push(r),
            Err(e) => self.failed = Some(e),
        }
    }

    /// Steps while `go_on` says so; whether the job is done.
    pub fn run_while(&mut self, go_on: impl Fn() -> bool) -> bool {
        while !self.is_done() {
            if !go_on() {
                return false;
            }
            self.step();
        }
        true
    }

    /// Every step, at once.
    pub fn run(mut self) -> Computed {
        while !self.is_done() {
            self.step();
        }
        self.finish()
    }

    /// The result; call once [`Job::is_done`].
    pub fn finish(self) -> Computed {
        let heads = match (&self.problem, self.failed) {
            (Err(e), _) => Err(e.clone()),
            (Ok(_), Some(e)) => Err(e),
            (Ok(_), None) => Ok(self.done),
        };
        Computed {
            scored_with: heads.is_ok().then_some(self.inputs),
            problem: self.problem,
            heads,
            labels: self.labels,
        }
    }
}

/// The heads of `problem`, computed whenever the problem, the labels or the score inputs
/// change, and whether newer ones are being computed: the first request at once, later
/// ones by [`start`] (at once while the task has time, the rest in later tasks, only the
/// newest request landing).
pub fn heads_of(
    problem: Memo<Result<Problem, CoreError>>,
    labels: Memo<(Labels, Labels)>,
    score_inputs: Memo<u64>,
) -> (Signal<Shared>, Signal<bool>) {
    #[cfg(not(target_arch = "wasm32"))]
    super::tasks::init();
    // A new number for every request: a change of the problem, the labels or the inputs.
    let requests = StoredValue::new(0u64);
    let request = Memo::new(move |_| {
        // Read, not only tracked: a memo tracked before its first computation would
        // count that computation as a change, and number the same request twice.
        problem.with(|_| ());
        labels.with(|_| ());
        score_inputs.with(|_| ());
        requests.update_value(|r| *r += 1);
        requests.get_value()
    });
    let job = move |last: Option<&Shared>| {
        Job::new(
            problem.get_untracked(),
            labels.get_untracked(),
            score_inputs.get_untracked(),
            last,
        )
    };
    // Request 0 is never asked: the render effect's first run replaces it at once.
    let landed = RwSignal::new((0, Shared::from(Computed::pending())));
    let busy = RwSignal::new(false);
    // A render effect's first run is now, so the first request is computed at once (a new
    // variant never shows an empty panel), and the request memo has its reader from the
    // start; the later runs follow the request.
    let effect = RenderEffect::new(move |_| {
        let asked = request.get();
        let done = landed.with_untracked(|(done, _)| *done);
        if done == asked {
            return;
        }
        let job = landed.with_untracked(|(_, last)| job((done != 0).then_some(last)));
        if done == 0 {
            landed.set((asked, job.run().into()));
            return;
        }
        let now = start(
            job,
            move || request.try_get_untracked() == Some(asked),
            move |done| {
                landed.try_set((asked, done.into()));
                busy.try_set(false);
            },
        );
        busy.set(!now);
    });
    // Kept while the variant's owner lives: removing the variant ends the effect.
    StoredValue::new_local(effect);
    (
        Signal::derive(move || landed.with(|(_, c)| c.clone())),
        busy.into(),
    )
}

/// Computes `job` while this task has time left and hands its result to `land`; returns
/// whether it landed now. What is left runs in later tasks, jobs one after another in
/// the order they were asked for (so only one job's heads are held beside the results
/// on screen, and the first variant lands first), unless `current` stops returning
/// `true` first (a newer request, or the variant removed): then the job ends at its next
/// head without landing.
fn start(
    mut job: Job,
    current: impl Fn() -> bool + 'static,
    land: impl FnOnce(Computed) + 'static,
) -> bool {
    let deadline = task_deadline();
    if QUEUE.with(|q| q.borrow().is_empty())
        && !landed_in_this_task()
        && job.run_while(|| now() < deadline)
    {
        landing(land, job);
        return true;
    }
    QUEUE.with(|q| {
        q.borrow_mut().push_back(Queued {
            job,
            current: Box::new(current),
            land: Box::new(land),
        })
    });
    if !RUNNING.replace(true) {
        leptos::task::spawn_local(run_queue());
    }
    false
}

/// Whether a job has landed in the running task: its figures are painted at the end of
/// the task, so one landing is all a task takes (two variants' paints on top of their
/// heads would hold input back for more than 50 ms); the next job waits for the next
/// task.
fn landed_in_this_task() -> bool {
    BUDGET
        .get()
        .is_some_and(|(task, _)| LANDED.get() == Some(task))
}

/// Hands `job`'s result to `land`, noting the task it landed in.
fn landing(land: impl FnOnce(Computed), job: Job) {
    LANDED.set(BUDGET.get().map(|(task, _)| task));
    land(job.finish());
}

/// A job waiting for its turn, with its request's test and its landing.
struct Queued {
    job: Job,
    current: Box<dyn Fn() -> bool>,
    land: Box<dyn FnOnce(Computed)>,
}

thread_local! {
    static QUEUE: RefCell<VecDeque<Queued>> = const { RefCell::new(VecDeque::new()) };
    static RUNNING: Cell<bool> = const { Cell::new(false) };
    /// The running task's number and when its budget ends; `None` between tasks.
    static BUDGET: Cell<Option<(u64, f64)>> = const { Cell::new(None) };
    static TASKS: Cell<u64> = const { Cell::new(0) };
    /// The task a job last landed in.
    static LANDED: Cell<Option<u64>> = const { Cell::new(None) };
}

/// When this task's budget ends: the first job of a task starts its budget, and a later
/// task clears it.
fn task_deadline() -> f64 {
    match BUDGET.get() {
        Some((_, deadline)) => deadline,
        None => new_budget(TASK_BUDGET_MS),
    }
}

/// Starts this task's budget now, at a keystroke, before the text's tokens and
/// projections: heads then get what is left of [`TASK_BUDGET_MS`] after them.
pub fn input_began() {
    if BUDGET.get().is_none() {
        new_budget(TASK_BUDGET_MS);
    }
}

/// A new budget of `ms`, from now, for the running task; a later task clears it.
fn new_budget(ms: f64) -> f64 {
    let task = TASKS.get() + 1;
    TASKS.set(task);
    let deadline = now() + ms;
    BUDGET.set(Some((task, deadline)));
    leptos::task::spawn_local(async move {
        next_task().await;
        if BUDGET.get().is_some_and(|(t, _)| t == task) {
            BUDGET.set(None);
        }
    });
    deadline
}

/// Runs the queued jobs, a budget per task, until none is left.
async fn run_queue() {
    while let Some(Queued {
        mut job,
        current,
        land,
    }) = QUEUE.with(|q| q.borrow_mut().pop_front())
    {
        loop {
            if !current() {
                break;
            }
            let deadline = task_deadline();
            if !landed_in_this_task() && job.run_while(|| now() < deadline) {
                landing(land, job);
                break;
            }
            next_task().await;
            new_budget(QUEUE_BUDGET_MS);
        }
    }
    RUNNING.set(false);
}

#[cfg(test)]
mod tests {
    use super::*;
    use attnlab_lab::tokens::Tokens;
    use attnlab_lab::{Masks, ModelConfig, Variant, compute};

    /// The problem of the default model and `variant` on `words` words.
    fn problem(words: usize, variant: &Variant) -> Result<Problem, CoreError> {
        let text = vec!["cat"; words].join(" ");
        let tokens = Tokens::new(&text, None);
        let model = ModelConfig::default();
        let x = compute::encode(&model, &tokens)?;
        let w = model.projection_weights()?;
        let projected = compute::project(&model, w.as_ref(), &x, None)?;
        compute::problem(&model, &projected, variant, &tokens)
    }

    /// Every head of `p` as a job computes them: without the softmax kinds' outputs.
    fn weights_only(p: &Problem) -> Vec<HeadResult> {
        (0..p.heads().len())
            .map(|h| p.compute_head_weights(h, None).unwrap())
            .collect()
    }

    fn labels(n: usize) -> (Labels, Labels) {
        let l = Labels::from(vec!["cat".to_string(); n]);
        (l.clone(), l)
    }

    #[test]
    fn a_head_at_a_time_equals_every_head_at_once() {
        let variant = Variant::named("A");
        let p = problem(12, &variant).unwrap();
        let mut job = Job::new(Ok(p.clone()), labels(12), 1, None);
        let mut steps = 0;
        while !job.is_done() {
            job.step();
            steps += 1;
        }
        assert_eq!(steps, p.heads().len());
        // Stepping a finished job changes nothing.
        job.step();
        let done = job.finish();
        assert_eq!(done.heads.as_ref().unwrap(), &weights_only(&p));
        assert_eq!(done.problem.as_ref().unwrap(), &p);
        assert_eq!(done.labels, labels(12));
    }

    #[test]
    fn raw_scores_are_kept_only_for_the_same_inputs() {
        let variant = Variant::named("A");
        let first = Shared::from(Job::new(problem(6, &variant), labels(6), 7, None).run());
        let warmer = Variant {
            temperature: 2.0,
            masks: Masks::default(),
            ..variant.clone()
        };
        let p = problem(6, &warmer).unwrap();
        let kept = Job::new(Ok(p.clone()), labels(6), 7, Some(&first)).run();
        let fresh = Job::new(Ok(p.clone()), labels(6), 8, Some(&first)).run();
        for ((k, f), old) in kept
            .heads
            .unwrap()
            .iter()
            .zip(fresh.heads.as_ref().unwrap())
            .zip(first.heads.as_ref().unwrap())
        {
            let (k, f, old) = (
                k.scores.as_ref().unwrap(),
                f.scores.as_ref().unwrap(),
                old.scores.as_ref().unwrap(),
            );
            // Kept: the very same memory as the first result's; recomputed: equal values.
            assert_eq!(k.as_ptr(), old.as_ptr());
            assert_ne!(f.as_ptr(), old.as_ptr());
            assert_eq!(f, old);
        }
        assert_eq!(fresh.heads.unwrap(), weights_only(&p));
    }

    #[test]
    fn an_edit_keeps_the_scores_of_unchanged_tokens_and_gives_the_heads_afresh() {
        for variant in [
            Variant::named("A"),
            Variant {
                score: attnlab_core::score::ScoreFunction::Additive,
                ..Variant::named("B")
            },
        ] {
            let at = |text: &str| {
                let tokens = Tokens::new(text, None);
                let model = ModelConfig::default();
                let x = compute::encode(&model, &tokens).unwrap();
                let projected = compute::project(&model, None, &x, None).unwrap();
                compute::problem(&model, &projected, &variant, &tokens).unwrap()
            };
            let mut last = Shared::from(Job::new(Ok(at("the cat sat")), labels(3), 1, None).run());
            for (inputs, text) in [
                (2, "the cat sat on"),
                (3, "the cat sat on it"),
                (4, "a cat sat"),
            ] {
                let p = at(text);
                let n = p.heads()[0].q.nrows();
                let next = Job::new(Ok(p.clone()), labels(n), inputs, Some(&last)).run();
                assert_eq!(next.heads.as_ref().unwrap(), &weights_only(&p), "{text}");
                last = Shared::from(next);
            }
        }
    }

    #[test]
    fn an_error_is_the_heads_at_once() {
        let e = CoreError::InvalidSetting {
            field: "heads",
            reason: attnlab_core::Invalid::NotComputed,
        };
        let mut job = Job::new(Err(e.clone()), labels(0), 1, None);
        assert!(job.is_done());
        job.step();
        let done = job.finish();
        assert_eq!(done.heads, Err(e.clone()));
        assert_eq!(done.problem, Err(e));
        assert_eq!(done.scored_with, None);
    }

    #[test]
    fn a_job_stops_where_it_is_told_and_goes_on_from_there() {
        let variant = Variant::named("A");
        let p = problem(9, &variant).unwrap();
        let mut job = Job::new(Ok(p.clone()), labels(9), 1, None);
        assert!(!job.run_while(|| false));
        let steps = std::cell::Cell::new(0);
        assert!(!job.run_while(|| {
            steps.set(steps.get() + 1);
            steps.get() <= 2
        }));
        assert_eq!(job.done.len(), 2);
        assert!(job.run_while(|| true));
        assert_eq!(job.finish().heads.unwrap(), weights_only(&p));
    }

    #[test]
    fn computations_are_equal_only_to_themselves() {
        let variant = Variant::named("A");
        let one = Shared::from(Job::new(problem(5, &variant), labels(5), 1, None).run());
        let two = Shared::from(Job::new(problem(5, &variant), labels(5), 1, None).run());
        assert_eq!(one, one.clone());
        assert_ne!(one, two);
    }
}
