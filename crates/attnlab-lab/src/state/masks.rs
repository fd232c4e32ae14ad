//! A variant's masks as the app keeps them: which kinds are on, with their settings,
//! built into the core's [`MaskSpec`] for the current texts.

use attnlab_core::mask::MaskSpec;
use attnlab_i18n::Lang;
use attnlab_i18n::msg::lab;
use ndarray::Array2;

/// Which masks a variant applies. Indices refer to tokens of the current texts; those
/// beyond the texts are kept (so shortening and re-typing a sentence does not lose them)
/// and ignored when the mask is built.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Masks {
    /// `j ≤ i`.
    pub causal: bool,
    /// Block the [`PAD_TOKEN`](super::PAD_TOKEN) keys (see
    /// [`LabState::pad_to`](super::LabState::pad_to)).
    pub padding: bool,
    /// `|i − j| ≤ r`.
    pub window: Option<usize>,
    /// Sparse Transformer's strided pattern with stride `s ≥ 1`.
    pub strided: Option<usize>,
    /// Token indices that attend to and are attended by everything (ascending).
    pub global: Vec<usize>,
    /// Cells `(query, key)` blocked by hand (ascending).
    pub custom: Vec<(usize, usize)>,
    /// Attention sinks: keys `0 … s − 1` kept open for every query after causal, window
    /// and strided (StreamingLLM); padding and custom still close them.
    pub sinks: Option<usize>,
}

/// One kind of mask, as a control of the app.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MaskKind {
    /// `j ≤ i`.
    Causal,
    /// Padding keys blocked.
    Padding,
    /// `|i − j| ≤ r`.
    Window,
    /// Strided with stride `s`.
    Strided,
    /// Global tokens.
    Global,
    /// Cells toggled by hand.
    Custom,
    /// Attention sinks: the first `s` keys open for every query.
    Sinks,
}

impl MaskKind {
    /// Every kind, in display order.
    pub const ALL: [MaskKind; 7] = [
        MaskKind::Causal,
        MaskKind::Padding,
        MaskKind::Window,
        MaskKind::Strided,
        MaskKind::Global,
        MaskKind::Custom,
        MaskKind::Sinks,
    ];

    /// The name the core uses (`attnlab_core::mask::KINDS`).
    pub fn core_name(self) -> &'static str {
        match self {
            MaskKind::Causal => "causal",
            MaskKind::Padding => "padding_keys",
            MaskKind::Window => "window",
            MaskKind::Strided => "strided",
            MaskKind::Global => "global",
            MaskKind::Custom => "custom",
            MaskKind::Sinks => "sinks",
        }
    }

    /// A short label for people, e.g. `"padding"`.
    pub fn label(self) -> &'static str {
        match self {
            MaskKind::Padding => "padding",
            other => other.core_name(),
        }
    }

    /// The label in `lang` (`"padding"`, `"填充"`).
    pub fn shown(self, lang: Lang) -> &'static str {
        match self {
            MaskKind::Causal => lab::MASK_CAUSAL,
            MaskKind::Padding => lab::MASK_PADDING,
            MaskKind::Window => lab::MASK_WINDOW,
            MaskKind::Strided => lab::MASK_STRIDED,
            MaskKind::Global => lab::MASK_GLOBAL,
            MaskKind::Custom => lab::MASK_CUSTOM,
            MaskKind::Sinks => lab::MASK_SINKS,
        }
        .get(lang)
    }
}

impl Masks {
    /// Whether the mask of `kind` is on.
    pub fn is_on(&self, kind: MaskKind) -> bool {
        match kind {
            MaskKind::Causal => self.causal,
            MaskKind::Padding => self.padding,
            MaskKind::Window => self.window.is_some(),
            MaskKind::Strided => self.strided.is_some(),
            MaskKind::Global => !self.global.is_empty(),
            MaskKind::Custom => !self.custom.is_empty(),
            MaskKind::Sinks => self.sinks.is_some(),
        }
    }

    /// The kinds that are on, in display order.
    pub fn on(&self) -> Vec<MaskKind> {
        MaskKind::ALL
            .into_iter()
            .filter(|&k| self.is_on(k))
            .collect()
    }

    /// Turns the mask of `kind` off (for global and custom: forgets the tokens and cells).
    pub fn turn_off(&mut self, kind: MaskKind) {
        match kind {
            MaskKind::Causal => self.causal = false,
            MaskKind::Padding => self.padding = false,
            MaskKind::Window => self.window = None,
            MaskKind::Strided => self.strided = None,
            MaskKind::Global => self.global.clear(),
            MaskKind::Custom => self.custom.clear(),
            MaskKind::Sinks => self.sinks = None,
        }
    }

    /// Makes token `index` global, or not global any more.
    pub fn toggle_global(&mut self, index: usize) {
        match self.global.binary_search(&index) {
            Ok(at) => {
                self.global.remove(at);
            }
            Err(at) => self.global.insert(at, index),
        }
    }

    /// Blocks cell `(query, key)` by hand, or unblocks it.
    pub fn toggle_custom(&mut self, cell: (usize, usize)) {
        match self.custom.binary_search(&cell) {
            Ok(at) => {
                self.custom.remove(at);
            }
            Err(at) => self.custom.insert(at, cell),
        }
    }

    /// The core's mask for `n` queries and `m` keys, of which `padding_keys` are padding.
    /// Global indices beyond both sequences and custom cells outside `n × m` are left out.
    pub fn spec(&self, n: usize, m: usize, padding_keys: &[usize]) -> MaskSpec {
        let custom = (!self.custom.is_empty()).then(|| {
            let mut allowed = Array2::from_elem((n, m), true);
            for &(i, j) in self.custom.iter().filter(|&&(i, j)| i < n && j < m) {
                allowed[[i, j]] = false;
            }
            allowed
        });
        MaskSpec {
            causal: self.causal,
            window: self.window,
            strided: self.strided,
            global: self
                .global
                .iter()
                .copied()
                .filter(|&g| g < n.max(m))
                .collect(),
            padding_keys: if self.padding {
                padding_keys.iter().copied().filter(|&p| p < m).collect()
            } else {
                Vec::new()
            },
            custom,
            sinks: self.sinks.map(|s| s.min(m)),
        }
    }
}
