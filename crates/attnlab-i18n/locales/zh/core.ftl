# 核心的错误（attnlab-core 的 CoreError）：哪里不对，不含字段的路径。

shape-mismatch = 形状为 { $rows }×{ $cols }，应为 { $expected }
non-finite = 第 { $row } 行第 { $col } 列的值不是有限数
no-heads = 至少需要一个头
invalid-temperature = 必须是大于 0 的有限数，而它是 { $t }
missing-params = 缺少参数：{ $needs }
unsupported-mask = { $attention }无法应用{ $mask }掩码（{ $why }）
index-out-of-range = 下标 { $index } 超出范围（必须小于 { $len }）
overflow = { $what } 超出了 f32 的范围；请缩小输入或提高温度

## 形状应为（Expected）。

expected-general-w = { $d_k }×{ $d_k }（d_k×d_k）
expected-additive-wa = d_a×{ $d_k }（d_a×d_k）
expected-additive-ua = { $d_a }×{ $d_k }（d_a×d_k，d_a 为 w_a 的行数）
expected-additive-va = 1×{ $d_a }（d_a 个值，d_a 为 w_a 的行数）
expected-query-rows = { $n } 行（与 heads[0].q 相同）
expected-keys = { $m }×{ $d_k }（{ $m } 行，与 heads[0].k 相同；{ $d_k } 列，与 q 相同）
expected-value-rows = { $m } 行（与 k 相同）
expected-linformer-e = k×{ $m }（每个键一列）
expected-linformer-f = { $k }×{ $m }（与 linformer.e 相同）
expected-output-rows = { $width } 行（所有头的值宽度之和）
expected-input-columns = { $d_in } 列（d_in）
expected-mask = { $n }×{ $m }（查询 × 键）
expected-first-shape = { $rows }×{ $cols }（第一个矩阵的形状）
expected-value-width-rows = { $n } 行（v 的宽度）
expected-weight-columns-rows = { $n } 行（权重的列数）
expected-weight-columns-lengths = { $n } 个长度（权重的列数）

## 头缺少的参数（Needs）。

needs-general-w = 一般（双线性）打分函数需要 w（d_k×d_k）
needs-additive = 加性打分函数需要 w_a、u_a（d_a×d_k）和 v_a（d_a）
needs-linformer = Linformer 注意力需要投影 e 和 f（k×m）

## 设置为何被拒绝（Invalid）。

invalid-d-model = 必须在 1 到 { $max } 之间，而它是 { $got }
invalid-heads-divide = 必须整除 d_model = { $d_model }（这样 d_k = d_model / 头数 才是整数），而它是 { $heads }
invalid-identity-one-head = 恒等投影（Q = K = V = X）只能用一个头
invalid-position-base = 必须是大于 1 的有限数，而它是 { $base }
invalid-position-width = 至少为 2
invalid-sinusoidal-odd = 正弦编码的宽度必须是偶数，而它是 { $width }
invalid-stride = 步长至少为 1
invalid-linformer-keys = Linformer 需要 k ≥ 1 个投影后的键
invalid-no-such-head = 共有 { $heads } 个头，从 0 开始编号，所以没有头 { $head }
invalid-permutation = 打乱顺序有 { $positions } 个位置，但句子有 { $tokens } 个词元
invalid-projected-keys = 头 { $head } 的权重针对的是 { $keys } 个投影后的键，而不是 { $tokens } 个词元：贡献需要模型自己的键
invalid-not-computed = 还没有计算

## Transformer 块的形状（Expected）与拒绝的理由（Invalid::Block）。

expected-model-square = { $d }×{ $d }（d×d，d 为 x 的宽度）
expected-model-vector = { $d } 个值（d，即 x 的宽度）
expected-model-columns = { $d } 列（d，即各层的宽度）
expected-ffn-in = { $d }×f（d 行，f ≥ 1 列）
expected-ffn-out = { $f }×{ $d }（f×d，f 为 ffn.w_1 的列数）
expected-ffn-vector = { $f } 个值（f，即 ffn.w_1 的列数）
block-no-layers = 为空，至少需要一层
block-no-tokens = 没有行，至少需要一个词元
block-cross-without-memory = 交叉注意力需要一个记忆（m × d）作为注意的对象
block-memory-without-cross = 有记忆时每一层都有交叉注意力；没有记忆时每一层都没有
block-cross-causal = 交叉注意力不能是因果的：它的键是记忆的位置，而不是查询的位置
block-decode-needs-causal = 逐个位置解码要求每一层的自注意力都是因果的
