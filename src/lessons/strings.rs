//! The lesson player's own words, in every lesson language: one typed table, so a
//! missing translation is a compile error (each string is a `match` on [`Lang`]).

use attnlab_lessons::Lang;
use leptos::prelude::*;

/// A string the lesson player shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum S {
    /// The button that opens the lesson list.
    Lessons,
    /// The lesson list's heading.
    ListTitle,
    /// The lesson list's close button.
    Close,
    /// A lesson's start button (no step seen).
    Start,
    /// A lesson's button when some steps were seen.
    Continue,
    /// The lesson bar's previous-step button.
    Previous,
    /// The lesson bar's next-step button.
    Next,
    /// The button that leaves the lesson.
    Leave,
    /// The hint about keys.
    KeysHint,
    /// Above a predict step's choices.
    Pick,
    /// The learner picked the answer.
    Right,
    /// The learner picked another choice.
    Wrong,
    /// Before the answer: the right choice.
    Answer,
    /// While a lesson's tensors are read.
    ReadingTensors,
    /// The catalog's errors' heading.
    NotLoaded,
    /// The button that forgets a lesson's progress.
    Reset,
    /// A predict step before the answer: the figures wait.
    Hidden,
}

/// The whole table, for the test that every string exists in every language.
/// A step's text as paragraphs (separated by a blank line in the lesson files).
pub(super) fn paragraphs(text: &str) -> impl IntoView + use<> {
    text.split("\n\n")
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| view! { <p>{p.to_string()}</p> })
        .collect_view()
}

#[cfg(test)]
pub const ALL: [S; 17] = [
    S::Lessons,
    S::ListTitle,
    S::Close,
    S::Start,
    S::Continue,
    S::Previous,
    S::Next,
    S::Leave,
    S::KeysHint,
    S::Pick,
    S::Right,
    S::Wrong,
    S::Answer,
    S::ReadingTensors,
    S::NotLoaded,
    S::Reset,
    S::Hidden,
];

/// `s` in `lang`.
pub fn t(s: S, lang: Lang) -> &'static str {
    use Lang::{En, Zh};
    match (s, lang) {
        (S::Lessons, En) => "Lessons",
        (S::Lessons, Zh) => "课程",
        (S::ListTitle, En) => "Guided lessons",
        (S::ListTitle, Zh) => "引导课程",
        (S::Close, En) => "Close",
        (S::Close, Zh) => "关闭",
        (S::Start, En) => "Start",
        (S::Start, Zh) => "开始",
        (S::Continue, En) => "Continue",
        (S::Continue, Zh) => "继续",
        (S::Previous, En) => "\u{2190} Previous",
        (S::Previous, Zh) => "\u{2190} 上一步",
        (S::Next, En) => "Next \u{2192}",
        (S::Next, Zh) => "下一步 \u{2192}",
        (S::Leave, En) => "Leave the lesson",
        (S::Leave, Zh) => "退出课程",
        (S::KeysHint, En) => "\u{2190} \u{2192}, PageUp/PageDown or Space move between steps.",
        (S::KeysHint, Zh) => "用 \u{2190} \u{2192}、PageUp/PageDown 或空格键切换步骤。",
        (S::Hidden, En) => "The figures are blurred until you answer: they would give it away.",
        (S::Hidden, Zh) => "作答之前图形先模糊处理：它们会泄露答案。",
        (S::Pick, En) => "Your prediction:",
        (S::Pick, Zh) => "你的预测：",
        (S::Right, En) => "Right!",
        (S::Right, Zh) => "答对了！",
        (S::Wrong, En) => "Not this time.",
        (S::Wrong, Zh) => "这次没猜中。",
        (S::Answer, En) => "Answer:",
        (S::Answer, Zh) => "答案：",
        (S::ReadingTensors, En) => "Reading the lesson's tensors\u{2026}",
        (S::ReadingTensors, Zh) => "正在读取本课的张量\u{2026}",
        (S::NotLoaded, En) => "Lessons that could not be loaded:",
        (S::NotLoaded, Zh) => "以下课程未能加载：",
        (S::Reset, En) => "Forget my progress",
        (S::Reset, Zh) => "清除进度",
    }
}

/// "Step k of n".
pub fn step_of(k: usize, n: usize, lang: Lang) -> String {
    match lang {
        Lang::En => format!("Step {k} of {n}"),
        Lang::Zh => format!("第 {k} 步，共 {n} 步"),
    }
}

/// "k / n steps seen".
pub fn seen_of(seen: usize, total: usize, lang: Lang) -> String {
    match lang {
        Lang::En => format!("{seen} / {total} steps seen"),
        Lang::Zh => format!("已看 {seen} / {total} 步"),
    }
}

/// Why a predict step has no answer (the lab's sentence follows).
pub fn no_answer(why: &str, lang: Lang) -> String {
    match lang {
        Lang::En => format!("This question has no answer here: {why}"),
        Lang::Zh => format!("此题在当前状态下无法作答：{why}"),
    }
}

/// Why a lesson's tensors could not be read.
pub fn tensors_failed(path: &str, why: &str, lang: Lang) -> String {
    match lang {
        Lang::En => format!("The lesson's tensors ({path}) could not be read: {why}"),
        Lang::Zh => format!("本课的张量（{path}）无法读取：{why}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_string_differs_between_languages() {
        for s in ALL {
            let (en, zh) = (t(s, Lang::En), t(s, Lang::Zh));
            assert!(!en.is_empty() && !zh.is_empty(), "{s:?}");
            assert_ne!(en, zh, "{s:?} is not translated");
            assert!(
                zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
                "{s:?}: {zh}"
            );
        }
        assert_eq!(step_of(2, 5, Lang::En), "Step 2 of 5");
        assert!(step_of(2, 5, Lang::Zh).contains('2') && step_of(2, 5, Lang::Zh).contains('5'));
    }
}
