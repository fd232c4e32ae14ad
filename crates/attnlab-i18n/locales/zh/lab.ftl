# 实验室的句子（attnlab-lab，以及应用的实验室面板：src/lab、src/state）。

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

## 变体面板：名称、按钮与各头的平均（lab/variant_panel.rs）。

variant-name-label = 变体名称
variant-duplicate = 复制
variant-remove = 删除
variant-average-heads = 各头的平均
variant-add-copy-variant = 添加此变体的副本
variant-remove-variant = 删除此变体
variant-panel-label = 变体 { $name }
variant-grid-title = { $name } · 所有头

## 变体的旋钮与掩码（lab/variant_controls.rs）。

knob-score = 打分函数
knob-temperature = 温度 τ
knob-temperature-log-scale = 温度（对数刻度，0.01 到 100）
knob-temperature-value = 温度值
knob-attention = 注意力
knob-masks = 掩码
knob-custom-cells = 自定义单元格
knob-click-heatmap-cells = 点击热力图单元格以屏蔽它们
knob-clear = 清除
knob-global-tokens-click = 全局词元（点击）
knob-global-tokens = 全局词元
knob-temperature-range = τ 是 0.01 到 100 之间的数
knob-linformer-k-range = k 是 1 到 512 之间的整数
knob-linear-elu-1 = 线性，elu+1
knob-linear-relu = 线性，ReLU
knob-linear-taylor = 线性，Taylor
knob-efficient = 高效
knob-reasons-separator = ；
knob-no-pad-tokens = 还没有可屏蔽的填充词元：请在模型设置中设置“把键填充到长度”
knob-mask-parameter = { $mask }掩码的参数

## 两个变体的比较（lab/compare_panel.rs）。

compare-panel-label = 两个变体的比较
compare-panel-title = 比较两个变体
compare-first = 第一个{ " " }
compare-second = 第二个{ " " }
compare-what = { " " }比较{ " " }
compare-selected-head = 所选的头
compare-head-average = 各头的平均
compare-pick-two-different = 请选择两个不同的变体进行比较（只有一个时请先添加变体）。
compare-max-abs = |ΔA| 的最大值
compare-mean-abs = |ΔA| 的平均值
compare-mean-js = 行 JS 的平均
compare-mean-kl = 行 KL({ $a } ‖ { $b }) 的平均
compare-mean-entropy = { $name } 的平均熵（奈特）

compare-not-distributions = 未定义：KL、JS 和熵比较的是作为分布的行，而这种注意力的行之和不必为 1（也可能为负）

## 大热力图的缩放栏（lab/zoom.rs）。

zoom-bar-label = 缩放大热力图
zoom-bar-title = 缩放：
zoom-queries = 查询
zoom-keys = 键
zoom-whole-matrix = 整个矩阵
zoom-drag-rectangle-heatmap = 或在热力图上拖出一个矩形
zoom-first-query = 显示的第一个查询
zoom-last-query = 显示的最后一个查询
zoom-first-key = 显示的第一个键
zoom-last-key = 显示的最后一个键
zoom-note =
    已缩放：查询 { $r0 }–{ $r1 }，键 { $c0 }–{ $c1 } · { $step ->
        [1] 每个词元都有标签
       *[other] 每 { $step } 个词元标注一个（再放大即可逐个标注）
    }

## 读出所指单元格的那一行（lab/cell_info.rs）。

cell-info-idle = 指向一个单元格（或聚焦热力图后用方向键）以读出它的精确权重。
cell-info-raw-score = { $sentence }；softmax 前的原始分数 { $raw }
cell-info-row-entropy = { $text }；该行的熵 { $nats } 奈特（最大值的 { $share }%）
cell-info-row-sum = { $text }；该行之和为 { $sum }

## 全部头的小图网格（lab/head_grid_view.rs）。

head-grid-idle = 指向任一个头的单元格以读出其值；点击一个头以放大显示。
head-grid-hovered = 头 { $head }：
head-grid-tile = 头 { $head }
head-grid-label = 全部 { $heads } 个头的小图；已选中头 { $head }。点击一个头，或用方向键，选择它。

## 两个变体为何无法比较（state/derived）。

compare-refused-no-figure = 两个变体中有一个没有可比较的图（见其面板）。
compare-refused-head = 无法计算所选的头。
compare-refused-average = 无法计算各头的平均。

## 实验室前六种之外的注意力类型和汇点掩码（explain.rs、state/mod.rs）。

mask-sinks = 汇点
kind-softmax-plus-one = softmax+1 注意力
kind-sigmoid = sigmoid 注意力
kind-softpick = softpick 注意力
kind-sink = 带汇点 logit 的 softmax
kind-differential = 差分注意力
kind-decayed-linear = 衰减线性注意力
kind-favor = FAVOR+（Performer）
describe-softcap = 软上限 { $c }
describe-sigmoid-default-bias = b = −ln m
rope-scaling-short-linear = 线性
rope-scaling-short-ntk = NTK
rope-scaling-short-yarn = YaRN

## 变体的选项（lab/variant_options.rs）：RoPE、ALiBi、软上限、汇点、分块、分组、各类型自己的参数。

knob-kind-softmax-plus-one = softmax + 1
knob-kind-sigmoid = sigmoid
knob-kind-softpick = softpick
knob-kind-sink = softmax + 汇点 logit
knob-kind-differential = 差分
knob-kind-decayed-linear = 衰减线性
knob-kind-favor = FAVOR+
knob-group-positions = 位置
knob-group-logits = logit
knob-group-kind = 本类型自己的参数
knob-rope = RoPE
knob-rope-base = 底数
knob-rope-pairs = 配对
knob-rope-pairs-half = 前后两半（Llama）
knob-rope-pairs-interleaved = 相邻交错（RoFormer）
knob-rope-dims = 旋转维数 r
knob-rope-scaling = 缩放
knob-rope-scaling-none = 无
knob-rope-scaling-linear = 线性（位置插值）
knob-rope-scaling-ntk = NTK 感知
knob-rope-scaling-yarn = YaRN
knob-rope-factor = 倍数 s
knob-rope-original = 训练长度 L
knob-alibi = ALiBi（论文的斜率）
knob-softcap = 软上限 c
knob-sinks = 汇点 s
knob-tiles = 分块 B
knob-kv-groups = 键值组数 G
knob-kv-groups-mha = { $groups }（多头）
knob-kv-groups-mqa = 1（多查询）
knob-kv-groups-gqa = { $groups }（分组查询）
knob-sigmoid-bias = 偏置 b
knob-sigmoid-bias-default = −ln m（默认）
knob-lambda = λ
knob-decay = 衰减 γ
knob-sink-logit = 汇点 logit s
knob-features = 特征数 r
knob-number-range = { $what }是 { $lo } 到 { $hi } 之间的数

## The panel of the weight on the first token, under the comparison (src/lab/first_token_panel.rs).

first-token-panel-label = 第一个词元上的权重
first-token-panel-title = 各个头把权重放在哪里：第一个词元
first-token-panel-hint = 每一格是某个头的查询放在第一个键上的平均权重。softmax 必须把一整行的权重分完，训练好的头在没有要找的东西时，常把权重停放在最前面的词元上（注意力汇点）。让最前面的键保持打开的窗口（汇点）、softmax+1 和汇点 logit 给这份权重一个去处；差分注意力可以把它减掉。

## Which query heads share each key/value head, under the groups knob (src/lab/groups_figure.rs).

kv-share-title = 哪些查询头读取哪一组键和值
kv-share-head = 头 { $head }
kv-share-group = K、V { $group }
kv-cache-per-token = 解码器每个词元、每层缓存的键和值（f32）：本变体 { $own } B，是多头 { $mha } B 的 1/{ $saving }；多查询 { $mqa } B。
