# “逐步查看”页面（attnlab-pages 的 steps/，应用的 src/pages/steps/）。

## 一个阶段的行和列是什么：其热图的坐标轴标题（steps/stages.rs）。

steps-axis-query-tokens = 查询词元
steps-axis-key-tokens = 键词元
steps-axis-projected-keys = 投影后的键
steps-axis-dimensions = 维度
steps-axis-features = 特征
steps-value-label = 值

## 各阶段的简称：阶段按钮、阶段标题、其图的标题。

steps-stage-input = 输入 X
steps-stage-queries = 查询 Q
steps-stage-keys = 键 K
steps-stage-values = 值 V
steps-stage-projected-keys = 投影后的键 K′ = E K
steps-stage-projected-values = 投影后的值 V′ = F V
steps-stage-scores = 原始分数
steps-stage-scaled = 缩放
steps-stage-masked = 掩码
steps-stage-softmax = softmax 权重
steps-stage-efficient-queries = φ(Q) = 对特征做 softmax
steps-stage-feature-queries = 特征映射 φ(Q)
steps-stage-efficient-keys = φ(K) = 对位置做 softmax
steps-stage-feature-keys = 特征映射 φ(K)
steps-stage-similarity = 相似度
steps-stage-implied = 隐含权重 Â
steps-stage-linear-output = 输出（线性形式）
steps-stage-head-output = 权重 · V
steps-stage-output = 拼接 · W^O

## 输入阶段公式下的说明：X 由什么组成（steps/stages.rs）。

steps-input-words-unit = 词向量
steps-input-words-scaled = 词向量 ×√d_model{ " " }
steps-input-no-positions = 没有位置编码：X 只是词向量，词序不可见（词袋）
steps-input-added = { $words }加上{ $kind }位置向量，逐项相加（宽度 d_model = { $width }）
steps-input-concatenated = { $words }与{ $kind }位置向量拼接（宽度 { $width } + { $d_pos }）
steps-input-cross = X：{ $positions }。键和值来自源句自己的 X。
steps-input-self = X：{ $positions }。
steps-position-none = 无
steps-position-sinusoidal = 正弦
steps-position-learned = 可学习（按种子生成）的

## 打分、缩放、掩码、特征映射和线性输出阶段的说明（steps/stages.rs）。

steps-score-projected = 每个查询与每个投影后的键相比：qᵀk′。
steps-score-dot = 每个查询与每个键的点积。
steps-score-scaled-dot = 每个查询与每个键的普通点积 qᵀk（缩放在下一步）。
steps-score-general = 双线性（Luong）：qᵀWk，W 是按种子生成的 d_k×d_k 矩阵。
steps-score-additive = 加性（Bahdanau）：以查询和键为输入的小型 tanh 网络。
steps-score-cosine = 余弦：单位向量的点积，介于 −1 与 1 之间。
steps-scaled-root = 除以 √d_k = √{ $d_k } = { $root }，再除以 τ = { $tau }：这样 d_k 增大时 softmax 不会变得近乎独热。
steps-scaled-tau-only = 只除以 τ = { $tau }：这个打分函数不按 √d_k 缩放（选择缩放点积可以看到缩放）。
steps-masked-none = 没有开启掩码：每个键都被允许，分数原样通过。
steps-masked-blocked = 被屏蔽的单元格（{ $masks }）变为 −∞，softmax 给它们的权重恰好为 0。
steps-masked-empty-rows = 有 { $rows } 行没有允许的键：它们的权重全为 0。
steps-mask-joiner = 、
steps-feature-elu1 = 对每个元素取 φ(x) = elu(x) + 1：为正且平滑。
steps-feature-relu = 对每个元素取 φ(x) = max(x, 0)：负的元素变为 0。
steps-feature-taylor = φ(x) = [1, x/‖x‖]：于是 φ(q)ᵀφ(k) = 1 + q̂ᵀk̂，即 exp 的一阶泰勒展开。
steps-linear-recurrent = 按 RNN 计算：对 j ≤ i 累加 S_i、z_i，从不构造 n×n 矩阵。
steps-linear-masked-quadratic = 这个掩码破坏了分解：输出是 Â V，复杂度为二次——这个变体不再是线性的。
steps-linear-global = 以 O(n) 计算：一个全局的 d×d_v 状态，从不构造 n×n 矩阵。

## 其他阶段的说明（steps/matrices.rs）。

steps-queries-note = 每个查询词元在 X 中的行乘以头 { $head } 的 W^Q：{ $n } 个查询，宽度 d_k = { $d_k }。
steps-keys-cross = 键来自源句：{ $m } 个键，宽度 { $d_k }。
steps-keys-self = 同样的词元，用 W^K 投影：{ $m } 个键，宽度 { $d_k }。
steps-values-note = 值是权重将要混合的内容，每个键一行。
steps-brought-queries = 导入的头 { $head } 的查询：{ $n } 行，宽度 d_k = { $d_k }。
steps-brought-keys = 导入的头 { $head } 的键：{ $m } 行，宽度 d_k = { $d_k }。
steps-brought-values = 导入的头 { $head } 的值：{ $m } 行，宽度 d_v = { $d_v }，即权重将要混合的内容。
steps-projected-keys-note = Linformer 用按种子生成的 E（k×m）把 { $m } 个键混合成 k = { $k } 个投影后的键。
steps-projected-values-note = 值以同样的方式用 F（k×m）混合：{ $k } 行。
steps-softmax-note = 每一行变成键上的概率分布：和为 1（没有允许的键的行全为 0）。
steps-head-output-note = 每个查询的输出是各值行的加权平均。
steps-feature-keys-note = 对每个键做同样的映射：所有元素都 ≥ 0，因此每个相似度都 ≥ 0。
steps-similarity-note = 仅为教学而显示：线性注意力计算输出时从不构造这个 n×m 矩阵。
steps-implied-note = 每行相似度除以该行之和（+ ε = 10⁻⁶）：O(n) 计算在不显式构造的情况下所用的权重。
steps-efficient-queries-note = 每个查询行在其 d_k 个特征上归一化（每行和为 1）。
steps-efficient-keys-note = 键的每个特征列在各位置上归一化（每列和为 1；填充键为 0）。
steps-efficient-implied-note = 仅为教学而显示：输出以 O(n) 按 φ(Q)(φ(K)ᵀV) 计算。
steps-efficient-output-note = 高效注意力：先算出 d_k×d_v 的上下文，再由每个查询读取。
steps-output-projected = { $heads } 个头的输出并排拼接，再乘以 W^O：这一层的输出，每个查询一行。
steps-output-identity = { $heads } 个头的输出并排拼接：这一层的输出，每个查询一行。

## 阶段下所选查询那一行的读数（steps/readout.rs）；词元和数值按原样引用。

steps-readout-row = { $stage }中{ $token }（{ $index }）这一行：{ $values }
steps-readout-keys = { $stage }的行是键（每个查询都用到全部的键）；选中的查询是{ $token }（{ $index }）。

## 页面（src/pages/steps/steps_view.rs）。

steps-view-label = 逐步查看：一个变体的完整流程。用左右方向键在各阶段之间切换。
steps-lead = 跟随一个查询词元走完所选变体的整个注意力层：从它的输入向量到这一层的输出。每个矩阵都是实验室实际算出的矩阵；加框的行就是所选的查询。
steps-no-variant = 没有可以逐步查看的变体。
steps-query-token = 查询词元
steps-prev = ← 上一步
steps-next = 下一步 →
steps-stages-label = 阶段
steps-figure-title = { $at } / { $len } · { $stage } · 头 { $head }

## 阶段旁神经元视图的键选择（src/pages/steps/steps_neuron.rs）。

steps-neuron-key = 为什么是这个权重？键{ " " }
steps-neuron-pick-key = — 选择一个键 —
steps-neuron-hint = 打开该查询在这个键上的单元格的神经元视图
