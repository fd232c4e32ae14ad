# 线性注意力页面（attnlab-pages 的 linear/ 与 src/pages/linear/）：softmax 与核变体的对比、RNN 逐步演示、Linformer，以及哪些注意力可以做成因果的。

## 页面为什么不能显示某些内容（LinearLabError）。核变体用它们的名字称呼（$elu1、$relu、$taylor）。

linear-not-kernel = { $kind } 不是核（特征映射）变体：请选择 { $elu1 }、{ $relu } 或 { $taylor }。
linear-not-one-sequence = RNN 形式在一个序列上运行，但这里是交叉注意力：{ $n } 个目标句词元读取 { $m } 个源句词元，而源句词元从一开始就全部已知，没有可以递推的东西。切换到自注意力即可逐步查看。
linear-no-tokens = 没有词元：请输入一个句子。
linear-no-variant = 没有可以显示的变体。

## 页面用自己的词称呼的注意力（其余用它们的名字）。

linear-kind-efficient = 高效注意力
linear-kind-linformer = Linformer

## 每种注意力能否做成因果的，以及怎样做或为什么不能。

linear-causality-label = 哪些变体可以是因果的
linear-causality-title = 哪些变体可以做成因果的
linear-causal-softmax = softmax：可以做成因果的：掩码在 softmax 之前把后面的键的分数设为 −∞（代价为 O(n²)）。
linear-causal-kernel = { $kind }：可以做成因果的，且仍为 O(n)：查询 t 只读取累加和 S_t = Σ_(j≤t) φ(k_j) v_jᵀ 与 z_t = Σ_(j≤t) φ(k_j)，即一个 RNN（见上方的逐步演示）。
linear-causal-efficient = 高效注意力：按定义不是因果的：K 的 softmax 一次性在所有位置上进行，每个键的权重都依赖后面的键；实验室计算的就是这种形式，只能施加填充掩码。但存在一种因果形式，且仍为 O(n)：查询 t 只在键 0…t 上做这个 softmax，用它自己的累加和 Σ_(j≤t) exp(k_j) v_jᵀ 与 Σ_(j≤t) exp(k_j)（对每个特征取 exp），和上方的 RNN 一样。
linear-causal-linformer = Linformer：不能做成因果的：它把所有位置混合成 k 个投影后的键，因此任何键都无法被屏蔽；每个投影后的键 E K 都混合了所有位置，包括后面的位置。
linear-selected-variant = { " " }← 所选的变体

## 页面的标题、导语和选择器。

linear-page-label = 线性注意力
linear-page-title = 线性注意力：同样的 Q 和 K，不构造 n×m 矩阵
linear-lead = softmax 注意力按 exp(q·k/√d_k) 为查询 i 给键 j 加权，需要每一对。线性注意力把相似度换成 φ(q)·φ(k)，于是对键的求和 Σ φ(k_j) v_jᵀ 只需算一次，每个查询都可读取：O(n) 而不是 O(n²)。代价是它的相似度矩阵 φ(Q)φ(K)ᵀ 的秩至多为 φ 的宽度。下面两者都由所选头的同一组 Q、K、V 计算，并使用该变体的掩码。
linear-empty = 输入一个句子来比较 softmax 与线性注意力。
linear-kind-picker = 用来比较的线性注意力

## softmax 与核变体：图、奇异值图以及旁边的数值。

linear-kernel-label = softmax 与线性注意力对比
linear-kernel-title = 同样的 Q、K 上 softmax 与 { $kind } 的对比
linear-implied-title = { $kind }：隐含矩阵 Â
linear-spectrum-title = exp(QKᵀ/√d_k) 与 φ(Q)φ(K)ᵀ（{ $kind }）的奇异值
linear-spectrum-index = 序号 i（从大到小）
linear-rank-threshold = 秩阈值 { $tolerance }
linear-softmax-rank = softmax：秩 { $rank }
linear-kind-rank = { $kind }：秩 { $rank }
linear-phi-width = φ 宽度 { $width }
linear-max-abs-row = |{ $kind } − softmax| 的最大值
linear-mean-abs-row = |{ $kind } − softmax| 的平均值（{ $n }×{ $cols } 个单元格）
linear-rank-linear-row = φ(Q)φ(K)ᵀ 的秩（{ $kind }）
linear-phi-width-row = φ 的宽度（上界）
linear-rank-softmax-row = exp(QKᵀ/√d_k) 的秩（softmax）
linear-rank-full-row = 可能的最大秩 min(n, m)
linear-one-key-note = 只有一个键时，无论 softmax 还是线性注意力，每一行都给它权重 1，并且只有一个奇异值：输入更长的句子才能看到二者的不同。

## 数值下方关于秩的一句（$tail 为 linear-full-rank 或空；上界尚不起作用时后接 linear-rank-bound）。

linear-rank-no-spectra = 最多为 { $max } 个词元计算奇异值；这段文字超过了这个数。
linear-rank = 线性注意力：φ(Q)φ(K)ᵀ = (n×{ $w })·({ $w }×m)，所以它的秩至多为 φ 的宽度 { $w }；这里是 { $linear }。softmax：exp(QKᵀ/√d_k) 不是细长矩阵的乘积，它的秩是 { $softmax }（共 { $full }）{ $tail }。
linear-full-rank = （满秩）
linear-rank-bound = { $full } 个词元、φ 宽度 { $w } 时这个上界还不起作用：输入超过 { $w } 个词元，就能看到线性注意力的秩停在 { $w }。

## RNN 逐步演示（$token、$update 和 $read 显示在各自的元素中）。

linear-rnn-label = 作为 RNN 的因果线性注意力
linear-rnn-title = 作为 RNN 的因果 { $kind } 注意力
linear-rnn-lead = 有因果掩码时，查询 t 只能看到键 0…t。这时线性注意力完全不需要矩阵：保持两个累加和，每一步吸收一个键和一个值，再用 φ(q_t) 读出输出。输出必须等于带掩码的并行形式 ÂV 的第 t 行。（逐步演示使用因果掩码和填充掩码；其他掩码不属于这个递推。）
linear-rnn-step-label = 步
linear-rnn-first = « 第一步
linear-rnn-previous = ◀ 上一步
linear-rnn-next = 下一步 ▶
linear-rnn-last = 最后一步 »
linear-rnn-absorb = t = { $t }（共 { $n }）：吸收 { $token }：{ $update }；然后读出 { $read }。
linear-rnn-padding = t = { $t }（共 { $n }）：{ $token } 是填充：它不被吸收，S 和 z 保持不变；然后读出 { $read }。
linear-rnn-largest = 所有 t 中的最大值
linear-rnn-state-size = 状态大小（不随 t 增长）
linear-phi-feature = φ 特征
linear-value-dimension = 值的维度
linear-output = 输出
linear-s-entry = S 的元素
linear-vector = 向量
linear-z-entry = z 的元素
linear-o-title = o_{ $t }：从状态中读出
linear-parallel-title = ÂV 的第 { $t } 行：带掩码的并行形式

## Linformer 的面板和图。

linear-linformer-title = Linformer：用 k 个投影后的键代替 m 个键
linear-linformer-lead = Linformer 用按种子生成的 k×m 矩阵乘以键和值，K' = E K，V' = F V，并在 k 个投影后的键上做 softmax：得到 n×k 矩阵，O(n·k)。它把所有位置混合成 k 个投影后的键，因此任何键都无法被屏蔽，也不能做成因果的：下面每个投影后的键都混合了所有位置，包括后面的位置。
linear-linformer-k = k（投影后的键数）
linear-e-title = Eᵀ：把键投影为 { $k } 个投影后的键
linear-f-title = Fᵀ：把值投影为 { $k } 个投影后的值
linear-axis-keys = 键
linear-axis-projected-keys = 投影后的键
linear-axis-projected-values = 投影后的值
linear-axis-queries = 查询
linear-e-entry = E 的元素
linear-f-entry = F 的元素

## The decay of the RNN stepper: decayed linear attention (RetNet, GLA, Mamba-2), its knob, the
## step's sentence ($token, $update and $read shown in elements of their own), the parallel form
## with D beside it, and the figures' titles and words.

linear-decay-knob = 状态的衰减
linear-decay-off = 关：带 φ 和 z 的线性注意力
linear-decay-constant = 常数 γ（RetNet）
linear-decay-gates = 每个词元一个门 a_t（GLA、Mamba-2）
linear-decay-gamma = 衰减 γ
linear-decay-rnn-title = 作为 RNN 的衰减线性注意力：S_t = a_t·S_(t−1) + k_t v_tᵀ
linear-decay-lead-constant = RetNet 在加入每个键之前，把状态乘以同一个 γ：S_t = γ·S_(t−1) + k_t v_tᵀ。于是键 j 以因子 γ^(i−j) 到达查询 i：旧的词元逐渐淡去；γ = 1 时什么都不淡去。
linear-decay-lead-gates = 门控模型（GLA、Mamba-2）让每个词元决定保留多少状态：这里 a_t = σ(w·k_t + 1)，w 是这个头的一个种子向量，取自 N(0, 1/d_k)。GLA 和 Mamba-2 用学到的投影从词元的输入算出门；k_t 就是这样一个投影。σ(1) ≈ 0.73：w·k_t = 0 的键保留约四分之三的状态，其余由键决定。
linear-decay-no-normaliser = 没有 z_t：衰减线性注意力没有归一化项。权重 D_ij·q_i·k_j/√d_k 直接使用；它们可以为负，所以它们的和可能为 0，除以它会发散。取而代之的是，小于 1 的衰减让 S_t 不随 t 增长，RetNet 则在之后对输出做归一化（组归一化）。既然没有需要保持为正的和，φ 也就没有用处了：q 和 k 直接使用。
linear-decay-step = t = { $t }（共 { $n }）：以 a_{ $t } = { $gate } 吸收 { $token }：{ $update }；然后读出 { $read }。
linear-decay-step-padding = t = { $t }（共 { $n }）：{ $token } 是填充：它不被吸收，状态只衰减：{ $update }；然后读出 { $read }。
linear-decay-gate-row = 这一步的 a_t
linear-decay-largest = 所有 t 中的最大差
linear-decay-parallel-label = 带 D 的掩码并行形式
linear-decay-parallel-title = 并行算出的同一输出：(D ⊙ QKᵀ/√d_k) V
linear-decay-parallel-lead = 当 j ≤ i 时 D_ij = a_(j+1)·a_(j+2)·…·a_i（对角线上为 1，上方为 0）：查询 i 读取状态时，键 j 还剩下的份额。把 QKᵀ/√d_k 与 D 逐元素相乘得到权重 W；W V 的第 t 行就是 RNN 在第 t 步读出的输出。描边的行是逐步演示的 t：点击一行即跳到那一步。
linear-decay-d-title = D：键 j 到查询 i 时还剩多少
linear-decay-w-title = W = D ⊙ QKᵀ/√d_k（未归一化）
linear-decay-w-entry = 权重
linear-decay-gates-title = a_t：每个词元处的衰减
linear-decay-o-title = o_{ $t } = S_{ $t }ᵀ q_{ $t }/√d_k：从状态读出
linear-decay-parallel-row-title = W V 的第 { $t } 行：掩码并行形式
linear-axis-tokens = 词元
linear-key-dimension = 键维度

## FAVOR+'s error against the number of features (attnlab-pages linear/favor.rs, src/pages/linear/favor_panel.rs).

favor-error-title = FAVOR+ 与 softmax 的误差：特征越多误差越小
favor-error-features = 随机特征数 r
favor-error-axis = |Â − A|
favor-error-mean = 平均 |Â − A|
favor-error-max = 最大 |Â − A|
favor-error-rate = ∝ 1/√r
favor-panel-label = FAVOR+ 的误差与特征数
favor-panel-title = FAVOR+：用随机特征近似 softmax
favor-panel-hint = FAVOR+（Choromanski 等，2021）用 φ(q)·φ(k) 代替 exp(q·k/√d_k)，φ 由 r 个正随机特征组成，于是注意力的耗时与长度成线性关系。特征是随机抽取的：每个 r 抽取 { $draws } 次，误差取平均。和任何随机样本的平均一样，误差按 1/√r 下降（特征变为四倍，误差减半），但要等 r 远大于单个特征的方差 e^‖q′+k′‖²（x′ = x/d_k^¼）之后才如此：查询和键较长时（如这个玩具模型），需要几千个特征。
