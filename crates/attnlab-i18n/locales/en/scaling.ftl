# The "why √d_k" page (attnlab-pages scaling.rs, the app's src/pages/scaling/).

## The two charts: axes, legends, titles and notes (scaling.rs).

scaling-axis-d-k = d_k (log scale)
scaling-sentence-unscaled = sentence, unscaled (d_k { $d_k })
scaling-sentence-scaled = sentence, scaled
scaling-std-unscaled = std of q·k
scaling-std-scaled = std of q·k/√d_k
scaling-spread-title = Spread of the logits
scaling-spread-axis = standard deviation (log)
scaling-dots-note = dots: your sentence, selected head
scaling-max-entropy = maximum ln n = { $ceiling }
scaling-entropy-title = Mean row entropy of the softmax
scaling-entropy-axis = entropy (nats)

## The page (src/pages/scaling/mod.rs, scaling_charts.rs).

scaling-page-label = Why divide by the square root of d_k
scaling-page-title = Why divide by √d_k?
scaling-lead = If the entries of q and k are independent with mean 0 and variance 1, then q·k is a sum of d_k such products, so its variance is d_k and its spread grows as √d_k. Large logits push the softmax into its flat tails: one key takes almost all the weight and the gradients of the others vanish. Dividing by √d_k brings the spread back to 1 at every width.
# $keys: the keys are the source sentence's (cross-attention) or the typed one's;
# $length: short when the sentence has fewer than 2 keys.
scaling-setup = Experiment: for each d_k, { $queries } random queries (in { $draws } independent draws of keys) against n = { $n } random keys (n = your { $keys ->
    [source] source{ " " }
   *[typed] { "" }
}sentence's length{ $length ->
    [short] , at least 2
   *[enough] { "" }
}), entries ~ N(0, 1), seed { $seed }. Entropy is in nats; a uniform row has the maximum ln n = { $ceiling }.
scaling-spread-caption = Without scaling the spread grows as √d_k; with it, it stays at 1.
scaling-entropy-caption = Without scaling the softmax collapses onto one key (entropy → 0); with it, the rows stay soft.

## The table of the experiment (src/pages/scaling/scaling_table.rs).

scaling-table-caption = Spread of the logits and sharpness of the softmax, without and with 1/√d_k
scaling-entropy-unscaled = entropy, unscaled
scaling-entropy-scaled = entropy, scaled
scaling-max-weight-unscaled = max weight, unscaled
scaling-max-weight-scaled = max weight, scaled
scaling-sentence-row = { $d_k } (sentence, head { $head })
scaling-sentence-pending = The sentence's own values appear here once the sentence and the model can be computed.

## One row of weights, without and with scaling (src/pages/scaling/example_rows.rs).

scaling-example-title = One row of weights: the same random logits, without and with scaling
scaling-weights-label = weights { $values }
scaling-example-unscaled = softmax(q·k): largest weight{ " " }
scaling-example-one-hot = { " " }— nearly one-hot
scaling-example-scaled = softmax(q·k/√d_k): largest weight{ " " }
