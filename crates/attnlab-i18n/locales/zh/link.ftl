# 实验室链接的句子（attnlab-link）：链接为何无法读取、其中修正了什么、为何不显示二维码。

## 链接中的状态为何无法读取（lib.rs，FragmentError 的原因）。

link-empty = 这个链接中没有实验室状态
link-not-a-state = 这个链接的末尾（# 之后）不是 attnlab 状态
link-newer-version = 这个链接由更新版本的 attnlab 生成（状态版本 { $version }；本版本读取版本 { $reads }）
link-too-long = 这个链接中的状态太长（{ $len } 字节；最多读取 { $max } 字节）
link-encoding = 这个链接中的状态已损坏（有字符被改动，或链接被截断）
link-compression = 这个链接中的状态已损坏（被截短或被改动）
link-data = 无法读取这个链接中的状态（{ $detail }）
link-data-cut-short = 它被截断了
link-data-not-json = 它不是有效的 JSON
link-data-not-object = 状态应是由键和值组成的对象

## 无法读取的链接的提示：原因，以及改为显示什么。

link-notice-empty = { $reason }。
link-notice-texts = { $reason }，因此显示默认设置和链接中的文本。
link-notice-text = { $reason }，因此显示默认设置和链接中的文本。
link-notice-source = { $reason }，因此显示默认设置和链接中的源句。
link-notice-defaults = { $reason }，因此显示默认设置。

## 读取链接时修正了什么（lib.rs 与 v1.rs）。

link-repaired = 这个链接中有些设置超出范围，已被修改：{ $repairs }。
link-unreadable-characters = 链接文本中有 { $count } 个无法读取的字符（未配对的代理项或非 UTF-8 字节），显示为 �
link-unknown-key = 键名“{ $key }”不属于状态，已被忽略
link-unknown-model = 模型“{ $name }”未知，因此使用玩具（随机种子）模型
link-unknown-relevance = “{ $name }”既不是注意力展开也不是注意力流，因此显示注意力展开
link-unknown-position = 位置编码“{ $name }”未知，因此使用正弦编码
link-unknown-layout = 排布“{ $name }”未知，因此使用交错排布
link-unknown-mode = 模式“{ $name }”未知，因此使用自注意力
link-unknown-comparison = 比较对象“{ $name }”未知，因此比较所选的头
link-unknown-page = 页面“{ $name }”未知，因此显示实验室
link-unknown-block = 层块页面的设置“{ $name }”未知，因此使用默认值
link-unknown-score = 变体 { $variant }：打分函数“{ $name }”未知，因此使用缩放点积
link-unknown-attention = 变体 { $variant }：注意力“{ $name }”未知，因此使用 softmax
link-unknown-pairs = 变体 { $variant }：RoPE 的配对方式“{ $name }”未知，因此使用前后两半
link-unknown-scaling = 变体 { $variant }：RoPE 的缩放“{ $name }”未知，因此不缩放

## 分享面板为何不显示二维码（qr.rs）。

link-qr-too-long = 这个链接有 { $chars } 个字符，太长，生成的二维码在教室里难以扫描（最多 { $max } 个字符）。

## Between the repairs of one link, in one notice.

link-repairs-separator = ；
