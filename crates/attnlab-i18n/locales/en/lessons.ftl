# The lessons' sentences (src/lessons, attnlab-lessons).

## The lesson player: the list, the bar, a predict step (src/lessons/).

lessons-button = Lessons
lessons-list-title = Guided lessons
lessons-list-close = Close
lessons-start = Start
lessons-continue = Continue
lessons-previous-step = ← Previous
lessons-next-step = Next →
lessons-leave = Leave the lesson
lessons-keys-hint = ← →, PageUp/PageDown or Space move between steps.
lessons-figures-hidden = The figures are blurred until you answer: they would give it away.
lessons-prediction = Your prediction:
lessons-right = Right!
lessons-wrong = Not this time.
lessons-answer = Answer:
lessons-reading-tensors = Reading the lesson's tensors…
lessons-not-loaded = Lessons that could not be loaded:
lessons-reset-progress = Forget my progress
lessons-step-of = Step { $k } of { $n }
lessons-seen-of = { $seen } / { $total } steps seen
lessons-no-answer = This question has no answer here: { $why }
lessons-tensors-failed = The lesson's tensors ({ $path }) could not be read: { $why }

## Why a lesson's question has no answer in the lab's state (attnlab-lessons answer.rs).

answer-no-variant = there is no variant
answer-no-key = there is no key
answer-no-head = the variant has no head
answer-no-singular-values = the sentence is too long for the singular values to be computed
answer-linformer-columns = variant { $name } is Linformer, whose columns are mixtures of keys, not tokens
answer-no-query = there are { $queries } queries, numbered from 0, so there is no query { $query }
answer-no-allowed-key = query { $query } has no allowed key, so no key is strongest
answer-same-rank = both matrices have rank { $rank }, so neither is higher
answer-same-shuffle = both sub-layers follow the shuffle alike (no positions, no mask), so neither is the one
answer-head-label = head { $head }
answer-sentence = { $why }.

## A link to a lesson or step that does not exist (attnlab-lessons lib.rs's LessonError; its English is its Display).

lesson-link-unknown-lesson = There is no lesson “{ $lesson }”; here is the list of lessons.
lesson-link-unknown-step = The lesson “{ $lesson }” has no step “{ $step }”; here is the list of lessons.
