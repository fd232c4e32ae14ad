//! # attnlab-pages
//!
//! The data of the explanatory pages, one module per page, named as the app's
//! `src/pages/` names them. Each computes what its page shows from the lab (`attnlab-lab`:
//! the state, the compute steps) and the core, and shapes it as figures and sentences;
//! none holds maths of its own. [`neuron`] is the view of one score as a neuron, shown
//! by the steps page and the model page.

#![deny(missing_docs)]

pub mod complexity;
pub mod linear;
pub mod lines;
pub mod neuron;
pub mod positions;
pub mod scaling;
pub mod steps;

use attnlab_i18n::Lang;
use attnlab_lab::state::MaskKind;

/// A mask's short name in `lang`, as the pages' sentences write it (`"causal"`, `"因果"`):
/// the lab's label of it ([`MaskKind::shown`], from the catalogue's `lab` area).
pub fn mask_name(kind: MaskKind, lang: Lang) -> &'static str {
    kind.shown(lang)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_masks_name_is_its_label_in_each_language() {
        let names: Vec<(&str, &str)> = [
            MaskKind::Causal,
            MaskKind::Padding,
            MaskKind::Window,
            MaskKind::Strided,
            MaskKind::Global,
            MaskKind::Custom,
        ]
        .into_iter()
        .map(|k| (mask_name(k, Lang::En), mask_name(k, Lang::Zh)))
        .collect();
        assert_eq!(
            names,
            [
                ("causal", "因果"),
                ("padding", "填充"),
                ("window", "局部窗口"),
                ("strided", "跨步"),
                ("global", "全局词元"),
                ("custom", "自定义"),
            ]
        );
    }
}
