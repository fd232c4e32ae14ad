# 实验室的图（attnlab-lab 的 figure.rs 和 contribution.rs）：标题、读出的单元格，以及贡献；应用的画布（src/canvas）：标签、读数与数值表。

head-title = { $own } · 头 { $head } · { $shared }
average-title = { $heads } 个头的平均 · { $name }：{ $described }
difference-title-head = { $a } − { $b } · 头 { $head }
difference-title-average = { $a } − { $b } · 各头的平均
measure-weight = 权重
measure-contribution = 贡献
measure-contribution-value = 贡献 ‖αf(x)‖
cell = 查询“{ $q }”（{ $qi }）→ 键“{ $k }”（{ $ki }）：{ $what } { $value }
cell-blocked = 查询“{ $q }”（{ $qi }）→ 键“{ $k }”（{ $ki }）：被掩码屏蔽（{ $what } { $value }）

## 贡献 ‖α f(x)‖（Kobayashi 等人，EMNLP 2020）。

paper-note = 一个键把 α_ij f(x_j) 加到查询的输出上，所以它的贡献既取决于它的权重，也同样取决于它变换后的值 f(x_j) 的大小。Kobayashi 等人（EMNLP 2020）发现，BERT 放在 [CLS] 和 [SEP] 上的大权重携带的是很小的向量：权重很多，贡献很少。贡献的大小还不是它对预测的影响：后面的层、残差连接和归一化仍会作用于它。
value-note = 这里没有训练过的输出投影：f(x_j) 就是该头的值向量 v_j 本身，因此贡献为 α_ij ‖v_j‖。
projected-note = f(x_j) = v_j W^O_h：键 j 的值向量经过该层输出投影中属于头 h 的那些行（与论文一样，不计偏置）。
contribution-title = { $title } · 贡献 ‖αf(x)‖
share-shape = 无法计算份额：{ $why }
share-empty = 第 { $layer } 层没有可分配的权重或贡献
share-weight-on = { $names } 上的权重
share-contribution-on = { $names } 上的贡献
share-title = 逐层看 { $names } 上的份额
share-axis-layer = 层
share-axis-share = 占该层总量的份额（%）
share-note = 对该层的每个头和每个查询求和

## 热力图画布：标签与读数（canvas/heatmap_canvas.rs）。

heatmap-idle = 指向一个单元格以读出其值。
heatmap-figure-empty = 图（空）
heatmap-label-cells = { $title }：{ $n } 个查询词元（行）× { $m } 个键（列）。方向键在单元格间移动。
heatmap-label-rows = { $title }：{ $n } 行 × { $m } 列。点击一行，或用上下方向键，选择查询。
heatmap-label = { $title }：{ $n } 行 × { $m } 列。
heatmap-row-reading = { $axis } { $label }（{ $row }）

## 图的数值表（canvas/figure_table.rs）。

table-summary = 数值表
table-masked-cell = 已掩码
table-cut = 只显示 { $n } × { $m } 中的前 { $rows } 行、前 { $cols } 列；导出 CSV 可得到全部数值。
table-cell-sentence = { $row_axis } { $row }（{ $at_row }），{ $col_axis } { $col }（{ $at_col }）：{ $value }

## 折线图画布（canvas/line_chart_canvas.rs）。

chart-empty = 图表（空）
chart-label = { $title }：{ $y } 随 { $x } 的变化；曲线：{ $curves }。

## 图为何无法画在画布上（canvas/paint.rs）。

paint-no-context = 此浏览器没有提供 2D 绘图上下文
paint-no-canvas = 此浏览器无法创建画布
# unsaid: $detail
paint-failed = 无法在画布上绘制这幅图

## 每张图都画的词（attnlab-plot 的 Words：熵面板、掩码色块、空行、头的小图、默认说明）。

figure-word-weight = 权重
figure-word-delta-weight = Δ 权重
figure-word-queries = 查询
figure-word-keys = 键
figure-word-entropy = 熵
figure-word-row-entropy = 行熵
figure-word-nats = 奈特
figure-word-share = 占最大值 %
figure-word-masked = 已掩码
figure-word-empty-row = ∅ 空行
figure-word-head = 头

## The weight each head puts on the first token (attnlab-lab's first_token.rs): the lab's
## figure and the real model's.

first-token-title = 每个头放在第一个键上的权重
first-token-model-title = 每层每个头放在第一个词元“{ $token }”上的权重
first-token-head = 头 { $head }
first-token-layer = 第 { $layer } 层
first-token-value = 第一个词元上的平均权重
first-token-axis-variant = 变体
first-token-axis-head = 头
first-token-axis-layer = 层
