# 实验室六种之外的注意力（softmax_plus_one、sigmoid、softpick、sink、differential、
# decayed_linear、favor），`attnlab compute` 和带来的文件读取它们时的话。

## 核心关于它们的错误（attnlab-core 的 CoreError）。

kinds-expected-gates = { $n } 个值（每个位置一个）
kinds-expected-as-field = { $rows }×{ $cols }（与 { $field } 相同）
kinds-expected-features = r×{ $d_k }（r ≥ 1 个特征，d_k 列）
kinds-expected-decayed-keys = { $n }×{ $d_k }（每个查询一个键：衰减线性注意力是因果的）
kinds-needs-sink = `sink` 注意力需要该头的汇聚对数 s_h（一个数）
kinds-needs-differential = 差分注意力需要 q2（n×d_k）和 k2（m×d_k）
kinds-needs-decay = 衰减线性注意力需要 `decay`（γ 在 [0, 1] 中）或 `gates`（每个位置一个）
kinds-needs-features = `favor` 注意力需要特征 W（r×d_k）
kinds-invalid-not-finite = 必须是有限数
kinds-invalid-unit = 必须在 0 到 1 之间，而它是 { $x }
kinds-invalid-gate-unit = 第 { $index } 个门控是 { $value }，不在 [0, 1] 中
kinds-invalid-decayed-score = 衰减线性注意力只用 `dot` 或 scaled_dot 打分函数，而不是 `{ $score }`
kinds-invalid-decay-and-gates = `decay` 和 `gates` 只能给一个

## attnlab-tensors/1 文档中所选注意力不使用的字段（错误，跟在字段路径之后）。

kinds-field-not-for = 不适用于 `{ $kind }` 注意力
