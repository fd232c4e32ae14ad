# 课程的句子（src/lessons、attnlab-lessons）。

## 课程播放器：列表、课程栏、预测步骤（src/lessons/）。

lessons-button = 课程
lessons-list-title = 引导课程
lessons-list-close = 关闭
lessons-start = 开始
lessons-continue = 继续
lessons-previous-step = ← 上一步
lessons-next-step = 下一步 →
lessons-leave = 退出课程
lessons-keys-hint = 用 ← →、PageUp/PageDown 或空格键切换步骤。
lessons-figures-hidden = 作答之前图形先模糊处理：它们会泄露答案。
lessons-prediction = 你的预测：
lessons-right = 答对了！
lessons-wrong = 这次没猜中。
lessons-answer = 答案：
lessons-reading-tensors = 正在读取本课的张量…
lessons-not-loaded = 以下课程未能加载：
lessons-reset-progress = 清除进度
lessons-step-of = 第 { $k } 步，共 { $n } 步
lessons-seen-of = 已看 { $seen } / { $total } 步
lessons-no-answer = 此题在当前状态下无法作答：{ $why }
lessons-tensors-failed = 本课的张量（{ $path }）无法读取：{ $why }

## 课程的问题在实验室当前状态下为何没有答案（attnlab-lessons 的 answer.rs）。

answer-no-variant = 没有变体
answer-no-key = 没有键
answer-no-head = 这个变体没有头
answer-no-singular-values = 句子太长，无法计算奇异值
answer-linformer-columns = 变体 { $name } 是 Linformer，它的列是键的混合，而不是词元
answer-no-query = 共有 { $queries } 个查询，从 0 开始编号，所以没有查询 { $query }
answer-no-allowed-key = 查询 { $query } 没有允许关注的键，所以没有最强的键
answer-same-rank = 两个矩阵的秩都是 { $rank }，所以没有哪个更高
answer-same-shuffle = 两个子层都同样随词的打乱而移动（没有位置，也没有掩码），所以哪个都不是答案
answer-head-label = 头 { $head }
answer-sentence = { $why }。

## 指向不存在的课程或步骤的链接（attnlab-lessons 的 lib.rs 中的 LessonError）。

lesson-link-unknown-lesson = 没有名为“{ $lesson }”的课程，下面是课程列表。
lesson-link-unknown-step = 课程“{ $lesson }”中没有“{ $step }”这一步，下面是课程列表。
