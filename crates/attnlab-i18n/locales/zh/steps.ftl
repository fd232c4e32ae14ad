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

## 第 33 号议题的各类型与选项的阶段（steps/stages.rs、steps/modern.rs）。

steps-stage-turned-queries = RoPE：旋转后的查询 q̃
steps-stage-turned-keys = RoPE：旋转后的键 k̃
steps-stage-softcap = 软上限之后
steps-stage-alibi = + ALiBi 偏置
steps-stage-plus-one = softmax + 1 权重
steps-stage-sigmoid = sigmoid 权重
steps-stage-softpick = softpick 权重
steps-stage-sink = 与汇点并列的权重
steps-stage-first-softmax = 第一张图 softmax(z₁)
steps-stage-second-softmax = 第二张图 softmax(z₂)
steps-stage-differential = 差 a¹ − λa²
steps-stage-decayed-scores = 分数 S
steps-stage-decay = 衰减 D
steps-stage-decayed = 衰减后的权重 D ⊙ S
steps-stage-favor-queries = FAVOR+ 特征 φ(Q)
steps-stage-favor-keys = FAVOR+ 特征 φ(K)
steps-group-note = 头 { $head } 读取 { $groups } 组键/值中的第 { $group } 组，与头 { $first }–{ $last } 共用。
steps-turned-queries-note = 每一对维度按与词元位置成正比的角度旋转（底数 { $base }；{ $d_k } 维中前 { $r } 维旋转）。于是分数 q̃ᵀk̃ 只通过 i − j 依赖位置。
steps-turned-keys-note = 键按各自的位置同样旋转：q̃ 与 k̃ 的旋转相抵，只剩 i − j 的角度。
steps-softcap-note = c·tanh(z/c)，c = { $c }：小的 logit 几乎不变，大的被压向 ±{ $c }（“Gemma 2”）。最大的 logit 从 { $before } 变为 { $after }。
steps-alibi-note = 头 { $head } 加上 −m·|i − j|，斜率 m = { $slope }：相距 d 个词元的键无论内容如何都减去 m·d（完全没有位置向量）。
steps-sinks-note = 前 { $s } 个键对每个查询都保持开放：注意力汇点。
steps-softmax-tiled-note = 用在线 softmax 逐块计算（每块 { $tile } 个键）：权重与一次算完相同。在下方逐块查看。
steps-plus-one-note = e^z / (1 + Σ e^z)：多出的 1 相当于一个值为 e⁰ 的键，分走一份，所以一行的和可以小于 1。所选这一行的和为 { $sum }。
steps-sigmoid-note = 逐格计算 σ(z + b)，b = { $b }：不对键求和，每个权重各自在 0 与 1 之间。所选这一行的和为 { $sum }。
steps-softpick-note = max(e^z − 1, 0) 除以 Σ|e^z − 1|：负的 logit 得到恰好 0，但仍计入分母。所选这一行的和为 { $sum }。
steps-sink-note = e^z / (e^s + Σ e^z)，该头的汇点 logit s = { $s }：一个谁也看不见的键分走 e^s 的份额。所选这一行的和为 { $sum }；汇点分走 { $rest }。
steps-first-softmax-note = q 与 k 的 logit 的 softmax：每行和为 1。
steps-second-softmax-note = 该头第二组查询与键 q₂、k₂ 的 logit 的 softmax，掩码相同：每行和为 1。
steps-differential-note = 第一张图减去 λ = { $lambda } 乘第二张图：两张图共有的部分相消，所以权重可以为负（蓝色），每行和为 1 − λ。所选这一行的和为 { $sum }。
steps-decayed-scores-note = 只有分数函数：衰减线性注意力没有温度，也没有归一化。
steps-decay-note = 当 j ≤ i 时 D_ij = γ^(i−j)，γ = { $gamma }：往前 d 个词元的键按 γ^d 计，未来为 0。
steps-decayed-note = 权重是 D ⊙ S，从不归一化：可以为负，一行的和也不必为 1。所选这一行的和为 { $sum }。
steps-decayed-output-note = 核心算出的输出：掩码只有因果时用递推 S_t = γ S_(t−1) + k_t v_tᵀ，否则用 D ⊙ S 乘 V。数值相同。
steps-favor-queries-note = 正随机特征 exp(Wx′ − ‖x′‖²/2)/√r，W 有 r = { $r } 个按种子生成的行：平均而言 φ(q)·φ(k) = exp(qᵀk/√d_k)，即 softmax 的分子。
steps-favor-keys-note = 每个键用同样的特征：全为正，所以每个相似度都大于 0。
steps-favor-output-note = 核心算出的输出：无掩码时由特征在 O(n) 内算出，因果时用前缀和，否则为 Â V。

## 开启分块时 softmax 阶段下方的逐块查看（src/pages/steps/steps_tiles.rs）。

steps-tiles-title = 在线 softmax，逐块计算（每块 B = { $tile } 个键）
steps-tiles-pick = 要查看的块
steps-tiles-prev = ← 上一块
steps-tiles-next = 下一块 →
steps-tiles-at = 第 { $t } 块，共 { $count } 块：键 { $from }–{ $to }
steps-tiles-logits = 这一块的 logit（−∞：被屏蔽）：
steps-tiles-max = 当前最大值 m_t = max(m_(t−1), { $tile_max }) = { $max }
steps-tiles-max-none = 还没有允许的键：m_t = −∞，l_t = 0。
steps-tiles-sum = 当前和 l_t = { $rescale } · l_(t−1) + Σ e^(z − m_t) = { $sum }
steps-tiles-acc = 输出累加器 o_t = { $rescale } · o_(t−1) + Σ e^(z − m_t) v，共 { $d_v } 个数：
steps-tiles-done = 最后一块之后，o_T / l_T 与 e^(z − m_T) / l_T 就是完整 softmax 的输出与权重。实测最大差：权重 { $weights }，输出 { $output }。
steps-tiles-weights = 最后一块之后的权重：
steps-tiles-memory = 每个查询的内存：{ $tiled } 个浮点数（一块 { $tile } 个 logit、m_t 与 l_t、长 { $d_v } 的 o_t），而完整的一行 logit 需要 { $full } 个。整个头：同时 { $head } 个 logit（n × B），而不是 { $head_full } 个（n × m）。
