//! The page's sentences with a count or a choice in them say what they said before the
//! catalogue, in both languages.

use attnlab_i18n::Lang;
use attnlab_i18n::msg::model_page;

#[test]
fn the_replaced_note_says_one_or_each_of_several() {
    let say = |typed, lang| {
        model_page::ModelReplacedNote {
            list: &"L",
            typed,
            unk: &"<unk>",
            example: &"E",
        }
        .say(lang)
    };
    assert_eq!(
        say(1, Lang::En),
        "This build's model file ships only the pieces of Chinese, CJK and ASCII characters, so L \
         was read as the model's unknown piece <unk>; the figures show it as E."
    );
    assert_eq!(
        say(2, Lang::En),
        "This build's model file ships only the pieces of Chinese, CJK and ASCII characters, so L \
         were each read as the model's unknown piece <unk>; the figures show it as E."
    );
    assert_eq!(
        say(1, Lang::Zh),
        "此构建的模型文件只附带汉字、中日韩字符及半角字母、数字和符号的词片，因此 L 被当作模型的未知词片 <unk> 读入；图中显示为 E。"
    );
    assert_eq!(
        say(3, Lang::Zh),
        "此构建的模型文件只附带汉字、中日韩字符及半角字母、数字和符号的词片，因此 L 都被当作模型的未知词片 <unk> 读入；图中显示为 E。"
    );
}

#[test]
fn the_ready_status_says_where_the_model_came_from() {
    let say = |from, lang| {
        model_page::ModelReady {
            label: &"M",
            size: &"22.7 MB",
            from,
            ms: &"812",
            layers: &6,
            heads: &12,
            max: &128,
        }
        .say(lang)
    };
    assert_eq!(
        say("cache", Lang::En),
        "M is ready: 22.7 MB loaded from this browser's cache in 812 ms (6 layers × 12 heads; texts are cut at 128 tokens)."
    );
    assert_eq!(
        say("network", Lang::En),
        "M is ready: 22.7 MB loaded from the network in 812 ms (6 layers × 12 heads; texts are cut at 128 tokens)."
    );
    assert_eq!(
        say("cache", Lang::Zh),
        "M 已就绪：812 毫秒内从本浏览器的缓存加载了 22.7 MB（6 层 × 12 个头；文本在 128 个词元处截断）。"
    );
    assert_eq!(
        say("network", Lang::Zh),
        "M 已就绪：812 毫秒内从网络加载了 22.7 MB（6 层 × 12 个头；文本在 128 个词元处截断）。"
    );
    assert_eq!(
        model_page::ModelSharesPaper {
            authors: &"Kobayashi"
        }
        .said(),
        attnlab_i18n::Said::new("Kobayashi et al. 2020", "Kobayashi 等，2020")
    );
    assert_eq!(
        model_page::ModelHideSpecial {
            first: &"[CLS]",
            second: &"[SEP]"
        }
        .said(),
        attnlab_i18n::Said::new(" hide [CLS] and [SEP]", " 隐藏 [CLS] 和 [SEP]")
    );
}
