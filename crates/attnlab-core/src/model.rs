//! The app's seeded model (docs/maths.md §1–§3): sentence → tokens → `X` (word vectors plus
//! positions) → per-head `Q_i = X W_i^Q`, `K_i = X_kv W_i^K`, `V_i = X_kv W_i^V`, and
//! `W^O`. For self-attention `X_kv = X`; for encoder–decoder cross-attention `X` is the
//! target (decoder) sentence and `X_kv` the source sentence.
//!
//! Every weight is drawn from its own named random stream of the global seed, so a
//! variant that needs extra parameters (general, additive, Linformer) gets the same ones
//! every time, and Q/K/V never depend on the variant.

use ndarray::{Array2, Axis, concatenate};

use crate::attention::HeadInput;
use crate::embed::{self, EmbeddingScale};
use crate::error::{CoreError, Expected, Invalid, Result};
use crate::position::{Combine, PositionConfig};
use crate::rng;
use crate::tokenize::Token;

mod params;

pub use params::{HeadParams, group_mean};

/// How Q, K, V are obtained from `X`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Projection {
    /// Seeded `W^Q, W^K, W^V ∈ R^{d_in×d_k}` per head and `W^O`, entries ~ N(0, 1/d_in).
    #[default]
    Seeded,
    /// `Q = K = V = X` with one head and no `W^O`: the bare `softmax(X Xᵀ) X` (docs/maths.md §3).
    Identity,
}

/// The model settings shared by every variant.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ModelConfig {
    /// Word-vector width.
    pub d_model: usize,
    /// Number of heads; must divide `d_model` (`d_k = d_v = d_model / heads`).
    pub heads: usize,
    /// The global seed of every random table.
    pub seed: u64,
    /// Position encoding.
    pub position: PositionConfig,
    /// Embedding ×√d_model or not.
    pub embedding_scale: EmbeddingScale,
    /// Seeded or identity projections.
    pub projection: Projection,
}

impl Default for ModelConfig {
    fn default() -> Self {
        ModelConfig {
            d_model: 64,
            heads: 4,
            seed: 42,
            position: PositionConfig::default(),
            // The Transformer's ×√d_model (docs/maths.md §1): word vectors then weigh as much as
            // the sinusoids (entries ~1), and the default heads are not flat.
            embedding_scale: EmbeddingScale::SqrtDModel,
            projection: Projection::Seeded,
        }
    }
}

/// Largest accepted `d_model`.
pub const MAX_D_MODEL: usize = 4096;

/// A sentence encoded as model input.
#[derive(Debug, Clone, PartialEq)]
pub struct Encoded {
    /// Word vectors, `n × d_model`.
    pub words: Array2<f32>,
    /// Position vectors, `n × d_pos` (`d_pos = d_model` when added).
    pub positions: Array2<f32>,
    /// The model input `X`, `n × d_in`.
    pub x: Array2<f32>,
}

/// The projected heads of a sentence (or sentence pair) and the output projection.
#[derive(Debug, Clone, PartialEq)]
pub struct Projected {
    /// Per-head Q, K, V (no score parameters yet: see [`ModelConfig::problem`]).
    pub heads: Vec<HeadInput>,
    /// `W^O ∈ R^{h·d_v×d_model}`; `None` for identity projections.
    pub w_o: Option<Array2<f32>>,
}

/// The seeded projections of a model: `W^Q_h`, `W^K_h`, `W^V_h` (`d_in × d_k`) of every
/// head and `W^O`. They depend on the seed and the widths, not on the sentence, so they
/// can be kept while the text changes ([`ModelConfig::project_with`]).
#[derive(Debug, Clone, PartialEq)]
pub struct ProjectionWeights {
    /// What the weights were drawn for: the seed, `d_in`, `d_k`, the head count, `d_model`.
    drawn_for: (u64, usize, usize, usize, usize),
    /// Per head: `[W^Q, W^K, W^V]`.
    pub heads: Vec<[Array2<f32>; 3]>,
    /// `W^O ∈ R^{h·d_k×d_model}`.
    pub w_o: Array2<f32>,
}

/// `x W` for `x` (`n × d_in`) and `W` (`d_in × d_k`), through the core's scores kernel
/// against the rows of `Wᵀ` (with SIMD128 the packed kernel, about twice as fast as
/// ndarray's product there; natively the same matrixmultiply product as `x.dot(w)`).
fn times(x: &Array2<f32>, w: &Array2<f32>) -> Array2<f32> {
    times_as_in(x, w, x.nrows())
}

/// The rows of `x W` for the rows of `x`, as [`times`] computes them for a matrix of
/// `n` rows (see [`crate::kernels::scores_part`]).
fn times_as_in(x: &Array2<f32>, w: &Array2<f32>, n: usize) -> Array2<f32> {
    let d_in = x.ncols();
    let w_t = w.t().as_standard_layout().into_owned();
    let x = x.as_standard_layout();
    let mut out = Array2::zeros((x.nrows(), w.ncols()));
    crate::kernels::scores_part(
        x.as_slice().expect("standard layout"),
        w_t.as_slice().expect("standard layout"),
        d_in,
        1.0,
        out.as_slice_mut().expect("fresh array"),
        (n, w.ncols()),
        None,
    );
    out
}

/// [`times`] of `x` when `before` = `(x₀, times(x₀, w))`: a row of `x` equal, bit for bit,
/// to the same row of `x₀` keeps its product; the others are computed, in the order the
/// whole product would add them, so the result is [`times`]'s, bit for bit.
///
/// `same` says which rows of `x` are those of `x₀` ([`crate::score::same_rows`]).
fn times_after(
    x: &Array2<f32>,
    w: &Array2<f32>,
    before: (&Array2<f32>, &Array2<f32>),
    same: &[bool],
) -> Array2<f32> {
    let (x0, y0) = before;
    let (n, d_in) = x.dim();
    let m = w.ncols();
    let order = |rows: usize, j: usize| crate::kernels::score_order(d_in, (rows, m), j);
    let same_order = (0..m).all(|j| order(n, j) == order(x0.nrows(), j));
    if !same_order || y0.dim() != (x0.nrows(), m) || !same.iter().any(|&s| s) {
        return times(x, w);
    }
    let changed: Vec<usize> = (0..n).filter(|&i| !same[i]).collect();
    let computed = (!changed.is_empty()).then(|| times_as_in(&x.select(Axis(0), &changed), w, n));
    crate::score::rows_merged(same, y0, computed.as_ref(), m)
}

impl ModelConfig {
    /// What the seeded projection weights depend on.
    fn drawn_for(&self) -> (u64, usize, usize, usize, usize) {
        (
            self.seed,
            self.input_width(),
            self.d_k(),
            self.heads,
            self.d_model,
        )
    }

    /// The seeded projection weights (`None` for identity projections), drawn from
    /// `seed` with standard deviation `1/√d_in` (`1/√(h·d_k)` for `W^O`).
    pub fn projection_weights(&self) -> Result<Option<ProjectionWeights>> {
        self.validate()?;
        if self.projection == Projection::Identity {
            return Ok(None);
        }
        let (d_in, d_k) = (self.input_width(), self.d_k());
        let std = 1.0 / (d_in as f32).sqrt();
        let weight = |label: &str, h: usize| {
            rng::normal_matrix(&mut rng::stream(self.seed, label, h as u64), d_in, d_k, std)
        };
        let heads = (0..self.heads)
            .map(|h| [weight("wq", h), weight("wk", h), weight("wv", h)])
            .collect();
        let w_o = rng::normal_matrix(
            &mut rng::stream(self.seed, "wo", 0),
            self.heads * d_k,
            self.d_model,
            1.0 / ((self.heads * d_k) as f32).sqrt(),
        );
        Ok(Some(ProjectionWeights {
            drawn_for: self.drawn_for(),
            heads,
            w_o,
        }))
    }

    /// Checks widths, the head count and the position settings.
    pub fn validate(&self) -> Result<()> {
        if self.d_model == 0 || self.d_model > MAX_D_MODEL {
            return Err(CoreError::InvalidSetting {
                field: "d_model",
                reason: Invalid::DModel {
                    got: self.d_model,
                    max: MAX_D_MODEL,
                },
            });
        }
        if self.heads == 0 || !self.d_model.is_multiple_of(self.heads) {
            return Err(CoreError::InvalidSetting {
                field: "heads",
                reason: Invalid::HeadsDivide {
                    d_model: self.d_model,
                    heads: self.heads,
                },
            });
        }
        if self.projection == Projection::Identity && self.heads != 1 {
            return Err(CoreError::InvalidSetting {
                field: "heads",
                reason: Invalid::IdentityOneHead,
            });
        }
        self.position.validate(self.d_model)
    }

    /// The width of `X`: `d_model`, plus `d_pos` when positions are concatenated.
    pub fn input_width(&self) -> usize {
        match self.position.combine {
            Combine::Add => self.d_model,
            Combine::Concat { d_pos } => self.d_model + d_pos,
        }
    }

    /// Per-head key/query width: `d_model / heads` (0 for 0 heads, which
    /// [`ModelConfig::validate`] refuses), or `d_in` for identity projections.
    pub fn d_k(&self) -> usize {
        match self.projection {
            Projection::Seeded => self.d_model.checked_div(self.heads).unwrap_or(0),
            Projection::Identity => self.input_width(),
        }
    }

    /// Encodes tokens as `X`.
    pub fn encode(&self, tokens: &[Token]) -> Result<Encoded> {
        self.validate()?;
        let words = embed::embed(tokens, self.d_model, self.seed, self.embedding_scale);
        let positions = self.position.table(tokens.len(), self.d_model, self.seed);
        Ok(self.combine(words, positions))
    }

    /// The model input `X` of word and position vectors.
    fn combine(&self, words: Array2<f32>, positions: Array2<f32>) -> Encoded {
        let x = match self.position.combine {
            Combine::Add => &words + &positions,
            Combine::Concat { .. } => concatenate(Axis(1), &[words.view(), positions.view()])
                .expect("same number of rows"),
        };
        Encoded {
            words,
            positions,
            x,
        }
    }

    /// [`ModelConfig::encode`] of `tokens` given `before` = `(tokens₀, encode(tokens₀))`
    /// by this model: a token with the same text at the same place keeps its word vector,
    /// positions both have keep their rows ([`PositionConfig::table_after`]). The same
    /// numbers as [`ModelConfig::encode`], bit for bit.
    pub fn encode_after(&self, tokens: &[Token], before: (&[Token], &Encoded)) -> Result<Encoded> {
        self.validate()?;
        let (tokens0, e0) = before;
        if e0.words.dim() != (tokens0.len(), self.d_model) {
            return self.encode(tokens);
        }
        let mut words = Array2::zeros((tokens.len(), self.d_model));
        for (i, (mut row, t)) in words.rows_mut().into_iter().zip(tokens).enumerate() {
            match tokens0.get(i) {
                Some(t0) if t0.text == t.text => row.assign(&e0.words.row(i)),
                _ => row.assign(&ndarray::ArrayView1::from(&embed::embed_one(
                    &t.text,
                    self.d_model,
                    self.seed,
                    self.embedding_scale,
                ))),
            }
        }
        let positions =
            self.position
                .table_after(tokens.len(), self.d_model, self.seed, &e0.positions);
        Ok(self.combine(words, positions))
    }

    /// Projects `X` (queries) and `X_kv` (keys and values) into heads.
    pub fn project(&self, x: &Array2<f32>, x_kv: &Array2<f32>) -> Result<Projected> {
        self.project_with(None, x, x_kv)
    }

    /// [`ModelConfig::project`] with weights drawn earlier by
    /// [`ModelConfig::projection_weights`]; weights drawn for another seed or other
    /// widths (or none) are drawn afresh.
    pub fn project_with(
        &self,
        weights: Option<&ProjectionWeights>,
        x: &Array2<f32>,
        x_kv: &Array2<f32>,
    ) -> Result<Projected> {
        self.validate()?;
        let d_in = self.input_width();
        for (field, a) in [("x", x), ("x_kv", x_kv)] {
            if a.ncols() != d_in {
                return Err(CoreError::ShapeMismatch {
                    head: None,
                    field,
                    expected: Expected::InputColumns { d_in },
                    got: a.dim(),
                });
            }
        }
        match self.projection {
            Projection::Identity => Ok(Projected {
                heads: vec![HeadInput::new(x.clone(), x_kv.clone(), x_kv.clone())],
                w_o: None,
            }),
            Projection::Seeded => {
                let drawn;
                let weights = match weights.filter(|w| w.drawn_for == self.drawn_for()) {
                    Some(w) => w,
                    None => {
                        drawn = self.projection_weights()?.expect("seeded projections");
                        &drawn
                    }
                };
                let heads = weights
                    .heads
                    .iter()
                    .map(|[wq, wk, wv]| {
                        HeadInput::new(times(x, wq), times(x_kv, wk), times(x_kv, wv))
                    })
                    .collect();
                Ok(Projected {
                    heads,
                    w_o: Some(weights.w_o.clone()),
                })
            }
        }
    }

    /// [`ModelConfig::project_with`] of `x` and `x_kv` given `before` = `(x₀, x_kv₀,
    /// projected₀)`, projected earlier by this model with the same `weights`: a row of `X`
    /// (or `X_kv`) unchanged at the same index keeps its projected rows, the others are
    /// projected (typing at the end of a sentence changes one row). The same numbers as
    /// [`ModelConfig::project_with`], bit for bit; anything that does not fit (other
    /// widths, head counts, identity projections) is projected afresh.
    pub fn project_after(
        &self,
        weights: Option<&ProjectionWeights>,
        x: &Array2<f32>,
        x_kv: &Array2<f32>,
        before: (&Array2<f32>, &Array2<f32>, &Projected),
    ) -> Result<Projected> {
        self.validate()?;
        let (x0, x_kv0, p0) = before;
        let weights = weights.filter(|w| w.drawn_for == self.drawn_for());
        let fits = |w: &ProjectionWeights| {
            self.projection == Projection::Seeded
                && p0.heads.len() == w.heads.len()
                && x.ncols() == x0.ncols()
                && x_kv.ncols() == x_kv0.ncols()
                && x.ncols() == self.input_width()
                && x_kv.ncols() == self.input_width()
        };
        let Some(weights) = weights.filter(|w| fits(w)) else {
            return self.project_with(weights, x, x_kv);
        };
        let (same, same_kv) = (
            crate::score::same_rows(x, x0),
            crate::score::same_rows(x_kv, x_kv0),
        );
        let heads = weights
            .heads
            .iter()
            .zip(&p0.heads)
            .map(|([wq, wk, wv], old)| {
                HeadInput::new(
                    times_after(x, wq, (x0, &old.q), &same),
                    times_after(x_kv, wk, (x_kv0, &old.k), &same_kv),
                    times_after(x_kv, wv, (x_kv0, &old.v), &same_kv),
                )
            })
            .collect();
        Ok(Projected {
            heads,
            w_o: Some(weights.w_o.clone()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attention::{AttentionKind, AttentionSpec};
    use crate::position::PositionKind;
    use crate::tokenize::tokenize;

    #[test]
    fn shapes_of_self_and_cross_attention() {
        let cfg = ModelConfig {
            d_model: 16,
            heads: 4,
            ..Default::default()
        };
        let tgt = cfg.encode(&tokenize("I love machine learning")).unwrap();
        let src = cfg.encode(&tokenize("我爱机器学习")).unwrap();
        let p = cfg.project(&tgt.x, &src.x).unwrap();
        assert_eq!(p.heads.len(), 4);
        assert_eq!(p.heads[0].q.dim(), (4, 4));
        assert_eq!(p.heads[0].k.dim(), (6, 4));
        assert_eq!(p.w_o.as_ref().unwrap().dim(), (16, 16));
        let r = cfg
            .problem(&p, AttentionSpec::default(), 4)
            .unwrap()
            .compute()
            .unwrap();
        assert_eq!(r.heads[0].weights.dim(), (4, 6));
        assert_eq!(r.output.dim(), (4, 16));
    }

    #[test]
    fn kept_projection_weights_project_as_fresh_ones_and_others_are_redrawn() {
        let cfg = ModelConfig {
            d_model: 16,
            heads: 4,
            ..Default::default()
        };
        let x = cfg.encode(&tokenize("the cat sat on the mat")).unwrap().x;
        let kept = cfg.projection_weights().unwrap().unwrap();
        assert_eq!(kept.heads.len(), 4);
        assert_eq!(kept.heads[0][0].dim(), (16, 4));
        let fresh = cfg.project(&x, &x).unwrap();
        assert_eq!(cfg.project_with(Some(&kept), &x, &x).unwrap(), fresh);
        // Weights of another seed or other widths are not this model's: drawn afresh.
        for other in [
            ModelConfig {
                seed: cfg.seed + 1,
                ..cfg
            },
            ModelConfig { heads: 2, ..cfg },
        ] {
            let theirs = other.projection_weights().unwrap().unwrap();
            assert_eq!(cfg.project_with(Some(&theirs), &x, &x).unwrap(), fresh);
        }
        let identity = ModelConfig {
            projection: Projection::Identity,
            heads: 1,
            ..cfg
        };
        assert_eq!(identity.projection_weights().unwrap(), None);
        assert_eq!(
            identity.project_with(Some(&kept), &x, &x).unwrap(),
            identity.project(&x, &x).unwrap()
        );
    }

    #[test]
    fn invalid_settings_are_errors_not_panics() {
        let bad = ModelConfig {
            d_model: 10,
            heads: 4,
            ..Default::default()
        };
        assert_eq!(bad.validate().unwrap_err().path(), "heads");
        let bad = ModelConfig {
            d_model: 0,
            ..Default::default()
        };
        assert!(bad.encode(&[]).is_err());
        let bad = ModelConfig {
            projection: Projection::Identity,
            ..Default::default()
        };
        assert!(bad.validate().is_err());
    }

    #[test]
    fn concat_widens_the_input_and_identity_is_bare() {
        let mut cfg = ModelConfig {
            d_model: 8,
            heads: 1,
            projection: Projection::Identity,
            ..Default::default()
        };
        cfg.position.combine = Combine::Concat { d_pos: 4 };
        let e = cfg.encode(&tokenize("a b c")).unwrap();
        assert_eq!(e.x.dim(), (3, 12));
        let p = cfg.project(&e.x, &e.x).unwrap();
        assert_eq!(p.heads[0].q, e.x);
        assert!(p.w_o.is_none());
    }

    #[test]
    fn empty_sentence_gives_empty_results() {
        let cfg = ModelConfig::default();
        let e = cfg.encode(&[]).unwrap();
        let p = cfg.project(&e.x, &e.x).unwrap();
        let r = cfg
            .problem(&p, AttentionSpec::default(), 4)
            .unwrap()
            .compute()
            .unwrap();
        assert_eq!(r.heads[0].weights.dim(), (0, 0));
        assert_eq!(r.output.dim(), (0, 64));
    }

    #[test]
    fn no_queries_against_keys_give_empty_results_for_every_kind() {
        // Cross-attention with an empty target sentence: 0 queries, 3 keys.
        let cfg = ModelConfig::default();
        let q = cfg.encode(&[]).unwrap();
        let k = cfg.encode(&tokenize("a b c")).unwrap();
        let p = cfg.project(&q.x, &k.x).unwrap();
        for kind in AttentionKind::ALL {
            let spec = AttentionSpec {
                attention: kind,
                ..Default::default()
            };
            let r = cfg.problem(&p, spec, 2).unwrap().compute().unwrap();
            assert_eq!(r.heads[0].weights.nrows(), 0, "{kind:?}");
            assert_eq!(r.output.dim(), (0, 64), "{kind:?}");
        }
    }

    #[test]
    fn no_positions_means_repeated_words_attend_alike() {
        let mut cfg = ModelConfig {
            d_model: 16,
            heads: 2,
            ..Default::default()
        };
        cfg.position.kind = PositionKind::None;
        let e = cfg.encode(&tokenize("dog bites dog")).unwrap();
        assert_eq!(e.x.row(0), e.x.row(2));
        cfg.position.kind = PositionKind::Sinusoidal;
        let e = cfg.encode(&tokenize("dog bites dog")).unwrap();
        assert_ne!(e.x.row(0), e.x.row(2));
    }

    #[test]
    fn the_modern_kinds_get_their_seeded_parameters_and_groups_share_the_mean_keys() {
        let cfg = ModelConfig {
            d_model: 16,
            heads: 4,
            ..Default::default()
        };
        let x = cfg.encode(&tokenize("a b c d e")).unwrap().x;
        let projected = cfg.project(&x, &x).unwrap();
        let spec = |attention| AttentionSpec {
            attention,
            ..AttentionSpec::default()
        };
        let params = HeadParams {
            kv_groups: Some(2),
            features: 8,
            sink: -1.5,
            ..HeadParams::default()
        };
        let p = cfg
            .problem_with(&projected, spec(AttentionKind::Softmax), &params)
            .unwrap();
        let mean = (&projected.heads[2].k + &projected.heads[3].k) / 2.0;
        assert_eq!(p.heads()[3].k, mean);
        assert_eq!(p.heads()[2].k, p.heads()[3].k);
        assert_ne!(p.heads()[1].k, p.heads()[2].k);
        let favor = cfg
            .problem_with(&projected, spec(AttentionKind::Favor), &params)
            .unwrap();
        assert_eq!(favor.heads()[0].features.as_ref().unwrap().dim(), (8, 4));
        let sink = cfg
            .problem_with(&projected, spec(AttentionKind::Sink), &params)
            .unwrap();
        assert_eq!(sink.heads()[1].sink, Some(-1.5));
        let diff = cfg
            .problem_with(&projected, spec(AttentionKind::Differential), &params)
            .unwrap();
        let [rq, _] = cfg.second_projections(4, 0);
        assert_eq!(diff.heads()[0].q2, Some(times(&diff.heads()[0].q, &rq)));
        let brought = HeadParams {
            draw_second: false,
            ..params
        };
        let refused = cfg.problem_with(&projected, spec(AttentionKind::Differential), &brought);
        assert!(refused.unwrap_err().to_string().contains("q2"));
        let three = HeadParams {
            kv_groups: Some(3),
            ..params
        };
        let refused = cfg.problem_with(&projected, spec(AttentionKind::Softmax), &three);
        assert!(refused.unwrap_err().to_string().contains("kv_heads"));
    }
}
