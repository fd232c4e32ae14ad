//! The seeded parameters a variant's heads need beyond `Q`, `K`, `V`: the score
//! functions' weights, Linformer's projections, differential attention's second
//! projections, FAVOR+'s features, the sink logit, the decay and the key/value groups
//! ([`ModelConfig::problem_with`], [`ModelConfig::prepare_head`]).

use ndarray::{Array1, Array2};

use super::{ModelConfig, Projected, times};
use crate::attention::{AttentionKind, AttentionSpec, HeadInput, LinformerParams, Problem};
use crate::error::Result;
use crate::groups::KeyValues;
use crate::rng;
use crate::score::{ScoreFunction, ScoreParams};

impl ModelConfig {
    /// The seeded parameters of a parametrised score function for head `h`:
    /// `W ~ N(0, 1/d_k)`; `W_a, U_a ~ N(0, 1/d_k)`, `v ~ N(0, 1/d_a)` with `d_a = d_k`.
    pub fn score_params(&self, score: ScoreFunction, h: usize) -> ScoreParams {
        let d_k = self.d_k();
        let std = 1.0 / (d_k as f32).sqrt();
        let m = |label: &str| {
            rng::normal_matrix(&mut rng::stream(self.seed, label, h as u64), d_k, d_k, std)
        };
        match score {
            ScoreFunction::General => ScoreParams::General { w: m("general-w") },
            ScoreFunction::Additive => ScoreParams::Additive {
                w_a: m("additive-w"),
                u_a: m("additive-u"),
                v_a: Array1::from(rng::normal_vec(
                    &mut rng::stream(self.seed, "additive-v", h as u64),
                    d_k,
                    std,
                )),
            },
            _ => ScoreParams::None,
        }
    }

    /// Seeded Linformer projections `E, F ∈ R^{k×m}`, entries ~ N(0, 1/k), for head `h`.
    pub fn linformer_params(&self, k: usize, m: usize, h: usize) -> LinformerParams {
        let std = 1.0 / (k.max(1) as f32).sqrt();
        LinformerParams {
            e: rng::normal_matrix(
                &mut rng::stream(self.seed, "linformer-e", h as u64),
                k,
                m,
                std,
            ),
            f: rng::normal_matrix(
                &mut rng::stream(self.seed, "linformer-f", h as u64),
                k,
                m,
                std,
            ),
        }
    }

    /// A validated [`Problem`] for one variant: the projected heads with the seeded
    /// parameters the variant needs (`linformer_k` is used by Linformer only).
    pub fn problem(
        &self,
        projected: &Projected,
        spec: AttentionSpec,
        linformer_k: usize,
    ) -> Result<Problem> {
        let params = HeadParams {
            linformer_k,
            ..HeadParams::default()
        };
        self.problem_with(projected, spec, &params)
    }

    /// The seeded second projections of differential attention for head `h` of width
    /// `d_k`: `R_q, R_k ~ N(0, 1/d_k)`, so that `q₂ = q R_q` and `k₂ = k R_k` (a second
    /// seeded projection of `X`: `X (W^Q R_q)`, `X (W^K R_k)`).
    pub fn second_projections(&self, d_k: usize, h: usize) -> [Array2<f32>; 2] {
        let std = 1.0 / (d_k.max(1) as f32).sqrt();
        ["differential-q2", "differential-k2"].map(|label| {
            rng::normal_matrix(&mut rng::stream(self.seed, label, h as u64), d_k, d_k, std)
        })
    }

    /// FAVOR+'s seeded features for head `h`: `W ~ N(0, 1)`, `r × d_k` (Choromanski et
    /// al. 2021's positive random features, drawn independently).
    pub fn favor_features(&self, r: usize, d_k: usize, h: usize) -> Array2<f32> {
        rng::normal_matrix(
            &mut rng::stream(self.seed, "favor-w", h as u64),
            r,
            d_k,
            1.0,
        )
    }

    /// Head `h`'s parameters for `spec`, drawn from this seed where the head brings none:
    /// the score function's weights, Linformer's `E`, `F`, the sink logit, the decay,
    /// FAVOR+'s features and differential attention's second queries and keys (drawn
    /// only with [`HeadParams::draw_second`]). The per-head part of
    /// [`ModelConfig::problem_with`], for callers that form their heads themselves (a
    /// real model's encoder).
    pub fn prepare_head(
        &self,
        spec: &AttentionSpec,
        params: &HeadParams,
        h: usize,
        head: &mut HeadInput,
    ) {
        let d_k = head.q.ncols();
        if spec.attention.uses_score_function() {
            head.score_params = self.score_params(spec.score, h);
        }
        match spec.attention {
            AttentionKind::Linformer => {
                head.linformer = Some(self.linformer_params(params.linformer_k, head.k.nrows(), h));
            }
            AttentionKind::Sink => head.sink = Some(params.sink),
            AttentionKind::DecayedLinear if head.gates.is_none() && spec.gates.is_none() => {
                head.decay = Some(params.decay);
            }
            AttentionKind::Favor if head.features.is_none() => {
                head.features = Some(self.favor_features(params.features, d_k, h));
            }
            AttentionKind::Differential
                if params.draw_second && (head.q2.is_none() || head.k2.is_none()) =>
            {
                let [rq, rk] = self.second_projections(d_k, h);
                if head.q2.is_none() {
                    head.q2 = Some(times(&head.q, &rq));
                }
                if head.k2.is_none() {
                    head.k2 = Some(times(&head.k, &rk));
                }
            }
            _ => {}
        }
    }

    /// [`ModelConfig::problem`] with every parameter of the kinds beyond the lab's six:
    /// the keys and values shared by groups of heads (each group's `K`, `V` the mean of
    /// its heads' — Ainslie et al. 2023's conversion of a multi-head checkpoint), the
    /// sink logit, the decay, FAVOR+'s seeded features, and differential attention's
    /// second queries and keys (those the heads bring, else, with
    /// [`HeadParams::draw_second`], the seeded [`ModelConfig::second_projections`]).
    pub fn problem_with(
        &self,
        projected: &Projected,
        spec: AttentionSpec,
        params: &HeadParams,
    ) -> Result<Problem> {
        let mut heads: Vec<HeadInput> = projected.heads.clone();
        if let Some(g) = params.kv_groups {
            let h = heads.len();
            crate::groups::check_groups(h, g)?;
            let groups: Vec<KeyValues> = (0..g)
                .map(|group| {
                    group_mean(
                        (0..h)
                            .filter(|&i| crate::groups::group_of(i, h, g) == group)
                            .map(|i| (&heads[i].k, &heads[i].v)),
                    )
                })
                .collect();
            crate::groups::share_key_values(&mut heads, &groups)?;
        }
        for (h, head) in heads.iter_mut().enumerate() {
            self.prepare_head(&spec, params, h, head);
        }
        Problem::new(heads, spec, projected.w_o.clone())
    }
}

/// The keys and values a group of heads shares: the mean of its heads' (Ainslie et al.
/// 2023's conversion of a multi-head checkpoint). `members` yields each head's `(K, V)`;
/// a group has at least one head.
pub fn group_mean<'a>(
    members: impl IntoIterator<Item = (&'a Array2<f32>, &'a Array2<f32>)>,
) -> KeyValues {
    let mut members = members.into_iter();
    let (k, v) = members.next().expect("a group has a head");
    let (mut k, mut v, mut count) = (k.clone(), v.clone(), 1.0f32);
    for (mk, mv) in members {
        k += mk;
        v += mv;
        count += 1.0;
    }
    KeyValues {
        k: k / count,
        v: v / count,
    }
}

/// What a variant's heads need beyond `Q`, `K`, `V` ([`ModelConfig::problem_with`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HeadParams {
    /// Linformer's number of projected keys `k`.
    pub linformer_k: usize,
    /// FAVOR+'s number of random features `r`.
    pub features: usize,
    /// `s_h` of sink attention (every head the same).
    pub sink: f32,
    /// `γ` of decayed linear attention (every head the same).
    pub decay: f32,
    /// `G` groups of keys and values shared by the heads; `None`: each head its own.
    pub kv_groups: Option<usize>,
    /// Whether differential attention's missing `q₂`, `k₂` are drawn
    /// ([`ModelConfig::second_projections`]); without, a head that brings none is the
    /// core's error naming `q2`.
    pub draw_second: bool,
}

impl Default for HeadParams {
    fn default() -> Self {
        HeadParams {
            linformer_k: 4,
            features: 64,
            sink: 0.0,
            decay: 0.9,
            kv_groups: None,
            draw_second: true,
        }
    }
}
