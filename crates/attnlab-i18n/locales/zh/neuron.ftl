# 单元格的神经元视图和“权重 | 贡献”切换（attnlab-pages 的 neuron/，应用的 src/neuron/），
# 实验室、逐步查看页面和模型页面都会显示。

## 各乘积之和是什么（neuron/mod.rs）；也用作整行表格的表头。

neuron-sum-similarity = 相似度 φ(q_i)·φ(k_j)
neuron-weight = 权重
neuron-raw-score = 原始分数

## 从和到权重，每一步一句话（neuron/present.rs）。

neuron-step-sum = 对 { $n } 个维度求和：{ $sum_name } = { $sum }
neuron-step-cosine = 余弦：每个向量先除以它的范数，‖q_i‖ = { $q }，‖k_j‖ = { $k }（零向量得分为 0）。
neuron-step-allowed = 掩码允许这个单元格。
neuron-step-scaled = 乘以 1/√d_k = { $scale }：{ $value }
neuron-step-temperature = 除以温度 τ = { $tau }：logit { $logit }
neuron-step-blocked-logit = 掩码屏蔽了这个单元格：它的 logit 记为 −∞，权重为 0。
neuron-step-softmax = 对该行 { $allowed } 个允许的键做 softmax：权重 α = { $weight }
neuron-step-blocked-similarity = 掩码屏蔽了这个单元格：它的相似度不计入，权重为 0。
neuron-step-normaliser = 除以该行的归一化因子 Σ_j' φ(q_i)·φ(k_j') + ε = { $z }：权重 α = { $weight }
neuron-step-efficient = 高效注意力把 q_i 在其特征上归一化，把每个键特征在各位置上归一化：和就是权重 α = { $weight }
neuron-step-computed = { $kind } 用自己的方式把这一行的 logit 变成权重（“逐步计算”页面展示每个阶段）：α = { $weight }

## 面板（src/neuron/neuron_panel.rs）；词元按原样引用。

neuron-panel-label = 神经元视图
neuron-close = 关闭神经元视图
neuron-title = 神经元视图 · { $place }头 { $head } · 查询“{ $query_token }”（{ $query }）→ 键“{ $key_token }”（{ $key }）
neuron-sort = { " " }按 |乘积| 从大到小排列维度
neuron-cell-tip = 维度 { $dim }：{ $value }
neuron-row-caption = 整行：每个键的原始分数和权重
neuron-key = 键
neuron-masked = （已掩码）

## “权重 | 贡献”切换（src/neuron/measure_switch.rs）。

neuron-measure-label = 热图显示的内容
neuron-measure-show = 显示
neuron-paper-link = 论文原文
