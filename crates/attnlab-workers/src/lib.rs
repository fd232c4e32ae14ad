//! The page's handles on its Web Workers, each a wasm of its own with one job, built by
//! trunk beside the app (`index.html`, `data-type="worker"`):
//!
//! - [`ModelWorker`] (`crates/attnlab-model-worker`): the real model's load and runs;
//! - [`TimingWorker`] (`crates/attnlab-timing-worker`): the complexity page's timing;
//! - [`FilesWorker`] (`crates/attnlab-files-worker`): the reading of brought tensors.
//!
//! Each keeps its own typed requests and replies; what they share is [`WorkerHandle`]:
//! the `web_sys::Worker`, its `message` and `error` closures, and the end of the worker
//! when the handle is dropped, after which no message reaches the callbacks.

use std::cell::Cell;
use std::rc::Rc;

use js_sys::Array;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{ErrorEvent, MessageEvent, Worker};

mod files;
mod model;
mod timing;

pub use files::FilesWorker;
pub use model::{Message, ModelWorker};
pub use timing::{Failure, TimingWorker};

/// Which worker: each is started from the loader trunk writes for it beside `index.html`
/// (`data-loader-shim`), named after its binary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Job {
    /// `crates/attnlab-model-worker`.
    Model,
    /// `crates/attnlab-timing-worker`.
    Timing,
    /// `crates/attnlab-files-worker`.
    Files,
}

impl Job {
    /// The worker's loader, relative to `index.html`.
    pub fn script(self) -> &'static str {
        match self {
            Job::Model => "./attnlab-model-worker_loader.js",
            Job::Timing => "./attnlab-timing-worker_loader.js",
            Job::Files => "./attnlab-files-worker_loader.js",
        }
    }
}

/// Why a worker stopped (its `error` event; the worker is ended first).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stop {
    /// Its script or its wasm could not be loaded (the event has no message).
    NotLoaded,
    /// It stopped with an error: the browser's words, in the browser's language.
    Error(String),
}

/// What a worker's callbacks hold: the worker, to post to it or end it, and whether its
/// handle still lives.
#[derive(Clone)]
pub struct Link {
    worker: Worker,
    /// Cleared when the handle is dropped: work still under way (a reply waiting for its
    /// reader's module) is not reported.
    alive: Rc<Cell<bool>>,
}

impl Link {
    /// Posts `data`; the browser's reason when it cannot.
    pub fn post(&self, data: &JsValue) -> Result<(), String> {
        self.worker.post_message(data).map_err(|e| format!("{e:?}"))
    }

    /// Posts `data`, moving the buffers in `transfer` to the worker.
    pub fn post_with_transfer(&self, data: &JsValue, transfer: &Array) -> Result<(), String> {
        self.worker
            .post_message_with_transfer(data, transfer)
            .map_err(|e| format!("{e:?}"))
    }

    /// Ends the worker (its job is done, or it went wrong).
    pub fn end(&self) {
        self.worker.terminate();
    }

    /// Whether the handle still lives.
    pub fn alive(&self) -> bool {
        self.alive.get()
    }
}

/// A running worker. Dropping the handle ends it (a cancel).
pub struct WorkerHandle {
    link: Link,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(ErrorEvent)>,
}

impl WorkerHandle {
    /// Starts `job`'s worker: `on_message` receives the data of every message it posts,
    /// `on_stop` why it stopped if it fails to load or stops with an error. Says the
    /// browser's reason when it cannot start it.
    pub fn spawn(
        job: Job,
        mut on_message: impl FnMut(&Link, JsValue) + 'static,
        on_stop: impl Fn(Stop) + 'static,
    ) -> Result<WorkerHandle, String> {
        let worker = Worker::new(job.script()).map_err(|e| format!("{e:?}"))?;
        let link = Link {
            worker: worker.clone(),
            alive: Rc::new(Cell::new(true)),
        };
        let replies = link.clone();
        let message = Closure::<dyn FnMut(MessageEvent)>::new(move |ev: MessageEvent| {
            on_message(&replies, ev.data());
        });
        let failed = worker.clone();
        let error = Closure::<dyn FnMut(ErrorEvent)>::new(move |ev: ErrorEvent| {
            ev.prevent_default();
            failed.terminate();
            let text = ev.message();
            on_stop(if text.is_empty() {
                Stop::NotLoaded
            } else {
                Stop::Error(text)
            });
        });
        worker.set_onmessage(Some(message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(error.as_ref().unchecked_ref()));
        Ok(WorkerHandle {
            link,
            _on_message: message,
            _on_error: error,
        })
    }

    /// The worker, to post to it.
    pub fn link(&self) -> &Link {
        &self.link
    }
}

impl Drop for WorkerHandle {
    fn drop(&mut self) {
        // No message may reach the closures after they are gone.
        self.link.alive.set(false);
        self.link.worker.set_onmessage(None);
        self.link.worker.set_onerror(None);
        self.link.worker.terminate();
    }
}
