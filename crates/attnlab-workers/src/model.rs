//! The page's handle on the model worker (`crates/attnlab-model-worker`). Its replies
//! are read by a module of their own (the protocol's JSON reader), fetched when the
//! worker starts; replies that arrive before it are kept, in order, until it is in.

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::rc::Rc;

use attnlab_i18n::msg::workers;
use attnlab_model_page::protocol::{Reply, Request, Said};
use js_sys::{Float32Array, Reflect};
use leptos::prelude::lazy;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

use crate::{Job, Link, Stop, WorkerHandle};

/// A reply, with the floats that came beside it (empty for most replies).
pub struct Message {
    /// What the worker said.
    pub reply: Reply,
    /// A forward pass's or a flow's numbers.
    pub floats: Vec<f32>,
}

/// A running model worker. Dropping the handle ends it (a cancel), and replies kept
/// until the reader came are not reported.
pub struct ModelWorker {
    worker: WorkerHandle,
}

/// A reply from the data of a `message` event: JSON text, or `{ json, floats }`.
fn read(data: &JsValue) -> Result<Message, String> {
    if let Some(text) = data.as_string() {
        return Reply::from_json(&text).map(|reply| Message {
            reply,
            floats: Vec::new(),
        });
    }
    let json = Reflect::get(data, &"json".into())
        .ok()
        .and_then(|j| j.as_string())
        .ok_or(workers::WORKER_MODEL_NOT_A_REPLY.en)?;
    let floats = Reflect::get(data, &"floats".into())
        .ok()
        .and_then(|f| f.dyn_into::<Float32Array>().ok())
        .ok_or(workers::WORKER_MODEL_NUMBERS_MISSING.en)?;
    Ok(Message {
        reply: Reply::from_json(&json)?,
        floats: floats.to_vec(),
    })
}

/// A message's data as a reply.
type Reader = fn(&JsValue) -> Result<Message, String>;

/// The reader of the worker's replies, from its own module.
#[lazy]
fn reply_reader() -> Reader {
    read
}

/// A reply read, or a reply the page could not read as one that failed.
fn reply_of(read: Reader, data: &JsValue) -> Message {
    read(data).unwrap_or_else(|message| {
        let said = workers::WorkerModelReplyUnreadable { error: &message }.said();
        Message {
            reply: Reply::Failed {
                stage: attnlab_model_page::protocol::Stage::Run,
                id: None,
                message: said.en,
                missing: false,
                zh: Some(said.zh),
            },
            floats: Vec::new(),
        }
    })
}

impl ModelWorker {
    /// Starts the worker; `on_message` receives every reply (a worker that fails to
    /// start or stops reports a [`Reply::Failed`] for a load).
    pub fn spawn(on_message: impl Fn(Message) + 'static) -> Result<ModelWorker, Said> {
        let on_message = Rc::new(on_message);
        // The reader once its module is in; until then the replies wait here, in order.
        let reader: Rc<Cell<Option<Reader>>> = Rc::new(Cell::new(None));
        let waiting: Rc<RefCell<VecDeque<JsValue>>> = Rc::new(RefCell::new(VecDeque::new()));
        let report = on_message.clone();
        let message = {
            let (reader, waiting) = (reader.clone(), waiting.clone());
            move |_: &Link, data: JsValue| match reader.get() {
                Some(read) => report(reply_of(read, &data)),
                None => waiting.borrow_mut().push_back(data),
            }
        };
        let report = on_message.clone();
        let error = move |stop| {
            let said = match stop {
                Stop::NotLoaded => workers::WORKER_MODEL_NOT_STARTED.into(),
                // The browser's words are the English detail only.
                Stop::Error(text) => workers::WorkerModelStopped { error: &text }.said(),
            };
            report(Message {
                reply: Reply::Failed {
                    stage: attnlab_model_page::protocol::Stage::Load,
                    id: None,
                    message: said.en,
                    missing: false,
                    zh: Some(said.zh),
                },
                floats: Vec::new(),
            });
        };
        let worker = WorkerHandle::spawn(Job::Model, message, error).map_err(|e| {
            let said = workers::WorkerModelStart { error: &e }.said();
            Said::new(said.en, Some(said.zh))
        })?;
        let link = worker.link().clone();
        leptos::task::spawn_local(async move {
            let read = reply_reader().await;
            let kept: Vec<JsValue> = waiting.borrow_mut().drain(..).collect();
            reader.set(Some(read));
            for data in kept {
                if link.alive() {
                    on_message(reply_of(read, &data));
                }
            }
        });
        Ok(ModelWorker { worker })
    }

    /// Sends `request`; says why when the worker cannot take it.
    pub fn send(&self, request: &Request) -> Result<(), Said> {
        self.worker
            .link()
            .post(&JsValue::from_str(&request.to_json()))
            .map_err(|e| {
                let said = workers::WorkerModelSend { error: &e }.said();
                Said::new(said.en, Some(said.zh))
            })
    }
}
