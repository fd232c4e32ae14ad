# The core's errors (attnlab-core's CoreError): what is wrong, without the field's path.
# The English is the core's own `Display` (a test of attnlab-lab holds them together).

shape-mismatch = has shape { $rows }×{ $cols }, expected { $expected }
non-finite = value at row { $row }, column { $col } is not a finite number
no-heads = at least one head is needed
invalid-temperature = must be a finite number greater than 0, got { $t }
missing-params = missing: { $needs }
unsupported-mask = { $attention } attention cannot apply a { $mask } mask ({ $why })
index-out-of-range = index { $index } is out of range (must be below { $len })
overflow = { $what } overflow the f32 range; scale the inputs down or raise the temperature

## What a shape had to be (Expected).

expected-general-w = { $d_k }×{ $d_k } (d_k×d_k)
expected-additive-wa = d_a×{ $d_k } (d_a×d_k)
expected-additive-ua = { $d_a }×{ $d_k } (d_a×d_k, d_a = the rows of w_a)
expected-additive-va = 1×{ $d_a } (d_a values, d_a = the rows of w_a)
expected-query-rows = { $n } rows (as heads[0].q)
expected-keys = { $m }×{ $d_k } ({ $m } rows as heads[0].k, { $d_k } columns as q)
expected-value-rows = { $m } rows (as k)
expected-linformer-e = k×{ $m } (one column per key)
expected-linformer-f = { $k }×{ $m } (as linformer.e)
expected-output-rows = { $width } rows (the total value width of all heads)
expected-input-columns = { $d_in } columns (d_in)
expected-mask = { $n }×{ $m } (queries × keys)
expected-first-shape = { $rows }×{ $cols } (the shape of the first matrix)
expected-value-width-rows = { $n } rows (the width of v)
expected-weight-columns-rows = { $n } rows (the columns of the weights)
expected-weight-columns-lengths = { $n } lengths (the columns of the weights)

## What a head lacks (Needs).

needs-general-w = the general score needs w (d_k×d_k)
needs-additive = the additive score needs w_a, u_a (d_a×d_k) and v_a (d_a)
needs-linformer = linformer attention needs the projections e and f (k×m)

## Why a setting is refused (Invalid).

invalid-d-model = must be between 1 and { $max }, got { $got }
invalid-heads-divide = must divide d_model = { $d_model } (so d_k = d_model / heads is whole), got { $heads }
invalid-identity-one-head = identity projections (Q = K = V = X) use exactly one head
invalid-position-base = must be a finite number greater than 1, got { $base }
invalid-position-width = must be at least 2
invalid-sinusoidal-odd = sinusoidal encodings need an even width, got { $width }
invalid-stride = the stride must be at least 1
invalid-linformer-keys = Linformer needs k ≥ 1 projected keys
invalid-no-such-head = there are { $heads } heads, numbered from 0, so there is no head { $head }
invalid-permutation = the shuffle has { $positions } positions but the sentence has { $tokens } tokens
invalid-projected-keys = head { $head }'s weights are over { $keys } projected keys, not the { $tokens } tokens: contributions need the model's own keys
invalid-not-computed = they are not computed yet

## A Transformer block's shapes (Expected) and refusals (Invalid::Block, attnlab-core's block).

expected-model-square = { $d }×{ $d } (d×d, d = the width of x)
expected-model-vector = { $d } values (d, the width of x)
expected-model-columns = { $d } columns (d, the width of the layers)
expected-ffn-in = { $d }×f (d rows, any f ≥ 1 columns)
expected-ffn-out = { $f }×{ $d } (f×d, f = the columns of ffn.w_1)
expected-ffn-vector = { $f } values (f, the columns of ffn.w_1)
block-no-layers = is empty, expected at least one layer
block-no-tokens = has no rows, expected at least one token
block-cross-without-memory = cross-attention needs a memory (m × d) to attend to
block-memory-without-cross = with a memory, every layer has cross-attention; without one, none has
block-cross-causal = cross-attention cannot be causal: its keys are the memory's positions, not the queries'
block-decode-needs-causal = decoding one position at a time needs causal self-attention in every layer
