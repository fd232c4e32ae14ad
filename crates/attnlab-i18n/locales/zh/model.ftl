# 模型的错误（attnlab-model 的 ModelError、TextError、RelevanceError）。
# 文件对自身的说明（`$detail`）是英文，中文按错误的种类说。

## 文本为何无法送入模型（TextError）。

text-empty = 文本里没有词：它是空的，或者只有空白和控制字符
text-too-long = 文本有 { $chars } 个字符，超过了模型能读的 { $max } 个
text-in-second = 第二个文本：{ $error }

## 加载或运行模型（ModelError）。

# unsaid: $detail
model-config = 模型的配置无法读取
# unsaid: $detail
model-format = 模型权重的格式不对
model-missing-tensor = 模型权重中缺少张量 { $name }
model-tensor-shape = 权重 { $name } 的形状是 { $got }，应为 { $expected }
model-tensor-dtype = 权重 { $name } 的类型是 { $dtype }，无法读取
# unsaid: $detail
model-vocabulary = 模型的词表无法读取
model-text = { $error }
model-token-id = ids[{ $position }]：{ $id } 不小于词表大小 { $vocab_size }
model-not-shipped = ids[{ $position }]：{ $id } 在这个模型文件中没有词嵌入行
# unsaid: $detail
model-segments = 词元类型（句段）不合法
model-too-many-tokens = { $field }：{ $tokens } 个词元，模型最多接受 { $max } 个
model-attention = 第 { $layer } 层的注意力：{ $path }：{ $reason }

## 注意力展开和注意力流为何无法沿注意力走（RelevanceError）。

relevance-no-layers = 没有任何层：注意力展开和注意力流至少要沿一层的注意力走
relevance-no-heads = 第 { $layer } 层没有头，因此没有可沿的注意力
relevance-no-tokens = 注意力没有词元：它的矩阵是 0 × 0
relevance-not-square = 第 { $layer } 层头 { $head }：注意力是 { $rows } × { $cols }；注意力展开和注意力流要求每个词元一行一列（关注投影后的键的头无法追溯回词元）
relevance-shape-mismatch = 第 { $layer } 层头 { $head }：注意力是 { $size } × { $size }，而第一个头的是 { $tokens } × { $tokens }
relevance-not-finite = 第 { $layer } 层头 { $head }：查询 { $row } 对键 { $col } 的权重不是有限数
relevance-negative = 第 { $layer } 层头 { $head }：查询 { $row } 对键 { $col } 的权重是 { $value }；注意力的份额不能为负
relevance-no-such-layer = 没有第 { $layer } 层：层的编号是 0 到 { $last }
relevance-too-many-tokens = 注意力流需要对每对词元做一次最大流计算；最多支持 { $max } 个词元，这段文本有 { $tokens }
