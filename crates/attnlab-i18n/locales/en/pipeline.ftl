# The logits pipeline and the positions: RoPE and its scalings, ALiBi, the softcap,
# grouped keys and values, attention sinks and tiles.

## Why the core refuses such a setting (attnlab-core's PipelineInvalid, said by
## attnlab-lab's explain after the field's path). The English is the core's `Display`.

pipeline-not-positive = must be a finite number greater than 0, got { $value }
pipeline-rotary-dims = must be an even number from 2 to d_k = { $d_k } (dimensions turn in pairs), got { $got }
pipeline-odd-width = RoPE turns dimensions in pairs, so a head of odd width d_k = { $d_k } needs an even rotary_dims
pipeline-position-count = has { $got } positions, expected { $rows } (one per row)
pipeline-ntk-two-dims = NTK scaling needs rotary_dims of at least 4 (its exponent is r/(r − 2))
pipeline-yarn-base-one = YaRN needs a base other than 1 (its correction range divides by ln base)
pipeline-slope-count = has { $got } slopes, expected { $heads } (one per head)
pipeline-not-for-kind = { $kind } attention does not use this field
pipeline-no-groups = is empty, expected at least one group of k and v
pipeline-groups-divide = has { $groups } groups, which do not divide the { $heads } heads (each group serves H/G heads)
pipeline-sinks = is { $got }, more than the { $m } keys
pipeline-tiles = is 0, expected an integer ≥ 1

## The sinks mask's name where the core's error names a mask (mask.sinks).

pipeline-mask-sinks = sinks

## What the attnlab-tensors/1 reader says of these fields (after the field's path).

pipeline-json-positive = is { $value }, expected a number greater than 0
pipeline-json-scaling-field = { $scaling } scaling does not use this field
pipeline-json-alibi = is { $given }, expected true or { "{" }"slopes": […]{ "}" }
pipeline-json-kv-given = is given by kv_heads: with kv_heads a head holds only q
pipeline-json-group-rows = has { $rows } rows, expected { $m } (as kv_heads[0].k)
