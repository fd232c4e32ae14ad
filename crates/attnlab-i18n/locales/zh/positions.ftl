# 位置编码页面（attnlab-pages 的 positions/，应用的 src/pages/positions/）。

## PE 表和 PE(a)·PE(b) 的热图（positions/pe.rs）。

positions-table-title = PE · { $n } 个位置 × { $d } 个维度
positions-axis-position = 位置
positions-axis-dimension = 维度
positions-value-label = PE 值
positions-dot-title = PE(a)·PE(b) · { $n } 个位置
positions-axis-position-a = 位置 a
positions-axis-position-b = 位置 b

## 用几个词说出一种位置设置：表的图注、打乱检验的“开启位置编码”（positions/pe.rs）。

positions-combine-added = 相加
positions-combine-concatenated = 拼接（d_pos { $d_pos }）
positions-layout-interleaved = 交错排列
positions-layout-split = 分半排列
positions-describe-none = 无位置编码
positions-describe-learned = 可学习，{ $combine }
positions-describe-sinusoidal = 正弦，底数 { $base }，{ $layout }，{ $combine }

## 所选维度的曲线：图例、标题、坐标轴（positions/pe.rs）。

positions-dim = 维度 { $dim }
positions-dim-wave = { $name }：{ $wave }，ω = { $omega }
positions-curves-title = { $n } 个位置上的 PE
positions-axis-position-p = 位置 p
positions-axis-pe = PE(p, 维度)

## 输入的维度为何被拒绝（positions/pe.rs 的 parse_dims）。

positions-dims-not-number = “{ $part }”不是维度：请输入整数，例如 0, 1, 8
positions-dims-no-such = 维度 { $dim } 不存在：位置向量有 { $width } 个维度（0 到 { $last }）
positions-dims-empty = 请至少输入一个维度，例如 0, 1, 8, 9
positions-dims-too-many = 一次最多画 { $max } 个维度

## 为什么没有旋转 R_k 可测（positions/pe.rs）。

positions-learned-no-rotation = 可学习的位置向量是自由参数：不存在对每个 p 都把 PE(p) 变为 PE(p+k) 的同一个旋转 R_k，因此没有残差可测。
positions-none-no-rotation = 位置编码已关闭：每个 PE(p) 都是零向量，没有什么可旋转的——注意力把句子看作一个词袋。

## 打乱检验的图，以及为什么一个变体即使没有位置编码也不是词袋（positions/bag_of_words.rs）。

positions-bow-as-typed = 按输入顺序
positions-bow-put-back = 打乱后再放回原位
positions-linformer-depends = Linformer 的投影 E 按位置混合键，所以即使没有位置编码，词元移动时它的权重也会改变
# unsaid: $count
positions-masks-depend = 变体 { $name } 的{ $masks }掩码取决于位置而不是词，所以即使没有位置编码，打乱后的句子也会被不同地屏蔽
positions-mask-joiner = 、

## 页面（src/pages/positions/mod.rs）：标题、导语、说明、图注。

positions-title = 位置编码
positions-input-shape = 实验室的输入：{ $how }，所以 X 是 { $n } 个词元 × { $d }（位置向量宽 { $p }）。
# 导语的两半，夹着频率的公式。
positions-lead-start = 注意力把每个词元与其他每个词元相比较，而这种比较本身并不说明词元处在哪里：没有位置编码时，打乱词序只会打乱注意力矩阵，别的什么都不变。位置编码给每个词元加上一个表示其位置 p 的向量 PE(p)。正弦编码为每一对维度使用一个频率{ " " }
positions-lead-end = ，使得在任何位置上移动 k 个位置都是同一个旋转 R_k，并且 PE(a)·PE(b) 只取决于距离 a − b。
positions-brought = 本页显示的是按种子生成的模型为输入框中的句子计算的位置编码。导入的张量已经带有它们自己的模型所加的位置信息。
positions-none = 位置编码已关闭：每个 PE(p) 都是零向量，模型把句子看作一个词袋。选择正弦或可学习的位置编码即可画出它们——并看看下面的打乱检验。
positions-table-caption = 位置向量：每个位置一行，每个维度一列（红色为 +，蓝色为 −）·{ " " }
positions-curves-caption = 所选维度随位置变化的曲线：低维转得快，高维转得慢。
positions-dot-caption = PE(a)·PE(b)：若只取决于 a − b，则沿每条对角线不变。沿对角线的最大波动：
positions-spread-sinusoidal = （≈ 0：只有距离起作用）。
positions-spread-learned = （可学习的向量对距离一无所知）。
positions-spread-none = （全为 0）。

## 编码旋钮（src/pages/positions/position_knobs.rs、pe_curves.rs）。

positions-knob-kind = 位置编码
positions-kind-none = 无
positions-kind-sinusoidal = 正弦
positions-kind-learned = 可学习
positions-knob-base = 底数
positions-base-presets = 底数预设
positions-base-transformer = Transformer 的底数，也是模型实际使用的底数
positions-base-misprint = 仅供对比：有一篇文章把底数误印成了 1000；模型使用的是 10000
positions-base-range = 底数是 2 到 100000000 之间的数
positions-knob-layout = 排列
positions-layout-interleaved-option = 交错排列（sin, cos, sin, cos …）
positions-layout-split-option = 分半排列（先全部 sin，再全部 cos）
positions-knob-combine = 组合方式
positions-combine-add-option = 相加（x = e + PE）
positions-combine-concat-option = 拼接（x = [e, PE]）
positions-knob-width = 宽度 d
positions-width-whole = 宽度是一个整数
positions-width-odd = 正弦位置编码需要偶数宽度：正弦与余弦成对出现
positions-width-concatenated = （拼接）
positions-width-added = （相加）
positions-knob-count = 画出的位置数
positions-count-range = 位置数在 1 到 { $max } 之间；留空 = 句子的长度
positions-knob-dims = 维度

## 旋转检验（src/pages/positions/rotation_readout.rs）。

positions-rotation-title = 移动 k 个位置就是一次旋转
positions-rotation-explain = 对每个偏移 k，都有一个分块对角的旋转 R_k，对每个位置 p 都相同，使 PE(p+k) = R_k·PE(p)：每一对 (sin, cos) 转过角度 ω_i·k，所以 PE(p)·PE(p+k) 只取决于 k。注意力分数并不保留这一点：q_i = (x_i + PE(i))·W_Q 与 k_j = (x_j + PE(j))·W_K 把词和位置混在了一起，q_i·k_j 取决于 i 和 j，而不只取决于 i − j。RoPE 在 W_Q 和 W_K 之后按位置旋转 q 和 k 本身，保留了这一性质。
positions-knob-offset = 偏移 k
positions-k-range = k 是 0 到 511 之间的整数
positions-rotation-max-over = 对 p 取最大值{ " " }
positions-rotation-over = ，共 { $checked } 个位置 p（只是 f32 舍入误差：恒等式精确成立）。
positions-rotation-too-few = 只有 { $n } 个位置时不存在 p 与 p + { $k } 这样的一对：请选择更小的 k，或画出更多位置。

## 打乱检验（src/pages/positions/bag_of_words.rs）。

positions-bow-label = 词袋
positions-bow-title = 词袋：打乱句子
positions-bow-explain = 打乱词元，在打乱后的句子上运行同一个变体和同一个头，再把每一行、每一列放回其词元原来的位置。没有位置编码时两个矩阵相同：注意力只看到有哪些词，看不到它们的顺序。有位置编码时两者不同。
positions-bow-cross-tip = 打乱检验在自注意力模式下对一个句子进行
positions-bow-shuffle-tip = 打乱词元（按种子：同一个种子每次得到相同的顺序）
positions-bow-shuffle = 打乱词元
positions-bow-restore = 还原
positions-bow-order = 顺序：
positions-bow-order-as-typed = 按输入顺序
positions-bow-shuffled = 打乱后：
positions-bow-cross = 打乱检验针对一个句子：请把模式切换为自注意力后使用。
positions-bow-short = 请至少输入两个词才能打乱。
positions-bow-prompt = 按“打乱词元”运行检验。
positions-bow-off = 关闭位置编码：放回原位后的最大 |差异| ={ " " }
positions-bow-caveat = 这里不是词袋：{ $why }。关闭这类掩码，检验结果就会 ≈ 0。
positions-bow-off-same = （≈ 0：同一个矩阵，只是换了顺序）
positions-bow-on = 开启位置编码（{ $how }）：最大 |差异| ={ " " }
positions-bow-on-change = （词移动时权重随之改变）
positions-bow-substituted = { " " }— 模型关闭了位置编码，所以这一侧使用正弦编码。

## RoPE, long context and ALiBi: the figures' words (attnlab-pages positions/rope.rs).

rope-scaling-none = 不缩放
rope-scaling-linear = 线性
rope-pair-first = 第 { $dim } 维（这一对的第一维）
rope-pair-second = 第 { $dim } 维（第二维）
rope-pair-length = 这一对的长度（旋转不改变它）
rope-pair-title = 这个词的 q 的第 { $pair } 对，转过 p·θ，θ = { $theta }
rope-axis-coordinate = RoPE 之后的坐标
rope-axis-query-position = 查询位置 i
rope-axis-key-position = 键位置 j
rope-proof-sinusoid-title = 同一个词 × { $n }，加正弦编码
rope-proof-rope-title = 同一个词 × { $n }，RoPE
rope-decay-base = 底数 { $base }
rope-decay-title = RoFormer §3.4.3：相对上界，d = { $d }
rope-axis-distance = 相对距离 i − j
rope-axis-bound = 相对上界
rope-trained = L_train = { $length }
rope-extended = s·L_train = { $length }
rope-long-decay-title = 超出训练长度的上界，d = { $d }
rope-wavelength-title = 每一对的波长 2π/θ，d = { $d }
rope-axis-pair = 第 i 对
rope-axis-wavelength = 转一圈的位置数
rope-alibi-title = 第 { $head } 个头：m = { $slope }

## RoPE, long context and ALiBi on the page (src/pages/positions/rope_panel.rs).

rope-section-label = RoPE、长上下文与 ALiBi
rope-section-title = RoPE：旋转 q 和 k，而不是输入
rope-section-explain = 正弦编码的相对性质属于 PE·PE。一旦 W_Q 和 W_K 作用在 x + PE 上，同一个词与自身的得分就取决于两份拷贝各自的位置，而不只是它们的距离：本课程两篇原始文章的作者苏剑林称之为加性编码的硬伤，RoPE（RoFormer，2021）就是他的答案。RoPE 不往输入里加任何东西：在 W_Q 和 W_K 之后，它把 q 和 k 的每一对维度按位置乘以 θ_i = 底数^(−2i/r) 旋转，于是 q̃_i·k̃_j = q·R_(j−i)·k 只通过 j − i 依赖位置。
rope-knob-base = RoPE 底数
rope-base-range = 底数是 2 到 100000000 之间的数
rope-knob-pairs = 配对
rope-pairs-half = 前后两半 (i, i + r/2)，如 Llama
rope-pairs-interleaved = 相邻 (2i, 2i + 1)，如 RoFormer
rope-knob-scaling = 缩放
rope-knob-factor = 因子 s
rope-factor-range = 因子是 1 到 64 之间的数
rope-factor-unused = 没有选择缩放：因子不起作用
rope-knob-trained = 训练长度 L_train
rope-trained-range = 16 到 1000000 之间的整数个位置
rope-knob-pair = 第 i 对
rope-knob-word = 词
rope-pair-caption = 这个词在所显示的头（由词袋检验的选择器选定）中的 q 的一对维度随位置旋转：两个坐标为 a·cos(pθ) − b·sin(pθ) 和 a·sin(pθ) + b·cos(pθ)，长度始终不变。
rope-pair-readout = θ_i = { $theta }：每 { $wavelength } 个位置转满一圈。
rope-proof-caption = 证明：同一个词放在每个位置上，它在所显示的头中经过 W_Q 和 W_K 之后的得分。加上正弦编码时，每条对角线（一个距离 i − j）上的值各不相同；用 RoPE 时，每条对角线只有一个数。
rope-spread-label = 对角线上的最大极差：
rope-spread-sinusoid = 加正弦编码
rope-spread-rope = RoPE
rope-decay-caption = 为什么远处的词权重更小（RoFormer §3.4.3）：q̃_i 与 k̃_j 的得分至多是相邻两对之间的最大差乘以这个平均上界，而它随距离增大、带着波纹下降。d = 128，与论文和当今的模型相同。
rope-long-caption = 长上下文：在 L_train 个位置上训练的模型从未见过慢的那些对转得更远。线性缩放把每个角度除以 s；NTK 提高底数，快的对不变、慢的对被拉长；YaRN 保留在 L_train 内至少转 32 圈的对，对转不满一圈的做插值，中间的加以混合，并把 cos 和 sin 乘以 0.1·ln s + 1（上界乘以它的平方）。
rope-alibi-caption = ALiBi 根本不加向量：每个头在 logit 上加 −m_h·|i − j|，斜率取论文为本模型头数给出的值（头数为 2 的幂时 m_h = 2^(−8(h+1)/H)）：{ " " }
rope-error = 这一部分无法绘制：{ $why }
