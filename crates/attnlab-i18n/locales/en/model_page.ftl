# The real model's page (attnlab-model-page and its components in src/pages/model/):
# notes, figure titles, a run's and a substitution's errors, the page's panels.

## Notes beside the figures.

atlas-caption = Every head of every layer on one colour scale: rows are layers (0 reads the embeddings, the last row is the last layer), columns are heads. Click a head to show it large.
special-tokens-note = Many heads park most of their weight on the special tokens ([CLS]/[SEP], <s>/</s>) when they have nothing better to do. Hiding them divides each row by what is left, so the weights among the words sum to 1 again.
word-start-note = ␣ marks a piece that starts a word. SentencePiece writes it ▁, for the space before the word; the first word of a text has one too, even in Chinese.
search-caution = A head that points from “it” to “animal” shows where that head's attention goes for this sentence, not that the model understood what “it” refers to: attention weights are one ingredient of the computation, and heads can agree on the right answer for the wrong reasons.
alignment-note = This is an encoder reading both sentences at once, as one text: every token may attend to every other, in either sentence. It is not a translation decoder's cross attention, where each word being written looks only at the source. A head whose weight crosses between the sentences onto a token's translation has learned an alignment from data, without ever being trained to align. The strongest line is drawn opaque, the others in proportion to their weight.

## Figures.

query-token = query token
key-token = key token
layer-head-title = { $name } · layer { $layer } · head { $head }
layer-mean-title = { $name } · layer { $layer } · mean of its heads
relevance-title = { $relevance } after layer { $layer }
share = share
alignment-title = { $model } · layer { $layer } · head { $head } across the pair
variant-title = { $name } on layer { $layer } · head { $head }
variant-difference-title = { $name } − the model's own attention
no-head-in-layer = the model has no head { $head } in layer { $layer }

## A run's errors (RunError; the English is its Display).

run-floats = the model worker sent { $got } numbers where { $expected } were expected
run-header = the model worker's reply is inconsistent: { $why }
run-not-finite = the model computed a value that is not a number
run-no-token = token { $index } does not exist (the text has { $n } tokens)
run-hidden = { $token } is hidden: show [CLS] and [SEP] to search from or to it

## Where a variant replaces the model's attention.

place-head = head { $head } of layer { $layer }
place-layer = every head of layer { $layer }
place-every = every head of every layer
no-such-place = the model has { $layers } layers of { $heads } heads, so there is no { $place }

## The page's components (src/pages/model/): the model's status panel.

model-status-label = The real model
model-toy-note = The lab's figures come from a toy model with seeded random weights: the mechanics are right, but the patterns mean nothing. Load a real pretrained transformer to see what a trained model attends to.
model-load = Load { $label } (about { $size })
model-starting = Starting the model worker…
model-cancel = Cancel
model-downloading-of = Downloading { $label }: { $loaded } of { $total }
model-downloading = Downloading { $label }: { $loaded }
model-download-label = download progress
model-ready = { $label } is ready: { $size } loaded { $from ->
        [cache] from this browser's cache
       *[network] from the network
    } in { $ms } ms ({ $layers } layers × { $heads } heads; texts are cut at { $max } tokens).
model-load-failed = The model could not be loaded: { $why }.
model-try-again = Try again
model-load-cancelled = Loading was cancelled; nothing was kept.
model-load-again = Load again

## The first screen: the controls, the run's time, the atlas and the selected head ($first, $second, $list, $unk and $example are shown in elements of their own).

model-controls-label = Layer, head and tokens
model-layer-label = layer{ " " }
model-head-label = head{ " " }
model-hide-special = { " " }hide { $first } and { $second }
model-run-info = { $n } tokens through { $layers } layers in { $ms } ms.{ $cut }
model-run-cut = { " " }The text had { $was } tokens and was cut to { $n }.
model-atlas-label = Every head
model-head-panel-label = The selected head
model-atlas-export-title = attention atlas: every layer and head
model-atlas-aria = Every head of every layer as small multiples; layer { $layer }, head { $head } is selected. Click a head, or use the arrow keys, to select it.
model-atlas-idle = Point at any head's cell to read it; click a head to show it large.
model-list-comma = {", "}
model-list-and = { " " }and{ " " }
model-replaced-note = This build's model file ships only the pieces of Chinese, CJK and ASCII characters, so { $list } { $typed ->
        [one] was read as the model's unknown piece
       *[other] were each read as the model's unknown piece
    } { $unk }; the figures show it as { $example }.

## The head search.

model-example = Example:{ " " }
model-search-label = Head search
model-search-title = Which heads look from one token to another?
model-search-from = from (query){ " " }
model-search-to = to (key){ " " }
model-search-hint = All heads, ranked by that weight; click one to show it above. Clicking a cell of the large heatmap searches its pair.
model-rank-head = layer { $layer } · head { $head }

## Rollout and flow.

model-relevance-label = Rollout and flow
model-relevance-title = Across layers: rollout and flow
model-relevance-radio-label = Relevance
model-relevance-after = after layer { $layer } (the layer picked above)
model-rollout-note = Rollout multiplies, layer after layer, the heads' mean plus the identity (the residual connection), rows renormalised: how much each position after this layer draws from each input token.
model-flow-too-long = Attention flow needs one maximum-flow computation per pair of tokens; it is offered up to { $max } tokens, and this text has { $n }.
model-flow-note = Flow treats the same graph as a network of pipes: each entry is the most weight that can flow from the input token to the position through all layers ({ $ms } ms).
model-flow-failed = Flow could not be computed: { $why }
model-flow-computing = Computing the flow…

## Weight against contribution ($authors: the paper's first author, by name).

model-neuron-place = layer { $layer } ·{ " " }
model-shares-label = Weight against contribution on the special tokens
model-shares-title = Does a large weight matter? Weight against contribution, layer by layer
model-shares-note = For each layer, the share of all attention weight (every head, every query) that lands on the special tokens, and the share of the summed contributions ‖α_ij f(x_j)‖. A large share of weight with a small share of contribution means the heads park their weight where it adds little.{ " " }
model-shares-paper = { $authors } et al. 2020
model-table-layer = layer
model-shares-weight = weight
model-shares-contribution = contribution

## A sentence and its translation.

model-pair-title = A sentence and its translation
model-pair-field = Second sentence (optional): the model reads both as one text
model-pair-placeholder = e.g. a translation of the sentence
model-pair-direction = Direction
model-pair-forward = { " " }first → second
model-pair-backward = { " " }second → first
model-crossing-title = The heads whose weight crosses most (of { $count })
model-crossing-head = layer { $layer } head { $head }
model-crossing-share = { " " }{ $share } crosses (first → second { $forward }, second → first { $backward })

## The lab's variants on the selected head.

model-variants-label = Lab variants on this head
model-variants-title = The lab's variants on layer { $layer } · head { $head }
model-variants-hint = Each variant takes this head's real queries, keys and values and computes its own attention: another score function, a temperature, masks, a linear kernel or Linformer. The model's own attention is the scaled dot product with softmax; below each variant, what it changes. The knobs are the lab's: a change here changes the lab too.
model-variant-metrics = Against the model's own attention: max |ΔA| { $max }, mean |ΔA| { $mean }, mean KL { $kl }, mean JS { $js }; mean row entropy { $h0 } vs { $h1 } nats.
model-linformer-note = Linformer's weights are over projected keys, not tokens: there is no cell-by-cell difference.

## A variant inside the model ($first, $other and $variant are shown in elements of their own).

model-substitution-label = Substitute a variant inside the model
model-substitution-title = Inside the model: what does a variant change?
model-substitution-hint = Run the whole model with a lab variant in place of its softmax attention and see what follows: every later layer reads what the changed heads wrote. “What does linear attention lose?” — asked of a trained model.
model-substitution-variant = variant{ " " }
model-substitution-where = Where
model-reach-head = this head
model-reach-layer = this layer
model-reach-every = every layer
model-compare-with = compare with{ " " }
model-running = Running…
model-run-with-it = Run the model with it
model-substitution-idle = Pick a variant and where it goes, then run the model with it.
model-substitution-headline = { $variant } in { $place }: the sentence embedding's cosine to the model's own is { $cosine } ({ $ms } ms).
model-substitution-pair = “{ $first }” and “{ $other }”: similarity { $own } with the model's own attention, { $substituted } with { $variant } — a change of { $change }.
model-mean-delta = mean |ΔA|
model-max-delta = max |ΔA|
model-heads-compared = heads compared

## The weight each head puts on the first token, under the shares (src/pages/model/contribution_panel.rs).

model-first-token-label = Weight on the first token, per layer and head
model-first-token-title = Where each head puts its weight: the first token
model-first-token-hint = Each cell is the mean weight a head's queries put on the text's first token, [CLS]. Heads with nothing to look for park much of their weight on the first and last tokens; the lab's sinks, softmax+1 and sink logit give that weight another place. Substitute them below to see what the model does without it.
