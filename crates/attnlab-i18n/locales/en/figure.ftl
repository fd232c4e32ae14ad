# The lab's figures (attnlab-lab's figure.rs and contribution.rs): titles, a cell read
# back, and the contributions; the app's canvases (src/canvas): labels, readings, tables.

head-title = { $own } · Head { $head } · { $shared }
average-title = Average of { $heads ->
    [one] 1 head
   *[other] { $heads } heads
} · { $name }: { $described }
difference-title-head = { $a } − { $b } · head { $head }
difference-title-average = { $a } − { $b } · average of the heads
measure-weight = weight
measure-contribution = contribution
measure-contribution-value = contribution ‖αf(x)‖
cell = query “{ $q }” ({ $qi }) → key “{ $k }” ({ $ki }): { $what } { $value }
cell-blocked = query “{ $q }” ({ $qi }) → key “{ $k }” ({ $ki }): blocked by the mask ({ $what } { $value })

## The contributions ‖α f(x)‖ (Kobayashi et al., EMNLP 2020).

paper-note = A key adds α_ij f(x_j) to the query's output, so what it contributes depends on the size of its transformed value f(x_j) as much as on its weight. Kobayashi et al. (EMNLP 2020, “Attention is Not Only a Weight”) found that the large weights BERT puts on [CLS] and [SEP] carry small vectors: much of the weight, little of the contribution. The size of a contribution is not yet its effect on the prediction: the later layers, the residual connections and the normalisation still act on it.
value-note = Here there is no trained output projection: f(x_j) is the head's value vector v_j itself, so the contribution is α_ij ‖v_j‖.
projected-note = f(x_j) = v_j W^O_h: key j's value vector through head h's rows of the layer's output projection (its bias left out, as in the paper).
contribution-title = { $title } · contribution ‖αf(x)‖
share-shape = cannot compute the shares: { $why }
share-empty = layer { $layer } has no weight or contribution to share
share-weight-on = weight on { $names }
share-contribution-on = contribution on { $names }
share-title = Share on { $names }, layer by layer
share-axis-layer = layer
share-axis-share = share of the layer's total (%)
share-note = summed over every head and query of the layer

## A heatmap's canvas: its label and its reading (canvas/heatmap_canvas.rs).

heatmap-idle = Point at a cell to read it.
heatmap-figure-empty = Figure (empty)
heatmap-label-cells = { $title }: { $n } query tokens (rows) by { $m } keys (columns). Arrow keys move between cells.
heatmap-label-rows = { $title }: { $n } rows by { $m } columns. Click a row, or use ArrowUp and ArrowDown, to pick the query.
heatmap-label = { $title }: { $n } rows by { $m } columns.
heatmap-row-reading = { $axis } { $label } ({ $row })

## A figure's table of values (canvas/figure_table.rs).

table-summary = Table of values
table-masked-cell = masked
table-cut = The first { $rows } rows and { $cols } columns of { $n } × { $m }; the CSV export has them all.
table-cell-sentence = { $row_axis } { $row } ({ $at_row }), { $col_axis } { $col } ({ $at_col }): { $value }

## A line chart's canvas (canvas/line_chart_canvas.rs).

chart-empty = Chart (empty)
chart-label = { $title }: { $y } against { $x }; curves: { $curves }.

## Why a figure cannot be painted on its canvas (canvas/paint.rs).

paint-no-context = this browser gave no 2D drawing context
paint-no-canvas = this browser could not make a canvas
paint-failed = { $detail }

## The words every figure draws (attnlab-plot's Words: the entropy panel, the masked swatch, empty rows, head tiles, default captions); the English is the plot crate's own.

figure-word-weight = weight
figure-word-delta-weight = Δ weight
figure-word-queries = queries
figure-word-keys = keys
figure-word-entropy = entropy
figure-word-row-entropy = row entropy
figure-word-nats = nats
figure-word-share = % of max
figure-word-masked = masked
figure-word-empty-row = ∅ empty row
figure-word-head = head

## The weight each head puts on the first token (attnlab-lab's first_token.rs): the lab's
## figure and the real model's.

first-token-title = Weight on the first key, per head
first-token-model-title = Weight on the first token “{ $token }”, per layer and head
first-token-head = head { $head }
first-token-layer = layer { $layer }
first-token-value = mean weight on the first token
first-token-axis-variant = variant
first-token-axis-head = head
first-token-axis-layer = layer
