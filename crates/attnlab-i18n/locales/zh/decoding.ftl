# 解码页面（attnlab-pages 的 decoding/ 与 src/pages/decoding/）：KV 缓存计算器。

## 页面标题与导语。

decoding-title = 解码：KV 缓存
decoding-lead = 解码器一次写出一个词元。每一步，新的查询要关注此前每个词元的键和值，所以解码器把它们存下来，而不是重新计算：这就是 KV 缓存。它随每个词元、在每一层中增长。选择一个已发布的模型或自己设定数值，读出缓存占用多少内存。

## 计算器的旋钮（标签；提示中也用这些词称呼它们）。

decoding-knob-layers = 层数 L
decoding-knob-query-heads = 查询头数 H
decoding-knob-kv-heads = 键/值头数 G
decoding-knob-head-dim = 头维度 d_h
decoding-knob-latent-width = 潜向量宽度 d_c
decoding-knob-rope-width = RoPE 键宽度 d_r
decoding-knob-context = 上下文长度 T（词元）
decoding-knob-batch = 批大小
decoding-knob-bits = 每个值的字节数
decoding-knob-latent = 用潜向量缓存（MLA）代替 K 和 V
decoding-knobs-label = 模型的形状与缓存的数值
decoding-preset-label = 预设
decoding-preset-custom = 自定义数值

## 缓存保存什么，由 G 与 H 的关系（或潜向量）命名。

decoding-kind-mha = 多头注意力：每个查询头都有自己的键头和值头（G = H）。
decoding-kind-gqa = 分组查询注意力：每个键/值头由一组 H / G 个查询头共享。
decoding-kind-mqa = 多查询注意力：所有查询头共享一个键头和一个值头（G = 1）。
decoding-kind-mla = 潜向量缓存：每层一个宽度为 d_c 的潜向量（每个头的键和值都由它投影得到），以及一个各头共享、宽度为 d_r 的 RoPE 键。

## 结果。

decoding-per-token = 每个词元
decoding-total = T 个词元与整个批次
decoding-total-detail = { $tokens } 个词元 × 批大小 { $batch }

## 预设的出处。

decoding-source-same-shape = 这组数值是以下模型的形状：
decoding-preset-mistral-window = Mistral 7B 在 4,096 个词元的滑动窗口内关注，并只保留这么多位置的滚动缓存；本计算器计入直到 T 的每个位置。
decoding-preset-deepseek-mla = 论文的表 1 给出同样的每词元数量：MHA 2·n_h·d_h·l、GQA 2·n_g·d_h·l、MQA 2·d_h·l、MLA (d_c + d_h^R)·l 个值。

## 超出范围的值的提示。

decoding-note-clamped = { $knob }：{ $typed } 超出 { $lo } … { $hi }；已设为 { $now }。
decoding-note-not-number = { $knob }：“{ $typed }”不是数字；保持为 { $kept }。
decoding-note-kv-above-q = G = { $g } 个键/值头多于 H = { $h } 个查询头；G 已设为 { $h }。
decoding-note-kv-uneven = H = { $h } 个查询头不能分成 G = { $g } 个相等的组（已发布的模型所选的 G 都能整除 H）；大小按给定的数值计算。
decoding-note-bits = 不提供每个值 { $bits } 位；改用 fp16（16 位）。

## 缓存随上下文长度变化的图。

decoding-chart-title = KV 缓存随上下文长度的变化（批大小 { $batch }）
decoding-chart-axis-t = 上下文长度 T（词元）
decoding-chart-axis-size = KV 缓存（{ $unit }）
decoding-chart-note = 虚线：同一形状、其他 G
decoding-series-this = { $name }（当前设置）

## 解码步进器（“逐步解码”，attnlab-pages 的 decoding/stepper.rs 与 src/pages/decoding/stepper*.rs）。

decoding-stepper-title = 逐步解码
decoding-stepper-label = 带 KV 缓存、一次一个位置的解码器步进
decoding-stepper-lead = 解码器一次生成目标的一个位置。第 t 步时，新词元的行穿过每一层：该层把它一次性投影为一个查询、一个键和一个值，把键行和值行追加到自己的缓存中，然后这一个新查询关注缓存中的 t + 1 行。已经算过的东西不再重算。
decoding-stepper-model-self = 模型就是“层块”页面的堆叠，权重与设置相同，作用于实验室的句子，只是每一层的自注意力都带因果掩码：解码需要它，因为位置 t 不能看到尚未生成的位置（“层块”页面把同一堆叠不加掩码地作为编码器运行）。
decoding-stepper-model-cross = 模型就是“层块”页面的解码器，权重与设置相同：先对目标做因果自注意力，再对源句的编码器输出做交叉注意力。记忆的键和值在第 0 步之前只计算一次，与目标的键值一起存放在缓存中。
decoding-stepper-settings = { $layers } 层，d = { $d }，{ $heads } 个头，每头 d_k = { $d_k }，f = { $f }，{ $n } 个位置。请在“层块”页面修改它们：
decoding-stepper-to-block = “层块”页面的设置
decoding-stepper-limited = 步进器只解码 { $all } 个词元中的前 { $used } 个：适用“层块”页面的计算量上限（{ $layers } 层、d = { $d } 作用于每个词元，超出页面一次能做的计算量）。
decoding-stepper-controls-label = 显示的步骤
decoding-stepper-first = « 第一步
decoding-stepper-previous = ◀ 上一步
decoding-stepper-next = 下一步 ▶
decoding-stepper-last = 最后一步 »
decoding-stepper-layer = 层
decoding-stepper-head = 头
decoding-stepper-step = 第 { $t } 步（共 0 … { $last }）：词元 { $token } 进入；它的查询是第 { $t } 行（加框），它的键行和值行追加到每一层的缓存中，缓存现有 { $rows } 行。

## 图的标题与坐标轴。

decoding-stepper-weights-title = 第 { $t } 步之后的自注意力
decoding-stepper-cross-title = 第 { $t } 步之后的交叉注意力
decoding-stepper-keys-title = K 缓存，第 { $layer } 层、第 { $head } 头：{ $rows } × { $d_k }
decoding-stepper-values-title = V 缓存，第 { $layer } 层、第 { $head } 头：{ $rows } × { $d_k }
decoding-stepper-memory-keys-title = 记忆 K，第 { $layer } 层、第 { $head } 头：{ $rows } × { $d_k }
decoding-stepper-memory-values-title = 记忆 V，第 { $layer } 层、第 { $head } 头：{ $rows } × { $d_k }
decoding-stepper-axis-queries = 查询位置
decoding-stepper-axis-keys = 键位置
decoding-stepper-axis-memory = 源句位置
decoding-stepper-axis-positions = 位置
decoding-stepper-axis-features = 该头的特征
decoding-stepper-value-label = 值
decoding-stepper-weights-note = t 之后的行画有阴影线：它们还没有解码。点击某一行即跳到那一步。
decoding-stepper-cache-heading = 缓存
decoding-stepper-cache-note = 加框的行是这一步追加的；其上各行是之前的步骤留下的。
decoding-stepper-memory-note = 交叉注意力中源句的键和值：在第 0 步之前只计算一次，每一步都相同。
decoding-stepper-cache-size = 第 { $t } 步之后，整个缓存共有 { $entries } 行、每行 d = { $d } 个数（每个位置、每一层各一行键和一行值），以 f32 计共 { $bytes }。
decoding-stepper-cache-size-memory = 第 { $t } 步之后，整个缓存共有 { $entries } 行、每行 d = { $d } 个数（每个位置、每一层各一行键和一行值，其中 { $memory } 行属于记忆），以 f32 计共 { $bytes }。

## 一步的计算量。

decoding-stepper-work-heading = 这一步的计算量
decoding-stepper-work-what = 计数的内容
decoding-stepper-work-cached = 使用缓存
decoding-stepper-work-recomputed = 重算整个前缀
decoding-stepper-work-cells = 打分的查询–键单元
decoding-stepper-work-macs = 乘加次数
decoding-stepper-work-counted = 每层计数的乘加：新行的投影 W_Q、W_K、W_V、W_O（4d²），它对缓存中 t + 1 行的打分与加权求和（2(t + 1)·d），前馈网络（2d·f）；交叉模式下还有交叉注意力的两个投影（2d²）以及它对 m 行记忆的打分与求和（2m·d）。重算则对 t + 1 行中的每一行都做一遍，自注意力有 (t + 1)² 个单元。不计入：层归一化、softmax、残差加法，以及记忆的键和值（两种做法都只投影一次）。使用缓存时，一步的注意力计算量是 O(t·d)，重算是 O(t²·d)。
decoding-stepper-work-total = 第 0 … { $t } 步合计：使用缓存 { $cached } 次乘加，重算 { $recomputed } 次（是前者的 { $ratio } 倍）。
decoding-stepper-chart-title = 第 0 … t 步合计的乘加次数
decoding-stepper-chart-axis-step = 步骤 t
decoding-stepper-chart-axis-work = 累计乘加次数
decoding-stepper-series-cached = 使用缓存（n 步共 O(n²·d)）
decoding-stepper-series-recomputed = 重算（n 步共 O(n³·d)）

## 最后一步：解码结果与并行掩码计算的比较。

decoding-stepper-equality-heading = 缓存与并行计算的比较
decoding-stepper-equality-later = 到最后一步（t = { $last }）时，解码输出会与并行掩码计算逐个数值比较。
decoding-stepper-equality-output = 最终输出
decoding-stepper-equality-weights = 每一层、每个头的权重
decoding-stepper-equality-bound = 当差值不超过 10⁻⁵ · max(1, max |y|) = { $bound } 时视为舍入误差内相等（f32 约保留 7 位有效数字；两种计算以不同顺序累加同样的乘积）。
decoding-stepper-equal = 在舍入误差内相等
decoding-stepper-not-equal = 不相等：超出舍入误差所能解释的范围
