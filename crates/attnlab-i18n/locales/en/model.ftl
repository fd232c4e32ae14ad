# The model crate's errors (attnlab-model's ModelError, TextError, RelevanceError).
# The English is each error's own `Display` (a test of attnlab-model-page holds them
# together); what a file says of itself (`$detail`) stays in its English.

## Why a text cannot be run through a model (TextError).

text-empty = the text has no words: it is empty, or only whitespace and control characters
text-too-long = the text has { $chars } characters, more than the { $max } a model reads
text-in-second = the second text: { $error }

## Loading a checkpoint or running it (ModelError).

model-config = config: { $detail }
model-format = weights: { $detail }
model-missing-tensor = weights: no tensor { $name }
model-tensor-shape = weights: { $name } has shape { $got }, expected { $expected }
model-tensor-dtype = weights: { $name } is { $dtype }, which is not read
model-vocabulary = vocabulary: { $detail }
model-text = text: { $error }
model-token-id = ids[{ $position }]: { $id } is not below the vocabulary size { $vocab_size }
model-not-shipped = ids[{ $position }]: { $id } has no word-embedding row in this asset
model-segments = token types: { $detail }
model-too-many-tokens = { $field }: { $tokens } tokens, the model takes at most { $max }
model-attention = layer { $layer } attention: { $path }: { $reason }

## Why rollout or flow cannot follow the attention (RelevanceError).

relevance-no-layers = there is no layer: rollout and flow follow the attention of at least one layer
relevance-no-heads = layer { $layer } has no heads, so it has no attention to follow
relevance-no-tokens = the attention has no tokens: its matrices are 0 × 0
relevance-not-square = layer { $layer }, head { $head }: the attention is { $rows } × { $cols }; rollout and flow need one row and one column per token (a head that attends to projected keys cannot be followed back to the tokens)
relevance-shape-mismatch = layer { $layer }, head { $head }: the attention is { $size } × { $size }, but the first head's is { $tokens } × { $tokens }
relevance-not-finite = layer { $layer }, head { $head }: the weight of query { $row } for key { $col } is not a finite number
relevance-negative = layer { $layer }, head { $head }: the weight of query { $row } for key { $col } is { $value }; a share of attention cannot be negative
relevance-no-such-layer = there is no layer { $layer }: the layers are numbered 0 to { $last }
relevance-too-many-tokens = attention flow needs one maximum-flow computation per pair of tokens; it is offered up to { $max } tokens, this text has { $tokens }
