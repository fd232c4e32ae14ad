# The sentences of the lab's links (attnlab-link): why a link cannot be read, what was
# repaired in it, and why its QR code is not shown.

## Why the state in a link cannot be read (lib.rs, FragmentError's reason).

link-empty = There is no lab state in this link
link-not-a-state = The end of this link (after #) is not an attnlab state
link-newer-version = This link was made by a newer version of attnlab (state version { $version }; this one reads version { $reads })
link-too-long = The state in this link is too long ({ $len } bytes; at most { $max } are read)
link-encoding = The state in this link is damaged (a character was changed or the link was cut)
link-compression = The state in this link is damaged (it was cut short or changed)
link-data = The state in this link could not be read ({ $detail })
link-data-cut-short = it was cut short
link-data-not-json = it is not valid JSON
link-data-not-object = a state is an object of keys and values

## The notice for a link that cannot be read: the reason, and what is shown instead.

link-notice-empty = { $reason }.
link-notice-texts = { $reason }, so the default settings are shown with the link's texts.
link-notice-text = { $reason }, so the default settings are shown with the link's text.
link-notice-source = { $reason }, so the default settings are shown with the link's source text.
link-notice-defaults = { $reason }, so the defaults are shown.

## What was repaired in a link that was read (lib.rs and v1.rs).

link-repaired = Some settings in this link were out of range and were changed: { $repairs }.
link-unreadable-characters = { $count } unreadable character(s) in the link's texts (an unpaired surrogate or bytes that are not UTF-8) are shown as �
link-unknown-key = the key “{ $key }” is not part of a state and was ignored
link-unknown-model = the model “{ $name }” is unknown, so the toy (seeded) model is used
link-unknown-relevance = “{ $name }” is not rollout or flow, so rollout is shown
link-unknown-position = the position encoding “{ $name }” is unknown, so it is sinusoidal
link-unknown-layout = the layout “{ $name }” is unknown, so it is interleaved
link-unknown-mode = the mode “{ $name }” is unknown, so it is self-attention
link-unknown-comparison = the comparison of “{ $name }” is unknown, so it compares the selected head
link-unknown-page = the page “{ $name }” is unknown, so the lab is shown
link-unknown-block = the Block page’s setting “{ $name }” is unknown, so its default is used
link-unknown-score = variant { $variant }: the score function “{ $name }” is unknown, so it is scaled_dot
link-unknown-attention = variant { $variant }: the attention “{ $name }” is unknown, so it is softmax
link-unknown-pairs = variant { $variant }: RoPE's pairs “{ $name }” are unknown, so they are half
link-unknown-scaling = variant { $variant }: RoPE's scaling “{ $name }” is unknown, so RoPE is not scaled

## Why the share panel shows no QR code (qr.rs).

link-qr-too-long = This link has { $chars } characters: too many for a QR code that can be scanned from across a room (at most { $max }).

## Between the repairs of one link, in one notice.

link-repairs-separator = {"; "}
