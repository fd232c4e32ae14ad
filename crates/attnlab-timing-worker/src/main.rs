//! The complexity page's timing worker. The page creates it
//! (`attnlab-timing-worker_loader.js`), waits for [`Report::Ready`] and posts one
//! [`Request`] as JSON text; it receives one [`Report::Progress`] per measured point and a
//! final [`Report::Finished`] (or [`Report::Failed`]). The run is synchronous: the page
//! cancels it by terminating the worker. The policy, the sizes and the maths are
//! `attnlab_pages::complexity`'s; this file only moves text.
//!
//! Natively this binary has nothing to do.
//!
//! [`Report::Ready`]: attnlab_pages::complexity::Report::Ready
//! [`Report::Progress`]: attnlab_pages::complexity::Report::Progress
//! [`Report::Finished`]: attnlab_pages::complexity::Report::Finished
//! [`Report::Failed`]: attnlab_pages::complexity::Report::Failed
//! [`Request`]: attnlab_pages::complexity::Request

#[cfg(target_arch = "wasm32")]
mod worker {
    use attnlab_pages::complexity::{Report, Request, run};
    use wasm_bindgen::JsCast;
    use wasm_bindgen::prelude::*;
    use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

    fn post(scope: &DedicatedWorkerGlobalScope, report: &Report) {
        // Posting a string cannot fail for a live worker; a dead one has no one to tell.
        let _ = scope.post_message(&JsValue::from_str(&report.to_json()));
    }

    pub fn start() {
        console_error_panic_hook::set_once();
        let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
        let performance = scope.performance();
        let replies = scope.clone();
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |ev: MessageEvent| {
            let request = ev
                .data()
                .as_string()
                .ok_or_else(|| "the request is not text".to_string())
                .and_then(|text| Request::from_json(&text));
            match request {
                Ok(request) => {
                    let mut clock = || performance.as_ref().map_or(0.0, |p| p.now());
                    run(&request, &mut clock, &mut |r| post(&replies, &r));
                }
                Err(message) => post(&replies, &Report::Failed { message }),
            }
        });
        scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        on_message.forget();
        post(&scope, &Report::Ready);
    }
}

fn main() {
    #[cfg(target_arch = "wasm32")]
    worker::start();
}
