# “层块”页：注意力外围的 Transformer 层（attnlab-pages block/，应用的 src/pages/block/）。

## 图：子层名称、坐标轴、标题（block/mod.rs）。

block-sublayer-self = 自注意力
block-sublayer-cross = 交叉注意力
block-sublayer-ffn = 前馈网络
block-value-label = 数值
block-axis-tokens = 词元
block-axis-features = 特征
block-axis-token-index = 词元
block-axis-norm = 范数 ‖x‖
block-axis-layers = 经过的层
block-norm-entering = 进入
block-norm-leaving = 离开
block-input-title = 第 { $layer } 层{ $sublayer }：输入
block-output-title = 第 { $layer } 层{ $sublayer }：输出
block-norms-title = 第 { $layer } 层{ $sublayer }：每个词元的 ‖x‖
block-head-title = 第 { $layer } 层，{ $sublayer }，头 { $head }
block-layer-label = 第 { $layer } 层
block-residual-title = 残差流：每层之后每个词元的范数

## 页面（src/pages/block/）。

block-page-label = Transformer 层块
block-page-title = 注意力外围的层块
block-lead = Transformer 的每一层把每个子层（先是注意力，再是前馈网络）包在残差连接和层归一化之中，并把多层堆叠起来。这里一个权重由种子生成的堆叠直接运行在实验室自己的 X 上：句子的词向量加上位置。
block-decoder-lead = 交叉模式：源句经过一个设置相同的编码器；目标句经过解码器，其每层先做带掩码（因果）的自注意力，再对编码器的输出做交叉注意力，最后是前馈网络。每种注意力有自己的掩码：目标句自身的词元用因果掩码，对源句不加掩码。
block-knob-layers = 层数
block-knob-norm = 层归一化
block-norm-post = 后置 LN：x = LN(x + F(x))（原论文、BERT）
block-norm-pre = 前置 LN：x = x + F(LN(x))（GPT-2 及以后）
block-knob-activation = 激活函数
block-activation-relu = ReLU
block-activation-gelu = GELU
block-knob-heads = 头数
block-heads-reason = { $heads } 个头不能整除 d = { $d }：每个头取 d / 头数 个特征。请选能整除 { $d } 的头数。
block-knob-ffn = 前馈网络宽度
block-ffn-option = f = { $multiple }·d = { $width }
block-knob-shown = 显示的层
block-shown-option = 第 { $layer } 层
block-limited = 堆叠只运行在前 { $used } 个词元上（共 { $all } 个）：在每个词元上运行 { $layers } 层、d = { $d } 的计算量超出页面一次能做的。
block-sizes = { $layers } 层，d = { $d }，{ $heads } 个头各 { $d_k } 个特征，f = { $f }，{ $n } 个词元
block-no-x = 层块页面运行在句子的词向量和位置上；导入的张量没有这些。请输入一个句子来查看。
block-sublayers-heading = 这一层的子层
block-sublayers-note = 每个子层的输入和输出：纵向是词元，横向是特征；下方是每个词元进入和离开时的范数。
block-heads-heading = 这一层的头
block-residual-heading = 跨层的残差流
block-residual-note = 后置 LN 在每个子层之后把每个词元的范数拉回 √d；前置 LN 只往残差流上加，让它一层层变大。
block-permutation-heading = 前馈网络单独做什么，注意力混合什么
block-permutation-lead = 前馈网络是宽度为 1 的卷积：它对每个词元单独作用，所以打乱词元的顺序，它的输出也按同样的顺序打乱。注意力混合各个词元；有了位置（或因果掩码），它的输出不再只是跟着词元移动。
block-permutation-order = 置换 P：
block-permutation-ffn = 前馈网络：
block-permutation-attention = 注意力，打乱词而位置不动：
block-permutation-no-positions = 没有位置编码时，注意力看到的是一个集合：只有因果掩码能让它不跟着打乱。
block-perm-ffn-of-shuffled = 前馈(P·X)：先打乱
block-perm-shuffled-ffn = P·前馈(X)：后打乱
block-perm-attention-of-shuffled = 注意力(X′)：先打乱
block-perm-shuffled-attention = P·注意力(X)：后打乱
block-perm-ffn-difference = 前馈(P·X) − P·前馈(X)
block-perm-attention-difference = 注意力(X′) − P·注意力(X)
block-perm-shuffle = 再打乱一次
block-perm-backwards = 倒过来
block-perm-pairs = 子层跟着打乱走时，两种顺序画出的图完全一样，两者之差处处为 0：前馈网络总是如此，注意力不是。
block-encoder-heading = 编码器的输出（交叉注意力的记忆）
