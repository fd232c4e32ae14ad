# 复杂度页面（attnlab-pages 的 complexity/ 与 src/pages/complexity/）：softmax 与线性注意力随 n 的计时、图、斜率、交叉点和表。

## 计时的两种注意力，图例、表和状态这样称呼它们。

complexity-kind-softmax = softmax（流式）
complexity-kind-linear = 线性 elu1

## 图下的交叉点（$fitted 是拟合直线的一句；$faster 为 linear 或 softmax）。

complexity-crossover-needs = 交叉点：每种注意力至少需要两个规模。
complexity-crossover-measured = 交叉点：测得的曲线相交于 n ≈ { $n }（更大时线性注意力更快）；{ $fitted }。
complexity-crossover-none = 交叉点：测得的曲线在 n = { $lo } 与 { $hi } 之间不相交（在每个规模上都是{ $faster ->
        [linear] 线性注意力
       *[softmax] softmax 注意力
    }更快）；{ $fitted }。
complexity-fits-cross = 拟合直线相交于 n ≈ { $n }
complexity-fits-cross-outside = 拟合直线相交于 n ≈ { $n }，在测量范围 { $lo }…{ $hi } 之外
complexity-fits-parallel = 拟合直线互相平行

## 双对数图：图例、标记、标题、坐标轴和注释。

complexity-slope-label = { $label } 斜率 { $slope }
complexity-no-fit-label = { $label }（尚未拟合）
complexity-crossover-marker = 交叉点 n ≈ { $n }
complexity-fits-cross-marker = 拟合相交 n ≈ { $n }
complexity-chart-title = 每次注意力调用的时间与序列长度（双对数）
complexity-axis-n = 序列长度 n
complexity-axis-ms = 每次调用的毫秒数
complexity-chart-note = 虚线：在 n ≥ { $from } 上 log t 对 log n 的最小二乘拟合

## 页面：讲解、运行的控件和状态、斜率以及一个点如何计时。

complexity-title = 复杂度：在这个浏览器中实测
complexity-lesson = softmax 注意力把每个查询与每个键相比：n² 个长度为 d 的点积，所以 n 翻倍时间变为四倍（双对数坐标下斜率为 2），即使按键块流式计算、只用 O(n·d) 内存也是如此。线性注意力计算 φ(Q)(φ(K)ᵀV)：键只被求和一次，得到一个 d × d 的状态供每个查询读取，工作量为 n·d²，所以 n 翻倍时间也翻倍（斜率为 1）。当 n ≈ d 以下时，每个词元的 d² 代价与它省下的 n 个分数差不多：两条曲线就可能在那里相交。
complexity-run-label = 计时运行
complexity-max-n-label = 最大的 n{ " " }
complexity-d-label = 头的宽度 d{ " " }
complexity-start = 开始
complexity-start-again = 重新开始
complexity-cancel = 取消
complexity-progress-label = 已测的点
complexity-status-idle = 尚未开始：按“开始”在后台线程中为两种注意力计时。
complexity-status-running = 运行中：已测 { $done } / { $total } 个点；正在计时 n = { $n }，{ $kind }…
complexity-status-running-count = 运行中：已测 { $done } / { $total } 个点…
complexity-status-finished = 完成：共测得 { $total } 个点。
complexity-status-cancelled = 在 { $done } / { $total } 个点后取消；已测得的点保留。
complexity-slope = { $label }：斜率 { $slope }（在 n = { $from }…{ $to } 上的最小二乘，{ $points } 个点；O(n{ $power }) 预测为 { $expected }）
complexity-no-slope = { $label }：还没有斜率（需要两个规模）
complexity-timing-note = 每个点：按种子生成服从标准正态分布的随机 Q、K、V，先计时一次调用，再重复直到一批持续 ≥ { $batch } 毫秒；取至多 { $samples } 批的中位数（≥ { $long } 毫秒的调用只计时一次）。拟合使用 n ≥ { $from } 的点，在那里一次调用的固定开销不再使曲线变平。

## 实测点的表。

complexity-table-caption = 每次调用实测的毫秒数（各样本的中位数）
complexity-table-softmax = softmax（流式）毫秒
complexity-table-linear = 线性 elu1 毫秒
complexity-table-ratio = softmax / 线性

## “为什么用注意力”（complexity/why.rs、src/pages/complexity/why_attention.rs）：交互式的《Attention Is All You Need》表 1。

complexity-why-title = 为什么用注意力：计算量、并行性与路径长度
complexity-why-lead = { $paper } 的表 1 比较了四种把 n 个宽度为 d 的向量变成 n 个向量的层：循环层、核宽为 k 的卷积、自注意力，以及只看每侧 r 个位置的受限自注意力。当 n 大于 d 时，自注意力每层的计算量更大，但没有哪一步要等另一步，而且任意两个位置之间只隔一步。
complexity-why-knobs-label = 读表 1 所用的数值
complexity-why-n = 序列长度 n
complexity-why-d = 宽度 d
complexity-why-k = 卷积核宽度 k
complexity-why-r = 窗口 r（每侧）
complexity-why-layers = 层数 L
complexity-why-output = 输出位置 i
complexity-why-layer-recurrent = 循环层
complexity-why-layer-convolution = 卷积（连续）
complexity-why-layer-self-attention = 自注意力
complexity-why-layer-restricted = 受限自注意力
complexity-why-col-layer = 层
complexity-why-col-work = 每层计算量
complexity-why-col-sequential = 顺序操作数
complexity-why-col-path = 最大路径长度
complexity-why-dilated = 这里的卷积是连续、居中的：每层每侧 (k − 1) / 2 个位置，所以需要 ⌈(n − 1) / ((k − 1) / 2)⌉ 层，即 O(n / k)。空洞卷积（论文中的 O(log_k(n))）在这里需要 { $layers } 层：满足 k^L ≥ n 的最小 L。
complexity-why-path-definition = 路径按箭头计数：注意力或卷积每层一个箭头；循环层把输入 j 读入状态，再每个位置传一步，到输出 i 共 1 + (i − j) 个箭头。L 层之后，卷积的输出读取宽为 L·(k − 1) + 1 的锥形区域，受限注意力读取宽为 L·2r + 1 的区域（每层每侧 r 个）。
complexity-why-clamped = { $what }：{ $typed } 超出 { $lo } … { $hi }；改用 { $now }。
complexity-why-figure-title = { $layers } 层之后哪些输入能到达输出 { $i }
complexity-why-figure-legend = 每个格子是一个输入位置 j（0 在最左）；格中的数是从 j 到输出 i 的路径长度：j 到达 i 的最小 L，循环层则是箭头数。空格子表示尚未到达；加框的格子是 i。
complexity-why-shown-note = 图中只画出 n = { $n } 个位置中的前 { $shown } 个。
complexity-why-row-layered = { $shown } 个输入中有 { $reached } 个到达它；所有输入在 L = { $after } 时都到达它。
complexity-why-row-recurrent = { $shown } 个输入中有 { $reached } 个在一层内到达它，输入 j 经过 1 + (i − j) 个箭头（输入 0 经过 { $steps } 个）；i 之后的输入永远到达不了。
complexity-why-row-label = { $layer }：能到达输出 { $i } 的输入
