# 带入与导出的文件的句子（attnlab-formats，以及应用的导出菜单和带入面板）。

## 关于一个文件或字段的句子：先是它的名字，再是问题所在（BringError、Refusal、FieldError）。

formats-where = { $place }：{ $what }

## 读取任何文件之前就拒绝带入的原因，以及文件是如何读取的（tensors/mod.rs）。

bring-no-file = 没有给出文件
bring-too-many-files = 给出了 { $count } 个文件；最多带入 { $max } 个（q、k、v、w_o 和词元，或一个 .npz 或 JSON 文件）
bring-file-too-large = 大小为 { $size }；上限为 { $limit }（未读取）
bring-files-too-large = 这些文件合计 { $total }；上限为 { $limit }（未读取）
bring-numbers-named-tokens = 存的是数，但它的名字表示词元：请以字符串给出标签
bring-second-array = 是第二个 { $role }（第一个是 { $first }）
bring-second-labels = 是第二个词元列表（第一个是 { $first }）
bring-which-tensor = 这是哪个张量？请把数组命名为 q、k 和 v（可选 w_o），把标签命名为 tokens.txt 或 tokens.json
bring-strings-not-numbers = 存的是字符串，但 { $role } 必须是数
bring-not-json = 不是有效的 JSON（{ $error }）
bring-unknown-extension = 是 .{ $ext } 文件；请带入 attnlab-tensors/1 的 .json、.npy 数组或 .npz
# unsaid: $error
bring-not-utf8 = 不是 UTF-8 文本（从第 { $valid } 个字节起不是有效的 UTF-8）
bring-document-alone = 是 attnlab-tensors/1 文档，它包含全部内容：请单独带入它，或不带它而带入 .npy 数组
bring-unknown-field = { $file }：字段“{ $field }”不属于 attnlab-tensors/1，已被忽略
bring-spec-unused = { $file }：其中的打分函数、温度、注意力类型和掩码不会被使用：每个变体使用自己的设置
bring-sizes = { $heads } 个头 · { $queries } 个查询 × { $keys } 个键 · d_k { $d_k } · d_v { $d_v }

## 消息中张量的角色名（tensors/error.rs）。

bring-role-q = q（查询）
bring-role-k = k（键）
bring-role-v = v（值）
bring-role-w-o = w_o（输出投影）
bring-role-tokens = "tokens"（词元）

## 把数组组合成头（tensors/assemble.rs）。

bring-shape = { $role } 的形状是 { $shape }：{ $why }
bring-shape-no-numbers = 它不含任何数
bring-shape-batch = 一批 { $batch } 个样例；请只保存一个（例如 { $name }[0]）
bring-shape-expected = 应为 (n, d)、(头数, n, d) 或 (1, 头数, n, d)
bring-shape-heads = { $heads } 个头；实验室最多显示 { $max } 个
bring-shape-tokens = { $rows } 个词元；实验室最多计算 { $max } 个
bring-shape-width = 每行 { $width } 个数；最多读取 { $max } 个
bring-missing-arrays = { $files } 中缺少 { $missing }：请带入 q、k 和 v（请把数组命名为 q、k 和 v（可选 w_o），把标签命名为 tokens.txt 或 tokens.json）
bring-head-count = 有 { $count } 个头，但 q 有 { $q } 个：每个张量的头数必须相同
bring-key-width = 每行有 { $k } 个数，但 q 每行有 { $q } 个：查询和键的宽度 d_k 必须相同
bring-value-rows = 有 { $v } 行，但 k 有 { $k } 行：每个键对应一个值
bring-w-o-shape = w_o 的形状是 { $shape }：应为 (头数 · d_v, d_out)
bring-head-sizes = heads[{ $head }] 的 q、k、v 为 { $now }，而 heads[0] 的为 { $first }：每个头的大小必须相同
bring-label-count = 有 { $count } 个标签，但 { $why }
bring-label-count-same = q 和 k 有 { $n } 行（每个词元一个标签）
bring-label-count-cross = q 有 { $n } 行而 k 有 { $m } 行：请在 tokens.json 中给出 { "{" }"queries": […], "keys": […]{ "}" }
bring-label-counts = 有 { $queries } 个查询标签和 { $keys } 个键标签，但 q 有 { $n } 行而 k 有 { $m } 行

## 与数组一起带入的词元标签（tensors/labels.rs）。

labels-at-key = "{ $key }"：
labels-not-list = { $at }不是字符串列表
# unsaid: $value
labels-item = { $at }第 { $index } 项是{ $kind }，应为字符串
labels-json-kind = { $kind ->
    [null] 空值
    [bool] 布尔值
    [number] 数 { $number }
    [array] 数组
    [object] 对象
   *[string] 字符串
}
labels-no-key = 没有 "{ $key }"：请给出词元列表，或 { "{" }"queries": […], "keys": […]{ "}" }
labels-not-tokens = 不是词元列表：请给出字符串列表，或 { "{" }"queries": […], "keys": […]{ "}" }

## attnlab-tensors/1 文档中无法使用的字段（tensors/json.rs）。

json-no-rows = 没有任何行，至少应有一行
json-empty-row = 是空的，至少应有一个数
json-row-width = 应有 { $width } 个数，实有 { $found } 个
json-missing = 缺失
json-empty-vector = 是空的，至少应有一个值
json-mask-rows = 有 { $rows } 行，应有 { $n } 行（每个查询一行）
json-mask-row-width = 应有 { $m } 个值（每个键一个），实有 { $found } 个
json-label-count = 有 { $count } 个标签，应有 { $len } 个（每个{ $what }一个）
json-label-query = 查询
json-label-key = 键
json-quoted-string = 字符串 { $text }
json-choice = 是{ $given }，应为以下之一：{ $names }
json-strided-zero = 为 0，应为 ≥ 1 的整数
json-general-needs-w = 缺失：一般（双线性）打分函数需要 w（d_k×d_k）
json-additive-needs = 缺失：加性打分函数需要 w_a、u_a（d_a×d_k）和 v_a（d_a）
json-key-width = 每行有 { $width } 个值，应有 { $d_k } 个（q 的宽度）
json-value-rows = 有 { $rows } 行，应有 { $keys } 行（与 k 一样，每个键一行）
json-linformer-needs = 缺失：Linformer 注意力需要 e 和 f（k×m）
json-too-many-weights = { $heads } 个头的 { $n } × { $m } 权重，超过了 attnlab 一次能容纳的 { $max } 个权重
json-format = 是{ $given }，应为 "attnlab-tensors/1"
json-temperature = 为 { $value }，应为大于 0 的数
json-no-heads = 是空的，至少应有一个头

## 无法读取的 NumPy 文件或归档（tensors/npy.rs）。

npy-dtype-sub-array = 子数组 dtype
npy-dtype-record = 结构化（记录）dtype
npy-bad-magic = 不是 NumPy 的 .npy 文件（开头没有 NumPy 的签名字节）
npy-header-length = 被截断或已损坏：其文件头声明长度为 { $len } 字节，而文件只有 { $size } 字节
npy-header-nesting = 文件头嵌套了 { $depth } 层；.npy 的文件头最多嵌套 { $max } 层
npy-dimensions-overflow = 形状的各维相乘超过 { $max } 个元素
# unsaid: $error
npy-header-unreadable = 文件头无法读取（它是否被截断或损坏了？）
npy-too-many-elements = 形状为 { $shape }：元素太多
npy-dtype-not-plain = 类型为{ $dtype }；attnlab 读取 float32 和 float64 数组
npy-cut-short = 被截断了：形状 { $shape } 的 { $dtype } 需要 { $needed } 字节的数据，文件只有 { $present } 字节
# unsaid: $error
npy-truncated = 无法读到末尾：它是否被截断了？
npy-hint-float16 = （请先用 NumPy 把 float16 转换为 float32）
npy-hint-integers = （请先用 NumPy 转换为 float32）
npy-dtype-unsupported = dtype 为 { $dtype }；attnlab 读取 float32（<f4、>f4）和 float64（<f8、>f8）数组{ $hint }
npy-infinity = { $sign }∞
npy-outside-f32 = { $value }，超出 float32 的范围
npy-not-finite = 元素 { $index } 是 { $what }；每个值都必须是有限的数
npz-unreadable = 不是可读的 .npz（zip）归档（{ $error }）：它是否被截断了？
npz-entry-unreadable = 有一个条目无法读取（{ $error }）
npz-entry-name = 有一个条目的名字无法读取（{ $error }）
npz-entry-too-large = 包含 { $name }，解压后为 { $size }；上限为 { $limit }
# unsaid: $error
npz-entry-unpack = 包含 { $name }，但它无法解压

## zip 归档中什么出了错，用在 zip 读取器自己的话之外（npz-unreadable、npz-entry-unreadable、npz-entry-name 的中文）。

npz-zip-io = 读取时出错
npz-zip-invalid = 归档的结构已损坏
npz-zip-unsupported = 不支持这种归档
npz-zip-not-found = 找不到其中的文件
npz-zip-password = 密码不对
npz-zip-compression = 不支持这种压缩方式
npz-zip-size-limit = 解压后超出大小上限
npz-zip-other = 无法解压

## 文件工作线程与页面之间传递的张量（tensors/wire.rs）。

wire-count = 后台线程送来 { $sent } 个数，对应 { $heads } 个 { $n }×{ $m } 的头，应为 { $expected } 个

## 图下方的导出菜单（应用的 canvas/export.rs）。

export-menu = 导出
export-png-title = 两倍于页面分辨率的 PNG
export-copy = 复制图像
export-tensors-title = 每个头的 Q、K、V 与设置，供命令行计算使用
export-command = 在命令行中画出同一幅图：
export-saved = 已保存{ " " }
export-saved-end = 。
# unsaid: $name
export-saved-tensors-end = ：用 attnlab 命令行的计算命令即可算出这幅图。
export-copied = 已复制图像。
export-failed = 无法导出：{ $why }。
export-no-file = 此浏览器无法生成该文件
export-no-url = 无法创建对象网址
export-no-link = 此浏览器无法生成链接
export-no-png = 此浏览器无法编码 PNG
export-no-copy = 此浏览器不允许在此复制图像
export-no-figure = 没有图
# unsaid: $error
export-write-failed = 无法写出 { $ext } 文件（写出时出错）

## 带入你自己的张量（应用的 shell/bring_tensors.rs）。

bring-panel-label = 你自己的 Q、K、V
bring-panel-choose = 选择文件…
bring-panel-pick = 选择或拖入{ " " }
bring-panel-and = 、
bring-panel-with = （附{ " " }
bring-panel-or-npz = ），或包含它们的 .npz。
bring-panel-reading = 正在读取文件…
bring-panel-computing = 正在用你的张量计算：
bring-panel-link-note = 句子仍留在它的输入框里。链接保存的是设置而不是张量：用“导出 → 张量”可以写出它们。
bring-panel-use-sentence = 重新使用句子
bring-browser-unreadable = 浏览器无法读取该文件

## Between a file's (or a figure's) name, shown apart, and what is said of it (the app's bring panel).

formats-name-separator = ：

## attnlab-block/1 文档中无法使用的字段（block/mod.rs）。

block-format = 是{ $given }，应为 "attnlab-block/1"
block-unknown-field = 不是 attnlab-block/1 的字段
block-rows-d = 有 { $rows } 行，应有 { $d } 行（d，即 x 的宽度）
block-rows-f = 有 { $rows } 行，应有 { $f } 行（f，即 ffn.w_1 的列数）
block-too-many-weights = 这些层和头在 { $n } 个词元（以及 { $m } 行记忆）上需要的注意力权重超过了 attnlab 一次能容纳的 { $max } 个
