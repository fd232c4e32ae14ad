//! The page's handle on the worker that reads brought files
//! (`crates/attnlab-files-worker`): the files go over as transferred buffers, the tensors
//! come back in `attnlab_formats::tensors::wire`'s format, read by a module of its own (the
//! reply's JSON reader), fetched when the first reply arrives.

use std::rc::Rc;

use attnlab_formats::tensors::wire::Reply;
use attnlab_formats::tensors::{Brought, Refusal};
use attnlab_i18n::msg::workers;
use js_sys::{Array, ArrayBuffer, Float32Array};
use leptos::prelude::lazy;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

use crate::{Job, Link, Stop, WorkerHandle};

/// A worker reading one set of files. Dropping it ends the worker (a newer set of files
/// replaces an older one still being read), and a reply still being read is not reported.
pub struct FilesWorker {
    _worker: WorkerHandle,
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
            workers::WORKER_FILES_REPLY_UNREADABLE.en,
            workers::WORKER_FILES_REPLY_UNREADABLE.zh,
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

impl FilesWorker {
    /// Starts a worker that reads `files` (names and bytes) and calls `done` once with
    /// the tensors or why not, in every language.
    pub fn spawn_in(
        files: Vec<(String, ArrayBuffer)>,
        done: impl Fn(Result<Brought, Refusal>) + 'static,
    ) -> Result<FilesWorker, Refusal> {
        let done = Rc::new(done);
        let message = Array::new();
        let transfer = Array::new();
        for (name, bytes) in &files {
            message.push(&Array::of2(&JsValue::from_str(name), bytes));
            transfer.push(bytes);
        }
        let report = done.clone();
        let mut sent = false;
        let on_message = move |replies: &Link, data: JsValue| {
            if data.is_string() {
                // Ready (the worker's first message): send the files once.
                if !sent {
                    sent = true;
                    if let Err(e) = replies.post_with_transfer(&message, &transfer) {
                        replies.end();
                        let said = workers::WorkerFilesHandOver { error: &e }.said();
                        report(Err(Refusal::new(said.en, said.zh)));
                    }
                }
                return;
            }
            replies.end();
            let (report, reading) = (report.clone(), replies.clone());
            leptos::task::spawn_local(async move {
                let read = reply_reader().await;
                if reading.alive() {
                    report(read(&data));
                }
            });
        };
        let on_stop = move |stop| {
            done(Err(match stop {
                Stop::NotLoaded => Refusal::new(
                    workers::WORKER_FILES_NOT_LOADED.en,
                    workers::WORKER_FILES_NOT_LOADED.zh,
                ),
                // The browser's own words, which are in its language, are the English
                // sentence's detail only.
                Stop::Error(m) => {
                    let said = workers::WorkerFilesStopped { error: &m }.said();
                    Refusal::new(said.en, said.zh)
                }
            }))
        };
        let worker = WorkerHandle::spawn(Job::Files, on_message, on_stop).map_err(|e| {
            let said = workers::WorkerFilesStart { error: &e }.said();
            Refusal::new(said.en, said.zh)
        })?;
        Ok(FilesWorker { _worker: worker })
    }
}
