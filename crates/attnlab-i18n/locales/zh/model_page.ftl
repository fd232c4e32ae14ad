# 真实模型页面（attnlab-model-page 及其在 src/pages/model/ 中的组件）：说明、图的标题、运行和替换的错误、页面的各个面板。

## 图旁的说明。

atlas-caption = 每一层的每个头共用一个色标：行是层（第 0 层读取嵌入，最后一行是最后一层），列是头。点击一个头即可放大显示。
special-tokens-note = 许多头在无事可做时把大部分权重停放在特殊词元（[CLS]/[SEP]、<s>/</s>）上。隐藏它们会把每一行除以剩下的部分，使词之间的权重之和重新为 1。
word-start-note = ␣ 标出开始一个词的词片。SentencePiece 把它写作 ▁，代表词前的空格；文本的第一个词也有一个，中文也不例外。
search-caution = 一个从“它”指向“动物”的头，只说明这个头在这个句子上的注意力落在哪里，并不说明模型理解了“它”指代什么：注意力权重只是计算的一个成分，头也可能因为错误的理由得出正确的答案。
alignment-note = 这是一个把两个句子当作一段文本同时读入的编码器：每个词元都可以关注两个句子中的任何其他词元。它不是翻译解码器的交叉注意力（那里每个正在生成的词只看源句）。一个头若把权重跨过句子落到某个词元的译文上，就是从数据中学到了对齐，而它从未被训练去对齐。最强的一条线画成不透明，其余的按权重成比例。

## 图。

query-token = 查询词元
key-token = 键词元
layer-head-title = { $name } · 第 { $layer } 层 · 头 { $head }
layer-mean-title = { $name } · 第 { $layer } 层 · 各头的平均
relevance-title = 第 { $layer } 层之后的{ $relevance }
share = 份额
alignment-title = { $model } · 第 { $layer } 层 · 头 { $head } 跨越句对
variant-title = { $name } 在第 { $layer } 层 · 头 { $head }
variant-difference-title = { $name } − 模型自身的注意力
no-head-in-layer = 模型的第 { $layer } 层没有头 { $head }

## 运行的错误（RunError）。

run-floats = 模型工作线程发来了 { $got } 个数，应为 { $expected } 个
run-header = 模型工作线程的回复前后不一致：{ $why }
run-not-finite = 模型算出了一个不是数的值
run-no-token = 词元 { $index } 不存在（该文本有 { $n } 个词元）
run-hidden = { $token } 已被隐藏：请显示 [CLS] 和 [SEP] 才能从它搜索或搜索到它

## 变体替换模型注意力的位置。

place-head = 第 { $layer } 层的头 { $head }
place-layer = 第 { $layer } 层的每个头
place-every = 每一层的每个头
no-such-place = 模型有 { $layers } 层、每层 { $heads } 个头，所以没有{ $place }

## 页面的组件（src/pages/model/）：模型的状态面板。

model-status-label = 真实模型
model-toy-note = 实验室的图来自一个权重由种子随机生成的玩具模型：机制是对的，但图案没有意义。加载一个真实的预训练 Transformer，看看训练过的模型关注什么。
model-load = 加载 { $label }（约 { $size }）
model-starting = 正在启动模型工作线程…
model-cancel = 取消
model-downloading-of = 正在下载 { $label }：{ $loaded } / { $total }
model-downloading = 正在下载 { $label }：{ $loaded }
model-download-label = 下载进度
model-ready = { $label } 已就绪：{ $ms } 毫秒内{ $from ->
        [cache] 从本浏览器的缓存
       *[network] 从网络
    }加载了 { $size }（{ $layers } 层 × { $heads } 个头；文本在 { $max } 个词元处截断）。
model-load-failed = 模型无法加载：{ $why }。
model-try-again = 重试
model-load-cancelled = 加载已取消；没有保留任何内容。
model-load-again = 重新加载

## 第一屏：控件、运行时间、图集和选中的头（$first、$second、$list、$unk 和 $example 显示在各自的元素中）。

model-controls-label = 层、头和词元
model-layer-label = 层{ " " }
model-head-label = 头{ " " }
model-hide-special = { " " }隐藏 { $first } 和 { $second }
model-run-info = { $n } 个词元经过 { $layers } 层，用时 { $ms } 毫秒。{ $cut }
model-run-cut = 该文本原有 { $was } 个词元，已截断为 { $n } 个。
model-atlas-label = 每个头
model-head-panel-label = 选中的头
model-atlas-export-title = 注意力图集：每一层和每个头
model-atlas-aria = 每一层的每个头以小图并列；已选中第 { $layer } 层的头 { $head }。点击一个头或使用方向键来选择它。
model-atlas-idle = 指向任意头的单元格即可读取其值；点击一个头即可放大显示。
model-list-comma = 、
model-list-and = 和
model-replaced-note = 此构建的模型文件只附带汉字、中日韩字符及半角字母、数字和符号的词片，因此 { $list } { $typed ->
        [1] 被当作模型的未知词片
       *[other] 都被当作模型的未知词片
    } { $unk } 读入；图中显示为 { $example }。

## 头搜索。

model-example = 示例：
model-search-label = 头搜索
model-search-title = 哪些头从一个词元看向另一个词元？
model-search-from = 从（查询）{ " " }
model-search-to = 到（键）{ " " }
model-search-hint = 所有头按该权重排序；点击一个头即在上方显示它。点击大热图的一个单元格会搜索它对应的词元对。
model-rank-head = 第 { $layer } 层 · 头 { $head }

## 注意力展开与注意力流。

model-relevance-label = 注意力展开与注意力流
model-relevance-title = 跨层：注意力展开与注意力流
model-relevance-radio-label = 相关性
model-relevance-after = 第 { $layer } 层之后（上面选中的层）
model-rollout-note = 注意力展开逐层相乘各头的平均加上单位矩阵（残差连接），并把各行重新归一化：表示这一层之后的每个位置从每个输入词元汲取了多少。
model-flow-too-long = 注意力流需要对每一对词元做一次最大流计算；它最多支持 { $max } 个词元，而此文本有 { $n } 个。
model-flow-note = 注意力流把同一张图当作管道网络：每个元素是能经过所有层从输入词元流到该位置的最大权重（{ $ms } 毫秒）。
model-flow-failed = 无法计算注意力流：{ $why }
model-flow-computing = 正在计算注意力流…

## 权重与贡献（$authors：论文第一作者的名字）。

model-neuron-place = 第 { $layer } 层 ·{ " " }
model-shares-label = 特殊词元上的权重与贡献
model-shares-title = 大权重重要吗？逐层对比权重与贡献
model-shares-note = 对每一层，落在特殊词元上的注意力权重（所有头、所有查询）占全部权重的份额，以及贡献 ‖α_ij f(x_j)‖ 之和中落在它们上的份额。权重份额大而贡献份额小，说明这些头把权重停放在了几乎不起作用的地方。
model-shares-paper = { $authors } 等，2020
model-table-layer = 层
model-shares-weight = 权重
model-shares-contribution = 贡献

## 一个句子及其译文。

model-pair-title = 一个句子及其译文
model-pair-field = 第二个句子（可选）：模型把两句当作一段文本读入
model-pair-placeholder = 例如该句子的译文
model-pair-direction = 方向
model-pair-forward = { " " }第一句 → 第二句
model-pair-backward = { " " }第二句 → 第一句
model-crossing-title = 权重跨句最多的头（共 { $count } 个）
model-crossing-head = 第 { $layer } 层 头 { $head }
model-crossing-share = { " " }{ $share } 跨句（第一句 → 第二句 { $forward }，第二句 → 第一句 { $backward }）

## 选中的头上的实验室变体。

model-variants-label = 这个头上的实验室变体
model-variants-title = 实验室的变体作用于第 { $layer } 层 · 头 { $head }
model-variants-hint = 每个变体取这个头真实的查询、键和值，计算它自己的注意力：换一个打分函数、温度、掩码、线性核或 Linformer。模型自身的注意力是带 softmax 的缩放点积；每个变体下方是它带来的变化。这些旋钮就是实验室的旋钮：在这里改动也会改动实验室。
model-variant-metrics = 与模型自身的注意力相比：最大 |ΔA| { $max }，平均 |ΔA| { $mean }，平均 KL { $kl }，平均 JS { $js }；平均行熵 { $h0 } 对 { $h1 } 奈特。
model-linformer-note = Linformer 的权重作用于投影后的键而不是词元：没有逐个单元格的差异。

## 在模型内部替换为一个变体（$first、$other 和 $variant 显示在各自的元素中）。

model-substitution-label = 在模型内部替换为一个变体
model-substitution-title = 在模型内部：一个变体会改变什么？
model-substitution-hint = 用实验室的一个变体替换模型的 softmax 注意力，运行整个模型，看看会发生什么：之后的每一层都会读取被改动的头写下的内容。“线性注意力丢失了什么？”——向一个训练过的模型提问。
model-substitution-variant = 变体{ " " }
model-substitution-where = 位置
model-reach-head = 这个头
model-reach-layer = 这一层
model-reach-every = 每一层
model-compare-with = 与之比较{ " " }
model-running = 正在运行…
model-run-with-it = 用它运行模型
model-substitution-idle = 选择一个变体和它放置的位置，然后用它运行模型。
model-substitution-headline = 在{ $place }使用 { $variant }：句子嵌入与模型自身嵌入的余弦相似度为 { $cosine }（{ $ms } 毫秒）。
model-substitution-pair = “{ $first }”和“{ $other }”：使用模型自身的注意力时相似度为 { $own }，使用 { $variant } 时为 { $substituted }，变化 { $change }。
model-mean-delta = 平均 |ΔA|
model-max-delta = 最大 |ΔA|
model-heads-compared = 比较的头数

## The weight each head puts on the first token, under the shares (src/pages/model/contribution_panel.rs).

model-first-token-label = 每层每个头放在第一个词元上的权重
model-first-token-title = 每个头把权重放在哪里：第一个词元
model-first-token-hint = 每一格是某个头的查询放在文本第一个词元 [CLS] 上的平均权重。没有要找的东西的头，会把很多权重停放在第一个和最后一个词元上；实验室里的汇点、softmax+1 和汇点 logit 给这份权重另一个去处。在下面替换它们，看看模型没有这个去处时会怎样。
