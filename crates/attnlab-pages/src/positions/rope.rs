//! RoPE, its long-context scalings and ALiBi as the positions page draws them (docs/maths.md
//! §13), from the core's `rope` and `alibi`: one pair of a query turning with the position,
//! the proof that with RoPE the score of a word against itself depends on `i − j` only
//! after `W_Q`, `W_K` while the added sinusoid's does not, RoFormer's long-term decay
//! (§3.4.3) and the same curve beyond the trained length under each scaling, the
//! wavelength of each frequency against the context length, and ALiBi's bias per head.

use attnlab_core::CoreError;
use attnlab_core::position::PositionKind;
use attnlab_core::rope::{self, Frequencies, Rope, RopePairs, RopeScaling};
use attnlab_core::tokenize::Token;

type Result<T> = attnlab_core::Result<T>;
use attnlab_i18n::Lang;
use attnlab_i18n::msg::positions as text;
use attnlab_lab::state::ModelConfig;
use attnlab_plot::Ticks;
use attnlab_plot::number::significant;
use attnlab_plot::{Axis, AxisScale, Heatmap, HeatmapError, LineChart, LineDash, RGBColor, Series};

use ndarray::Array2;

use super::pe::{CURVE_COLOURS, diagonal_spread, signed_heatmap};

/// The head width of RoFormer's Figure 2 and of today's models (Llama, Qwen: 128), used
/// by the decay and long-context figures.
pub const PAPER_DIMS: usize = 128;

/// RoFormer's Figure 2 spans relative distances 0 … 250.
pub const PAPER_DISTANCE: usize = 250;

/// YaRN's defaults (Peng et al. 2023).
pub const YARN_BETA_FAST: f32 = 32.0;
/// See [`YARN_BETA_FAST`].
pub const YARN_BETA_SLOW: f32 = 1.0;

/// Which scaling the page applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ScalingKind {
    /// None.
    #[default]
    None,
    /// Position interpolation.
    Linear,
    /// NTK-aware base.
    Ntk,
    /// YaRN.
    Yarn,
}

impl ScalingKind {
    /// Every kind, in the order of the page's select.
    pub const ALL: [ScalingKind; 4] = [
        ScalingKind::None,
        ScalingKind::Linear,
        ScalingKind::Ntk,
        ScalingKind::Yarn,
    ];

    /// The value in the page's select (the format's name; `none` for none).
    pub fn name(self) -> &'static str {
        match self {
            ScalingKind::None => "none",
            ScalingKind::Linear => "linear",
            ScalingKind::Ntk => "ntk",
            ScalingKind::Yarn => "yarn",
        }
    }

    /// Parses [`ScalingKind::name`].
    pub fn parse(name: &str) -> Option<ScalingKind> {
        Self::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The name on the figures (the same in every language: the methods' names).
    pub fn label(self, lang: Lang) -> String {
        match self {
            ScalingKind::None => text::ROPE_SCALING_NONE.get(lang).to_string(),
            ScalingKind::Linear => text::ROPE_SCALING_LINEAR.get(lang).to_string(),
            ScalingKind::Ntk => "NTK".to_string(),
            ScalingKind::Yarn => "YaRN".to_string(),
        }
    }
}

/// The page's RoPE settings (its own, not the model's).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RopeSettings {
    /// The base of the frequencies (10000).
    pub base: f32,
    /// Which dimensions pair.
    pub pairs: RopePairs,
    /// The scaling.
    pub scaling: ScalingKind,
    /// Its factor `s` (> 0).
    pub factor: f32,
    /// The trained context length `L_train` (YaRN's original_max_positions).
    pub trained: usize,
}

impl Default for RopeSettings {
    fn default() -> Self {
        RopeSettings {
            base: 10_000.0,
            pairs: RopePairs::Half,
            scaling: ScalingKind::None,
            factor: 4.0,
            trained: 4096,
        }
    }
}

impl RopeSettings {
    /// The core's scaling of `kind` with this factor and trained length.
    pub fn scaling_of(&self, kind: ScalingKind) -> RopeScaling {
        let factor = self.factor;
        match kind {
            ScalingKind::None => RopeScaling::None,
            ScalingKind::Linear => RopeScaling::Linear { factor },
            ScalingKind::Ntk => RopeScaling::Ntk { factor },
            ScalingKind::Yarn => RopeScaling::Yarn {
                factor,
                original_max_positions: self.trained as f32,
                beta_fast: YARN_BETA_FAST,
                beta_slow: YARN_BETA_SLOW,
            },
        }
    }

    /// The core's RoPE with scaling `kind`, turning the first `r` dimensions.
    pub fn rope_with(&self, kind: ScalingKind, r: usize) -> Rope {
        Rope {
            base: self.base,
            pairs: self.pairs,
            rotary_dims: Some(r),
            scaling: self.scaling_of(kind),
            ..Rope::default()
        }
    }

    /// The core's RoPE of these settings for `r` dimensions.
    pub fn rope(&self, r: usize) -> Rope {
        self.rope_with(self.scaling, r)
    }

    /// The frequencies of `r` dimensions under scaling `kind`.
    pub fn frequencies(&self, kind: ScalingKind, r: usize) -> Frequencies {
        self.rope_with(kind, r).frequencies(r)
    }

    /// These settings following a lab variant's RoPE: its base, pairs, scaling and
    /// factor, and YaRN's trained length (without YaRN the page keeps its own).
    pub fn following(self, rope: &Rope) -> RopeSettings {
        let (scaling, factor, trained) = match rope.scaling {
            RopeScaling::None => (ScalingKind::None, self.factor, self.trained),
            RopeScaling::Linear { factor } => (ScalingKind::Linear, factor, self.trained),
            RopeScaling::Ntk { factor } => (ScalingKind::Ntk, factor, self.trained),
            RopeScaling::Yarn {
                factor,
                original_max_positions,
                ..
            } => (
                ScalingKind::Yarn,
                factor,
                original_max_positions.round().max(1.0) as usize,
            ),
        };
        RopeSettings {
            base: rope.base,
            pairs: rope.pairs,
            scaling,
            factor,
            trained,
        }
    }
}

/// The rotary width for heads of width `d_k`: `d_k` rounded down to even (a head of odd
/// width keeps its last dimension unturned); `None` below 2.
pub fn rotary_width(d_k: usize) -> Option<usize> {
    (d_k >= 2).then_some(d_k / 2 * 2)
}

pub(super) fn line(
    name: Option<String>,
    points: Vec<(f64, f64)>,
    color: RGBColor,
    dash: LineDash,
) -> Series {
    Series {
        name,
        points,
        color,
        dash,
        markers: false,
    }
}

pub(super) fn axis(label: &str, scale: AxisScale) -> Axis {
    Axis {
        label: label.into(),
        scale,
        ticks: Ticks::Auto,
    }
}

/// One word's query of head `head` (no position added), `1 × d_k`.
fn bare_query(model: &ModelConfig, token: &Token, head: usize) -> Result<Array2<f32>> {
    let mut bare = *model;
    bare.position.kind = PositionKind::None;
    let x = bare.encode(std::slice::from_ref(token))?.x;
    let projected = bare.project(&x, &x)?;
    let h = head.min(projected.heads.len().saturating_sub(1));
    Ok(projected.heads[h].q.clone())
}

/// One pair of a word's query turning with the position.
#[derive(Debug, Clone, PartialEq)]
pub struct PairTurn {
    /// The pair's index `i`.
    pub pair: usize,
    /// Its two dimensions.
    pub dims: (usize, usize),
    /// `θ_i` (radians per position, scaling included).
    pub theta: f64,
    /// The pair's two coordinates at positions `0 … positions − 1`.
    pub coords: Vec<(f64, f64)>,
}

impl PairTurn {
    /// Positions per full turn, `2π/θ_i`.
    pub fn wavelength(&self) -> f64 {
        std::f64::consts::TAU / self.theta
    }

    /// The two coordinates against the position, and their length (constant: a turn
    /// keeps it), as a chart in `lang` (the word is not in the title: a canvas's label
    /// cannot mark typed text as untranslated).
    pub fn chart(&self, lang: Lang) -> LineChart {
        let (a, b) = self.dims;
        let at = |f: &dyn Fn(&(f64, f64)) -> f64| -> Vec<(f64, f64)> {
            self.coords
                .iter()
                .enumerate()
                .map(|(p, c)| (p as f64, f(c)))
                .collect()
        };
        let len = at(&|&(x, y)| x.hypot(y));
        let top = len.iter().fold(1e-6f64, |m, p| m.max(p.1));
        let mut series = vec![
            line(
                Some(text::RopePairFirst { dim: &a }.say(lang)),
                at(&|c| c.0),
                CURVE_COLOURS[0],
                LineDash::Solid,
            ),
            line(
                Some(text::RopePairSecond { dim: &b }.say(lang)),
                at(&|c| c.1),
                CURVE_COLOURS[1],
                LineDash::Solid,
            ),
            line(
                Some(text::ROPE_PAIR_LENGTH.get(lang).into()),
                len,
                CURVE_COLOURS[2],
                LineDash::Dashed,
            ),
        ];
        series
            .iter_mut()
            .for_each(|s| s.markers = self.coords.len() <= 24);
        // Headroom for the legend in the upper-left corner.
        series.push(line(
            None,
            vec![(0.0, top * 2.2)],
            CURVE_COLOURS[0],
            LineDash::Solid,
        ));
        LineChart {
            title: text::RopePairTitle {
                pair: &self.pair,
                theta: &significant(self.theta, 3),
            }
            .say(lang),
            x: axis(text::POSITIONS_AXIS_POSITION_P.get(lang), AxisScale::Linear),
            y: axis(text::ROPE_AXIS_COORDINATE.get(lang), AxisScale::Linear),
            series,
            markers: vec![],
            note: None,
        }
    }
}

/// Pair `pair` of `token`'s query in head `head` (the model's word vector, no position
/// added, through `W_Q`), turned by RoPE to positions `0 … positions − 1`.
pub fn pair_turn(
    model: &ModelConfig,
    settings: &RopeSettings,
    token: &Token,
    head: usize,
    pair: usize,
    positions: usize,
) -> Result<PairTurn> {
    let q = bare_query(model, token, head)?;
    let r = rotary_width(q.ncols()).ok_or(CoreError::InvalidSetting {
        field: "d_k",
        reason: attnlab_core::Invalid::Pipeline(attnlab_core::error::PipelineInvalid::OddWidth {
            d_k: q.ncols(),
        }),
    })?;
    let pair = pair.min(r / 2 - 1);
    let rope = settings.rope(r);
    rope.validate(&[q.ncols()], positions, positions)?;
    let mut rows = Array2::from_shape_fn((positions, q.ncols()), |(_, c)| q[[0, c]]);
    let at = rope::positions_or_count(None, positions);
    rope.turn(&mut rows, &at);
    let dims = settings.pairs.dims(pair, r);
    Ok(PairTurn {
        pair,
        dims,
        theta: rope.frequencies(r).per_position[pair],
        coords: rows
            .rows()
            .into_iter()
            .map(|row| (f64::from(row[dims.0]), f64::from(row[dims.1])))
            .collect(),
    })
}

/// One word at every position: the scores `q_i·k_j` after `W_Q`, `W_K` with the sinusoid
/// added to the input, and with RoPE turning `q` and `k`.
#[derive(Debug, Clone, PartialEq)]
pub struct RepeatedWord {
    /// `q_i·k_j` with `x_p = e + PE(p)` (the model's sinusoid: its base, layout, add or
    /// concat).
    pub sinusoid: Array2<f32>,
    /// `q̃_i·k̃_j` with `x_p = e` and RoPE on `q`, `k`.
    pub rope: Array2<f32>,
    /// The largest spread along a diagonal of [`RepeatedWord::sinusoid`].
    pub sinusoid_spread: f32,
    /// The largest spread along a diagonal of [`RepeatedWord::rope`].
    pub rope_spread: f32,
}

/// Scores of `token` repeated `n` times in head `head`: see [`RepeatedWord`]. The seeded
/// projections are the lab's; the scores are plain dot products (no `1/√d_k`).
pub fn repeated_word(
    model: &ModelConfig,
    settings: &RopeSettings,
    token: &Token,
    head: usize,
    n: usize,
) -> Result<RepeatedWord> {
    let tokens = vec![token.clone(); n];
    let qk = |m: &ModelConfig| -> Result<(Array2<f32>, Array2<f32>)> {
        let x = m.encode(&tokens)?.x;
        let mut p = m.project(&x, &x)?;
        let h = head.min(p.heads.len().saturating_sub(1));
        let head = p.heads.swap_remove(h);
        Ok((head.q, head.k))
    };
    let mut sinus = *model;
    sinus.position.kind = PositionKind::Sinusoidal;
    let (q, k) = qk(&sinus)?;
    let sinusoid = q.dot(&k.t());
    let mut bare = *model;
    bare.position.kind = PositionKind::None;
    let (mut q, mut k) = qk(&bare)?;
    let d_k = q.ncols();
    let r = rotary_width(d_k).unwrap_or(d_k);
    let rope = settings.rope(r);
    rope.validate(&[d_k], n, n)?;
    let at = rope::positions_or_count(None, n);
    rope.turn(&mut q, &at);
    rope.turn(&mut k, &at);
    let turned = q.dot(&k.t());
    Ok(RepeatedWord {
        sinusoid_spread: diagonal_spread(&sinusoid),
        rope_spread: diagonal_spread(&turned),
        sinusoid,
        rope: turned,
    })
}

impl RepeatedWord {
    /// The two score matrices as figures in `lang`.
    pub fn figures(&self, lang: Lang) -> std::result::Result<(Heatmap, Heatmap), HeatmapError> {
        let axes = (
            text::ROPE_AXIS_QUERY_POSITION.get(lang),
            text::ROPE_AXIS_KEY_POSITION.get(lang),
        );
        let n = self.rope.nrows();
        Ok((
            signed_heatmap(
                text::RopeProofSinusoidTitle { n: &n }.say(lang),
                &self.sinusoid,
                "q\u{b7}k",
                axes,
                lang,
            )?,
            signed_heatmap(
                text::RopeProofRopeTitle { n: &n }.say(lang),
                &self.rope,
                "q\u{303}\u{b7}k\u{303}",
                axes,
                lang,
            )?,
        ))
    }
}

/// RoFormer's Figure 2: the relative upper bound against the relative distance
/// `0 … 250` for `d = 128`, base 10000, and the page's base (when it differs).
pub fn decay_chart(settings: &RopeSettings, lang: Lang) -> LineChart {
    let curve = |base: f32| -> Vec<(f64, f64)> {
        let s = RopeSettings { base, ..*settings };
        let f = s.frequencies(ScalingKind::None, PAPER_DIMS);
        (0..=PAPER_DISTANCE)
            .map(|d| (d as f64, rope::relative_upper_bound(&f, d as f64)))
            .collect()
    };
    let paper = text::RopeDecayBase { base: &10_000 }.say(lang);
    let mut series = vec![line(
        Some(paper),
        curve(10_000.0),
        CURVE_COLOURS[0],
        LineDash::Solid,
    )];
    if settings.base != 10_000.0 {
        let name = text::RopeDecayBase {
            base: &settings.base,
        }
        .say(lang);
        series.push(line(
            Some(name),
            curve(settings.base),
            CURVE_COLOURS[1],
            LineDash::Dashed,
        ));
    }
    LineChart {
        title: text::RopeDecayTitle { d: &PAPER_DIMS }.say(lang),
        x: axis(text::ROPE_AXIS_DISTANCE.get(lang), AxisScale::Linear),
        y: axis(text::ROPE_AXIS_BOUND.get(lang), AxisScale::Linear),
        series,
        markers: vec![],
        note: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use attnlab_lab::state::LabState;

    fn model() -> ModelConfig {
        LabState::default().model
    }

    fn word(text: &str) -> Token {
        Token {
            text: text.into(),
            span: 0..text.len(),
        }
    }

    #[test]
    fn with_rope_a_repeated_word_scores_by_distance_only_and_with_the_sinusoid_not() {
        let m = model();
        for pairs in RopePairs::ALL {
            for scaling in ScalingKind::ALL {
                let s = RopeSettings {
                    pairs,
                    scaling,
                    ..RopeSettings::default()
                };
                let r = repeated_word(&m, &s, &word("cat"), 1, 24).unwrap();
                assert_eq!(r.rope.dim(), (24, 24));
                // Scores of a few units: the RoPE side is constant along its diagonals up
                // to f32 rounding, the sinusoid side is not.
                let top = r.rope.iter().fold(0f32, |a, v| a.max(v.abs()));
                assert!(top > 1.0, "{top}");
                assert!(
                    r.rope_spread <= 1e-5,
                    "{pairs:?} {scaling:?}: {}",
                    r.rope_spread
                );
                assert!(r.sinusoid_spread > 0.05, "{}", r.sinusoid_spread);
            }
        }
        // The sinusoid side is the lab's: concatenated positions too.
        let mut c = m;
        c.position.combine = attnlab_core::position::Combine::Concat { d_pos: 16 };
        let r = repeated_word(&c, &RopeSettings::default(), &word("the"), 0, 12).unwrap();
        assert!(r.rope_spread <= 1e-5 && r.sinusoid_spread > 0.05);
        let (a, b) = r.figures(Lang::En).unwrap();
        assert_eq!((a.n_rows(), b.n_cols()), (12, 12));
    }

    #[test]
    fn a_pair_turns_by_p_theta_and_keeps_its_length() {
        let m = model();
        let s = RopeSettings::default();
        let t = pair_turn(&m, &s, &word("cat"), 0, 1, 40).unwrap();
        // d_k = 16: θ_1 = 10000^(−2/16); half pairs (1, 9).
        assert_eq!(t.dims, (1, 9));
        assert!((t.theta - 10_000f64.powf(-2.0 / 16.0)).abs() < 1e-15);
        let (a0, b0) = t.coords[0];
        for (p, &(a, b)) in t.coords.iter().enumerate() {
            let phi = p as f64 * t.theta;
            let (want_a, want_b) = (
                a0 * phi.cos() - b0 * phi.sin(),
                a0 * phi.sin() + b0 * phi.cos(),
            );
            assert!(
                (a - want_a).abs() < 1e-5 && (b - want_b).abs() < 1e-5,
                "p = {p}"
            );
        }
        let inter = RopeSettings {
            pairs: RopePairs::Interleaved,
            ..s
        };
        assert_eq!(
            pair_turn(&m, &inter, &word("cat"), 0, 1, 4).unwrap().dims,
            (2, 3)
        );
        let c = t.chart(Lang::En);
        assert_eq!(c.series.iter().filter(|s| s.name.is_some()).count(), 3);
        assert!(c.title.starts_with("Pair 1 "), "{}", c.title);
    }

    #[test]
    fn the_settings_follow_a_variant_s_rope() {
        let page = RopeSettings::default();
        let yarn = Rope {
            base: 500_000.0,
            pairs: RopePairs::Interleaved,
            scaling: RopeScaling::Yarn {
                factor: 8.0,
                original_max_positions: 2048.0,
                beta_fast: 32.0,
                beta_slow: 1.0,
            },
            ..Rope::default()
        };
        let s = page.following(&yarn);
        assert_eq!(
            (s.base, s.pairs, s.scaling, s.factor, s.trained),
            (
                500_000.0,
                RopePairs::Interleaved,
                ScalingKind::Yarn,
                8.0,
                2048
            )
        );
        assert_eq!(s.scaling_of(ScalingKind::Yarn), yarn.scaling);
        let ntk = Rope {
            scaling: RopeScaling::Ntk { factor: 4.0 },
            ..Rope::default()
        };
        let s = page.following(&ntk);
        assert_eq!(
            (s.scaling, s.factor, s.trained),
            (ScalingKind::Ntk, 4.0, 4096)
        );
        assert_eq!(page.following(&Rope::default()), page);
    }
}
