# The lab's sentences (attnlab-lab, and the app's lab panels: src/lab, src/state).

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

## A variant's panel: its name, buttons and head average (lab/variant_panel.rs).

variant-name-label = variant name
variant-duplicate = duplicate
variant-remove = remove
variant-average-heads = Average of the heads
variant-add-copy-variant = add a copy of this variant
variant-remove-variant = remove this variant
variant-panel-label = Variant { $name }
variant-grid-title = { $name } · every head

## A variant's knobs and masks (lab/variant_controls.rs).

knob-score = score
knob-temperature = temperature τ
knob-temperature-log-scale = temperature (log scale, 0.01 to 100)
knob-temperature-value = temperature value
knob-attention = attention
knob-masks = Masks
knob-custom-cells = custom cells
knob-click-heatmap-cells = click heatmap cells to block them
knob-clear = clear
knob-global-tokens-click = global tokens (click)
knob-global-tokens = global tokens
knob-temperature-range = τ is a number from 0.01 to 100
knob-linformer-k-range = k is a whole number from 1 to 512
knob-linear-elu-1 = linear, elu+1
knob-linear-relu = linear, ReLU
knob-linear-taylor = linear, Taylor
knob-efficient = efficient
knob-reasons-separator = ;{ " " }
knob-no-pad-tokens = there are no <pad> tokens to block yet: set “pad keys to length” in the model settings
knob-mask-parameter = { $mask } parameter

## The comparison of two variants (lab/compare_panel.rs).

compare-panel-label = Comparison of two variants
compare-panel-title = Compare two variants
compare-first = first{ " " }
compare-second = second{ " " }
compare-what = { " " }of{ " " }
compare-selected-head = the selected head
compare-head-average = the head average
compare-pick-two-different = Pick two different variants to compare (add a variant if there is only one).
compare-max-abs = max |ΔA|
compare-mean-abs = mean |ΔA|
compare-mean-js = mean row JS
compare-mean-kl = mean row KL({ $a } ‖ { $b })
compare-mean-entropy = mean entropy of { $name } (nats)

compare-not-distributions = not defined: KL, JS and entropy compare rows that are distributions, and this kind’s rows need not sum to 1 (or go negative)

## The zoom bar of the large heatmaps (lab/zoom.rs).

zoom-bar-label = Zoom the large heatmaps
zoom-bar-title = Zoom:
zoom-queries = queries
zoom-keys = keys
zoom-whole-matrix = whole matrix
zoom-drag-rectangle-heatmap = or drag a rectangle on a heatmap
zoom-first-query = first query shown
zoom-last-query = last query shown
zoom-first-key = first key shown
zoom-last-key = last key shown
zoom-note =
    Zoomed: queries { $r0 }–{ $r1 }, keys { $c0 }–{ $c1 } · { $step ->
        [1] every token labelled
       *[other] one token in { $step } labelled (zoom in further to label each)
    }

## The line that reads the cell pointed at (lab/cell_info.rs).

cell-info-idle = Point at a cell (or focus the heatmap and use the arrow keys) to read its exact weight.
cell-info-raw-score = { $sentence }; raw score before softmax { $raw }
cell-info-row-entropy = { $text }; row entropy { $nats } nats ({ $share }% of its maximum)
cell-info-row-sum = { $text }; this row sums to { $sum }

## The grid of every head (lab/head_grid_view.rs).

head-grid-idle = Point at any head's cell to read it; click a head to show it large.
head-grid-hovered = Head { $head }:{ " " }
head-grid-tile = head { $head }
head-grid-label = All { $heads } heads as small multiples; head { $head } is selected. Click a head, or use the arrow keys, to select it.

## Why two variants cannot be compared (state/derived).

compare-refused-no-figure = One of the two variants has no figure to compare (see its panel).
compare-refused-head = The selected head could not be computed.
compare-refused-average = The head averages could not be computed.

## The kinds beyond the lab's first six and the sinks mask, for people (explain.rs, state/mod.rs).

mask-sinks = sinks
kind-softmax-plus-one = softmax+1 attention
kind-sigmoid = sigmoid attention
kind-softpick = softpick attention
kind-sink = softmax with a sink logit
kind-differential = differential attention
kind-decayed-linear = decayed linear attention
kind-favor = FAVOR+ (Performer)
describe-softcap = softcap { $c }
describe-sigmoid-default-bias = b = −ln m
rope-scaling-short-linear = linear
rope-scaling-short-ntk = NTK
rope-scaling-short-yarn = YaRN

## A variant's options (lab/variant_options.rs): RoPE, ALiBi, softcap, sinks, tiles, groups, the kinds' own.

knob-kind-softmax-plus-one = softmax + 1
knob-kind-sigmoid = sigmoid
knob-kind-softpick = softpick
knob-kind-sink = softmax + sink logit
knob-kind-differential = differential
knob-kind-decayed-linear = decayed linear
knob-kind-favor = FAVOR+
knob-group-positions = Positions
knob-group-logits = Logits
knob-group-kind = This kind's own
knob-rope = RoPE
knob-rope-base = base
knob-rope-pairs = pairs
knob-rope-pairs-half = half (Llama)
knob-rope-pairs-interleaved = interleaved (RoFormer)
knob-rope-dims = rotary dims r
knob-rope-scaling = scaling
knob-rope-scaling-none = none
knob-rope-scaling-linear = linear (interpolation)
knob-rope-scaling-ntk = NTK-aware
knob-rope-scaling-yarn = YaRN
knob-rope-factor = factor s
knob-rope-original = trained length L
knob-alibi = ALiBi (the paper's slopes)
knob-softcap = softcap c
knob-sinks = sinks s
knob-tiles = tiles B
knob-kv-groups = key/value groups G
knob-kv-groups-mha = { $groups } (multi-head)
knob-kv-groups-mqa = 1 (multi-query)
knob-kv-groups-gqa = { $groups } (grouped-query)
knob-sigmoid-bias = bias b
knob-sigmoid-bias-default = −ln m (default)
knob-lambda = λ
knob-decay = decay γ
knob-sink-logit = sink logit s
knob-features = features r
knob-number-range = { $what } is a number from { $lo } to { $hi }

## The panel of the weight on the first token, under the comparison (src/lab/first_token_panel.rs).

first-token-panel-label = Weight on the first token
first-token-panel-title = Where the heads put their weight: the first token
first-token-panel-hint = Each cell is the mean weight a head's queries put on the first key. Softmax must spend a whole row, and trained heads with nothing to look for often park it on the first tokens (attention sinks). A window that keeps the first keys open (sinks), softmax+1 and a sink logit give that weight a place; differential attention can take it away.

## Which query heads share each key/value head, under the groups knob (src/lab/groups_figure.rs).

kv-share-title = Which query heads read which keys and values
kv-share-head = head { $head }
kv-share-group = K, V { $group }
kv-cache-per-token = Keys and values a decoder caches per token and layer (f32): this variant { $own } B, 1/{ $saving } of multi-head's { $mha } B; multi-query { $mqa } B.
