//! The two things [`super::heads_job`]'s scheduler asks of the place it runs in: the time
//! ([`now`]) and a later task ([`next_task`]).
//!
//! In the browser they are `performance.now()` and `scheduler.yield()` (else a message
//! through a `MessageChannel`); effects and spawned futures run as microtasks of the task
//! that woke them. Natively (the app's tests) the same scheduler runs on a thread-local
//! executor that the test drives as the browser's event loop would: `run_microtasks`
//! ends the running task (the effects a change woke run, and the heads that fit its
//! budget), `run_task` runs the next task, `settle` runs them all. The native time is
//! a counter that moves on by `set_tick` ms each time the scheduler reads it (0 unless
//! a test sets it), so a test decides how many heads fit in a budget.

#[cfg(target_arch = "wasm32")]
pub use browser::{next_task, now};
#[cfg(not(target_arch = "wasm32"))]
pub use native::{init, next_task, now};
#[cfg(all(test, not(target_arch = "wasm32")))]
pub use native::{run_microtasks, run_task, set_tick, settle};

#[cfg(target_arch = "wasm32")]
mod browser {
    use std::cell::RefCell;
    use std::collections::VecDeque;
    use wasm_bindgen::prelude::*;
    use wasm_bindgen::{JsCast, JsValue};

    /// `performance.now()`, in ms.
    pub fn now() -> f64 {
        web_sys::window()
            .and_then(|w| w.performance())
            .map_or(0.0, |p| p.now())
    }

    /// Resolves in a later task, so the page can answer input and paint in between:
    /// `scheduler.yield()` where the browser has it, else a message to a channel of our
    /// own (a timer would be held back to 4 ms once timers nest).
    pub async fn next_task() {
        let promise = js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str("scheduler"))
            .ok()
            .filter(|s| s.is_object())
            .and_then(|scheduler| {
                let f = js_sys::Reflect::get(&scheduler, &JsValue::from_str("yield")).ok()?;
                let f = f.dyn_into::<js_sys::Function>().ok()?;
                f.call0(&scheduler).ok()?.dyn_into::<js_sys::Promise>().ok()
            })
            .unwrap_or_else(channel_message);
        // Either way the promise resolves; a rejection would only mean "go on now".
        let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
    }

    /// A promise resolved by a message through a `MessageChannel` kept for the page's life.
    fn channel_message() -> js_sys::Promise {
        struct Channel {
            channel: web_sys::MessageChannel,
            waiting: std::rc::Rc<RefCell<VecDeque<js_sys::Function>>>,
            _on_message: Closure<dyn FnMut()>,
        }
        thread_local! {
            static CHANNEL: Option<Channel> = web_sys::MessageChannel::new().ok().map(|channel| {
                let waiting = std::rc::Rc::new(RefCell::new(VecDeque::<js_sys::Function>::new()));
                let queue = waiting.clone();
                let on_message = Closure::<dyn FnMut()>::new(move || {
                    if let Some(resolve) = queue.borrow_mut().pop_front() {
                        let _ = resolve.call0(&JsValue::NULL);
                    }
                });
                channel.port1().set_onmessage(Some(on_message.as_ref().unchecked_ref()));
                Channel { channel, waiting, _on_message: on_message }
            });
        }
        js_sys::Promise::new(&mut |resolve, _reject| {
            CHANNEL.with(|c| match c {
                Some(c) => {
                    c.waiting.borrow_mut().push_back(resolve);
                    if c.channel.port2().post_message(&JsValue::NULL).is_err()
                        && let Some(resolve) = c.waiting.borrow_mut().pop_back()
                    {
                        let _ = resolve.call0(&JsValue::NULL);
                    }
                }
                None => {
                    let _ = resolve.call0(&JsValue::NULL);
                }
            });
        })
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use any_spawner::{CustomExecutor, Executor, PinnedFuture, PinnedLocalFuture};
    use futures::executor::{LocalPool, LocalSpawner};
    use futures::task::LocalSpawnExt;
    use std::cell::{Cell, RefCell};
    use std::collections::VecDeque;
    use std::future::poll_fn;
    use std::rc::Rc;
    use std::task::{Poll, Waker};

    thread_local! {
        /// The thread's futures: the effects' and the scheduler's.
        static POOL: RefCell<LocalPool> = RefCell::new(LocalPool::new());
        static SPAWNER: LocalSpawner = POOL.with(|p| p.borrow().spawner());
        /// The futures waiting for a later task, each with the flag that lets it go on,
        /// first come first served (one task each).
        static LATER: RefCell<VecDeque<(Rc<Cell<bool>>, Waker)>> =
            const { RefCell::new(VecDeque::new()) };
        static CLOCK: Cell<f64> = const { Cell::new(0.0) };
        static TICK: Cell<f64> = const { Cell::new(0.0) };
        static READY: Cell<bool> = const { Cell::new(false) };
    }

    /// Spawns on the thread's pool (the app's futures are all local).
    struct ThreadPool;

    impl CustomExecutor for ThreadPool {
        fn spawn(&self, fut: PinnedFuture<()>) {
            self.spawn_local(fut);
        }
        fn spawn_local(&self, fut: PinnedLocalFuture<()>) {
            SPAWNER.with(|s| {
                s.spawn_local(fut)
                    .expect("the thread's pool lives as long as the thread")
            });
        }
        fn poll_local(&self) {
            run_microtasks();
        }
    }

    /// Makes the thread's pool the executor of this thread's effects and futures; call
    /// before the first effect. (Each test runs on a thread of its own.)
    pub fn init() {
        if !READY.replace(true) {
            // On a thread after the first, the pool is this thread's; the global entry
            // points, already set, reach it through the same thread-local.
            let _ = Executor::init_local_custom_executor(ThreadPool);
        }
    }

    /// The time, in ms: it moves on by the tick each time it is read.
    pub fn now() -> f64 {
        let t = CLOCK.get();
        CLOCK.set(t + TICK.get());
        t
    }

    /// Makes each reading of the time [`now`] `ms` later than the one before (0: time
    /// stands still, and every job fits in its task's budget).
    #[cfg(test)]
    pub fn set_tick(ms: f64) {
        TICK.set(ms);
    }

    /// Resolves once the test runs a later task for it (`run_task`).
    pub async fn next_task() {
        let go = Rc::new(Cell::new(false));
        let mut waiting = false;
        poll_fn(move |cx| {
            if go.get() {
                return Poll::Ready(());
            }
            if !waiting {
                waiting = true;
                LATER.with(|l| l.borrow_mut().push_back((go.clone(), cx.waker().clone())));
            }
            Poll::Pending
        })
        .await;
    }

    /// Ends the running task: runs every future that can go on (the effects a change woke,
    /// and what they start) until all wait for a later task or a change.
    pub fn run_microtasks() {
        POOL.with(|p| p.borrow_mut().run_until_stalled());
    }

    /// Ends the running task, then runs the next one (the first future waiting for a later
    /// task, and its microtasks); whether there was one.
    #[cfg(test)]
    pub fn run_task() -> bool {
        run_microtasks();
        let Some((go, waker)) = LATER.with(|l| l.borrow_mut().pop_front()) else {
            return false;
        };
        go.set(true);
        waker.wake();
        run_microtasks();
        true
    }

    /// Runs every task until nothing is left to do.
    #[cfg(test)]
    pub fn settle() {
        while run_task() {}
    }
}
