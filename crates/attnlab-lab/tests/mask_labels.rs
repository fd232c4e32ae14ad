//! A mask's label in each language, as the lab and the pages' sentences show it.

use attnlab_i18n::Lang;
use attnlab_lab::state::MaskKind;

#[test]
fn a_masks_label_in_each_language() {
    let labels: Vec<(&str, &str)> = MaskKind::ALL
        .into_iter()
        .map(|k| (k.shown(Lang::En), k.shown(Lang::Zh)))
        .collect();
    assert_eq!(
        labels,
        [
            ("causal", "因果"),
            ("padding", "填充"),
            ("window", "局部窗口"),
            ("strided", "跨步"),
            ("global", "全局词元"),
            ("custom", "自定义"),
            ("sinks", "汇点"),
        ]
    );
}
