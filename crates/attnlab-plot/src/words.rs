//! The fixed words a figure draws besides its own title, axes and legend caption: the
//! entropy panel's headings, the masked swatch, the empty-row banner, the tiles of a head
//! grid. A figure carries them ([`crate::Heatmap::with_words`]), so the caller picks the
//! language; English by default.

/// The fixed words of a figure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Words {
    /// The default legend caption of weights.
    pub weight: &'static str,
    /// The default legend caption of a difference.
    pub delta_weight: &'static str,
    /// The default caption of the rows.
    pub queries: &'static str,
    /// The default caption of the columns.
    pub keys: &'static str,
    /// The entropy panel's title when it is narrow.
    pub entropy: &'static str,
    /// The entropy panel's title.
    pub row_entropy: &'static str,
    /// The unit of entropy (a column heading and the axis).
    pub nats: &'static str,
    /// The heading of the entropy's share of its maximum.
    pub share: &'static str,
    /// The masked swatch of the legend.
    pub masked: &'static str,
    /// The banner across a row with no allowed key.
    pub empty_row: &'static str,
    /// A head grid's tile title before its number (`head 3`).
    pub head: &'static str,
}

impl Words {
    /// The English words.
    pub const ENGLISH: Words = Words {
        weight: "weight",
        delta_weight: "\u{394} weight",
        queries: "queries",
        keys: "keys",
        entropy: "entropy",
        row_entropy: "row entropy",
        nats: "nats",
        share: "% of max",
        masked: "masked",
        empty_row: "\u{2205} empty row",
        head: "head",
    };
}

impl Default for Words {
    fn default() -> Words {
        Words::ENGLISH
    }
}
