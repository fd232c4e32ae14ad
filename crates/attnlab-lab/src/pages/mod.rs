//! The data of the explanatory pages, one module per page. Each computes what its page
//! shows from the domain at the crate root (the state, the compute steps) and the core,
//! and shapes it as figures and sentences; none holds maths of its own.

pub mod complexity;
pub mod linear_lab;
pub mod lines;
pub mod positions;
pub mod scaling;
pub mod steps;

use crate::i18n::Lang;
use crate::state::MaskKind;

/// A mask's short name in `lang`, as the pages' sentences write it (`"causal"`, `"因果"`).
pub fn mask_name(kind: MaskKind, lang: Lang) -> &'static str {
    match lang {
        Lang::En => kind.label(),
        Lang::Zh => match kind {
            MaskKind::Causal => "因果",
            MaskKind::Padding => "填充",
            MaskKind::Window => "局部窗口",
            MaskKind::Strided => "跨步",
            MaskKind::Global => "全局词元",
            MaskKind::Custom => "自定义",
        },
    }
}
