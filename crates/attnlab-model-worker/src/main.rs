//! The model worker. The page creates it (`attnlab-model-worker_loader.js`), waits for
//! [`Reply::Ready`], and sends [`Request`]s as JSON text: load the asset (from the Cache
//! API, else from the network with [`Reply::Progress`] as bytes arrive, then kept in the
//! cache), run a text, compute a layer's flow. Replies are JSON text; a forward pass or
//! a flow is an object `{ json, floats }` whose `Float32Array` is transferred, not
//! copied (layout: [`RunHeader`], [`FlowHeader`]). The page cancels a load by ending the
//! worker: nothing is cached before the whole file has arrived.
//!
//! The forward pass is `attnlab_model`'s, rollout and flow are
//! `attnlab_model::relevance`'s; this file only moves bytes. Natively this binary has
//! nothing to do.
//!
//! [`Reply::Ready`]: attnlab_model_page::protocol::Reply::Ready
//! [`Reply::Progress`]: attnlab_model_page::protocol::Reply::Progress
//! [`Request`]: attnlab_model_page::protocol::Request
//! [`RunHeader`]: attnlab_model_page::protocol::RunHeader
//! [`FlowHeader`]: attnlab_model_page::protocol::FlowHeader

#[cfg(target_arch = "wasm32")]
mod worker;

fn main() {
    #[cfg(target_arch = "wasm32")]
    worker::start();
}
