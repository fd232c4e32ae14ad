# 实验室的句子（attnlab-lab）。

## 给学生看的核心错误（explain.rs）：什么失败了、原因、路径。

explained = { $what }：{ $reason }（{ $path }）。
explain-settings = 这些设置无法使用
explain-overflow = 数值过大，无法计算
explain-attention = 无法计算注意力

## 注意力的种类，以及每种无法应用的掩码。

kind-softmax = softmax 注意力
kind-elu1 = elu+1 线性注意力
kind-relu = ReLU 线性注意力
kind-taylor = Taylor 线性注意力
kind-efficient = 高效注意力
mask-limitation-efficient = 高效注意力一次性在所有位置上归一化键，因此只能应用填充掩码
mask-limitation-linformer = Linformer 把所有位置混合成 k 个投影后的键，因此不能掩码任何键，也不能做成因果的
mask-limitation-none = 支持所有掩码

## 图为何无法绘制（attnlab-plot 的 HeatmapError）。

heatmap-shape = { $field } 有 { $got } 项，应有 { $expected } 项
heatmap-non-finite = 第 { $row } 行第 { $col } 列的值不是有限数
heatmap-row-out-of-range = 空行 { $row } 超出范围（共有 { $rows } 行）
heatmap-non-finite-row-value = 第 { $row } 行的 { $field } 不是有限数
heatmap-shape-mismatch = 无法比较 { $a_rows }×{ $a_cols } 的矩阵和 { $b_rows }×{ $b_cols } 的矩阵

## 图上方的提示（tokens.rs）。

text-cut = 这段文本有 { $total } 个字符；attnlab 保留前 { $max } 个（图最多画 { $tokens } 个词元）。
tokens-cut = 你的文本有 { $total } 个词元；热力图只显示前 { $max } 个。没有丢失任何内容：整段文本仍在输入框中。
nothing-to-attend = 还没有可关注的内容：在输入框中输入一个句子，它的每个词都会出现在这里，并显示它对其他词的注意力。

## 实验室为何无法显示某样东西（compute.rs 的 LabError）。

incomparable = 这两个变体无法逐格比较：它们的权重分别是 { $a_rows }×{ $a_cols } 和 { $b_rows }×{ $b_cols }（Linformer 关注的是 k 个投影后的键，而不是词元）。
no-variant = 没有名为 { $name } 的变体。
no-head = 没有头 { $head }：共有 { $heads } 个头，从 0 开始编号。
figure-failed = 无法绘制这幅图：{ $why }。

## 给人看的变体与模型（state/mod.rs）。

mask-causal = 因果
mask-padding = 填充
mask-window = 局部窗口
mask-strided = 跨步
mask-global = 全局词元
mask-custom = 自定义
kind-linear = { $kind } 线性注意力
list-separator = 、
model-label = { $heads } 个头 · d_model { $d_model }
score-dot = 点积
score-scaled-dot = 缩放点积
score-general = 一般（双线性）
score-additive = 加性
score-cosine = 余弦
variant-needs-name = 变体需要一个名称
variant-name-too-long = 变体名称最多 { $max } 个字符
variant-name-taken = 已有另一个变体叫 { $name }
no-such-variant = 没有第 { $index } 个变体
