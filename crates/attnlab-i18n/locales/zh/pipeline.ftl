# The logits pipeline and the positions: RoPE and its scalings, ALiBi, the softcap,
# grouped keys and values, attention sinks and tiles.

## Why the core refuses such a setting (attnlab-core's PipelineInvalid, said by
## attnlab-lab's explain after the field's path). The English is the core's `Display`.

pipeline-not-positive = 必须是大于 0 的有限数，实际为 { $value }
pipeline-rotary-dims = 必须是 2 到 d_k = { $d_k } 之间的偶数（维度成对旋转），实际为 { $got }
pipeline-odd-width = RoPE 成对旋转维度，因此宽度为奇数 d_k = { $d_k } 的头需要一个偶数的 rotary_dims
pipeline-position-count = 有 { $got } 个位置，应为 { $rows } 个（每行一个）
pipeline-ntk-two-dims = “NTK” 缩放需要 rotary_dims 至少为 4（其指数为 r/(r − 2)）
pipeline-yarn-base-one = “YaRN” 需要不等于 1 的底数（其校正范围要除以 `ln base`）
pipeline-slope-count = 有 { $got } 个斜率，应为 { $heads } 个（每个头一个）
pipeline-not-for-kind = { $kind }不使用这个字段
pipeline-no-groups = 为空，至少需要一组 k 和 v
pipeline-groups-divide = 有 { $groups } 组，不能整除 { $heads } 个头（每组服务 H/G 个头）
pipeline-sinks = 为 { $got }，多于 { $m } 个键
pipeline-tiles = 为 0，应为 ≥ 1 的整数

## The sinks mask's name where the core's error names a mask (mask.sinks).

pipeline-mask-sinks = 注意力汇聚

## What the attnlab-tensors/1 reader says of these fields (after the field's path).

pipeline-json-positive = 为 { $value }，应为大于 0 的数
pipeline-json-scaling-field = “{ $scaling }” 缩放不使用这个字段
pipeline-json-alibi = 为 { $given }，应为 `true` 或 { "{" }"slopes": […]{ "}" }
pipeline-json-kv-given = 已由 kv_heads 给出：有 kv_heads 时，头只含 q
pipeline-json-group-rows = 有 { $rows } 行，应为 { $m } 行（与 kv_heads[0].k 相同）
