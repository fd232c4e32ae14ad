# The sentences of the app's workers and their handles: the model worker
# (attnlab-model-worker), the file reader (attnlab-files-worker), the page's handles on
# them and on the timing worker (src/workers/), and the model page's session (src/model/).

## Why the model's file could not be loaded (the model worker, worker.rs). The browser's
## own words are in no known language: English shows them, Chinese says what failed.

worker-model-read-failed = { $detail }
worker-model-fetch-failed = the model's file could not be fetched ({ $detail })
worker-model-not-served = the model's file is not served with this page
worker-model-http = the server answered { $status } { $status_text } for the model's file
worker-model-no-body = the model's file arrived without a body
worker-model-unreadable = the model's file could not be read: { $error }

## Why the model worker could not do what the page asked (worker.rs).

worker-model-not-loaded = the model is not loaded yet
worker-lab-settings = the lab's settings could not be read: { $error }
worker-no-variant = there is no variant { $variant }
worker-flow-stale = the text changed before its flow was computed
worker-request-not-text = the request is not text
worker-request-unreadable = { $error }

## The page's handle on the model worker (src/workers/model.rs) and the model page's
## session (src/model/session.rs).

worker-model-not-a-reply = the model worker sent something that is not a reply
worker-model-numbers-missing = the model worker's numbers are missing
worker-model-reply-unreadable = { $error }
worker-model-not-started = the model worker could not be started
worker-model-stopped = the model worker stopped: { $error }
worker-model-start = the browser could not start the model worker: { $error }
worker-model-send = could not send a request to the model worker: { $error }
worker-flow-count = the flow arrived with the wrong number of values

## The file reader (attnlab-files-worker) and the page's handle on it (src/workers/files.rs).

worker-files-garbled = the page sent the files in a form the worker cannot read
worker-files-reply-unreadable = the file reader sent something unreadable
worker-files-hand-over = could not hand the files to the reader: { $error }
worker-files-not-loaded = the file reader stopped: it could not be loaded
worker-files-stopped = the file reader stopped: { $error }
worker-files-start = the browser could not start the file reader: { $error }

## Why a timing run on the complexity page failed (src/workers/timing.rs).

worker-timing-start = Failed: the browser could not start the timing worker: { $error }
worker-timing-send = Failed: could not send the request to the worker: { $error }
worker-timing-not-text = Failed: the timing worker sent something that is not text
worker-timing-unreadable = Failed: { $error }
worker-timing-not-loaded = Failed: the timing worker could not be loaded
worker-timing-stopped = Failed: the timing worker stopped: { $error }
worker-timing-refused = Failed: { $error }
