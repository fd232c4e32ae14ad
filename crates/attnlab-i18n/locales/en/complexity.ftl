# The complexity page (attnlab-pages' complexity/ and src/pages/complexity/): softmax and
# linear attention timed against n, their chart, slopes, crossover and table.

## The two kinds timed, as the chart's legend, the table and the status name them.

complexity-kind-softmax = softmax (streaming)
complexity-kind-linear = linear elu1

## The crossover under the chart ($fitted is one of the fitted lines' sentences; $faster is linear or softmax).

complexity-crossover-needs = Crossover: needs at least two sizes of each kind.
complexity-crossover-measured = Crossover: the measured curves cross at n ≈ { $n } (linear attention is faster above); { $fitted }.
complexity-crossover-none = Crossover: the measured curves do not cross between n = { $lo } and { $hi } ({ $faster ->
        [linear] linear attention
       *[softmax] softmax attention
    } is faster at every size); { $fitted }.
complexity-fits-cross = the fitted lines cross at n ≈ { $n }
complexity-fits-cross-outside = the fitted lines cross at n ≈ { $n }, outside the measured { $lo }…{ $hi }
complexity-fits-parallel = the fitted lines are parallel

## The log–log chart: legend, markers, title, axes and note.

complexity-slope-label = { $label } slope { $slope }
complexity-no-fit-label = { $label } (no fit yet)
complexity-crossover-marker = crossover n ≈ { $n }
complexity-fits-cross-marker = fits cross n ≈ { $n }
complexity-chart-title = Time per attention call against sequence length (log–log)
complexity-axis-n = sequence length n
complexity-axis-ms = ms per call
complexity-chart-note = dashed: least-squares fit of log t on log n over n ≥ { $from }

## The page: its lesson, the run's controls and status, the slopes and how a point is timed.

complexity-title = Complexity, measured in this browser
complexity-lesson = Softmax attention compares every query with every key: n² dot products of length d, so doubling n quadruples the time (slope 2 on log–log axes), even streamed over key blocks with O(n·d) memory. Linear attention computes φ(Q)(φ(K)ᵀV): the keys are summed once into a d × d state that each query reads, n·d² work, so doubling n doubles the time (slope 1). Below n ≈ d the d² per token costs about as much as the n scores it saves: that is where the curves can cross.
complexity-run-label = Timing run
complexity-max-n-label = largest n{ " " }
complexity-d-label = head width d{ " " }
complexity-start = Start
complexity-start-again = Start again
complexity-cancel = Cancel
complexity-progress-label = Points measured
complexity-status-idle = Not started: press Start to time both kinds in a background worker.
complexity-status-running = Running: { $done } of { $total } measured; timing n = { $n }, { $kind }…
complexity-status-running-count = Running: { $done } of { $total } measured…
complexity-status-finished = Finished: { $total } points measured.
complexity-status-cancelled = Cancelled after { $done } of { $total } points; the measured points are kept.
complexity-slope = { $label }: slope { $slope } (least squares over n = { $from }…{ $to }, { $points } points; O(n{ $power }) predicts { $expected })
complexity-no-slope = { $label }: no slope yet (needs two sizes)
complexity-timing-note = Each point: random unit-normal Q, K, V (seeded), one call timed and then repeated until a batch lasts ≥ { $batch } ms; the median of up to { $samples } batches (calls of ≥ { $long } ms are timed once). The fit uses n ≥ { $from }, where the fixed cost of a call no longer flattens the curves.

## The table of measured points.

complexity-table-caption = Measured milliseconds per call (median of the samples)
complexity-table-softmax = softmax (streaming) ms
complexity-table-linear = linear elu1 ms
complexity-table-ratio = softmax / linear

## "Why attention" (complexity/why.rs, src/pages/complexity/why_attention.rs): Table 1 of "Attention Is All You Need" made interactive.

complexity-why-title = Why attention: work, parallelism and path length
complexity-why-lead = { $paper }, Table 1, compares four layers that turn n vectors of width d into n vectors: a recurrent layer, a convolution of kernel width k, self-attention, and self-attention restricted to r positions on each side. Self-attention does more work per layer when n is larger than d, but needs no step to wait for another, and connects any two positions in one step.
complexity-why-knobs-label = the numbers Table 1 is read for
complexity-why-n = sequence length n
complexity-why-d = width d
complexity-why-k = kernel width k
complexity-why-r = window r (each side)
complexity-why-layers = layers L
complexity-why-output = output position i
complexity-why-layer-recurrent = recurrent
complexity-why-layer-convolution = convolution (contiguous)
complexity-why-layer-self-attention = self-attention
complexity-why-layer-restricted = restricted self-attention
complexity-why-col-layer = layer
complexity-why-col-work = work per layer
complexity-why-col-sequential = sequential operations
complexity-why-col-path = maximum path length
complexity-why-dilated = The convolution here is contiguous and centred: (k − 1) / 2 positions on each side per layer, so it needs ⌈(n − 1) / ((k − 1) / 2)⌉ layers, O(n / k). A dilated convolution, the paper’s O(log_k(n)), would need { $layers } here: the smallest L with k^L ≥ n.
complexity-why-path-definition = A path is counted in arrows: one per layer of attention or convolution; a recurrent layer reads input j into its state, then carries it one step per position, 1 + (i − j) arrows to output i. After L layers a convolution’s output reads a cone of L·(k − 1) + 1 inputs, restricted attention one of L·2r + 1 (r on each side per layer).
complexity-why-clamped = { $what }: { $typed } is outside { $lo } … { $hi }; { $now } is used.
complexity-why-figure-title = Which inputs reach output { $i } after { $layers ->
        [one] { $layers } layer
       *[other] { $layers } layers
    }
complexity-why-figure-legend = Each cell is an input position j (0 on the left); its number is the path length from j to output i: the smallest L at which j reaches i, or for the recurrence its arrows. An empty cell is not reached yet; the outlined cell is i.
complexity-why-shown-note = The figure shows the first { $shown } of the n = { $n } positions.
complexity-why-row-layered = { $reached } of { $shown } inputs reach it; every input reaches it at L = { $after }.
complexity-why-row-recurrent = { $reached } of { $shown } inputs reach it in one layer, input j through 1 + (i − j) arrows (input 0 through { $steps }); the inputs after i never do.
complexity-why-row-label = { $layer }: the inputs that reach output { $i }
