# The neuron view of one cell and the weight | contribution switch (attnlab-pages neuron/,
# the app's src/neuron/), shown by the lab, the step-by-step page and the model page.

## What the sum of the products is, in words (neuron/mod.rs); also the row table's heads.

neuron-sum-similarity = similarity φ(q_i)·φ(k_j)
neuron-weight = weight
neuron-raw-score = raw score

## From the sum to the weight, one sentence per step (neuron/present.rs).

neuron-step-sum = Sum over the { $n } dimensions: { $sum_name } = { $sum }
neuron-step-cosine = Cosine: each vector was divided by its norm first, ‖q_i‖ = { $q }, ‖k_j‖ = { $k } (a zero vector scores 0).
neuron-step-allowed = The mask allows this cell.
neuron-step-scaled = Scaled by 1/√d_k = { $scale }: { $value }
neuron-step-temperature = Divided by the temperature τ = { $tau }: logit { $logit }
neuron-step-blocked-logit = The mask blocks this cell: its logit counts as −∞, its weight is 0.
neuron-step-softmax = Softmax over the row's { $allowed } allowed keys: weight α = { $weight }
neuron-step-blocked-similarity = The mask blocks this cell: its similarity does not count, its weight is 0.
neuron-step-normaliser = Divided by the row normaliser Σ_j' φ(q_i)·φ(k_j') + ε = { $z }: weight α = { $weight }
neuron-step-efficient = Efficient attention normalised q_i over its features and every key feature over the positions: the sum is the weight α = { $weight }
neuron-step-computed = { $kind } turns the row's logits into weights in its own way (Step by step shows each stage): α = { $weight }

## The panel (src/neuron/neuron_panel.rs); the tokens are quoted as they are.

neuron-panel-label = Neuron view
neuron-close = close the neuron view
neuron-title = Neuron view · { $place }head { $head } · query “{ $query_token }” ({ $query }) → key “{ $key_token }” ({ $key })
neuron-sort = { " " }sort dimensions by |product|, largest first
neuron-cell-tip = dimension { $dim }: { $value }
neuron-row-caption = The whole row: every key's raw score and weight
neuron-key = key
neuron-masked = (masked)

## The weight | contribution switch (src/neuron/measure_switch.rs).

neuron-measure-label = What the heatmaps show
neuron-measure-show = Show
neuron-paper-link = The paper (ACL Anthology)
