# The real model's page (attnlab-model-page): notes, figure titles, a run's and a
# substitution's errors.

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
