//! The real model's session: one model worker, what it is doing, and its latest forward
//! pass and flow. Provided once by the root component; read with [`use_model_session`].

use attnlab_i18n::Lang;
use attnlab_lab::state::Checkpoint;
use attnlab_model_page::ModelRun;
use attnlab_model_page::protocol::{Loaded, Place, Reply, Request, Said, Stage, Substituted};
use leptos::prelude::*;
use ndarray::Array2;

use attnlab_workers::{Message, ModelWorker};

/// What the model is doing.
#[derive(Debug, Clone, PartialEq)]
pub enum Status {
    /// Nothing was asked of it.
    Idle,
    /// The worker is starting.
    Starting,
    /// The asset is arriving from the network.
    Loading {
        /// Bytes so far.
        loaded: u64,
        /// The file's size, when known.
        total: Option<u64>,
    },
    /// The model is ready.
    Ready(Loaded),
    /// Loading failed: why, and whether the file is simply not part of this build.
    Failed {
        /// One sentence.
        message: Said,
        /// The asset is not served.
        missing: bool,
    },
    /// The person cancelled the load.
    Cancelled,
}

/// A flow computed for one layer of one run.
#[derive(Debug, Clone, PartialEq)]
pub struct Flow {
    /// The run's id.
    pub id: u64,
    /// The layer.
    pub layer: usize,
    /// The matrix, or why there is none.
    pub result: Result<Array2<f32>, Said>,
    /// Its time in the worker, in milliseconds.
    pub millis: f64,
}

/// A text to run and its second sentence, if any.
type Texts = (String, Option<String>);

/// The model worker and what it produced. All fields are `Copy` handles.
#[derive(Debug, Clone, Copy)]
pub struct ModelSession {
    /// What the model is doing (see [`ModelSession::status_of`]: this is the status of
    /// [`ModelSession::checkpoint`]).
    pub status: RwSignal<Status>,
    /// The checkpoint the worker was last asked to load (`None` before the first).
    pub checkpoint: RwSignal<Option<Checkpoint>>,
    /// The latest forward pass (of the latest text sent), or why it failed.
    pub run: RwSignal<Option<Result<ModelRun, Said>>>,
    /// The latest flow.
    pub flow: RwSignal<Option<Flow>>,
    /// The latest substitution, or why it failed; `None` before the first.
    pub substituted: RwSignal<Option<Result<Substituted, Said>>>,
    /// Whether a substitution is being computed.
    pub substituting: RwSignal<bool>,
    worker: StoredValue<Option<ModelWorker>, LocalStorage>,
    /// The id of the latest run asked for; replies to older ones are dropped.
    latest: StoredValue<u64>,
    /// Whether a run is being computed, and the text to send when it is done.
    busy: StoredValue<(bool, Option<Texts>)>,
    /// The flow asked for last: (run id, layer).
    flow_asked: StoredValue<Option<(u64, usize)>>,
}

impl ModelSession {
    fn new() -> ModelSession {
        ModelSession {
            status: RwSignal::new(Status::Idle),
            checkpoint: RwSignal::new(None),
            run: RwSignal::new(None),
            flow: RwSignal::new(None),
            substituted: RwSignal::new(None),
            substituting: RwSignal::new(false),
            worker: StoredValue::new_local(None),
            latest: StoredValue::new(0),
            busy: StoredValue::new((false, None)),
            flow_asked: StoredValue::new(None),
        }
    }

    /// Starts loading `checkpoint` (from the browser's cache, else the network), ending
    /// the worker of any other: its replies are never reported.
    pub fn load(self, checkpoint: Checkpoint) {
        self.worker.set_value(None);
        self.checkpoint.set(Some(checkpoint));
        self.run.set(None);
        self.flow.set(None);
        self.busy.set_value((false, None));
        self.flow_asked.set_value(None);
        self.status.set(Status::Starting);
        let url = checkpoint.asset_path().to_string();
        match ModelWorker::spawn(move |m| self.receive(m, &url)) {
            Ok(worker) => self.worker.set_value(Some(worker)),
            Err(message) => self.status.set(Status::Failed {
                message,
                missing: false,
            }),
        }
    }

    /// Stops loading (ends the worker; nothing partial is kept).
    pub fn cancel(self) {
        self.worker.set_value(None);
        self.status.set(Status::Cancelled);
    }

    /// What the session is doing for `chosen` (tracked): its status when it holds that
    /// checkpoint, [`Status::Starting`] while another one is still there (between a choice
    /// and its load, the other model's name and numbers are never shown for it).
    pub fn status_of(self, chosen: Checkpoint) -> Status {
        if self.checkpoint.get() == Some(chosen) {
            self.status.get()
        } else {
            Status::Starting
        }
    }

    /// Whether the model is ready for texts.
    pub fn is_ready(self) -> bool {
        self.status
            .with_untracked(|s| matches!(s, Status::Ready(_)))
    }

    fn send(self, request: &Request) {
        let sent = self
            .worker
            .with_value(|w| w.as_ref().map(|w| w.send(request)));
        if let Some(Err(message)) = sent {
            self.run.set(Some(Err(message)));
        }
    }

    /// Runs `text` (and the second sentence `pair`) through the model (after the run in
    /// progress, if any: only the last text asked for while it computes is run).
    pub fn run_text(self, text: String, pair: Option<String>) {
        if !self.is_ready() {
            return;
        }
        let (busy, _) = self.busy.get_value();
        if busy {
            self.busy.set_value((true, Some((text, pair))));
            return;
        }
        self.busy.set_value((true, None));
        let id = self.latest.get_value() + 1;
        self.latest.set_value(id);
        self.send(&Request::Run { id, text, pair });
    }

    /// Asks for the flow of `layer` of the current run (once per run and layer).
    pub fn request_flow(self, layer: usize) {
        let id = self.latest.get_value();
        if self.flow_asked.get_value() == Some((id, layer)) {
            return;
        }
        self.flow_asked.set_value(Some((id, layer)));
        self.send(&Request::Flow { id, layer });
    }

    /// Runs `text` (and `pair`) with variant `variant` of the lab state `link` (a
    /// fragment) at `place`.
    pub fn substitute(
        self,
        text: String,
        pair: Option<String>,
        link: String,
        variant: usize,
        place: Place,
    ) {
        if !self.is_ready() {
            return;
        }
        let id = self.latest.get_value();
        self.substituting.set(true);
        self.send(&Request::Substitute {
            id,
            text,
            pair,
            link,
            variant,
            place,
        });
    }

    fn finish_run(self) {
        let (_, pending) = self.busy.get_value();
        self.busy.set_value((false, None));
        if let Some((text, pair)) = pending {
            self.run_text(text, pair);
        }
    }

    fn receive(self, Message { reply, floats }: Message, url: &str) {
        match reply {
            Reply::Ready => self.send(&Request::Load { url: url.into() }),
            Reply::Progress { loaded, total } => self.status.set(Status::Loading { loaded, total }),
            Reply::Loaded(loaded) => self.status.set(Status::Ready(loaded)),
            Reply::Ran(header) => {
                let id = header.id;
                if id == self.latest.get_value() {
                    self.run
                        .set(Some(ModelRun::new(header, floats).map_err(|e| {
                            Said::new(e.text(Lang::En), Some(e.text(Lang::Zh)))
                        })));
                }
                self.finish_run();
            }
            Reply::Flowed(header) => {
                let n = header.n;
                let result = Array2::from_shape_vec((n, n), floats).map_err(|_| {
                    let said = attnlab_i18n::msg::workers::WORKER_FLOW_COUNT;
                    Said::new(said.en, Some(said.zh.into()))
                });
                self.flow.set(Some(Flow {
                    id: header.id,
                    layer: header.layer,
                    result,
                    millis: header.millis,
                }));
            }
            Reply::Substituted(report) => {
                self.substituting.set(false);
                self.substituted.set(Some(Ok(report)));
            }
            Reply::Failed {
                stage,
                id,
                message,
                missing,
                zh,
            } => match stage {
                Stage::Load => {
                    self.worker.set_value(None);
                    self.status.set(Status::Failed {
                        message: Said::new(message, zh.clone()),
                        missing,
                    });
                }
                Stage::Run => {
                    if id.is_none_or(|id| id == self.latest.get_value()) {
                        self.run.set(Some(Err(Said::new(message, zh))));
                    }
                    self.finish_run();
                }
                Stage::Substitute => {
                    self.substituting.set(false);
                    self.substituted
                        .set(Some(Err(Said::new(message, zh.clone()))));
                }
                Stage::Flow => {
                    let layer = self.flow_asked.get_value().map_or(0, |(_, l)| l);
                    self.flow.set(Some(Flow {
                        id: id.unwrap_or(0),
                        layer,
                        result: Err(Said::new(message, zh)),
                        millis: 0.0,
                    }));
                }
            },
        }
    }

    /// `f` of the latest forward pass, when there is one that worked (tracked, so a
    /// memo reading it follows new runs); `None` otherwise.
    pub fn with_run<T>(self, f: impl FnOnce(&ModelRun) -> T) -> Option<T> {
        self.run
            .with(|r| r.as_ref().and_then(|r| r.as_ref().ok()).map(f))
    }

    /// [`ModelSession::with_run`] without tracking (event handlers).
    pub fn with_run_untracked<T>(self, f: impl FnOnce(&ModelRun) -> T) -> Option<T> {
        self.run
            .with_untracked(|r| r.as_ref().and_then(|r| r.as_ref().ok()).map(f))
    }

    /// The id of the latest run asked for.
    pub fn latest(self) -> u64 {
        self.latest.get_value()
    }
}

/// Creates the session and provides it to every component below.
pub fn provide_model_session() -> ModelSession {
    let session = ModelSession::new();
    provide_context(session);
    session
}

/// The session the root component provided.
pub fn use_model_session() -> ModelSession {
    expect_context::<ModelSession>()
}
