# The lab's sentences (attnlab-lab).

## An error of the core for a student (explain.rs): what failed, the reason, the path.

explained = { $what }: { $reason } ({ $path }).
explain-settings = These settings cannot be used
explain-overflow = The numbers grew too large to compute
explain-attention = The attention could not be computed

## The attention kinds for people, and the masks each cannot apply.

kind-softmax = softmax attention
kind-elu1 = elu+1 linear attention
kind-relu = ReLU linear attention
kind-taylor = Taylor linear attention
kind-efficient = efficient attention
mask-limitation-efficient = efficient attention normalises keys over all positions at once, so only padding can be applied
mask-limitation-linformer = Linformer mixes all positions into k projected keys, so no key can be masked and it cannot be made causal
mask-limitation-none = every mask is supported

## Why a figure cannot be built (attnlab-plot's HeatmapError; its English is its Display).

heatmap-shape = { $field } has { $got } entries, expected { $expected }
heatmap-non-finite = the value at row { $row }, column { $col } is not a finite number
heatmap-row-out-of-range = empty row { $row } is out of range (there are { $rows } rows)
heatmap-non-finite-row-value = { $field } of row { $row } is not a finite number
heatmap-shape-mismatch = cannot compare a { $a_rows }×{ $a_cols } matrix with a { $b_rows }×{ $b_cols } one

## The notices above the figures (tokens.rs).

text-cut = The text had { $total } characters; attnlab keeps the first { $max } (the figures draw at most { $tokens } tokens).
tokens-cut = Your text has { $total } tokens; the heatmap shows the first { $max } of them. Nothing is lost: the whole text stays in the box.
nothing-to-attend = There is nothing to attend to yet: type a sentence in the box, and each of its words will appear here with the attention it pays to the others.

## Why the lab cannot show something (compute.rs's LabError).

incomparable = These variants cannot be compared cell by cell: their weights are { $a_rows }×{ $a_cols } and { $b_rows }×{ $b_cols } (Linformer attends to k projected keys, not to the tokens).
no-variant = There is no variant called { $name }.
no-head = There is no head { $head }: there are { $heads }, numbered from 0.
figure-failed = The figure could not be drawn: { $why }.

## A variant and the model for people (state/mod.rs).

mask-causal = causal
mask-padding = padding
mask-window = window
mask-strided = strided
mask-global = global
mask-custom = custom
kind-linear = { $kind } linear attention
list-separator = {", "}
model-label = { $heads ->
    [one] 1 head
   *[other] { $heads } heads
} · d_model { $d_model }
score-dot = dot-product
score-scaled-dot = scaled dot-product
score-general = general (bilinear)
score-additive = additive
score-cosine = cosine
variant-needs-name = a variant needs a name
variant-name-too-long = a variant name has at most { $max } characters
variant-name-taken = another variant is already called { $name }
no-such-variant = there is no variant { $index }
