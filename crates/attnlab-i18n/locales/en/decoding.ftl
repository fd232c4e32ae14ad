# The Decoding page (attnlab-pages' decoding/ and src/pages/decoding/): the KV-cache calculator.

## The page's title and lead.

decoding-title = Decoding: the KV cache
decoding-lead = A decoder writes one token at a time. At each step its new query attends to the keys and values of every earlier token, so it keeps them instead of computing them again: the KV cache. Its size grows with every token, in every layer. Pick a published model or set the numbers, and read how much memory the cache takes.

## The calculator's knobs (labels; the same words name them in the notes).

decoding-knob-layers = layers L
decoding-knob-query-heads = query heads H
decoding-knob-kv-heads = key/value heads G
decoding-knob-head-dim = head size d_h
decoding-knob-latent-width = latent width d_c
decoding-knob-rope-width = RoPE key width d_r
decoding-knob-context = context length T (tokens)
decoding-knob-batch = batch size
decoding-knob-bits = bytes per value
decoding-knob-latent = latent cache (MLA) instead of K and V
decoding-knobs-label = the model's shape and the cache's numbers
decoding-preset-label = preset
decoding-preset-custom = your own numbers

## What the cache keeps, named from G against H (or the latent).

decoding-kind-mha = multi-head attention: every query head has its own key and value head (G = H).
decoding-kind-gqa = grouped-query attention: each key/value head is shared by a group of H / G query heads.
decoding-kind-mqa = multi-query attention: one key and one value head shared by every query head (G = 1).
decoding-kind-mla = a latent cache: per layer one latent vector of width d_c, from which every head's keys and values are projected, and one RoPE key of width d_r shared by the heads.

## The results.

decoding-per-token = Per token
decoding-total = For T tokens and the batch
decoding-total-detail = { $tokens } tokens × batch { $batch }

## The presets' sources.

decoding-source-same-shape = These numbers are the shape of:
decoding-preset-mistral-window = Mistral 7B attends within a sliding window of 4,096 tokens and keeps a rolling cache of that many positions; the calculator counts every position up to T.
decoding-preset-deepseek-mla = The paper's Table 1 gives the same counts per token: MHA 2·n_h·d_h·l, GQA 2·n_g·d_h·l, MQA 2·d_h·l, MLA (d_c + d_h^R)·l values.

## Notes on values out of range.

decoding-note-clamped = { $knob }: { $typed } is outside { $lo } … { $hi }; set to { $now }.
decoding-note-not-number = { $knob }: “{ $typed }” is not a number; it stays { $kept }.
decoding-note-kv-above-q = G = { $g } key/value heads is more than H = { $h } query heads; G is set to { $h }.
decoding-note-kv-uneven = H = { $h } query heads do not split into G = { $g } equal groups (published models choose a G that divides H); the size is computed as given.
decoding-note-bits = { $bits } bits per value is not offered; fp16 (16 bits) is used.

## The chart of the cache against the context length.

decoding-chart-title = KV cache against context length (batch { $batch })
decoding-chart-axis-t = context length T (tokens)
decoding-chart-axis-size = KV cache ({ $unit })
decoding-chart-note = dashed: the same shape with other G
decoding-series-this = { $name } (this setting)

## The decoder stepper ("Decoding step by step", attnlab-pages' decoding/stepper.rs and src/pages/decoding/stepper*.rs).

decoding-stepper-title = Decoding step by step
decoding-stepper-label = the decoder stepped one position at a time with its KV cache
decoding-stepper-lead = The decoder produces the target one position at a time. At step t the new token’s row goes through every layer: the layer projects it once into a query, a key and a value, appends the key and value rows to its cache, and the one new query attends over the t + 1 rows the cache holds. Nothing already computed is computed again.
decoding-stepper-model-self = The model is the Block page’s stack, with the same weights and settings, on the lab’s sentence, but with causal self-attention in every layer: decoding needs it, since position t cannot look at positions not produced yet (the Block page runs the same stack unmasked, as an encoder).
decoding-stepper-model-cross = The model is the Block page’s decoder, with the same weights and settings: causal self-attention over the target, then cross-attention over the source’s encoder output. The memory’s keys and values are computed once, before step 0, and held in the cache beside the target’s.
decoding-stepper-settings = { $layers } layers, d = { $d }, { $heads } heads of d_k = { $d_k }, f = { $f }, { $n } positions. Change them on the Block page:
decoding-stepper-to-block = Block page settings
decoding-stepper-limited = The stepper decodes the first { $used } of { $all } tokens: the Block page’s limit on work applies ({ $layers } layers at d = { $d } on every token would take more work than a page can do at once).
decoding-stepper-controls-label = the step shown
decoding-stepper-first = « first
decoding-stepper-previous = ◀ previous
decoding-stepper-next = next ▶
decoding-stepper-last = last »
decoding-stepper-layer = layer
decoding-stepper-head = head
decoding-stepper-step = Step { $t } of 0 … { $last }: the token { $token } enters; its query is row { $t } (outlined), its key and value rows are appended to every layer’s cache, which now holds { $rows } rows.

## The figures' titles and axes.

decoding-stepper-weights-title = Self-attention after step { $t }
decoding-stepper-cross-title = Cross-attention after step { $t }
decoding-stepper-keys-title = K cache, layer { $layer }, head { $head }: { $rows } × { $d_k }
decoding-stepper-values-title = V cache, layer { $layer }, head { $head }: { $rows } × { $d_k }
decoding-stepper-memory-keys-title = memory K, layer { $layer }, head { $head }: { $rows } × { $d_k }
decoding-stepper-memory-values-title = memory V, layer { $layer }, head { $head }: { $rows } × { $d_k }
decoding-stepper-axis-queries = query position
decoding-stepper-axis-keys = key position
decoding-stepper-axis-memory = source position
decoding-stepper-axis-positions = position
decoding-stepper-axis-features = feature of the head
decoding-stepper-value-label = value
decoding-stepper-weights-note = Rows after t are hatched: they are not decoded yet. Click a row to step there.
decoding-stepper-cache-heading = The cache
decoding-stepper-cache-note = The row outlined was appended at this step; the rows above it were kept from earlier steps.
decoding-stepper-memory-note = Cross-attention’s keys and values of the source: computed once before step 0, the same at every step.
decoding-stepper-cache-size = After step { $t } the whole cache holds { $entries } rows of d = { $d } numbers (a key row and a value row per position and layer), { $bytes } in f32.
decoding-stepper-cache-size-memory = After step { $t } the whole cache holds { $entries } rows of d = { $d } numbers (a key row and a value row per position and layer, { $memory } of them the memory’s), { $bytes } in f32.

## The work of a step.

decoding-stepper-work-heading = The work of this step
decoding-stepper-work-what = what is counted
decoding-stepper-work-cached = with the cache
decoding-stepper-work-recomputed = recomputing the prefix
decoding-stepper-work-cells = query–key cells scored
decoding-stepper-work-macs = multiply–adds
decoding-stepper-work-counted = Multiply–adds counted per layer: the new row’s projections W_Q, W_K, W_V, W_O (4d²), its scores and weighted sum over the t + 1 cached rows (2(t + 1)·d), the feed-forward (2d·f); in cross mode also cross-attention’s two projections (2d²) and its scores and sum over the m memory rows (2m·d). Recomputing does all of it for each of the t + 1 rows, with (t + 1)² cells. Not counted: LayerNorm, softmax, the residual additions and the memory’s keys and values (projected once either way). With the cache a step costs O(t·d) in attention, recomputing O(t²·d).
decoding-stepper-work-total = Steps 0 … { $t } together: { $cached } multiply–adds with the cache, { $recomputed } recomputing ({ $ratio } times as many).
decoding-stepper-chart-title = Multiply–adds of steps 0 … t together
decoding-stepper-chart-axis-step = step t
decoding-stepper-chart-axis-work = multiply–adds so far
decoding-stepper-series-cached = with the cache (O(n²·d) over n steps)
decoding-stepper-series-recomputed = recomputing (O(n³·d) over n steps)

## The last step: the decoded against the parallel masked pass.

decoding-stepper-equality-heading = The cache against the parallel pass
decoding-stepper-equality-later = At the last step (t = { $last }) the decoded output is compared with the parallel masked pass, number by number.
decoding-stepper-equality-output = final output
decoding-stepper-equality-weights = every layer’s and head’s weights
decoding-stepper-equality-bound = Equal up to rounding when at most 10⁻⁵ · max(1, max |y|) = { $bound } (f32 keeps about 7 digits; the two passes add the same products in other orders).
decoding-stepper-equal = equal up to rounding
decoding-stepper-not-equal = not equal: more than rounding explains
