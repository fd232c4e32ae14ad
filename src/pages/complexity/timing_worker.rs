//! The page's handle on the timing worker (`crates/attnlab-worker`).

use attnlab_lab::pages::complexity::{Report, Request};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{ErrorEvent, MessageEvent, Worker};

/// The loader trunk writes for the worker (`data-loader-shim` in `index.html`), beside
/// `index.html`.
pub const WORKER_SCRIPT: &str = "./attnlab-worker_loader.js";

/// A running timing worker. It posts the request once the worker says it is ready,
/// hands every report to the callback, and ends the worker after the last report.
/// Dropping the handle ends the worker too (a cancel).
pub struct TimingWorker {
    worker: Worker,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(ErrorEvent)>,
}

impl TimingWorker {
    /// Starts a worker that runs `request`, calling `on_report` with each report after
    /// [`Report::Ready`] (which it answers itself). A worker that fails to load reports
    /// [`Report::Failed`].
    pub fn spawn(
        request: &Request,
        on_report: impl Fn(Report) + 'static,
    ) -> Result<TimingWorker, String> {
        let worker = Worker::new(WORKER_SCRIPT)
            .map_err(|e| format!("the browser could not start the timing worker: {e:?}"))?;
        let on_report = std::rc::Rc::new(on_report);
        let text = request.to_json();
        let replies = worker.clone();
        let report = on_report.clone();
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |ev: MessageEvent| {
            let parsed = ev
                .data()
                .as_string()
                .ok_or_else(|| "the timing worker sent something that is not text".to_string())
                .and_then(|t| Report::from_json(&t));
            match parsed {
                Ok(Report::Ready) => {
                    if let Err(e) = replies.post_message(&JsValue::from_str(&text)) {
                        report(Report::Failed {
                            message: format!("could not send the request to the worker: {e:?}"),
                        });
                    }
                }
                Ok(r) => {
                    let last = matches!(r, Report::Finished { .. } | Report::Failed { .. });
                    report(r);
                    if last {
                        replies.terminate();
                    }
                }
                Err(message) => {
                    replies.terminate();
                    report(Report::Failed { message });
                }
            }
        });
        let failed = worker.clone();
        let on_error = Closure::<dyn FnMut(ErrorEvent)>::new(move |ev: ErrorEvent| {
            ev.prevent_default();
            failed.terminate();
            let message = ev.message();
            on_report(Report::Failed {
                message: if message.is_empty() {
                    "the timing worker could not be loaded".into()
                } else {
                    format!("the timing worker stopped: {message}")
                },
            });
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        Ok(TimingWorker {
            worker,
            _on_message: on_message,
            _on_error: on_error,
        })
    }
}

impl Drop for TimingWorker {
    fn drop(&mut self) {
        // No message may reach the closures after they are gone.
        self.worker.set_onmessage(None);
        self.worker.set_onerror(None);
        self.worker.terminate();
    }
}
