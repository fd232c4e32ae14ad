# 实验室的图（attnlab-lab 的 figure.rs 和 contribution.rs）：标题、读出的单元格，以及贡献。

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
