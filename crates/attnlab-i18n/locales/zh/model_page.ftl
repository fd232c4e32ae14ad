# 真实模型页面（attnlab-model-page）：说明、图的标题、运行和替换的错误。

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
