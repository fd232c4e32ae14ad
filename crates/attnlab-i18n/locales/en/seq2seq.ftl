# The Decoding page's classic decoder: a recurrent encoder–decoder with additive attention (attnlab-pages decoding/seq2seq.rs, the app's src/pages/decoding/seq2seq*.rs).

## The section's title, lead and caveats.

seq2seq-title = The classic decoder: additive attention
seq2seq-section-label = the classic encoder–decoder with additive attention
seq2seq-lead = Before the Transformer, attention sat between two recurrent networks (Bahdanau, Cho and Bengio, 2015). A bidirectional recurrent encoder (a GRU each way) reads the source into one annotation h_j per word. A recurrent decoder writes the target one word per step: its state before the word, sₜ₋₁, is the query; it scores every annotation with the additive score, takes their softmax α_t and their weighted sum, the context c_t, and feeds the context into its next state. So the query changes at every step, and each step adds one row to the alignment matrix.
seq2seq-seeded = The weights are seeded, not trained: the pattern shows how the mechanism computes, not a learned translation (lesson 1 and the real-model page show trained alignments). The target words are given (teacher forcing): yₜ₋₁ is the previous target word's vector, and the start symbol <s> at the first step.
seq2seq-sizes = { $m } source words, { $t } target words; word vectors d_x = { $dx }, encoder states d_e = { $de } each way, annotations and decoder state { $n } wide.

## Refusals and limits.

seq2seq-needs-cross = This section reads two sentences: a source and a target. The lab has one sentence now.
seq2seq-switch-cross = Switch the lab to two sentences
seq2seq-no-source = The source sentence has no word: write one in the source box.
seq2seq-no-target = The target sentence has no word: write one in the target box.
seq2seq-limited = Only the first { $max } words of each sentence are run (the source has { $m }, the target { $t }), so that every row and column of the matrix stays readable.
seq2seq-brought = This section runs on the lab's seeded word vectors; brought Q, K and V have none. Remove the brought tensors to see it.

## The stepper.

seq2seq-stepper-label = step through the target
seq2seq-previous = previous word
seq2seq-next = next word
seq2seq-step = step t
seq2seq-step-of = Step { $t } of { $all }: the decoder writes “{ $word }”.
seq2seq-feed = feed the context back into the next state
seq2seq-feed-on = On (Bahdanau): the context c_t enters the next state, so it changes the query of step t + 1.
seq2seq-feed-off = Off: c_t is computed but the next state ignores it; the states read the source only through s_0.
seq2seq-delta = Largest change of a weight between feeding the context and not, rows 1 … { $t }: { $delta }.
seq2seq-delta-first = Row 1: { $first } (both read s_0).

## The figures.

seq2seq-alignment-title = Alignment α: one row per target word written so far
seq2seq-axis-target = target words (steps)
seq2seq-axis-source = source words
seq2seq-axis-features = features
seq2seq-value = value
seq2seq-query-title = The query: the state sₜ₋₁ before step { $t }
seq2seq-context-title = The context c_{ $t } = Σ_j α_{ $t },j h_j
seq2seq-weights-caption = Step { $t }: score e and weight α of every source word
seq2seq-col-word = source word
seq2seq-col-score = score e
seq2seq-col-weight = weight α
seq2seq-row-sum = The weights of this row add up to { $sum }.
seq2seq-enters = The context enters the next state:
seq2seq-not-entering = With the feed off the next state reads zeros in its place:
