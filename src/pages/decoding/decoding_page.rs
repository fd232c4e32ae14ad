use attnlab_i18n::msg;
use leptos::prelude::*;

use super::{DecoderStepper, KvCalculator, Seq2seqSection};
use crate::i18n::text;

/// The Decoding page: its title, its lead, the classic decoder, the decoder stepper and the
/// KV-cache calculator.
#[component]
pub fn DecodingPage() -> impl IntoView {
    view! {
        <section class="explain decoding" data-testid="decoding-view" aria-labelledby="decoding-title">
            <h2 class="section-title" id="decoding-title">{text(msg::decoding::DECODING_TITLE)}</h2>
            <p class="explain-lead" data-testid="decoding-lead">{text(msg::decoding::DECODING_LEAD)}</p>
            <Seq2seqSection/>
            <DecoderStepper/>
            <KvCalculator/>
        </section>
    }
}
