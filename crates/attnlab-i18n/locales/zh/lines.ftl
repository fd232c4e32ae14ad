# “连线”视图（attnlab-pages 的 lines.rs 与 src/pages/lines/）：图、头的开关、聚焦词元的读数和阈值。

## 图中各头的连线、图例和开关。

lines-head = 头 { $head }
lines-heads-legend = 头
lines-no-variant = 没有可以画出的变体。

## 图的标题（导出的图片也写出阈值）和画布的标签。

lines-figure-title = 变体 { $name } · 线的不透明度 = 权重
lines-figure-title-threshold = 变体 { $name } · 线的不透明度 = 权重 · 权重 ≥ { $least }
lines-canvas-label = { $title }：左边 { $queries } 个查询词元，右边 { $keys } 个键词元，{ $heads } 个头的连线。方向键移动单独显示的词元；Esc 显示全部连线。
lines-canvas-empty = 词元连线（空）

## 图旁的读数：聚焦的词元（$token，显示在自己的元素中）和它最强的联系。

lines-focus-query = 查询
lines-focus-key = 键
lines-readout-attended-by = { $what }{ $token }（{ $index }）最受以下词元关注：
lines-readout-attends-to = { $what }{ $token }（{ $index }）最关注：
lines-readout-head = 头 { $head }：
lines-readout-idle = 指向一个词元，即可单独显示它的连线并读出最强的联系。
lines-lead = 左边的每个查询词元都与右边的每个键词元相连；线的不透明度等于注意力权重，因此强的联系格外醒目。指向一个词元（或让图获得焦点后使用方向键），即可只看它的连线。

## 所画连线的最小权重。

lines-threshold-label = 只画权重 ≥ 此值的连线
lines-threshold-value-label = 所画连线的最小权重
lines-threshold-note = （默认 0.05：每个查询最多保留 20 条连线，长文本也清晰可读；0 表示画出所有连线）
