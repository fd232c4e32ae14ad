# The app shell's sentences (src/shell, src/state, src/widgets, src/display.rs, src/i18n.rs).

## The header and the About panel (shell/app_header.rs).

header-title = attnlab — Attention Lab
header-tagline = Type a sentence and see how much each word (a query, on a row) attends to every word (a key, in a column).
header-about = About
header-about-text = attnlab is a laboratory for the attention mechanism: change the attention function itself and watch every matrix change. Everything runs in this page; nothing is sent anywhere.

## The lab page's panels and variants bar (shell/app.rs).

lab-page-sentence-tokens = Sentence and tokens
lab-page-model-settings = Model settings
lab-page-loading-page = Loading the page…
lab-page-variants = Variants{ " " }
lab-page-add-variant = + add variant
lab-page-side-by-side-label = Variants side by side
lab-page-side-by-side = side by side:{ " " }
lab-page-first-variant-side = first variant side by side
lab-page-second-variant-side = second variant side by side
lab-page-variant-shown = Variant shown
lab-page-difference = difference
lab-page-add-variant-title = add a variant with the Transformer's defaults

## The link bar (shell/link_bar.rs).

link-bar-label = Link to this lab{ " " }
link-bar-copy = copy link
link-bar-copied = Copied: paste it anywhere.
link-bar-select = Select the link and copy it (Ctrl+C).

## The choice of model and its loading state (shell/model_choice.rs).

model-choice-model = Model
model-choice-toy-seeded = { " " }toy (seeded)
model-choice-layer = layer{ " " }
model-choice-head = head{ " " }
model-choice-real-model-shown = The real model is shown on its own page; the other pages explain the toy model below.
model-choice-starting = starting…
model-choice-loading = loading…
model-choice-loading-percent = loading { $percent }%
model-choice-ready = ready
model-choice-not-in-build = not in this build
model-choice-failed-load = failed to load
model-choice-cancelled = cancelled

## The model's settings shared by every variant (shell/model_settings.rs).

model-settings-model-shared-by = Model (shared by every variant)
model-settings-seed = seed
model-settings-positions = positions
model-settings-none = none
model-settings-sinusoidal = sinusoidal
model-settings-learned = learned
model-settings-base = base
model-settings-layout = layout
model-settings-interleaved = interleaved
model-settings-split = split
model-settings-combine = combine
model-settings-add = add
model-settings-concat = concat
model-settings-word-vectors-d = word vectors ×√d_model
model-settings-projections = projections
model-settings-seeded-w-q = seeded W_Q, W_K, W_V
model-settings-identity-q-k = identity (Q = K = V = X)
model-settings-pad-keys-length = pad keys to length
model-settings-off = off
model-settings-heads-greyed = greyed-out counts cannot be chosen: e.g. { $why }
model-settings-brought-tensors = Your tensors set the heads ({ $heads }) and d_k ({ $d_k }): these settings wait for the sentence. The seed still draws the general and additive scores' and Linformer's parameters.
model-settings-identity-why = identity: { $why }
model-settings-d-model-whole = d_model is a whole number between 8 and 512
model-settings-base-number-between = the base is a number between 2 and 100000000
model-settings-d-pos-even = d_pos is an even whole number

## The page tabs (shell/page_nav.rs).

page-nav-views = Views
page-nav-lab = Lab
page-nav-real-model = Real model
page-nav-step-by-step = Step by step
page-nav-block = Block
page-nav-positions = Positions
page-nav-why-d-k = Why √d_k
page-nav-linear-attention = Linear attention
page-nav-decoding = Decoding
page-nav-lines = Lines
page-nav-complexity = Complexity

## The banner shown when the app stops on an internal error (shell/panic_banner.rs).

panic-stopped = attnlab stopped on an internal error and cannot go on in this page. Your text is kept:{ " " }
panic-reload = reload with my text
panic-details = What went wrong (for a bug report)

## The sentence input, its examples and the kind of attention (shell/sentence_input.rs).

sentence-input-attention = Attention
sentence-input-self-one-sentence = self (one sentence)
sentence-input-cross-encoder-decoder = cross (encoder–decoder)
sentence-input-type-sentence-any = Type a sentence, in any language…
sentence-input-examples = Examples{ " " }
sentence-input-pick-example = pick an example…
sentence-input-source-keys-values = Source (keys and values, the encoder's words)
sentence-input-sentence-being-translated = The sentence being translated…
sentence-input-coreference = Coreference
sentence-input-chinese-one-token = Chinese: one token per character
sentence-input-chinese = Chinese
sentence-input-word-sense = Word sense
sentence-input-long-paragraph-about = A long paragraph (about 90 tokens)
sentence-input-translations-target = A translation's target
sentence-input-target-queries-decoders = Target (queries, the decoder's words)
sentence-input-label = Sentence

## The token strips (shell/token_strip.rs).

token-strip-label = Tokens{ " " }
token-strip-source = Source tokens{ " " }
token-strip-more = … and { $more } more tokens, not listed

## The QR code of the lab's link: its corner, its dialog, its notes (shell/qr/).

qr-corner-enlarge = QR code of this lab's link: enlarge
qr-corner-lesson-enlarge = QR code of the lesson step's link (this lab's link is too long): enlarge
qr-corner-lesson-step = lesson step
qr-corner-too-long = Link too long for a QR code
qr-corner-loopback = this computer only: phones cannot open it
qr-dialog-open = show QR code
qr-dialog-title = Scan to open this lab
qr-dialog-close = Close
qr-dialog-alt = QR code of this lab's link
qr-dialog-caption = Scanning it opens this lab on a phone, as it is now.
qr-dialog-lesson-alt = QR code of the lesson step's link
qr-dialog-lesson-caption = The lesson step's link: it opens this step as the lesson sets it.
qr-dialog-show-lesson = Show the lesson step's link instead
qr-dialog-shorten = Shorten the sentence (or remove a variant) to make the link shorter.
qr-loopback-note-before = This link names this computer itself (a loopback address): a phone cannot open it. Serve the lab with{ " " }
qr-loopback-note-after = { " " }and open it by this computer's network address.

## The display menu: presenting, theme and colour maps (display.rs).

display-present-title = Presentation mode: large type and figures for a projector (Esc leaves)
display-present = Present
display-theme = Theme
display-weights = Weights
display-differences = Differences
display-system = system
display-light = light
display-dark = dark

## The pickers of the variant and head a page shows (widgets/view_pickers/).

picker-head = Head
picker-head-option = head { $head }
picker-variant = Variant

## The language switch (i18n.rs).

lang-switch-label = Language

## A knob's reason as a sentence of its own (widgets/knob.rs).

widget-reason-sentence = { $reason }.
