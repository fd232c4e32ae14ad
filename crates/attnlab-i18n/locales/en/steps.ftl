# The "Step by step" page (attnlab-pages steps/, the app's src/pages/steps/).

## What a stage's rows and columns are: its heatmap's axis titles (steps/stages.rs).

steps-axis-query-tokens = query tokens
steps-axis-key-tokens = key tokens
steps-axis-projected-keys = projected keys
steps-axis-dimensions = dimensions
steps-axis-features = features
steps-value-label = value

## The stages' short names: the chips, the stage's heading, its figure's title.

steps-stage-input = Input X
steps-stage-queries = Queries Q
steps-stage-keys = Keys K
steps-stage-values = Values V
steps-stage-projected-keys = Projected keys K′ = E K
steps-stage-projected-values = Projected values V′ = F V
steps-stage-scores = Raw scores
steps-stage-scaled = Scaled
steps-stage-masked = Masked
steps-stage-softmax = Softmax weights
steps-stage-efficient-queries = φ(Q) = softmax over features
steps-stage-feature-queries = Feature map φ(Q)
steps-stage-efficient-keys = φ(K) = softmax over positions
steps-stage-feature-keys = Feature map φ(K)
steps-stage-similarity = Similarities
steps-stage-implied = Implied weights Â
steps-stage-linear-output = Output (linear form)
steps-stage-head-output = Weights · V
steps-stage-output = Concat · W^O

## The note under the Input stage's formula: what X is made of (steps/stages.rs).

steps-input-words-unit = word vectors
steps-input-words-scaled = word vectors ×√d_model
steps-input-no-positions = no positions: X is the word vectors alone, so word order is invisible (a bag of words)
steps-input-added = { $words } plus { $kind } position vectors, added (width d_model = { $width })
steps-input-concatenated = { $words } and { $kind } position vectors, concatenated (width { $width } + { $d_pos })
steps-input-cross = X: { $positions }. The keys and values come from the source sentence's own X.
steps-input-self = X: { $positions }.
steps-position-none = no
steps-position-sinusoidal = sinusoidal
steps-position-learned = learned (seeded)

## The notes of the score, scaling, masking, feature-map and linear output stages (steps/stages.rs).

steps-score-projected = Each query against each projected key: qᵀk′.
steps-score-dot = The dot product of every query with every key.
steps-score-scaled-dot = The plain dot product qᵀk of every query with every key (the scaling comes next).
steps-score-general = Bilinear (Luong): qᵀWk with a seeded d_k×d_k matrix W.
steps-score-additive = Additive (Bahdanau): a small tanh network of the query and the key.
steps-score-cosine = Cosine: the dot product of unit vectors, between −1 and 1.
steps-scaled-root = Divided by √d_k = √{ $d_k } = { $root } and by τ = { $tau }: this keeps the softmax from becoming nearly one-hot as d_k grows.
steps-scaled-tau-only = Divided by τ = { $tau } only: this score function is not scaled by √d_k (choose scaled dot to see that).
steps-masked-none = No mask is on: every key is allowed, the logits pass unchanged.
steps-masked-blocked = Blocked cells ({ $masks }) become −∞, so the softmax gives them exactly 0.
steps-masked-empty-rows = { " " }{ $rows } row(s) have no allowed key: their weights are all 0.
steps-mask-joiner = { " and " }
steps-feature-elu1 = φ(x) = elu(x) + 1 on every entry: positive, smooth.
steps-feature-relu = φ(x) = max(x, 0) on every entry: negative entries vanish.
steps-feature-taylor = φ(x) = [1, x/‖x‖]: so φ(q)ᵀφ(k) = 1 + q̂ᵀk̂, the first-order Taylor term of exp.
steps-linear-recurrent = Computed as an RNN: running sums S_i, z_i over j ≤ i, never the n×n matrix.
steps-linear-masked-quadratic = This mask breaks the factorisation: the output is Â V, quadratic — the variant is no longer linear.
steps-linear-global = Computed in O(n): one global d×d_v state, never the n×n matrix.

## The notes of the other stages (steps/matrices.rs).

steps-queries-note = Each query token's row of X times head { $head }'s W^Q: { $n } queries of width d_k = { $d_k }.
steps-keys-cross = Keys come from the source sentence: { $m } keys of width { $d_k }.
steps-keys-self = The same tokens, projected with W^K: { $m } keys of width { $d_k }.
steps-values-note = The values are what the weights will mix, one row per key.
steps-brought-queries = Head { $head }'s queries as brought: { $n } rows of width d_k = { $d_k }.
steps-brought-keys = Head { $head }'s keys as brought: { $m } rows of width d_k = { $d_k }.
steps-brought-values = Head { $head }'s values as brought: { $m } rows of width d_v = { $d_v }, what the weights will mix.
steps-projected-keys-note = Linformer mixes the { $m } keys into k = { $k } projected keys with a seeded E (k×m).
steps-projected-values-note = The values are mixed the same way with F (k×m): { $k } rows.
steps-softmax-note = Each row becomes a probability distribution over the keys: it sums to 1 (a row with no allowed key is all zeros).
steps-head-output-note = Each query's output is the weighted mean of the value rows.
steps-feature-keys-note = The same map on every key: all entries are ≥ 0, so every similarity is ≥ 0.
steps-similarity-note = Shown for teaching only: linear attention never builds this n×m matrix to compute its output.
steps-implied-note = Each row of similarities divided by its sum (+ ε = 10⁻⁶): the weights the O(n) computation applies without forming them.
steps-efficient-queries-note = Each query row is normalised over its d_k features (rows sum to 1).
steps-efficient-keys-note = Each key feature column is normalised over the positions (columns sum to 1; padding keys get 0).
steps-efficient-implied-note = Shown for teaching only: the output is computed as φ(Q)(φ(K)ᵀV) in O(n).
steps-efficient-output-note = Efficient attention: d_k×d_v context first, then each query reads it.
steps-output-projected = The { $heads } heads' outputs side by side, times W^O: the layer's output, one row per query.
steps-output-identity = The { $heads } heads' outputs side by side: the layer's output, one row per query.

## The read-out of the query's row under a stage (steps/readout.rs); the token and the
## values are quoted as they are.

steps-readout-row = Row { $token } ({ $index }) of { $stage }: { $values }
steps-readout-keys = The rows of { $stage } are the keys (all of them are used by every query); the selected query is { $token } ({ $index }).

## The page (src/pages/steps/steps_view.rs).

steps-view-label = Step by step: the pipeline of one variant. ArrowLeft and ArrowRight step through the stages.
steps-lead = Follow one query token through the whole attention layer of the selected variant: from its input vector to the layer's output. Every matrix is the one the lab computes; the outlined row is the chosen query.
steps-no-variant = There is no variant to walk through.
steps-query-token = Query token
steps-prev = ← Prev
steps-next = Next →
steps-stages-label = Stages
steps-figure-title = { $at } / { $len } · { $stage } · head { $head }

## The neuron view's key picker beside the stages (src/pages/steps/steps_neuron.rs).

steps-neuron-key = Why this weight? Key{ " " }
steps-neuron-pick-key = — pick a key —
steps-neuron-hint = opens the neuron view of the query's cell on that key

## The stages of the kinds and options of issue 33 (steps/stages.rs, steps/modern.rs).

steps-stage-turned-queries = RoPE: turned queries q̃
steps-stage-turned-keys = RoPE: turned keys k̃
steps-stage-softcap = Softcapped
steps-stage-alibi = + ALiBi bias
steps-stage-plus-one = Softmax + 1 weights
steps-stage-sigmoid = Sigmoid weights
steps-stage-softpick = Softpick weights
steps-stage-sink = Weights beside the sink
steps-stage-first-softmax = First map softmax(z₁)
steps-stage-second-softmax = Second map softmax(z₂)
steps-stage-differential = Difference a¹ − λa²
steps-stage-decayed-scores = Scores S
steps-stage-decay = Decay D
steps-stage-decayed = Decayed weights D ⊙ S
steps-stage-favor-queries = FAVOR+ features φ(Q)
steps-stage-favor-keys = FAVOR+ features φ(K)
steps-group-note = { " " }Head { $head } reads key/value group { $group } of { $groups }, shared by heads { $first }–{ $last }.
steps-turned-queries-note = Each pair of dimensions turns by an angle proportional to the token's position (base { $base }; { $r } of the { $d_k } dimensions turn). The score q̃ᵀk̃ then depends on the positions only through i − j.
steps-turned-keys-note = The keys turn the same way by their own positions: the turns of q̃ and k̃ cancel down to the angle of i − j.
steps-softcap-note = c·tanh(z/c) with c = { $c }: small logits pass almost unchanged, large ones bend towards ±{ $c } (Gemma 2). The largest logit goes from { $before } to { $after }.
steps-alibi-note = Head { $head } adds −m·|i − j| with slope m = { $slope }: a key d tokens away loses m·d, whatever it says (no position vectors at all).
steps-sinks-note = { " " }The first { $s } key(s) stay open for every query: the attention sinks.
steps-softmax-tiled-note = Computed tile by tile ({ $tile } keys a tile) with the online softmax: the same weights as one pass. Walk the tiles below.
steps-plus-one-note = e^z / (1 + Σ e^z): the extra 1 is a key worth e⁰ that takes its share, so a row may sum to less than 1. The selected row sums to { $sum }.
steps-sigmoid-note = σ(z + b) cell by cell with b = { $b }: no sum over the keys, each weight lies between 0 and 1 on its own. The selected row sums to { $sum }.
steps-softpick-note = max(e^z − 1, 0) over Σ|e^z − 1|: a negative logit gets exactly 0 yet still counts below the line. The selected row sums to { $sum }.
steps-sink-note = e^z / (e^s + Σ e^z) with the head's sink logit s = { $s }: a key no one sees takes e^s of the mass. The selected row sums to { $sum }; the sink took { $rest }.
steps-first-softmax-note = The softmax of the logits of q and k: each row sums to 1.
steps-second-softmax-note = The softmax of the logits of the head's second queries and keys q₂, k₂, over the same mask: each row sums to 1.
steps-differential-note = The first map minus λ = { $lambda } times the second: what both maps share cancels, so weights can be negative (blue) and each row sums to 1 − λ. The selected row sums to { $sum }.
steps-decayed-scores-note = The score function alone: decayed linear attention has no temperature and no normaliser.
steps-decay-note = D_ij = γ^(i−j) for j ≤ i with γ = { $gamma }: a key d tokens back counts γ^d, the future 0.
steps-decayed-note = The weights are D ⊙ S, never normalised: they can be negative and a row need not sum to 1. The selected row sums to { $sum }.
steps-decayed-output-note = The core's output: by the recurrence S_t = γ S_(t−1) + k_t v_tᵀ when the mask is only causal, else D ⊙ S times V. The same numbers.
steps-favor-queries-note = Positive random features exp(Wx′ − ‖x′‖²/2)/√r with r = { $r } seeded rows of W: on average φ(q)·φ(k) = exp(qᵀk/√d_k), softmax's numerator.
steps-favor-keys-note = The same features of every key: all positive, so every similarity is above 0.
steps-favor-output-note = The output as the core forms it: in O(n) from the features without a mask, by prefix sums when causal, Â V otherwise.

## The tiles walk under the softmax stage with tiles on (src/pages/steps/steps_tiles.rs).

steps-tiles-title = The online softmax, tile by tile (B = { $tile } keys a tile)
steps-tiles-pick = Tile to show
steps-tiles-prev = ← Previous tile
steps-tiles-next = Next tile →
steps-tiles-at = Tile { $t } of { $count }: keys { $from }–{ $to }
steps-tiles-logits = This tile's logits (−∞: blocked):
steps-tiles-max = Running max m_t = max(m_(t−1), { $tile_max }) = { $max }
steps-tiles-max-none = No allowed key yet: m_t = −∞ and l_t = 0.
steps-tiles-sum = Running sum l_t = { $rescale } · l_(t−1) + Σ e^(z − m_t) = { $sum }
steps-tiles-acc = Output accumulator o_t = { $rescale } · o_(t−1) + Σ e^(z − m_t) v, { $d_v } numbers:
steps-tiles-done = After the last tile, o_T / l_T and e^(z − m_T) / l_T are the full softmax's output and weights. Largest difference, measured: { $weights } in the weights, { $output } in the output.
steps-tiles-weights = Weights after the last tile:
steps-tiles-memory = Memory per query: { $tiled } floats (a tile of { $tile } logits, m_t and l_t, and o_t of { $d_v }) against { $full } for the full row of logits. For the whole head: { $head } logits at once (n × B) against { $head_full } (n × m).
