//! The page's handle on the worker that reads brought files (`crates/attnlab-worker`, the
//! same worker as the complexity page's timing): the files go over as transferred
//! buffers, the tensors come back in `attnlab_formats::tensors::wire`'s format, read by a
//! module of its own (the reply's JSON reader), fetched when the first reply arrives.

use std::cell::Cell;
use std::rc::Rc;

use attnlab_formats::tensors::wire::Reply;
use attnlab_formats::tensors::{Brought, Refusal};
use js_sys::{Array, ArrayBuffer, Float32Array};
use leptos::prelude::lazy;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{ErrorEvent, MessageEvent, Worker};

/// The worker's loader, beside `index.html`.
const WORKER_SCRIPT: &str = "./attnlab-worker_loader.js";

/// A worker reading one set of files. Dropping it ends the worker (a newer set of files
/// replaces an older one still being read).
pub struct BringWorker {
    worker: Worker,
    /// Cleared when the handle is dropped: a reply still being read is not reported.
    alive: Rc<Cell<bool>>,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(ErrorEvent)>,
}

/// The reader of the worker's replies, from its own module.
#[lazy]
fn reply_reader() -> fn(&JsValue) -> Result<Brought, Refusal> {
    read_reply
}

/// The tensors in a `[reply, numbers]` message, or why not.
fn read_reply(data: &JsValue) -> Result<Brought, Refusal> {
    let garbled = || {
        Refusal::new(
            "the file reader sent something unreadable",
            "文件读取器发来了无法读取的内容",
        )
    };
    let pair: &Array = data.dyn_ref().ok_or_else(garbled)?;
    let text = pair.get(0).as_string().ok_or_else(garbled)?;
    let reply: Reply = serde_json::from_str(&text).map_err(|_| garbled())?;
    match reply {
        Reply::Refused(refusal) => Err(refusal),
        Reply::Brought(header) => {
            let numbers: Float32Array = pair.get(1).dyn_into().map_err(|_| garbled())?;
            // A mismatch here is the worker's fault, not the files'.
            Brought::from_wire(header, &numbers.to_vec()).map_err(|e| Refusal::new(e.en, e.zh))
        }
    }
}

impl BringWorker {
    /// Starts a worker that reads `files` (names and bytes) and calls `done` once with
    /// the tensors or why not, in every language.
    pub fn spawn_in(
        files: Vec<(String, ArrayBuffer)>,
        done: impl Fn(Result<Brought, Refusal>) + 'static,
    ) -> Result<BringWorker, Refusal> {
        let worker = Worker::new(WORKER_SCRIPT).map_err(|e| {
            Refusal::new(
                format!("the browser could not start the file reader: {e:?}"),
                "浏览器无法启动文件读取器",
            )
        })?;
        let done = std::rc::Rc::new(done);
        let message = Array::new();
        let transfer = Array::new();
        for (name, bytes) in &files {
            message.push(&Array::of2(&JsValue::from_str(name), bytes));
            transfer.push(bytes);
        }
        let replies = worker.clone();
        let report = done.clone();
        let alive = Rc::new(Cell::new(true));
        let reading = alive.clone();
        let mut sent = false;
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |ev: MessageEvent| {
            let data = ev.data();
            if data.is_string() {
                // Ready (the worker's first message): send the files once.
                if !sent {
                    sent = true;
                    if let Err(e) = replies.post_message_with_transfer(&message, &transfer) {
                        replies.terminate();
                        report(Err(Refusal::new(
                            format!("could not hand the files to the reader: {e:?}"),
                            "无法把文件交给读取器",
                        )));
                    }
                }
                return;
            }
            replies.terminate();
            let (report, reading) = (report.clone(), reading.clone());
            leptos::task::spawn_local(async move {
                let read = reply_reader().await;
                if reading.get() {
                    report(read(&data));
                }
            });
        });
        let failed = worker.clone();
        let on_error = Closure::<dyn FnMut(ErrorEvent)>::new(move |ev: ErrorEvent| {
            ev.prevent_default();
            failed.terminate();
            let m = ev.message();
            done(Err(if m.is_empty() {
                Refusal::new(
                    "the file reader stopped: it could not be loaded",
                    "文件读取器停止了：它无法加载",
                )
            } else {
                // The browser's own words, which are in its language, are the English
                // sentence's detail only.
                Refusal::new(
                    format!("the file reader stopped: {m}"),
                    "文件读取器因出错而停止了",
                )
            }));
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        Ok(BringWorker {
            worker,
            alive,
            _on_message: on_message,
            _on_error: on_error,
        })
    }
}

impl Drop for BringWorker {
    fn drop(&mut self) {
        self.alive.set(false);
        self.worker.set_onmessage(None);
        self.worker.set_onerror(None);
        self.worker.terminate();
    }
}
