# 应用外壳的句子（src/shell、src/state、src/widgets、src/display.rs、src/i18n.rs）。

## 页头与“关于”面板（shell/app_header.rs）。

header-title = attnlab — 注意力实验室
header-tagline = 输入一句话，看每个词（查询，位于行）对每个词（键，位于列）分配了多少注意力。
header-about = 关于
header-about-text = attnlab 是注意力机制的实验室：直接改动注意力函数本身，观察每个矩阵如何随之变化。所有计算都在本页面内完成，不会向任何地方发送数据。

## 实验室页面的面板与变体栏（shell/app.rs）。

lab-page-sentence-tokens = 句子与词元
lab-page-model-settings = 模型设置
lab-page-loading-page = 正在加载页面…
lab-page-variants = 变体{ " " }
lab-page-add-variant = + 添加变体
lab-page-side-by-side-label = 并排显示的变体
lab-page-side-by-side = 并排：
lab-page-first-variant-side = 并排的第一个变体
lab-page-second-variant-side = 并排的第二个变体
lab-page-variant-shown = 显示的变体
lab-page-difference = 差异
lab-page-add-variant-title = 添加一个采用 Transformer 默认设置的变体

## 链接栏（shell/link_bar.rs）。

link-bar-label = 本实验的链接{ " " }
link-bar-copy = 复制链接
link-bar-copied = 已复制：可粘贴到任何地方。
link-bar-select = 请选中链接并复制（Ctrl+C）。

## 模型的选择及其加载状态（shell/model_choice.rs）。

model-choice-model = 模型
model-choice-toy-seeded = { " " }玩具（种子）模型
model-choice-layer = 层{ " " }
model-choice-head = 头{ " " }
model-choice-real-model-shown = 真实模型在它自己的页面上展示；其他页面讲解下面的玩具模型。
model-choice-starting = 正在启动…
model-choice-loading = 正在加载…
model-choice-loading-percent = 正在加载 { $percent }%
model-choice-ready = 已就绪
model-choice-not-in-build = 不在此构建中
model-choice-failed-load = 加载失败
model-choice-cancelled = 已取消

## 所有变体共用的模型设置（shell/model_settings.rs）。

model-settings-model-shared-by = 模型（所有变体共用）
model-settings-seed = 种子
model-settings-positions = 位置编码
model-settings-none = 无
model-settings-sinusoidal = 正弦
model-settings-learned = 可学习
model-settings-base = 基数
model-settings-layout = 排布
model-settings-interleaved = 交错
model-settings-split = 分半
model-settings-combine = 组合方式
model-settings-add = 相加
model-settings-concat = 拼接
model-settings-word-vectors-d = 词向量 ×√d_model
model-settings-projections = 投影
model-settings-seeded-w-q = 随机种子 W_Q、W_K、W_V
model-settings-identity-q-k = 恒等（Q = K = V = X）
model-settings-pad-keys-length = 把键填充到长度
model-settings-off = 关
model-settings-heads-greyed = 灰色的头数不能选：例如 { $why }
model-settings-brought-tensors = 你的张量决定了头数（{ $heads }）和 d_k（{ $d_k }）：这些设置留给句子使用。种子仍用于抽取一般打分、加性打分和 Linformer 的参数。
model-settings-identity-why = 恒等：{ $why }
model-settings-d-model-whole = d_model 是 8 到 512 之间的整数
model-settings-base-number-between = 基数是 2 到 100000000 之间的数
model-settings-d-pos-even = d_pos 是偶数

## 页面标签（shell/page_nav.rs）。

page-nav-views = 视图
page-nav-lab = 实验室
page-nav-real-model = 真实模型
page-nav-step-by-step = 逐步计算
page-nav-block = 层块
page-nav-positions = 位置编码
page-nav-why-d-k = 为何除以 √d_k
page-nav-linear-attention = 线性注意力
page-nav-decoding = 解码
page-nav-lines = 连线图
page-nav-complexity = 复杂度

## 应用因内部错误停止时显示的横幅（shell/panic_banner.rs）。

panic-stopped = attnlab 因内部错误而停止，无法在此页面中继续。你的文本已保留：
panic-reload = 带着我的文本重新加载
panic-details = 出了什么问题（用于报告缺陷）

## 句子输入框、示例与注意力的种类（shell/sentence_input.rs）。

sentence-input-attention = 注意力
sentence-input-self-one-sentence = 自注意力（一个句子）
sentence-input-cross-encoder-decoder = 交叉注意力（编码器–解码器）
sentence-input-type-sentence-any = 输入一个句子，任何语言都可以……
sentence-input-examples = 示例{ " " }
sentence-input-pick-example = 选择一个示例……
sentence-input-source-keys-values = 源句（键和值，编码器的词）
sentence-input-sentence-being-translated = 要翻译的句子……
sentence-input-coreference = 指代消解
sentence-input-chinese-one-token = 中文：每个字一个词元
sentence-input-chinese = 中文
sentence-input-word-sense = 词义
sentence-input-long-paragraph-about = 一段长文（约 90 个词元）
sentence-input-translations-target = 译文（目标句）
sentence-input-target-queries-decoders = 目标句（查询，解码器的词）
sentence-input-label = 句子

## 词元条（shell/token_strip.rs）。

token-strip-label = 词元{ " " }
token-strip-source = 源句词元{ " " }
token-strip-more = ……另有 { $more } 个词元未列出

## 本实验链接的二维码：角落、对话框与说明（shell/qr/）。

qr-corner-enlarge = 本实验链接的二维码：点击放大
qr-corner-lesson-enlarge = 课程步骤链接的二维码（本实验的链接太长）：点击放大
qr-corner-lesson-step = 课程步骤
qr-corner-too-long = 链接太长，无法生成二维码
qr-corner-loopback = 仅限本机：手机无法打开
qr-dialog-open = 显示二维码
qr-dialog-title = 扫描二维码，打开本实验
qr-dialog-close = 关闭
qr-dialog-alt = 本实验链接的二维码
qr-dialog-caption = 用手机扫描，即可打开与此刻相同的实验。
qr-dialog-lesson-alt = 课程步骤链接的二维码
qr-dialog-lesson-caption = 课程步骤的链接：打开的是课程设定的这一步骤。
qr-dialog-show-lesson = 改为显示课程步骤的链接
qr-dialog-shorten = 缩短句子（或删除一个变体）即可让链接变短。
qr-loopback-note-before = 此链接指向本机自身（回环地址）：手机无法打开。请用{ " " }
qr-loopback-note-after = { " " }启动实验，并用本机的网络地址打开它。

## 显示菜单：演示、主题与配色（display.rs）。

display-present-title = 演示模式：为投影仪放大文字和图形（按 Esc 退出）
display-present = 演示
display-theme = 主题
display-weights = 权重配色
display-differences = 差异配色
display-system = 跟随系统
display-light = 浅色
display-dark = 深色

## 页面所示变体与头的选择器（widgets/view_pickers/）。

picker-head = 头
picker-head-option = 头 { $head }
picker-variant = 变体

## 语言切换（i18n.rs）。

lang-switch-label = 语言

## 旋钮的原因，写成一句完整的话（widgets/knob.rs）。

widget-reason-sentence = { $reason }。
