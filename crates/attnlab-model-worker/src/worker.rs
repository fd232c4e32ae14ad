use attnlab_i18n::Lang;
use attnlab_i18n::msg::workers;
use attnlab_model::relevance::AttentionGraph;
use attnlab_model::{AttentionOverride, HeadTrace, Pretrained, contribution};
use attnlab_model_page::protocol::{
    CACHE_NAME, FlowHeader, Loaded, Place, Replaced, Reply, Request, RunHeader, Said, Stage,
    model_error_in, relevance_error_in, text_error_in,
};
use attnlab_model_page::substitution;
use js_sys::{Array, Float32Array, Object, Reflect, Uint8Array};
use ndarray::Array2;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::{JsFuture, spawn_local};
use web_sys::{
    Cache, DedicatedWorkerGlobalScope, MessageEvent, ReadableStreamDefaultReader, Response,
};

/// The loaded model, and the last run's graph (for flows).
#[derive(Default)]
struct Worker {
    model: Option<Pretrained>,
    last: Option<(u64, AttentionGraph)>,
}

fn scope() -> DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

fn now() -> f64 {
    scope().performance().map_or(0.0, |p| p.now())
}

fn post(reply: &Reply) {
    // Posting a string cannot fail for a live worker; a dead one has no one to tell.
    let _ = scope().post_message(&JsValue::from_str(&reply.to_json()));
}

/// Posts `reply` with `floats` beside it, transferring their buffer.
fn post_with_floats(reply: &Reply, floats: &[f32]) {
    let array = Float32Array::new_with_length(floats.len() as u32);
    array.copy_from(floats);
    let message = Object::new();
    let _ = Reflect::set(&message, &"json".into(), &reply.to_json().into());
    let _ = Reflect::set(&message, &"floats".into(), &array);
    let _ = scope().post_message_with_transfer(&message, &Array::of1(&array.buffer()));
}

fn fail(stage: Stage, id: Option<u64>, said: Said) {
    post(&Reply::Failed {
        stage,
        id,
        message: said.en,
        missing: false,
        zh: Some(said.zh),
    });
}

/// `en` and `zh`.
fn both(en: impl Into<String>, zh: impl Into<String>) -> Said {
    Said::new(en, Some(zh.into()))
}

/// A catalogue message in every language.
fn said(said: attnlab_i18n::Said) -> Said {
    both(said.en, said.zh)
}

/// A model error in both languages (a text's fault said as itself, without the
/// error's `text:` prefix).
fn model_said(e: &attnlab_model::ModelError) -> Said {
    match e {
        attnlab_model::ModelError::Text(t) => Said::of(|lang| text_error_in(t, lang)),
        _ => Said::of(|lang| model_error_in(e, lang)),
    }
}

/// A rollout or flow error in both languages.
fn relevance_said(e: &attnlab_model::relevance::RelevanceError) -> Said {
    Said::of(|lang| relevance_error_in(e, lang))
}

fn describe(e: &JsValue) -> String {
    e.as_string()
        .or_else(|| {
            e.dyn_ref::<js_sys::Error>()
                .map(|e| String::from(e.message()))
        })
        .unwrap_or_else(|| format!("{e:?}"))
}

/// Why a load failed: a sentence, and whether the file is simply not served.
struct LoadError {
    message: Said,
    missing: bool,
}

impl From<JsValue> for LoadError {
    /// A failure while the bytes were read: the browser's words are the English detail
    /// (they are in no known language); Chinese says what failed.
    fn from(e: JsValue) -> LoadError {
        LoadError {
            message: said(
                workers::WorkerModelReadFailed {
                    detail: &describe(&e),
                }
                .said(),
            ),
            missing: false,
        }
    }
}

async fn open_cache() -> Option<Cache> {
    let caches = scope().caches().ok()?;
    JsFuture::from(caches.open(CACHE_NAME))
        .await
        .ok()?
        .dyn_into()
        .ok()
}

/// The asset's bytes and whether they came from the cache.
async fn fetch_asset(url: &str) -> Result<(Vec<u8>, bool), LoadError> {
    let cache = open_cache().await;
    if let Some(cache) = &cache
        && let Ok(hit) = JsFuture::from(cache.match_with_str(url)).await
        && let Ok(response) = hit.dyn_into::<Response>()
    {
        let buffer = JsFuture::from(response.array_buffer()?).await?;
        return Ok((Uint8Array::new(&buffer).to_vec(), true));
    }
    let response: Response = JsFuture::from(scope().fetch_with_str(url))
        .await
        .map_err(|e| LoadError {
            message: said(
                workers::WorkerModelFetchFailed {
                    detail: &describe(&e),
                }
                .said(),
            ),
            missing: false,
        })?
        .dyn_into()?;
    let html = response
        .headers()
        .get("content-type")
        .ok()
        .flatten()
        .is_some_and(|t| t.contains("text/html"));
    if response.status() == 404 || html {
        return Err(LoadError {
            message: said(workers::WORKER_MODEL_NOT_SERVED.into()),
            missing: true,
        });
    }
    if !response.ok() {
        return Err(LoadError {
            message: said(
                workers::WorkerModelHttp {
                    status: &response.status(),
                    status_text: &response.status_text(),
                }
                .said(),
            ),
            missing: false,
        });
    }
    let total = response
        .headers()
        .get("content-length")
        .ok()
        .flatten()
        .and_then(|t| t.parse::<u64>().ok());
    let body = response.body().ok_or_else(|| LoadError {
        message: said(workers::WORKER_MODEL_NO_BODY.into()),
        missing: false,
    })?;
    let reader: ReadableStreamDefaultReader = body.get_reader().unchecked_into();
    let mut bytes = Vec::with_capacity(total.unwrap_or(0) as usize);
    let mut last_report = f64::NEG_INFINITY;
    loop {
        let chunk = JsFuture::from(reader.read()).await?;
        if Reflect::get(&chunk, &"done".into())?.is_truthy() {
            break;
        }
        let value: Uint8Array = Reflect::get(&chunk, &"value".into())?.unchecked_into();
        let at = bytes.len();
        bytes.resize(at + value.length() as usize, 0);
        value.copy_to(&mut bytes[at..]);
        // A few reports a second are enough for a progress bar.
        if now() - last_report >= 50.0 {
            last_report = now();
            post(&Reply::Progress {
                loaded: bytes.len() as u64,
                total,
            });
        }
    }
    post(&Reply::Progress {
        loaded: bytes.len() as u64,
        total,
    });
    if let Some(cache) = &cache {
        // Keeping it is a convenience: a failure (e.g. no quota) costs the next visit
        // a download, nothing else.
        let copy = Uint8Array::from(bytes.as_slice());
        if let Ok(response) = Response::new_with_opt_buffer_source(Some(&copy)) {
            let _ = JsFuture::from(cache.put_with_str(url, &response)).await;
        }
    }
    Ok((bytes, false))
}

async fn load(state: Rc<RefCell<Worker>>, url: String) {
    let start = now();
    let (bytes, from_cache) = match fetch_asset(&url).await {
        Ok(got) => got,
        Err(LoadError { message, missing }) => {
            post(&Reply::Failed {
                stage: Stage::Load,
                id: None,
                message: message.en,
                missing,
                zh: Some(message.zh),
            });
            return;
        }
    };
    match Pretrained::from_asset(&bytes) {
        Ok(model) => {
            let config = model.encoder().config();
            let loaded = Loaded {
                from_cache,
                bytes: bytes.len() as u64,
                millis: now() - start,
                name: model.about().name.clone(),
                licence: model.about().licence.clone(),
                layers: config.num_hidden_layers,
                heads: config.num_attention_heads,
                max_tokens: model.max_tokens(),
            };
            state.borrow_mut().model = Some(model);
            post(&Reply::Loaded(loaded));
        }
        Err(e) => fail(
            Stage::Load,
            None,
            both(
                workers::WorkerModelUnreadable {
                    error: &model_error_in(&e, Lang::En),
                }
                .say(Lang::En),
                workers::WorkerModelUnreadable {
                    error: &model_said(&e).zh,
                }
                .say(Lang::Zh),
            ),
        ),
    }
}

fn run(state: &mut Worker, id: u64, text: &str, pair: Option<&str>) -> Result<(), Said> {
    let model = state
        .model
        .as_ref()
        .ok_or_else(|| said(workers::WORKER_MODEL_NOT_LOADED.into()))?;
    let start = now();
    let none = AttentionOverride::default();
    let run = match pair {
        Some(b) => model.run_pair(text, b, &none),
        None => model.run(text, &none),
    }
    .map_err(|e| model_said(&e))?;
    let heads = &run.forward.heads;
    let layers: Vec<Vec<Array2<f32>>> = heads
        .iter()
        .map(|layer| layer.iter().map(|h| h.weights.clone()).collect())
        .collect();
    let graph = AttentionGraph::new(&layers).map_err(|e| relevance_said(&e))?;
    let lengths =
        contribution::value_lengths(model.encoder(), &run.forward).map_err(|e| model_said(&e))?;
    let rollout = graph.rollout();
    let d_head = heads
        .first()
        .and_then(|l| l.first())
        .map_or(0, |h| h.q.ncols());
    let special = model.special_tokens(&run.encoding);
    let header = RunHeader {
        id,
        tokens: run.encoding.tokens.clone(),
        ids: run.encoding.ids.clone(),
        special,
        second: run.encoding.second,
        truncated_from: run.encoding.truncated_from,
        replaced: run
            .encoding
            .unknown
            .iter()
            .map(|u| Replaced {
                token: u.token,
                text: u.text.clone(),
            })
            .collect(),
        outside: run.encoding.outside.clone(),
        layers: heads.len(),
        heads: heads.first().map_or(0, Vec::len),
        d_head,
        width: run.forward.embedding.len(),
        millis: now() - start,
    };
    let mut floats = Vec::with_capacity(header.floats());
    for layer in heads {
        for h in layer {
            floats.extend(h.weights.iter());
        }
    }
    for r in &rollout {
        floats.extend(r.iter());
    }
    type Pick = fn(&HeadTrace) -> &Array2<f32>;
    let picks: [Pick; 3] = [|h| &h.q, |h| &h.k, |h| &h.v];
    for pick in picks {
        for layer in heads {
            for h in layer {
                floats.extend(pick(h).iter());
            }
        }
    }
    for layer in &lengths {
        for head in layer {
            floats.extend(head);
        }
    }
    floats.extend(&run.forward.embedding);
    state.last = Some((id, graph));
    post_with_floats(&Reply::Ran(header), &floats);
    Ok(())
}

fn substitute(
    state: &Worker,
    id: u64,
    (text, pair): (&str, Option<&str>),
    link: &str,
    variant: usize,
    place: Place,
) -> Result<(), Said> {
    let model = state
        .model
        .as_ref()
        .ok_or_else(|| said(workers::WORKER_MODEL_NOT_LOADED.into()))?;
    let lab = attnlab_link::decode(link)
        .map_err(|e| {
            Said::of(|lang| {
                workers::WorkerLabSettings {
                    error: &e.message_in(lang),
                }
                .say(lang)
            })
        })?
        .state;
    let chosen = lab
        .variants
        .get(variant)
        .ok_or_else(|| said(workers::WorkerNoVariant { variant: &variant }.said()))?;
    let start = now();
    let mut report = substitution::substitute(model, text, pair, chosen, lab.model.seed, place)?;
    report.id = id;
    report.millis = now() - start;
    post(&Reply::Substituted(report));
    Ok(())
}

fn flow(state: &Worker, id: u64, layer: usize) -> Result<(), Said> {
    let Some((last, graph)) = state.last.as_ref().filter(|(last, _)| *last == id) else {
        return Err(said(workers::WORKER_FLOW_STALE.into()));
    };
    let start = now();
    let m = graph.flow(layer).map_err(|e| relevance_said(&e))?;
    let header = FlowHeader {
        id: *last,
        layer,
        n: m.nrows(),
        millis: now() - start,
    };
    post_with_floats(
        &Reply::Flowed(header),
        &m.iter().copied().collect::<Vec<_>>(),
    );
    Ok(())
}

pub fn start() {
    console_error_panic_hook::set_once();
    let state = Rc::new(RefCell::new(Worker::default()));
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |ev: MessageEvent| {
        let request = ev
            .data()
            .as_string()
            .ok_or_else(|| workers::WORKER_REQUEST_NOT_TEXT.en.to_string())
            .and_then(|text| Request::from_json(&text))
            .map_err(|e| said(workers::WorkerRequestUnreadable { error: &e }.said()));
        match request {
            Ok(Request::Load { url }) => spawn_local(load(state.clone(), url)),
            Ok(Request::Run { id, text, pair }) => {
                if let Err(said) = run(&mut state.borrow_mut(), id, &text, pair.as_deref()) {
                    fail(Stage::Run, Some(id), said);
                }
            }
            Ok(Request::Substitute {
                id,
                text,
                pair,
                link,
                variant,
                place,
            }) => {
                let texts = (text.as_str(), pair.as_deref());
                if let Err(said) = substitute(&state.borrow(), id, texts, &link, variant, place) {
                    fail(Stage::Substitute, Some(id), said);
                }
            }
            Ok(Request::Flow { id, layer }) => {
                if let Err(message) = flow(&state.borrow(), id, layer) {
                    fail(Stage::Flow, Some(id), message);
                }
            }
            Err(message) => fail(Stage::Run, None, message),
        }
    });
    scope().set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    post(&Reply::Ready);
}
