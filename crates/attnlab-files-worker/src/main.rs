//! The worker that reads brought files. The page creates it
//! (`attnlab-files-worker_loader.js`) and waits for its first message, the text
//! `ready`; then it posts an array of `[name, ArrayBuffer]` pairs (the buffers
//! transferred) and receives `[reply, numbers]`: a [`wire::Reply`] as JSON text and,
//! when the files were read, a `Float32Array` of every number (`attnlab_formats::tensors::wire`).
//! The readers (NumPy, zip, the tensors document) are in this wasm only, and a large
//! file is parsed off the page's thread. The page uses a worker for one set of files.
//!
//! Natively this binary has nothing to do.
//!
//! [`wire::Reply`]: attnlab_formats::tensors::wire::Reply

#[cfg(target_arch = "wasm32")]
mod worker {
    use attnlab_formats::tensors::{self, File, wire::Reply};
    use js_sys::{Array, Float32Array, Uint8Array};
    use wasm_bindgen::JsCast;
    use wasm_bindgen::prelude::*;
    use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

    /// The worker's first message: its handler is set, the files may come.
    const READY: &str = "ready";

    /// The brought files of a message: `[name, ArrayBuffer]` pairs.
    fn files(data: &JsValue) -> Option<Vec<(String, Vec<u8>)>> {
        let list: &Array = data.dyn_ref()?;
        list.iter()
            .map(|pair| {
                let pair: Array = pair.dyn_into().ok()?;
                Some((
                    pair.get(0).as_string()?,
                    Uint8Array::new(&pair.get(1)).to_vec(),
                ))
            })
            .collect()
    }

    /// Reads brought files and posts `[reply, numbers]`.
    fn bring(scope: &DedicatedWorkerGlobalScope, data: &JsValue) {
        let reply = match files(data) {
            None => Err(tensors::Refusal::new(
                attnlab_i18n::msg::workers::WORKER_FILES_GARBLED.en,
                attnlab_i18n::msg::workers::WORKER_FILES_GARBLED.zh,
            )),
            Some(read) => {
                let named: Vec<File<'_>> = read
                    .iter()
                    .map(|(name, bytes)| File { name, bytes })
                    .collect();
                tensors::bring(&named).map_err(|e| e.refusal())
            }
        };
        let (reply, numbers) = match reply {
            Ok(brought) => {
                let (header, numbers) = brought.to_wire();
                (Reply::Brought(header), numbers)
            }
            Err(message) => (Reply::Refused(message), Vec::new()),
        };
        let text = serde_json::to_string(&reply).unwrap_or_default();
        let numbers = Float32Array::from(numbers.as_slice());
        let message = Array::of2(&JsValue::from_str(&text), &numbers);
        let _ = scope.post_message_with_transfer(&message, &Array::of1(&numbers.buffer()));
    }

    pub fn start() {
        console_error_panic_hook::set_once();
        let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
        let replies = scope.clone();
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |ev: MessageEvent| {
            bring(&replies, &ev.data());
        });
        scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        on_message.forget();
        // Posting a string cannot fail for a live worker; a dead one has no one to tell.
        let _ = scope.post_message(&JsValue::from_str(READY));
    }
}

fn main() {
    #[cfg(target_arch = "wasm32")]
    worker::start();
}
