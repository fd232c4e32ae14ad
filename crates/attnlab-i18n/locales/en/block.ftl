# The "Block" page: the Transformer layer around attention (attnlab-pages block/, the
# app's src/pages/block/).

## The figures: sub-layer names, axes, titles (block/mod.rs).

block-sublayer-self = self-attention
block-sublayer-cross = cross-attention
block-sublayer-ffn = feed-forward
block-value-label = value
block-axis-tokens = tokens
block-axis-features = features
block-axis-token-index = token
block-axis-norm = norm ‖x‖
block-axis-layers = after layer
block-norm-entering = entering
block-norm-leaving = leaving
block-input-title = Layer { $layer }, { $sublayer }: in
block-output-title = Layer { $layer }, { $sublayer }: out
block-norms-title = Layer { $layer }, { $sublayer }: ‖x‖ of each token
block-head-title = Layer { $layer }, { $sublayer }, head { $head }
block-layer-label = layer { $layer }
block-residual-title = The residual stream: each token’s norm after each layer

## The page (src/pages/block/).

block-page-label = The Transformer block
block-page-title = The block around attention
block-lead = A Transformer layer wraps each sub-layer — attention, then the feed-forward network — in a residual connection and a LayerNorm, and stacks layers. Here a stack with seeded weights runs on the lab’s own X: the sentence’s word vectors plus positions.
block-decoder-lead = Cross mode: the source goes through an encoder of the same settings; the target goes through a decoder whose layers run masked (causal) self-attention, then cross-attention over the encoder’s output, then the feed-forward. Each attention has its own mask: causal on the target’s own tokens, none on the source.
block-knob-layers = Layers
block-knob-norm = LayerNorm
block-norm-post = post-LN: x = LN(x + F(x)) (the paper, BERT)
block-norm-pre = pre-LN: x = x + F(LN(x)) (GPT-2 and later)
block-knob-activation = Activation
block-activation-relu = ReLU
block-activation-gelu = GELU
block-knob-heads = Heads
block-heads-reason = { $heads } heads do not divide d = { $d }: each head takes d / heads features. Pick a number of heads that divides { $d }.
block-knob-ffn = Feed-forward width
block-ffn-option = f = { $multiple }·d = { $width }
block-knob-shown = Layer shown
block-shown-option = layer { $layer }
block-limited = The stack runs on the first { $used } of { $all } tokens: { $layers } layers at d = { $d } on every token would take more work than a page can do at once.
block-sizes = { $layers } layers, d = { $d }, { $heads } heads of { $d_k } features, f = { $f }, { $n } tokens
block-no-x = The Block page runs on the sentence’s word vectors and positions; brought tensors have none. Type a sentence to see it.
block-sublayers-heading = The layer’s sub-layers
block-sublayers-note = Each sub-layer’s input and output: tokens down, features across; below, each token’s norm entering and leaving.
block-heads-heading = The layer’s heads
block-residual-heading = The residual stream across layers
block-residual-note = Post-LN brings every token back to norm √d after each sub-layer; pre-LN adds to the stream and lets it grow, layer after layer.
block-permutation-heading = What the feed-forward does alone, and what attention mixes
block-permutation-lead = The feed-forward network is a width-1 convolution: it acts on each token alone, so permuting the tokens permutes its output. Attention mixes the tokens, and with positions (or a causal mask) its output does not just move with them.
block-permutation-order = The shuffle P:
block-permutation-ffn = the feed-forward network:
block-permutation-attention = attention, the words shuffled and the positions left in place:
block-permutation-no-positions = Without positions, attention sees a set: only a causal mask keeps it from following the shuffle.
block-perm-ffn-of-shuffled = FFN(P·X): shuffle first
block-perm-shuffled-ffn = P·FFN(X): shuffle after
block-perm-attention-of-shuffled = Attn(X′): shuffle first
block-perm-shuffled-attention = P·Attn(X): shuffle after
block-perm-ffn-difference = FFN(P·X) − P·FFN(X)
block-perm-attention-difference = Attn(X′) − P·Attn(X)
block-perm-shuffle = Shuffle again
block-perm-backwards = Backwards
block-perm-pairs = When a sub-layer follows the shuffle, both orders draw the same picture and their difference is 0 everywhere: the feed-forward's always does, attention's does not.
block-encoder-heading = The encoder’s output (the memory of cross-attention)
