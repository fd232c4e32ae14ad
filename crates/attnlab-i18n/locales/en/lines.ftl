# The "Lines" view (attnlab-pages' lines.rs and src/pages/lines/): its figure, the head
# toggles, the readout of a focused token and the threshold.

## The heads' lines in the figure, their legend and toggles.

lines-head = head { $head }
lines-heads-legend = Heads
lines-no-variant = There is no variant to draw.

## The figure's title (an exported image says the threshold too) and its canvas's label.

lines-figure-title = Variant { $name } · line opacity = weight
lines-figure-title-threshold = Variant { $name } · line opacity = weight · weights ≥ { $least }
lines-canvas-label = { $title }: { $queries } query tokens on the left, { $keys } key tokens on the right, lines for { $heads } head(s). Arrow keys move the isolated token; Escape shows every line.
lines-canvas-empty = Token lines (empty)

## The readout beside the figure: the focused token ($token, shown in its own element) and its strongest links.

lines-focus-query = query
lines-focus-key = key
lines-readout-attended-by = The { $what } { $token } ({ $index }) is attended most by:
lines-readout-attends-to = The { $what } { $token } ({ $index }) attends most to:
lines-readout-head = head { $head }:{ " " }
lines-readout-idle = Point at a token to isolate its lines and read its strongest links.
lines-lead = Every query token on the left is joined to every key token on the right; the line is as opaque as the attention weight, so the strong links stand out. Point at a token (or focus the figure and use the arrow keys) to see its lines alone.

## The least weight of a line drawn.

lines-threshold-label = Draw links of weight ≥
lines-threshold-value-label = least weight of a link drawn
lines-threshold-note = (0.05 by default: each query keeps at most 20 links, so long texts stay readable; 0 draws every line)
