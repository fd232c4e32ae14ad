//! The page's handle on the timing worker (`crates/attnlab-timing-worker`), which the
//! complexity page runs.

use std::rc::Rc;

use attnlab_pages::complexity::{Report, Request};
use wasm_bindgen::prelude::*;

use crate::{Job, Link, Stop, WorkerHandle};
use attnlab_i18n::Lang;
use attnlab_i18n::msg::workers;

/// Why a run stopped before its end, written in any language when shown. The details
/// are the browser's or the worker's own words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// The browser could not start the worker.
    Start(String),
    /// The request could not be posted.
    Send(String),
    /// The worker posted something that is not text.
    NotText,
    /// The worker posted text that is not a report.
    Unreadable(String),
    /// The worker's script could not be loaded.
    NotLoaded,
    /// The worker stopped with an error.
    Stopped(String),
    /// The worker refused the request.
    Refused(String),
}

impl Failure {
    /// The status line in `lang`.
    pub fn sentence(&self, lang: Lang) -> String {
        match self {
            Failure::Start(error) => workers::WorkerTimingStart { error }.say(lang),
            Failure::Send(error) => workers::WorkerTimingSend { error }.say(lang),
            Failure::NotText => workers::WORKER_TIMING_NOT_TEXT.get(lang).to_string(),
            Failure::Unreadable(error) => workers::WorkerTimingUnreadable { error }.say(lang),
            Failure::NotLoaded => workers::WORKER_TIMING_NOT_LOADED.get(lang).to_string(),
            Failure::Stopped(error) => workers::WorkerTimingStopped { error }.say(lang),
            Failure::Refused(error) => workers::WorkerTimingRefused { error }.say(lang),
        }
    }
}

/// A running timing worker. It posts the request once the worker says it is ready,
/// hands every report to the callback, and ends the worker after the last report.
/// Dropping the handle ends the worker too (a cancel).
pub struct TimingWorker {
    _worker: WorkerHandle,
}

impl TimingWorker {
    /// Starts a worker that runs `request`, calling `on_report` with each report after
    /// [`Report::Ready`] (which it answers itself), or with why the run stopped (a
    /// [`Report::Failed`] of the worker, or a worker that fails to load).
    pub fn spawn(
        request: &Request,
        on_report: impl Fn(Result<Report, Failure>) + 'static,
    ) -> Result<TimingWorker, Failure> {
        let on_report = Rc::new(on_report);
        let text = request.to_json();
        let report = on_report.clone();
        let on_message = move |replies: &Link, data: JsValue| {
            let parsed = data
                .as_string()
                .ok_or(Failure::NotText)
                .and_then(|t| Report::from_json(&t).map_err(Failure::Unreadable));
            match parsed {
                Ok(Report::Ready) => {
                    if let Err(e) = replies.post(&JsValue::from_str(&text)) {
                        report(Err(Failure::Send(e)));
                    }
                }
                Ok(Report::Failed { message }) => {
                    replies.end();
                    report(Err(Failure::Refused(message)));
                }
                Ok(r) => {
                    let last = matches!(r, Report::Finished { .. });
                    report(Ok(r));
                    if last {
                        replies.end();
                    }
                }
                Err(failure) => {
                    replies.end();
                    report(Err(failure));
                }
            }
        };
        let on_stop = move |stop| {
            on_report(Err(match stop {
                Stop::NotLoaded => Failure::NotLoaded,
                Stop::Error(message) => Failure::Stopped(message),
            }))
        };
        let worker =
            WorkerHandle::spawn(Job::Timing, on_message, on_stop).map_err(Failure::Start)?;
        Ok(TimingWorker { _worker: worker })
    }
}
