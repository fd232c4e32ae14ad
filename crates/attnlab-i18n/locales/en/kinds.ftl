# The attention kinds beyond the lab's six (softmax_plus_one, sigmoid, softpick, sink,
# differential, decayed_linear, favor), as `attnlab compute` and brought files read them.

## The core's errors about them (attnlab-core's CoreError; the English is its `Display`).

kinds-expected-gates = { $n } values (one per position)
kinds-expected-as-field = { $rows }×{ $cols } (as { $field })
kinds-expected-features = r×{ $d_k } (r ≥ 1 features, d_k columns)
kinds-expected-decayed-keys = { $n }×{ $d_k } (one key per query: decayed linear attention is causal)
kinds-needs-sink = sink attention needs the head's sink logit s_h (a number)
kinds-needs-differential = differential attention needs q2 (n×d_k) and k2 (m×d_k)
kinds-needs-decay = decayed linear attention needs decay (γ in [0, 1]) or gates (one per position)
kinds-needs-features = favor attention needs the features W (r×d_k)
kinds-invalid-not-finite = must be a finite number
kinds-invalid-unit = must be between 0 and 1, got { $x }
kinds-invalid-gate-unit = gate { $index } is { $value }, outside [0, 1]
kinds-invalid-decayed-score = decayed linear attention takes the dot or scaled_dot score, not { $score }
kinds-invalid-decay-and-gates = give either decay or gates, not both

## A field of an attnlab-tensors/1 document that the chosen kind does not use (an error
## after the field's path, on the command line and in the app's bring panel).

kinds-field-not-for = does not apply to { $kind } attention
