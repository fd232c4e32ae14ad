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
