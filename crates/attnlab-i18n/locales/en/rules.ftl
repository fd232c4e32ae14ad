# The lab's rules (attnlab-lab's rules/): why a control is disabled or has no effect, for
# its tooltip (no full stop), and what a repair of a state changed.

## Why a model setting cannot be chosen.

identity-one-head = identity projections (Q = K = V = X) have exactly one head
heads-range = the lab offers { $lo } to { $hi } heads
heads-divide = { $heads } heads do not divide d_model = { $d_model } (d_k = d_model / heads must be whole)
d-model-range = d_model is between { $lo } and { $hi }
d-model-divide = d_model = { $d_model } is not divisible by { $heads } heads (d_k = d_model / heads must be whole)
d-model-even = sinusoidal positions added to the word vectors need an even d_model (sines and cosines come in pairs), got { $d_model }
identity-set-heads = identity projections (Q = K = V = X) have exactly one head: set heads to 1 first
sinusoid-width-even = sinusoidal encodings need an even width (sines and cosines come in pairs), and it is { $width }
d-pos-range = d_pos is between { $lo } and { $hi }
d-pos-even = d_pos is even: sinusoidal positions come in sine–cosine pairs
sinusoid-settings-unused = the base and the layout shape sinusoidal encodings only
d-pos-unused = added position vectors have the width of the word vectors (d_model); choose concat to set d_pos

## Why a variant's setting cannot be chosen or has no effect.

mask-unsupported = { $who } cannot apply a { $mask } mask: { $limit }
mask-on-unsupported = { $who } cannot apply the { $mask } mask that is on (turn it off first): { $limit }
temperature-unused = { $who } has no logits to divide, so it ignores the temperature
score-unused-linformer = Linformer always scores with the scaled dot product q·k'/√d_k
score-unused-efficient = efficient attention normalises Q and K with softmaxes instead of scoring pairs
score-unused-linear = linear attention uses its own similarity φ(q)·φ(k) instead of a score function
linformer-k-unused = only Linformer projects the keys down to k
no-more-variants = the lab compares at most 4 variants side by side
last-variant = the lab needs at least one variant
padding-hint = there are no <pad> tokens to block yet: set “pad to length” in the model settings

## What a repair changed.

# $what: text, source or pair.
text-clipped = { $what ->
    [text] the text
    [source] the source
   *[pair] the second sentence
} was longer than { $max } characters, so only its beginning was kept
text-controls = { $what ->
    [text] the text
    [source] the source
   *[pair] the second sentence
} held { $controls } control character(s) (such as NUL), shown as �
default-variants-added = there were no variants, so the two default ones were added
variants-truncated = only the first { $max } variants were kept
clamped = { $what } { $value } is outside { $lo }–{ $hi }, so it is { $clamped }
field-pad-to = pad to length
field-heads = heads
field-window-radius = the window radius
field-stride = the stride
d-model-made-even = sinusoidal positions need an even d_model, so d_model { $odd } is { $even }
identity-heads-one = identity projections have one head, so heads { $heads } is 1
heads-made-divisor = { $heads } heads do not divide d_model = { $d_model }, so there are { $divisor }
base-clamped = the sinusoid base { $was } is outside { $lo }–{ $hi }, so it is { $base }
d-pos-made-even = d_pos is even (sine–cosine pairs), so d_pos { $odd } is { $even }
variant-renamed = variant { $n } was renamed { $name } (names are unique, 1–{ $max } characters)
temperature-clamped = variant { $name }: the temperature { $was } is outside { $lo }–{ $hi }, so it is { $now }
in-variant = variant { $name }: { $what }
mask-indices-dropped = repeated token indices and indices of { $max } or more were left out of the masks
mask-turned-off = the { $mask } mask was turned off ({ $why })
zoom-range = queries { $a }–{ $b }, keys { $c }–{ $d }
zoom-clamped = the zoom { $was } is outside 0–{ $last } or reversed, so it is { $now }
lines-threshold-clamped = the lines' least weight { $was } is outside { $lo }–{ $hi }, so it is { $now }
view-reset = the selected variant, head or compared pair did not exist, so the first ones are shown

## Why a variant's option (RoPE, ALiBi, softcap, sinks, tiles, groups, the kinds' own) cannot be chosen or has no effect.

option-on-unsupported = { $who } cannot take the { $option } that is on (turn it off first): { $why }
logits-option-unused = { $who } has no logits to bias or cap: ALiBi and the softcap act on the logits of the softmax family
tiles-unused = only softmax attention is computed tile by tile (FlashAttention's online softmax)
sigmoid-bias-unused = only sigmoid attention adds a bias b before σ
lambda-unused = only differential attention subtracts λ times a second softmax
decay-unused = only decayed linear attention decays the past by γ at each step
sink-logit-unused = only sink attention has a sink logit s
features-unused = only FAVOR+ draws r random features
decayed-needs-dot = decayed linear attention scores with the dot or scaled dot product only (choose one first)
decayed-score = decayed linear attention scores with the dot or scaled dot product only
decayed-cross = decayed linear attention runs along one sequence (each token decays the ones before it), so it needs self-attention
causal-cross = in cross-attention a target position and a source position belong to two different sentences, so “key j ≤ query i” orders nothing: causal masking belongs to the decoder's self-attention, and cross-attention masks only the source's padding
cross-mode-repaired = Switched to cross-attention: { $repairs }.
groups-divide = { $groups } key/value groups do not divide { $heads } heads (each group serves as many query heads)
rope-dims = RoPE turns pairs of dimensions: r is even, from 2 to d_k = { $d_k }
rope-narrow = RoPE turns pairs of dimensions, and d_k = { $d_k } has none
rope-ntk-two = the NTK-aware scaling raises the base b to b·s^(r/(r−2)), which needs r > 2
rope-scaling-unused = turn RoPE on to scale its frequencies
second-not-brought = differential attention needs second queries and keys (q2, k2) that the brought tensors do not have
heads-groups-variant = variant { $name } shares keys and values in { $groups } groups, which must divide the heads (change its groups first)
d-k-rope-variant = variant { $name } turns { $r } dimensions with RoPE, which d_k = { $d_k } cannot hold in pairs (change its rotary dims first)
option-alibi = ALiBi bias
option-softcap = softcap
option-tiles = tiles
field-rope-base = RoPE's base
field-rope-factor = the scaling factor s
field-rope-original = YaRN's trained length L
field-softcap = the softcap c
field-sinks = the sinks s
field-tiles = the tile width B
field-sigmoid-bias = the sigmoid bias b
field-lambda = λ
field-decay = γ
field-sink-logit = the sink logit s
field-features = the features r
option-turned-off = the { $option } was turned off ({ $why })
score-made-scaled = the score is the scaled dot product ({ $why })
groups-made = { $groups } key/value groups do not divide { $heads } heads, so there are { $fixed }
rope-dims-fixed = RoPE's rotary dims r = { $was } do not fit d_k = { $d_k }, so r = { $now }
rope-turned-off = RoPE was turned off (d_k = { $d_k } has no pair of dimensions to turn)
scaling-made-none = the NTK-aware scaling needs r > 2, so RoPE is not scaled
