# serde 与 serde_json 拒绝一段文本或一个值时说的话（said/serde_text.rs）。
# 每条消息的英文是 serde 自己的措辞，serde_text.rs 据此认出消息。

## serde_json 的语法错误（它的 ErrorCode），以及它指出的位置。

serde-eof-list = 数组还没有结束，文本就结束了
serde-eof-object = 对象还没有结束，文本就结束了
serde-eof-string = 字符串还没有结束，文本就结束了
serde-eof-value = 应有一个值，文本却结束了
serde-expected-colon = 此处应为冒号
serde-expected-list-comma = 此处应为逗号或右方括号
serde-expected-object-comma = 此处应为逗号或右花括号
serde-expected-ident = 此处的字面量拼写有误
serde-expected-value = 此处应为一个值
serde-expected-quote = 此处应为双引号
serde-invalid-escape = 转义序列不合法
serde-invalid-number = 数字的写法不合法
serde-number-out-of-range = 数字超出范围
serde-invalid-code-point = 字符的码位不合法
serde-control-character = 字符串中有控制字符（U+0000 至 U+001F）
serde-key-not-string = 键名必须是字符串
serde-key-not-number = 键名应为带引号的数字
serde-float-key = 浮点数键名必须是有限数
serde-lone-surrogate = 十六进制转义中有孤立的代理项
serde-trailing-comma = 末尾多了一个逗号
serde-trailing-characters = 值的后面还有多余的字符
serde-hex-escape-end = 十六进制转义没有写完
serde-recursion-limit = 嵌套的层数超过上限
serde-at-place = 第 { $line } 行第 { $column } 列：{ $what }
serde-io = 读取文本时出错

## serde 的 de::Error：类型或值不对的值、长度、名称或字段（以及 attnlab 自己对超出 f32 的数的拒绝）。

serde-invalid-type = 类型不对：是{ $found }，应为{ $expected }
serde-invalid-type-found = 类型不对：是{ $found }
serde-invalid-value = 值不合法：是{ $found }，应为{ $expected }
serde-invalid-value-found = 值不合法：是{ $found }
serde-invalid-length = 长度为 { $len }，应为{ $expected }
serde-invalid-length-len = 长度 { $len } 不对
serde-invalid-length-bare = 长度不对
serde-unknown-variant = 未知的名称 { $name }，应为{ $expected }
serde-unknown-variant-name = 未知的名称 { $name }
serde-unknown-field = 未知的字段 { $name }，应为{ $expected }
serde-unknown-field-name = 未知的字段 { $name }
serde-missing-field = 缺少字段 { $field }
serde-duplicate-field = 字段 { $field } 出现了两次
serde-outside-f32 = 为 { $number }，超出 f32 的范围（|x| ≤ 3.4e38）
serde-not-valid = 内容不合法

## serde 发现的是什么（它的 Unexpected，按 serde_json 的写法）。

serde-found-true = 布尔值（真）
serde-found-false = 布尔值（假）
serde-found-integer = 整数 { $value }
serde-found-float = 浮点数 { $value }
serde-found-char = 字符 { $value }
serde-found-string = 字符串 { $value }
serde-found-bytes = 字节数组
serde-found-unit = 空值
serde-found-null = 空值
serde-found-option = 可选值
serde-found-newtype-struct = 结构体
serde-found-sequence = 数组
serde-found-map = 对象
serde-found-enum = 枚举
serde-found-unit-variant = 枚举的一种
serde-found-newtype-variant = 枚举的一种
serde-found-tuple-variant = 枚举的一种
serde-found-struct-variant = 枚举的一种
serde-found-number = 数
serde-found-other = 其他值

## serde 期望的是什么（Visitor 的 expecting：内置类型的与 attnlab 自己的）。

serde-expected-f32 = 数
serde-expected-f64 = 数
serde-expected-a-number = 数
serde-expected-sinusoid-base = 数
serde-expected-u8 = 非负整数
serde-expected-u16 = 非负整数
serde-expected-u32 = 非负整数
serde-expected-u64 = 非负整数
serde-expected-usize = 非负整数
serde-expected-non-negative-integer = 非负整数
serde-expected-i8 = 整数
serde-expected-i16 = 整数
serde-expected-i32 = 整数
serde-expected-i64 = 整数
serde-expected-isize = 整数
serde-expected-an-integer = 整数
serde-expected-a-boolean = 布尔值
serde-expected-a-string = 字符串
serde-expected-a-borrowed-string = 字符串
serde-expected-a-character = 字符
serde-expected-a-sequence = 数组
serde-expected-a-map = 对象
serde-expected-an-object = 对象
serde-expected-unit = 空值
serde-expected-variant-identifier = 名称
serde-expected-field-identifier = 名称
# unsaid: $name
serde-expected-struct = 对象
serde-expected-array-of = 元素为{ $entries }的数组
serde-expected-an-array = 数组
serde-entries-numbers = 数
serde-entries-non-negative-integers = 非负整数
serde-entries-booleans = 布尔值
serde-entries-strings = 字符串
serde-entries-rows = 行（数组）
serde-entries-heads = 头（对象）
serde-expected-tuple-size = 含 { $n } 个元素的数组
serde-expected-tuple-of = 含 { $n } 个元素的数组
serde-expected-array-length = 含 { $n } 个元素的数组
serde-expected-one-of = 以下之一：{ $names }
serde-expected-either = { $a } 或 { $b }
