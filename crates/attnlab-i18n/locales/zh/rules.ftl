# 实验室的规则（attnlab-lab 的 rules/）：控件为何被禁用或不起作用（用于提示，不带句号），以及修复状态时改了什么。

## 模型设置为何不能选择。

identity-one-head = 恒等投影（Q = K = V = X）只有一个头
heads-range = 实验室提供 { $lo } 到 { $hi } 个头
heads-divide = { $heads } 个头不能整除 d_model = { $d_model }（d_k = d_model / 头数 必须是整数）
d-model-range = d_model 介于 { $lo } 与 { $hi } 之间
d-model-divide = d_model = { $d_model } 不能被 { $heads } 个头整除（d_k = d_model / 头数 必须是整数）
d-model-even = 加到词向量上的正弦位置编码需要偶数的 d_model（正弦与余弦成对出现），而它是 { $d_model }
identity-set-heads = 恒等投影（Q = K = V = X）只有一个头：请先把头数设为 1
sinusoid-width-even = 正弦编码需要偶数宽度（正弦与余弦成对出现），而它是 { $width }
d-pos-range = d_pos 介于 { $lo } 与 { $hi } 之间
d-pos-even = d_pos 为偶数：正弦位置编码由正弦–余弦成对组成
sinusoid-settings-unused = 基数与排布只影响正弦编码
d-pos-unused = 相加的位置向量与词向量同宽（d_model）；选择拼接才能设置 d_pos

## 变体的设置为何不能选择或不起作用。

mask-unsupported = { $who }无法应用{ $mask }掩码：{ $limit }
mask-on-unsupported = { $who }无法应用已开启的{ $mask }掩码（请先关闭它）：{ $limit }
temperature-unused = { $who }没有可除的 logit，因此忽略温度
score-unused-linformer = Linformer 总是用缩放点积 q·k'/√d_k 打分
score-unused-efficient = 高效注意力用 softmax 分别归一化 Q 和 K，而不是给词元对打分
score-unused-linear = 线性注意力用自己的相似度 φ(q)·φ(k)，而不是打分函数
linformer-k-unused = 只有 Linformer 会把键投影到 k 个
no-more-variants = 实验室最多并排比较 4 个变体
last-variant = 实验室至少需要一个变体
padding-hint = 还没有可屏蔽的填充词元：请在模型设置中设置“把键填充到长度”

## 修复改了什么。

text-clipped = { $what ->
    [text] 文本
    [source] 源句
   *[pair] 第二个句子
}超过 { $max } 个字符，因此只保留了开头部分
text-controls = { $what ->
    [text] 文本
    [source] 源句
   *[pair] 第二个句子
}含有 { $controls } 个控制字符（如 NUL），显示为 �
default-variants-added = 没有任何变体，因此加入了两个默认变体
variants-truncated = 只保留了前 { $max } 个变体
clamped = { $what } { $value } 超出 { $lo }–{ $hi }，因此取 { $clamped }
field-pad-to = 填充到长度
field-heads = 头数
field-window-radius = 窗口半径
field-stride = 步长
d-model-made-even = 正弦位置编码需要偶数的 d_model，因此 d_model { $odd } 改为 { $even }
identity-heads-one = 恒等投影只有一个头，因此头数 { $heads } 改为 1
heads-made-divisor = { $heads } 个头不能整除 d_model = { $d_model }，因此改为 { $divisor } 个头
base-clamped = 正弦基数 { $was } 超出 { $lo }–{ $hi }，因此取 { $base }
d-pos-made-even = d_pos 为偶数（正弦–余弦成对），因此 d_pos { $odd } 改为 { $even }
variant-renamed = 变体 { $n } 已改名为 { $name }（名称唯一，1–{ $max } 个字符）
temperature-clamped = 变体 { $name }：温度 { $was } 超出 { $lo }–{ $hi }，因此取 { $now }
in-variant = 变体 { $name }：{ $what }
mask-indices-dropped = 重复的词元下标以及不小于 { $max } 的下标已从掩码中去掉
mask-turned-off = { $mask }掩码已关闭（{ $why }）
zoom-range = 查询 { $a }–{ $b }、键 { $c }–{ $d }
zoom-clamped = 缩放范围 { $was } 超出 0–{ $last } 或前后颠倒，因此取 { $now }
lines-threshold-clamped = 连线的最小权重 { $was } 超出 { $lo }–{ $hi }，因此取 { $now }
view-reset = 所选的变体、头或比较的一对不存在，因此显示第一个

## 变体的选项（RoPE、ALiBi、软上限、汇点、分块、分组、各类型的参数）为什么不能选或不起作用。

option-on-unsupported = { $who }无法使用已开启的{ $option }（请先关闭它）：{ $why }
logits-option-unused = { $who }没有可加偏置或截顶的 logit：ALiBi 和软上限只作用于 softmax 一族的 logit
tiles-unused = 只有 softmax 注意力按块计算（FlashAttention 的在线 softmax）
sigmoid-bias-unused = 只有 sigmoid 注意力在 σ 之前加偏置 b
lambda-unused = 只有差分注意力减去 λ 倍的第二个 softmax
decay-unused = 只有衰减线性注意力每一步按 γ 衰减过去
sink-logit-unused = 只有汇点注意力有汇点 logit s
features-unused = 只有 FAVOR+ 抽取 r 个随机特征
decayed-needs-dot = 衰减线性注意力只用点积或缩放点积打分（请先选其中之一）
decayed-score = 衰减线性注意力只用点积或缩放点积打分
decayed-cross = 衰减线性注意力沿一个序列运行（每个词元衰减它之前的词元），所以需要自注意力
causal-cross = 交叉注意力里目标位置和源位置属于两个不同的句子，“键 j ≤ 查询 i”并不表示先后：因果掩码属于解码器的自注意力，交叉注意力只遮住源句的填充
cross-mode-repaired = 已切换到交叉注意力：{ $repairs }。
groups-divide = { $groups } 个键值组不能整除 { $heads } 个头（每组服务同样多的查询头）
rope-dims = RoPE 成对旋转维度：r 为偶数，从 2 到 d_k = { $d_k }
rope-narrow = RoPE 成对旋转维度，而 d_k = { $d_k } 没有一对维度
rope-ntk-two = NTK 感知缩放把底数 b 变为 b·s^(r/(r−2))，需要 r > 2
rope-scaling-unused = 先开启 RoPE 才能缩放它的频率
second-not-brought = 差分注意力需要第二组查询和键（q2、k2），而带来的张量没有
heads-groups-variant = 变体 { $name } 把键和值分成 { $groups } 组，组数必须整除头数（请先改它的组数）
d-k-rope-variant = 变体 { $name } 用 RoPE 旋转 { $r } 个维度，d_k = { $d_k } 无法成对容纳（请先改它的旋转维数）
option-alibi = ALiBi 偏置
option-softcap = 软上限
option-tiles = 分块
field-rope-base = RoPE 的底数
field-rope-factor = 缩放倍数 s
field-rope-original = YaRN 的训练长度 L
field-softcap = 软上限 c
field-sinks = 汇点数 s
field-tiles = 块宽 B
field-sigmoid-bias = sigmoid 偏置 b
field-lambda = λ
field-decay = γ
field-sink-logit = 汇点 logit s
field-features = 特征数 r
option-turned-off = { $option }已关闭（{ $why }）
score-made-scaled = 打分函数改为缩放点积（{ $why }）
groups-made = { $groups } 个键值组不能整除 { $heads } 个头，因此改为 { $fixed } 组
rope-dims-fixed = RoPE 的旋转维数 r = { $was } 不适合 d_k = { $d_k }，因此 r = { $now }
rope-turned-off = RoPE 已关闭（d_k = { $d_k } 没有可旋转的一对维度）
scaling-made-none = NTK 感知缩放需要 r > 2，因此 RoPE 不缩放
