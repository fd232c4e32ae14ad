# The position-encodings page (attnlab-pages positions/, the app's src/pages/positions/).

## The PE table's and PE(a)·PE(b)'s heatmaps (positions/pe.rs).

positions-table-title = PE · { $n } positions × { $d } dimensions
positions-axis-position = position
positions-axis-dimension = dimension
positions-value-label = PE value
positions-dot-title = PE(a)·PE(b) · { $n } positions
positions-axis-position-a = position a
positions-axis-position-b = position b

## A position setting in a few words: the table's caption, the shuffle check's "positions on" (positions/pe.rs).

positions-combine-added = added
positions-combine-concatenated = concatenated (d_pos { $d_pos })
positions-layout-interleaved = interleaved
positions-layout-split = split
positions-describe-none = no positions
positions-describe-learned = learned, { $combine }
positions-describe-sinusoidal = sinusoidal, base { $base }, { $layout }, { $combine }

## The curves of chosen dimensions: legend, title, axes (positions/pe.rs).

positions-dim = dim { $dim }
positions-dim-wave = { $name }: { $wave }, ω = { $omega }
positions-curves-title = PE over { $n } positions
positions-axis-position-p = position p
positions-axis-pe = PE(p, dim)

## Why typed dimensions are refused (positions/pe.rs, parse_dims).

positions-dims-not-number = “{ $part }” is not a dimension: type whole numbers like 0, 1, 8
positions-dims-no-such = dimension { $dim } does not exist: the position vectors have { $width } dimensions (0 to { $last })
positions-dims-empty = type at least one dimension, e.g. 0, 1, 8, 9
positions-dims-too-many = at most { $max } dimensions can be drawn at once

## Why there is no rotation R_k to measure (positions/pe.rs).

positions-learned-no-rotation = Learned position vectors are free parameters: no single rotation R_k carries PE(p) to PE(p+k) for every p, so there is no residual to measure.
positions-none-no-rotation = Positions are off: every PE(p) is the zero vector, so there is nothing to rotate — and attention sees the sentence as a bag of words.

## The shuffle check's figures and why a variant is no bag of words even without positions (positions/bag_of_words.rs).

positions-bow-as-typed = As typed
positions-bow-put-back = Shuffled, then put back
positions-linformer-depends = Linformer's projection E mixes the keys by position, so even without position encodings its weights change when the tokens move
positions-masks-depend = the { $masks } { $count ->
    [one] mask
   *[other] masks
} of variant { $name } { $count ->
    [one] depends
   *[other] depend
} on positions, not on words, so even without position encodings the shuffled sentence is masked differently
positions-mask-joiner = { " and " }

## The page (src/pages/positions/mod.rs): title, lead, notes, captions.

positions-title = Position encodings
positions-input-shape = The lab's input: { $how }, so X is { $n } tokens × { $d } (positions { $p } wide).
# The lead's two halves, around the frequencies' formula.
positions-lead-start = Attention compares every token with every other one, and nothing in that comparison says where a token stands: without positions, shuffling the words shuffles the attention matrix and changes nothing else. A position encoding adds to each token a vector PE(p) for its place p. The sinusoids use a frequency per pair of dimensions,{ " " }
positions-lead-end = , so that moving by k positions is the same rotation R_k at every place, and PE(a)·PE(b) depends only on the distance a − b.
positions-brought = This page shows the seeded model's position encodings for the sentence in the box. Brought tensors already carry whatever positions their own model added.
positions-none = Positions are off: every PE(p) is the zero vector, so the model sees the sentence as a bag of words. Choose sinusoidal or learned positions to draw them — and see the shuffle check below.
positions-table-caption = The position vectors: one row per position, one column per dimension (red +, blue −) ·{ " " }
positions-curves-caption = The chosen dimensions as curves over position: low dimensions turn fast, high ones slowly.
positions-dot-caption = PE(a)·PE(b): constant along each diagonal when it depends only on a − b. Largest spread along a diagonal:{ " " }
positions-spread-sinusoidal = { " " }(≈ 0: only the distance matters).
positions-spread-learned = { " " }(learned vectors know nothing of distance).
positions-spread-none = { " " }(all zeros).

## The encoding knobs (src/pages/positions/position_knobs.rs, pe_curves.rs).

positions-knob-kind = positions
positions-kind-none = none
positions-kind-sinusoidal = sinusoidal
positions-kind-learned = learned
positions-knob-base = base
positions-base-presets = base presets
positions-base-transformer = the Transformer's base, the one models use
positions-base-misprint = for comparison only: one article misprints the base as 1000; models use 10000
positions-base-range = the base is a number between 2 and 100000000
positions-knob-layout = layout
positions-layout-interleaved-option = interleaved (sin, cos, sin, cos …)
positions-layout-split-option = split (all sin, then all cos)
positions-knob-combine = combine
positions-combine-add-option = add (x = e + PE)
positions-combine-concat-option = concat (x = [e, PE])
positions-knob-width = width d
positions-width-whole = the width is a whole number
positions-width-odd = sinusoids need an even width: sines and cosines come in pairs
positions-width-concatenated = (concatenated)
positions-width-added = (added)
positions-knob-count = positions drawn
positions-count-range = between 1 and { $max } positions; empty = the sentence's length
positions-knob-dims = dimensions

## The rotation check (src/pages/positions/rotation_readout.rs).

positions-rotation-title = Moving by k positions is one rotation
positions-rotation-explain = For every offset k there is a block-diagonal rotation R_k, the same for every position p, with PE(p+k) = R_k·PE(p): each (sin, cos) pair turns by the angle ω_i·k, so PE(p)·PE(p+k) depends on k only. The attention scores do not keep this: q_i = (x_i + PE(i))·W_Q and k_j = (x_j + PE(j))·W_K mix words with positions, and q_i·k_j depends on i and j, not on i − j only. RoPE, which turns q and k themselves by their positions after W_Q and W_K, keeps it.
positions-knob-offset = offset k
positions-k-range = k is a whole number from 0 to 511
positions-rotation-max-over = max over p of{ " " }
positions-rotation-over = { " " }over { $checked } positions p (f32 rounding: the identity holds exactly).
positions-rotation-too-few = With { $n } positions there is no pair p, p + { $k }: choose a smaller k or draw more positions.

## The shuffle check (src/pages/positions/bag_of_words.rs).

positions-bow-label = Bag of words
positions-bow-title = Bag of words: shuffle the sentence
positions-bow-explain = Shuffle the tokens, run the same variant and head on the shuffled sentence, then put each row and column back where its token came from. Without positions the two matrices are the same: attention only sees which words are there, not their order. With positions they differ.
positions-bow-cross-tip = the shuffle check runs on one sentence in self-attention mode
positions-bow-shuffle-tip = shuffle the tokens (seeded: the same order every time for this seed)
positions-bow-shuffle = shuffle tokens
positions-bow-restore = restore
positions-bow-order = order:{ " " }
positions-bow-order-as-typed = as typed
positions-bow-shuffled = shuffled:{ " " }
positions-bow-cross = The shuffle check runs on one sentence: switch the mode to self-attention to use it.
positions-bow-short = Type at least two words to shuffle them.
positions-bow-prompt = Press “shuffle tokens” to run the check.
positions-bow-off = positions off: max |difference| after un-permuting ={ " " }
positions-bow-caveat = not a bag of words here: { $why }. Turn such masks off to see the check read ≈ 0.
positions-bow-off-same = { " " }(≈ 0: the same matrix, permuted)
positions-bow-on = positions on ({ $how }): max |difference| ={ " " }
positions-bow-on-change = { " " }(the weights change when the words move)
positions-bow-substituted = { " " }— the model has positions off, so this side uses sinusoids.

## RoPE, long context and ALiBi: the figures' words (attnlab-pages positions/rope.rs).

rope-scaling-none = no scaling
rope-scaling-linear = linear
rope-pair-first = dim { $dim } (first of the pair)
rope-pair-second = dim { $dim } (second)
rope-pair-length = length of the pair (kept by the turn)
rope-pair-title = Pair { $pair } of the word's q, turned by p·θ, θ = { $theta }
rope-axis-coordinate = coordinate after RoPE
rope-axis-query-position = query position i
rope-axis-key-position = key position j
rope-proof-sinusoid-title = one word × { $n }, sinusoid added
rope-proof-rope-title = one word × { $n }, RoPE
rope-decay-base = base { $base }
rope-decay-title = RoFormer §3.4.3: relative upper bound, d = { $d }
rope-axis-distance = relative distance i − j
rope-axis-bound = relative upper bound
rope-trained = L_train = { $length }
rope-extended = s·L_train = { $length }
rope-long-decay-title = The bound beyond the trained length, d = { $d }
rope-wavelength-title = Wavelength 2π/θ of each pair, d = { $d }
rope-axis-pair = pair i
rope-axis-wavelength = positions per turn
rope-alibi-title = head { $head }: m = { $slope }

## RoPE, long context and ALiBi on the page (src/pages/positions/rope_panel.rs).

rope-section-label = RoPE, long context and ALiBi
rope-section-title = RoPE: turn q and k, not the input
rope-section-explain = The sinusoid's relative property belongs to PE·PE. Once W_Q and W_K act on x + PE, the score of a word against itself depends on where both copies stand, not only on their distance: Su Jianlin, who wrote two of this course's source articles, calls this a flaw of the added encoding, and RoPE (RoFormer, 2021) is his answer. RoPE adds nothing to the input: after W_Q and W_K it turns each pair of dimensions of q and of k by its position times θ_i = base^(−2i/r), so q̃_i·k̃_j = q·R_(j−i)·k depends on the positions only through j − i.
rope-knob-base = RoPE base
rope-base-range = the base is a number between 2 and 100000000
rope-knob-pairs = pairs
rope-pairs-half = halves (i, i + r/2), as Llama
rope-pairs-interleaved = neighbours (2i, 2i + 1), as RoFormer
rope-knob-scaling = scaling
rope-knob-factor = factor s
rope-factor-range = the factor is a number from 1 to 64
rope-factor-unused = no scaling is chosen: the factor has no effect
rope-knob-trained = trained length L_train
rope-trained-range = a whole number of positions from 16 to 1000000
rope-knob-pair = pair i
rope-knob-word = word
rope-pair-caption = One pair of the word's query in the shown head (from the bag-of-words picker) turning with the position: its two coordinates are a·cos(pθ) − b·sin(pθ) and a·sin(pθ) + b·cos(pθ), and its length never changes.
rope-pair-readout = θ_i = { $theta }: one full turn every { $wavelength } positions.
rope-proof-caption = The proof: one word at every position, its scores after W_Q and W_K in the shown head. With the sinusoid added each diagonal (one distance i − j) varies; with RoPE each diagonal is one number.
rope-spread-label = Largest spread along a diagonal:
rope-spread-sinusoid = sinusoid added
rope-spread-rope = RoPE
rope-decay-caption = Why far tokens weigh less (RoFormer §3.4.3): the score of q̃_i and k̃_j is at most the largest step between neighbouring pairs times this mean bound, which falls, with ripples, as the distance grows. d = 128 as in the paper and in today's models.
rope-long-caption = Long context: a model trained on L_train positions never saw the slow pairs turn further. Linear scaling divides every angle by s; NTK raises the base, so fast pairs stay and slow ones stretch; YaRN keeps the pairs that turn at least 32 times within L_train, interpolates those turning less than once, blends between them, and multiplies cos and sin by 0.1·ln s + 1 (the bound by its square).
rope-alibi-caption = ALiBi adds no vector at all: each head adds −m_h·|i − j| to its logits, with the paper's slopes for this model's heads (m_h = 2^(−8(h+1)/H) for a power of two):{ " " }
rope-error = This part cannot be drawn: { $why }
