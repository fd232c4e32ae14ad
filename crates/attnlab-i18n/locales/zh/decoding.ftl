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
