# “为什么除以 √d_k”页面（attnlab-pages 的 scaling.rs，应用的 src/pages/scaling/）。

## 两张图：坐标轴、图例、标题和说明（scaling.rs）。

scaling-axis-d-k = d_k（对数刻度）
scaling-sentence-unscaled = 句子，未缩放（d_k { $d_k }）
scaling-sentence-scaled = 句子，已缩放
scaling-std-unscaled = q·k 的标准差
scaling-std-scaled = q·k/√d_k 的标准差
scaling-spread-title = 分数的离散程度
scaling-spread-axis = 标准差（对数）
scaling-dots-note = 圆点：你的句子，所选的头
scaling-max-entropy = 最大值 ln n = { $ceiling }
scaling-entropy-title = softmax 的平均行熵
scaling-entropy-axis = 熵（奈特）

## 页面（src/pages/scaling/mod.rs、scaling_charts.rs）。

scaling-page-label = 为什么要除以 d_k 的平方根
scaling-page-title = 为什么要除以 √d_k？
scaling-lead = 如果 q 和 k 的各个分量相互独立、均值为 0、方差为 1，那么 q·k 是 d_k 个这样的乘积之和，其方差为 d_k，离散程度按 √d_k 增长。过大的分数把 softmax 推入平坦的尾部：一个键几乎拿走全部权重，其余键的梯度消失。除以 √d_k 之后，在任何宽度下离散程度都回到 1。
# $keys：键来自源句（交叉注意力）或输入的句子；$length：句子的键少于 2 个时为 short。
scaling-setup = 实验：对每个 d_k，用 { $queries } 个随机查询（分 { $draws } 次独立抽取键）对 n = { $n } 个随机键（n = 你的{ $keys ->
    [source] 源句
   *[typed] 句子
}长度{ $length ->
    [short] ，至少为 2
   *[enough] { "" }
}），各分量 ~ N(0, 1)，种子 { $seed }。熵以奈特为单位；均匀的一行取得最大值 ln n = { $ceiling }。
scaling-spread-caption = 不缩放时离散程度按 √d_k 增长；缩放后保持在 1。
scaling-entropy-caption = 不缩放时 softmax 塌缩到一个键上（熵 → 0）；缩放后各行保持平缓。

## 实验的表格（src/pages/scaling/scaling_table.rs）。

scaling-table-caption = 分数的离散程度与 softmax 的尖锐程度：不乘与乘以 1/√d_k
scaling-entropy-unscaled = 熵，未缩放
scaling-entropy-scaled = 熵，已缩放
scaling-max-weight-unscaled = 最大权重，未缩放
scaling-max-weight-scaled = 最大权重，已缩放
scaling-sentence-row = { $d_k }（句子，头 { $head }）
scaling-sentence-pending = 句子和模型能够计算之后，句子自己的数值会显示在这里。

## 一行权重，不缩放与缩放（src/pages/scaling/example_rows.rs）。

scaling-example-title = 一行权重：同样的随机分数，不缩放与缩放
scaling-weights-label = 权重 { $values }
scaling-example-unscaled = softmax(q·k)：最大权重{ " " }
scaling-example-one-hot = { " " }— 近乎独热
scaling-example-scaled = softmax(q·k/√d_k)：最大权重{ " " }
