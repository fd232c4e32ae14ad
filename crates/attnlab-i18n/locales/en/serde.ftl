# What serde and serde_json say of a text or a value they refuse (said/serde_text.rs).
# The English of each message is serde's own wording, which serde_text.rs reads back to
# find the message: keep it byte for byte as serde and serde_json write it.

## serde_json's syntax errors (its ErrorCodes), and the place it names.

serde-eof-list = EOF while parsing a list
serde-eof-object = EOF while parsing an object
serde-eof-string = EOF while parsing a string
serde-eof-value = EOF while parsing a value
serde-expected-colon = expected `:`
serde-expected-list-comma = expected `,` or `]`
serde-expected-object-comma = expected `,` or `{ "}" }`
serde-expected-ident = expected ident
serde-expected-value = expected value
serde-expected-quote = expected `"`
serde-invalid-escape = invalid escape
serde-invalid-number = invalid number
serde-number-out-of-range = number out of range
serde-invalid-code-point = invalid unicode code point
serde-control-character = control character (\u0000-\u001F) found while parsing a string
serde-key-not-string = key must be a string
serde-key-not-number = invalid value: expected key to be a number in quotes
serde-float-key = float key must be finite (got NaN or +/-inf)
serde-lone-surrogate = lone leading surrogate in hex escape
serde-trailing-comma = trailing comma
serde-trailing-characters = trailing characters
serde-hex-escape-end = unexpected end of hex escape
serde-recursion-limit = recursion limit exceeded
serde-at-place = { $what } at line { $line } column { $column }
serde-io = an error while reading the text

## serde's de::Error: a value of the wrong type or value, a length, a name or a field
## (and attnlab's own refusal of a number beyond f32).

serde-invalid-type = invalid type: { $found }, expected { $expected }
serde-invalid-type-found = invalid type: { $found }
serde-invalid-value = invalid value: { $found }, expected { $expected }
serde-invalid-value-found = invalid value: { $found }
serde-invalid-length = invalid length { $len }, expected { $expected }
serde-invalid-length-len = invalid length { $len }
serde-invalid-length-bare = invalid length
serde-unknown-variant = unknown variant { $name }, expected { $expected }
serde-unknown-variant-name = unknown variant { $name }
serde-unknown-field = unknown field { $name }, expected { $expected }
serde-unknown-field-name = unknown field { $name }
serde-missing-field = missing field { $field }
serde-duplicate-field = duplicate field { $field }
serde-outside-f32 = is { $number }, outside the f32 range (|x| ≤ 3.4e38)
serde-not-valid = the content is not valid

## What serde found (its Unexpected, as serde_json writes it).

serde-found-true = boolean `true`
serde-found-false = boolean `false`
serde-found-integer = integer { $value }
serde-found-float = floating point { $value }
serde-found-char = character { $value }
serde-found-string = string { $value }
serde-found-bytes = byte array
serde-found-unit = unit value
serde-found-null = null
serde-found-option = Option value
serde-found-newtype-struct = newtype struct
serde-found-sequence = sequence
serde-found-map = map
serde-found-enum = enum
serde-found-unit-variant = unit variant
serde-found-newtype-variant = newtype variant
serde-found-tuple-variant = tuple variant
serde-found-struct-variant = struct variant
serde-found-number = number
serde-found-other = another value

## What serde expected (a Visitor's expecting: the built-in types' and attnlab's own).

serde-expected-f32 = f32
serde-expected-f64 = f64
serde-expected-a-number = a number
serde-expected-sinusoid-base = the sinusoid base as a number
serde-expected-u8 = u8
serde-expected-u16 = u16
serde-expected-u32 = u32
serde-expected-u64 = u64
serde-expected-usize = usize
serde-expected-non-negative-integer = a non-negative integer
serde-expected-i8 = i8
serde-expected-i16 = i16
serde-expected-i32 = i32
serde-expected-i64 = i64
serde-expected-isize = isize
serde-expected-an-integer = an integer
serde-expected-a-boolean = a boolean
serde-expected-a-string = a string
serde-expected-a-borrowed-string = a borrowed string
serde-expected-a-character = a character
serde-expected-a-sequence = a sequence
serde-expected-a-map = a map
serde-expected-an-object = an object
serde-expected-unit = unit
serde-expected-variant-identifier = variant identifier
serde-expected-field-identifier = field identifier
serde-expected-struct = struct { $name }
serde-expected-array-of = an array of { $entries }
serde-expected-an-array = an array
serde-entries-numbers = numbers
serde-entries-non-negative-integers = non-negative integers
serde-entries-booleans = true/false values
serde-entries-strings = strings
serde-entries-rows = rows
serde-entries-heads = heads
serde-expected-tuple-size = a tuple of size { $n }
serde-expected-tuple-of = tuple of { $n } elements
serde-expected-array-length = an array of length { $n }
serde-expected-one-of = one of { $names }
serde-expected-either = { $a } or { $b }
