# 应用的工作线程及其句柄的句子：模型工作线程（attnlab-model-worker）、
# 文件读取器（attnlab-files-worker）、页面对它们和计时线程的句柄（src/workers/），以及模型页面的会话（src/model/）。

## 模型文件为何无法加载（模型工作线程，worker.rs）。浏览器自己的话不属于任何已知语言：
## 英文显示它们，中文说明什么失败了。

# unsaid: $detail
worker-model-read-failed = 读取模型文件时出错（网络中断或浏览器拒绝）
# unsaid: $detail
worker-model-fetch-failed = 无法获取模型文件（网络错误）
worker-model-not-served = 这个页面没有提供模型文件
# unsaid: $status_text
worker-model-http = 服务器对模型文件的请求返回了 HTTP { $status } 状态
worker-model-no-body = 模型文件到达时没有内容
worker-model-unreadable = 无法读取模型文件：{ $error }

## 模型工作线程为何无法完成页面的请求（worker.rs）。

worker-model-not-loaded = 模型尚未加载
worker-lab-settings = 无法读取实验室的设置：{ $error }
worker-no-variant = 没有变体 { $variant }
worker-flow-stale = 注意力流算出之前文本已经改变
worker-request-not-text = 页面发来的请求不是文本
# unsaid: $error
worker-request-unreadable = 页面发来的请求无法读取

## 页面对模型工作线程的句柄（src/workers/model.rs）与模型页面的会话（src/model/session.rs）。

worker-model-not-a-reply = 模型工作线程发来的不是回复
worker-model-numbers-missing = 模型工作线程发来的数缺失了
# unsaid: $error
worker-model-reply-unreadable = 模型工作线程发来了无法读取的回复
worker-model-not-started = 模型工作线程无法启动
# unsaid: $error
worker-model-stopped = 模型工作线程因出错而停止了
# unsaid: $error
worker-model-start = 浏览器无法启动模型工作线程
# unsaid: $error
worker-model-send = 无法向模型工作线程发送请求
worker-flow-count = 注意力流送来的数值个数不对

## 文件读取器（attnlab-files-worker）与页面对它的句柄（src/workers/files.rs）。

worker-files-garbled = 页面发来的文件格式是工作线程无法读取的
worker-files-reply-unreadable = 文件读取器发来了无法读取的内容
# unsaid: $error
worker-files-hand-over = 无法把文件交给读取器
worker-files-not-loaded = 文件读取器停止了：它无法加载
# unsaid: $error
worker-files-stopped = 文件读取器因出错而停止了
# unsaid: $error
worker-files-start = 浏览器无法启动文件读取器

## 复杂度页面的一次计时为何失败（src/workers/timing.rs）。

worker-timing-start = 失败：浏览器无法启动计时线程：{ $error }
worker-timing-send = 失败：无法把请求发送给计时线程：{ $error }
worker-timing-not-text = 失败：计时线程发来的内容不是文本
worker-timing-unreadable = 失败：无法读取计时线程发来的消息：{ $error }
worker-timing-not-loaded = 失败：无法加载计时线程
worker-timing-stopped = 失败：计时线程已停止：{ $error }
worker-timing-refused = 失败：计时线程拒绝了请求：{ $error }
