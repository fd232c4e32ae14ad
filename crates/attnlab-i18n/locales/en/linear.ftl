# The linear-attention page (attnlab-pages' linear/ and src/pages/linear/): softmax against
# a kernel variant, the RNN stepper, Linformer and which kinds can be made causal.

## Why the page cannot show something (LinearLabError; the English is its Display). The kernel kinds
## are named by their names ($elu1, $relu, $taylor: elu1, relu, taylor).

linear-not-kernel = { $kind } is not a kernel (feature-map) variant: choose { $elu1 }, { $relu } or { $taylor }.
linear-not-one-sequence = The RNN form runs over one sequence, but this is cross-attention: { $n } target tokens read { $m } source tokens that are all known from the start, so there is nothing to recur over. Switch to self-attention to step through it.
linear-no-tokens = There are no tokens: type a sentence.
linear-no-variant = There is no variant to show.

## Attention kinds the page names in words of their own (the others by their names).

linear-kind-efficient = efficient
linear-kind-linformer = linformer

## Whether each kind can be made causal, and how or why not.

linear-causality-label = Which variants can be causal
linear-causality-title = Which variants can be made causal
linear-causal-softmax = softmax: can be made causal: the mask sets the logits of later keys to −∞ before the softmax (at O(n²) cost).
linear-causal-kernel = { $kind }: can be made causal and stays O(n): query t reads only the running sums S_t = Σ_(j≤t) φ(k_j) v_jᵀ and z_t = Σ_(j≤t) φ(k_j), an RNN (stepped through in the panel above).
linear-causal-efficient = efficient: not causal as defined: the softmax of K runs over all positions at once, so every key's weights depend on later keys, and the lab computes this form, which takes only the padding mask. A causal form exists and stays O(n): query t takes that softmax over keys 0…t only, from its own running sums Σ_(j≤t) exp(k_j) v_jᵀ and Σ_(j≤t) exp(k_j) (exp of each feature), like the RNN above.
linear-causal-linformer = linformer: cannot be made causal: Linformer mixes all positions into k projected keys, so no key can be masked and it cannot be made causal; each projected key E K is a mix of every position, including later ones.
linear-selected-variant = { " " }← the selected variant

## The page's title, lead and pickers.

linear-page-label = Linear attention
linear-page-title = Linear attention: the same Q and K, without the n×m matrix
linear-lead = Softmax attention weighs key j for query i by exp(q·k/√d_k) and needs every pair. Linear attention replaces the similarity by φ(q)·φ(k), so the sums over keys can be taken once, Σ φ(k_j) v_jᵀ, and read by every query: O(n) instead of O(n²). The price is that its similarity matrix φ(Q)φ(K)ᵀ has rank at most the width of φ. Below, both are computed from the same Q, K, V of the selected head, with the variant's masks.
linear-empty = Type a sentence to compare softmax and linear attention.
linear-kind-picker = Linear attention to compare

## Softmax against a kernel variant: figures, the spectrum chart and the numbers beside them.

linear-kernel-label = Softmax against linear attention
linear-kernel-title = Softmax against { $kind } on the same Q, K
linear-implied-title = { $kind }: implied matrix Â
linear-spectrum-title = Singular values of exp(QKᵀ/√d_k) and of φ(Q)φ(K)ᵀ ({ $kind })
linear-spectrum-index = index i (largest first)
linear-rank-threshold = rank threshold { $tolerance }
linear-softmax-rank = softmax: rank { $rank }
linear-kind-rank = { $kind }: rank { $rank }
linear-phi-width = φ width { $width }
linear-max-abs-row = max |{ $kind } − softmax|
linear-mean-abs-row = mean |{ $kind } − softmax| ({ $n }×{ $cols } cells)
linear-rank-linear-row = rank of φ(Q)φ(K)ᵀ ({ $kind })
linear-phi-width-row = φ width (the bound)
linear-rank-softmax-row = rank of exp(QKᵀ/√d_k) (softmax)
linear-rank-full-row = largest possible rank, min(n, m)
linear-one-key-note = With one key every row gives it weight 1, in softmax and in linear attention alike, and there is one singular value: type a longer sentence to see them differ.

## The sentence on ranks under the numbers ($tail is linear-full-rank or nothing; linear-rank-bound follows while the bound does not bite).

linear-rank-no-spectra = Singular values are computed for up to { $max } tokens; this text has more.
linear-rank = Linear attention: φ(Q)φ(K)ᵀ = (n×{ $w })·({ $w }×m), so its rank is at most the φ width { $w }; here it is { $linear }. Softmax: exp(QKᵀ/√d_k) is not a product of thin matrices, and its rank is { $softmax } of { $full }{ $tail }.
linear-full-rank = { " " }(full rank)
linear-rank-bound = { " " }With { $full } tokens and φ width { $w } the bound does not bite yet: type more than { $w } tokens to see the linear rank stop at { $w }.

## The RNN stepper ($token, $update and $read are shown in elements of their own).

linear-rnn-label = Causal linear attention as an RNN
linear-rnn-title = Causal { $kind } attention as an RNN
linear-rnn-lead = With the causal mask, query t may only see keys 0…t. Linear attention then needs no matrix at all: keep two running sums, absorb one key and value per step, and read the output with φ(q_t). The output must equal row t of the masked parallel form ÂV. (The stepper uses the causal mask and padding; other masks are not part of the recurrence.)
linear-rnn-step-label = Step
linear-rnn-first = « first
linear-rnn-previous = ◀ previous
linear-rnn-next = next ▶
linear-rnn-last = last »
linear-rnn-absorb = t = { $t } of { $n }: absorb { $token }: { $update }; then read { $read }.
linear-rnn-padding = t = { $t } of { $n }: { $token } is padding: it is not absorbed, S and z stay as they were; then read { $read }.
linear-rnn-largest = largest over every t
linear-rnn-state-size = state size (does not grow with t)
linear-phi-feature = φ feature
linear-value-dimension = value dimension
linear-output = output
linear-s-entry = S entry
linear-vector = vector
linear-z-entry = z entry
linear-o-title = o_{ $t }: read from the state
linear-parallel-title = row { $t } of ÂV: the masked parallel form

## Linformer's panel and figures.

linear-linformer-title = Linformer: k projected keys instead of m keys
linear-linformer-lead = Linformer multiplies the keys and values by seeded k×m matrices, K' = E K and V' = F V, and takes the softmax over the k projected keys: an n×k matrix, O(n·k). Linformer mixes all positions into k projected keys, so no key can be masked and it cannot be made causal: every projected key below mixes all positions, the later ones too.
linear-linformer-k = k (projected keys){ " " }
linear-e-title = Eᵀ: keys into { $k } projected keys
linear-f-title = Fᵀ: values into { $k } projected values
linear-axis-keys = keys
linear-axis-projected-keys = projected keys
linear-axis-projected-values = projected values
linear-axis-queries = queries
linear-e-entry = E entry
linear-f-entry = F entry

## The decay of the RNN stepper: decayed linear attention (RetNet, GLA, Mamba-2), its knob, the
## step's sentence ($token, $update and $read shown in elements of their own), the parallel form
## with D beside it, and the figures' titles and words.

linear-decay-knob = Decay of the state
linear-decay-off = off: linear attention with φ and z
linear-decay-constant = constant γ (RetNet)
linear-decay-gates = a gate a_t per token (GLA, Mamba-2)
linear-decay-gamma = decay γ
linear-decay-rnn-title = Decayed linear attention as an RNN: S_t = a_t·S_(t−1) + k_t v_tᵀ
linear-decay-lead-constant = RetNet multiplies the state by the same γ before each key is added: S_t = γ·S_(t−1) + k_t v_tᵀ. Key j then reaches query i with the factor γ^(i−j): old tokens fade, and with γ = 1 nothing fades.
linear-decay-lead-gates = Gated models (GLA, Mamba-2) let each token set how much of the state it keeps: here a_t = σ(w·k_t + 1), with w a seeded vector of this head drawn from N(0, 1/d_k). GLA and Mamba-2 compute their gates from the token's input by a learned projection; k_t is such a projection. σ(1) ≈ 0.73: a key with w·k_t = 0 keeps about three quarters of the state, and the key decides the rest.
linear-decay-no-normaliser = No z_t: decayed linear attention has no normaliser. The weights D_ij·q_i·k_j/√d_k are used as they are; they can be negative, so their sum can be 0 and dividing by it would blow up. A decay below 1 keeps S_t from growing with t instead, and RetNet normalises the outputs afterwards (GroupNorm). With no sum to keep positive, φ has no job either: q and k are used as they are.
linear-decay-step = t = { $t } of { $n }: absorb { $token } with a_{ $t } = { $gate }: { $update }; then read { $read }.
linear-decay-step-padding = t = { $t } of { $n }: { $token } is padding: it is not absorbed, the state only decays: { $update }; then read { $read }.
linear-decay-gate-row = a_t of this step
linear-decay-largest = largest difference over every t
linear-decay-parallel-label = The masked parallel form with D
linear-decay-parallel-title = The same outputs in parallel: (D ⊙ QKᵀ/√d_k) V
linear-decay-parallel-lead = D_ij = a_(j+1)·a_(j+2)·…·a_i for j ≤ i (1 on the diagonal, 0 above it): the share of key j that is left when query i reads the state. Multiplying QKᵀ/√d_k by D cell by cell gives the weights W; row t of W V is what the RNN reads at step t. The outlined row is the stepper's t: click a row to step there.
linear-decay-d-title = D: what is left of key j at query i
linear-decay-w-title = W = D ⊙ QKᵀ/√d_k (not normalised)
linear-decay-w-entry = weight
linear-decay-gates-title = a_t: the decay at each token
linear-decay-o-title = o_{ $t } = S_{ $t }ᵀ q_{ $t }/√d_k: read from the state
linear-decay-parallel-row-title = row { $t } of W V: the masked parallel form
linear-axis-tokens = tokens
linear-key-dimension = key dimension

## FAVOR+'s error against the number of features (attnlab-pages linear/favor.rs, src/pages/linear/favor_panel.rs).

favor-error-title = FAVOR+ against softmax: the error falls as the features grow
favor-error-features = random features r
favor-error-axis = |Â − A|
favor-error-mean = mean |Â − A|
favor-error-max = largest |Â − A|
favor-error-rate = ∝ 1/√r
favor-panel-label = FAVOR+ error against the number of features
favor-panel-title = FAVOR+: random features for softmax
favor-panel-hint = FAVOR+ (Choromanski et al. 2021) replaces exp(q·k/√d_k) by φ(q)·φ(k), with r positive random features, so attention costs time linear in the length. The features are random: each r is drawn { $draws } times and the errors averaged. Like any average of random samples, the error falls as 1/√r (four times the features halve it), but only once r is large against the variance of one feature, e^‖q′+k′‖² with x′ = x/d_k^¼: with long queries and keys, as in this toy model, it takes thousands of features.
