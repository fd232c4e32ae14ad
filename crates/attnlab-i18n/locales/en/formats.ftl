# The sentences of the files a person brings and exports (attnlab-formats, and the app's
# export menu and bring panel).

## A sentence about a file or a field: its name, then what is wrong (BringError, Refusal, FieldError).

formats-where = { $place }: { $what }

## Why brought files are refused before any is read, and how they were read (tensors/mod.rs).

bring-no-file = no file was given
bring-too-many-files = { $count } files were given; bring at most { $max } (q, k, v, w_o and the tokens, or one .npz or .json)
bring-file-too-large = is { $size }; the limit is { $limit } (it was not read)
bring-files-too-large = the files are { $total } together; the limit is { $limit } (it was not read)
bring-numbers-named-tokens = holds numbers, but its name says tokens: give the labels as strings
bring-second-array = is a second { $role } (the first is { $first })
bring-second-labels = is a second list of tokens (the first is { $first })
bring-which-tensor = which tensor is this? name the arrays q, k and v (optionally w_o), and the labels tokens.txt or tokens.json
bring-strings-not-numbers = holds strings, but { $role } must be numbers
bring-not-json = is not valid JSON ({ $error })
bring-unknown-extension = is a .{ $ext } file; bring an attnlab-tensors/1 .json, .npy arrays or an .npz
# unsaid: $valid
bring-not-utf8 = is not UTF-8 text ({ $error })
bring-document-alone = is an attnlab-tensors/1 document, which holds everything: bring it alone, or bring .npy arrays without it
bring-unknown-field = { $file }: the field { $field } is not part of attnlab-tensors/1 and was ignored
bring-spec-unused = { $file }: its score function, temperature, kind and mask are not used: each variant applies its own
bring-sizes = { $heads ->
    [one] 1 head
   *[other] { $heads } heads
} · { $queries ->
    [one] 1 query
   *[other] { $queries } queries
} × { $keys ->
    [one] 1 key
   *[other] { $keys } keys
} · d_k { $d_k } · d_v { $d_v }

## A tensor's role, as the messages name it (tensors/error.rs).

bring-role-q = q (queries)
bring-role-k = k (keys)
bring-role-v = v (values)
bring-role-w-o = w_o (output projection)
bring-role-tokens = tokens

## Arrays put together into heads (tensors/assemble.rs).

bring-shape = { $role } has shape { $shape }: { $why }
bring-shape-no-numbers = it holds no numbers
bring-shape-batch = a batch of { $batch }; save one example (e.g. { $name }[0])
bring-shape-expected = expected (n, d), (heads, n, d) or (1, heads, n, d)
bring-shape-heads = { $heads } heads; the lab shows at most { $max }
bring-shape-tokens = { $rows } tokens; the lab computes at most { $max }
bring-shape-width = rows of { $width } numbers; at most { $max } are read
bring-missing-arrays = { $missing } missing from { $files }: bring q, k and v (name the arrays q, k and v (optionally w_o), and the labels tokens.txt or tokens.json)
bring-head-count = has { $count } heads, but q has { $q }: every tensor needs the same heads
bring-key-width = has rows of { $k } numbers, but q's have { $q }: queries and keys need the same width d_k
bring-value-rows = has { $v } rows, but k has { $k }: one value per key
bring-w-o-shape = w_o has shape { $shape }: expected (heads · d_v, d_out)
bring-head-sizes = heads[{ $head }] has q, k, v of { $now } but heads[0] of { $first }: every head needs the same sizes
bring-label-count = has { $count } labels, but { $why }
bring-label-count-same = q and k have { $n } rows (one label per token)
bring-label-count-cross = q has { $n } rows and k { $m }: give { "{" }"queries": […], "keys": […]{ "}" } in tokens.json
bring-label-counts = has { $queries } query and { $keys } key labels, but q has { $n } rows and k { $m }

## Token labels brought beside the arrays (tensors/labels.rs).

labels-at-key = { $key }:{ " " }
labels-not-list = { $at }is not a list of strings
# unsaid: $kind
labels-item = { $at }item { $index } is { $value }, expected a string
labels-json-kind = { $kind ->
    [null] null
    [bool] a boolean
    [number] the number { $number }
    [array] an array
    [object] an object
   *[string] a string
}
labels-no-key = has no "{ $key }": give a list of tokens, or { "{" }"queries": […], "keys": […]{ "}" }
labels-not-tokens = is not a list of tokens: give a list of strings, or { "{" }"queries": […], "keys": […]{ "}" }

## A field of an attnlab-tensors/1 document that cannot be used (tensors/json.rs).

json-no-rows = has no rows, expected at least one
json-empty-row = is empty, expected at least one number
json-row-width = expected { $width ->
    [one] 1 number
   *[other] { $width } numbers
}, found { $found }
json-missing = missing
json-empty-vector = is empty, expected at least one value
json-mask-rows = has { $rows } rows, expected { $n } (one per query)
json-mask-row-width = expected { $m ->
    [one] 1 value
   *[other] { $m } values
} (one per key), found { $found }
json-label-count = has { $count } labels, expected { $len } (one per { $what })
json-label-query = query
json-label-key = key
json-quoted-string = the string { $text }
json-choice = is { $given }, expected one of { $names }
json-strided-zero = is 0, expected an integer ≥ 1
json-general-needs-w = missing: the general score needs w (d_k×d_k)
json-additive-needs = missing: the additive score needs w_a, u_a (d_a×d_k) and v_a (d_a)
json-key-width = rows have { $width } values, expected { $d_k } (the width of q)
json-value-rows = has { $rows } rows, expected { $keys } (one per key, as k)
json-linformer-needs = missing: linformer attention needs e and f (k×m)
json-too-many-weights = { $heads ->
    [one] 1 head
   *[other] { $heads } heads
} of { $n } × { $m } weights are more than the { $max } weights attnlab holds at once
json-format = is { $given }, expected "attnlab-tensors/1"
json-temperature = is { $value }, expected a number greater than 0
json-no-heads = is empty, expected at least one head

## A NumPy file or archive that cannot be read (tensors/npy.rs).

npy-dtype-sub-array = a sub-array dtype
npy-dtype-record = a structured (record) dtype
npy-bad-magic = is not a NumPy .npy file (it does not start with the \x93NUMPY signature)
npy-header-length = is cut short or damaged: its header says it is { $len } bytes long, the file has { $size } bytes
npy-header-nesting = has a header nested { $depth } levels deep; a .npy header nests at most { $max }
npy-dimensions-overflow = has a shape whose dimensions multiply to more than { $max } elements
npy-header-unreadable = has a header that cannot be read ({ $error })
npy-too-many-elements = has shape { $shape }: too many elements
npy-dtype-not-plain = has { $dtype }; attnlab reads float32 and float64 arrays
npy-cut-short = is cut short: shape { $shape } of { $dtype } needs { $needed } bytes of data, the file has { $present }
npy-truncated = could not be read to its end ({ $error }): is it cut short?
npy-hint-float16 = { " " }(convert float16 with .astype('float32'))
npy-hint-integers = { " " }(convert with .astype('float32'))
npy-dtype-unsupported = has dtype { $dtype }; attnlab reads float32 (<f4, >f4) and float64 (<f8, >f8) arrays{ $hint }
npy-infinity = { $sign }Infinity
npy-outside-f32 = { $value }, outside the float32 range
npy-not-finite = element { $index } is { $what }; every value must be a finite number
npz-unreadable = is not a readable .npz (zip) archive ({ $error }): is it cut short?
npz-entry-unreadable = has an entry that cannot be read ({ $error })
npz-entry-name = has an entry whose name cannot be read ({ $error })
npz-entry-too-large = holds { $name }, { $size } when unpacked; the limit is { $limit }
npz-entry-unpack = holds { $name }, which cannot be unpacked ({ $error })

## What failed in a zip archive, said where the zip reader's own words are not (the
## Chinese of npz-unreadable, npz-entry-unreadable, npz-entry-name).

npz-zip-io = an error while reading
npz-zip-invalid = the archive's structure is damaged
npz-zip-unsupported = this kind of archive is not supported
npz-zip-not-found = a file in it cannot be found
npz-zip-password = the password is wrong
npz-zip-compression = this compression method is not supported
npz-zip-size-limit = it is over the size limit when unpacked
npz-zip-other = it cannot be unpacked

## Brought tensors between the file worker and the page (tensors/wire.rs).

wire-count = the worker sent { $sent } numbers for { $heads } heads of { $n }×{ $m }, expected { $expected }

## The export menu under a figure (the app's canvas/export.rs).

export-menu = Export
export-png-title = PNG at twice the page's resolution
export-copy = Copy image
export-tensors-title = every head's Q, K, V and the settings, for attnlab compute
export-command = The same figure from the command line:{ " " }
export-saved = Saved{ " " }
export-saved-end = .
export-saved-tensors-end = : `attnlab compute { $name }` computes this figure.
export-copied = Copied the image.
export-failed = Could not export: { $why }.
export-no-file = this browser could not make the file
export-no-url = no object URL
export-no-link = this browser could not make a link
export-no-png = this browser could not encode the PNG
export-no-copy = this browser does not allow copying images here
export-no-figure = there is no figure
export-write-failed = the { $ext } file could not be written: { $error }

## Bringing your own tensors (the app's shell/bring_tensors.rs).

bring-panel-label = Your own Q, K, V
bring-panel-choose = Choose files…
bring-panel-pick = Pick or drop{ " " }
bring-panel-and = ,{ " " }
bring-panel-with = { " " }(with{ " " }
bring-panel-or-npz = ), or an .npz holding them.
bring-panel-reading = Reading the files…
bring-panel-computing = Computing on your tensors:{ " " }
bring-panel-link-note = The sentence waits in its box. A link holds the settings, not the tensors: Export → tensors writes them.
bring-panel-use-sentence = Use the sentence again
bring-browser-unreadable = the browser could not read the file

## Between a file's (or a figure's) name, shown apart, and what is said of it (the app's bring panel).

formats-name-separator = {": "}

## A field of an attnlab-block/1 document that cannot be used (block/mod.rs).

block-format = is { $given }, expected "attnlab-block/1"
block-unknown-field = is not a field of attnlab-block/1
block-rows-d = has { $rows } rows, expected { $d } (d, the width of x)
block-rows-f = has { $rows } rows, expected { $f } (f, the columns of ffn.w_1)
block-too-many-weights = { $n } tokens (and { $m } memory rows) in these layers and heads ask for more than the { $max } attention weights attnlab holds at once
