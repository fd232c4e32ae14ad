# 解码页的经典解码器：带加性注意力的循环编码器–解码器（attnlab-pages decoding/seq2seq.rs，应用的 src/pages/decoding/seq2seq*.rs）。

## 本节的标题、导语与说明。

seq2seq-title = 经典解码器：加性注意力
seq2seq-section-label = 带加性注意力的经典编码器–解码器
seq2seq-lead = 在 Transformer 之前，注意力位于两个循环网络之间（“Bahdanau” 等，2015）。双向循环编码器（每个方向一个门控循环单元）把源句读成每个词一个注释向量 h_j。循环解码器每步写出目标句的一个词：它在写这个词之前的状态 sₜ₋₁ 就是查询；它用加性打分给每个注释打分，取其 softmax 得到 α_t，再按权重求和得到上下文向量 c_t，并把上下文送入下一个状态。因此查询每步都在变，每一步给对齐矩阵添上一行。
seq2seq-seeded = 权重由种子生成，没有经过训练：图案展示的是机制如何计算，而不是学到的翻译（第 1 课和真实模型页展示训练过的对齐）。目标词是给定的（教师强制）：yₜ₋₁ 是前一个目标词的向量，第一步用起始符号 <s>。
seq2seq-sizes = 源句 { $m } 个词，目标句 { $t } 个词；词向量 d_x = { $dx }，编码器每个方向的状态 d_e = { $de }，注释向量与解码器状态宽 { $n }。

## 拒绝与限制。

seq2seq-needs-cross = 本节需要两个句子：源句和目标句。实验室现在只有一个句子。
seq2seq-switch-cross = 把实验室切换为两个句子
seq2seq-no-source = 源句没有词：请在源句框中写一句。
seq2seq-no-target = 目标句没有词：请在目标句框中写一句。
seq2seq-limited = 每个句子只运行前 { $max } 个词（源句有 { $m } 个，目标句有 { $t } 个），以便矩阵的每一行、每一列都看得清。
seq2seq-brought = 本节运行在实验室由种子生成的词向量上；导入的 Q、K、V 没有词向量。移除导入的张量即可查看。

## 步进器。

seq2seq-stepper-label = 逐词走过目标句
seq2seq-previous = 上一个词
seq2seq-next = 下一个词
seq2seq-step = 第 t 步
seq2seq-step-of = 第 { $t } 步，共 { $all } 步：解码器写出“{ $word }”。
seq2seq-feed = 把上下文送回下一个状态
seq2seq-feed-on = 开（原论文的做法）：上下文 c_t 进入下一个状态，因此改变第 t + 1 步的查询。
seq2seq-feed-off = 关：仍然计算 c_t，但下一个状态不读它；各状态只通过 s_0 读到源句。
seq2seq-delta = 送回与不送回上下文时，第 1 … { $t } 行权重的最大变化：{ $delta }。
seq2seq-delta-first = 第 1 行：{ $first }（两者都读 s_0）。

## 图。

seq2seq-alignment-title = 对齐 α：已写出的每个目标词一行
seq2seq-axis-target = 目标词（步）
seq2seq-axis-source = 源句词
seq2seq-axis-features = 特征
seq2seq-value = 数值
seq2seq-query-title = 查询：第 { $t } 步之前的状态 sₜ₋₁
seq2seq-context-title = 上下文 c_{ $t } = Σ_j α_{ $t },j h_j
seq2seq-weights-caption = 第 { $t } 步：每个源句词的分数 e 与权重 α
seq2seq-col-word = 源句词
seq2seq-col-score = 分数 e
seq2seq-col-weight = 权重 α
seq2seq-row-sum = 这一行的权重之和为 { $sum }。
seq2seq-enters = 上下文进入下一个状态：
seq2seq-not-entering = 关闭送回时，下一个状态在它的位置读到零：
