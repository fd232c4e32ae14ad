//! The formulas of the stages as MathML markup, which browsers render natively. Each
//! function returns one `<math>` element; token text is escaped.

use attnlab_core::embed::EmbeddingScale;
use attnlab_core::linear::FeatureMap;
use attnlab_core::model::Projection;
use attnlab_core::position::{Combine, PositionKind};
use attnlab_core::score::ScoreFunction;
use attnlab_core::streaming::Causality;
use attnlab_plot::number;

use super::stages::{Keys, Query};

#[path = "formula_modern.rs"]
mod modern;
use attnlab_lab::state::{MaskKind, Mode, ModelConfig, Variant};
pub use modern::*;

/// One of the three projections of the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Qkv {
    /// `Q`, from the queries' `X`.
    Queries,
    /// `K`, from the keys' `X`.
    Keys,
    /// `V`, from the keys' `X`.
    Values,
}

impl Qkv {
    /// The matrix's letter: `"Q"`, `"K"` or `"V"`.
    pub fn symbol(self) -> &'static str {
        match self {
            Qkv::Queries => "Q",
            Qkv::Keys => "K",
            Qkv::Values => "V",
        }
    }
}

/// The side a feature map is applied to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The queries `Q`.
    Queries,
    /// The keys `K`.
    Keys,
}

impl Side {
    fn symbol(self) -> &'static str {
        match self {
            Side::Queries => "Q",
            Side::Keys => "K",
        }
    }
}

/// What Linformer mixes down to `k` rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinformerInput {
    /// The keys, with `E`: `K′ = E K`.
    Keys,
    /// The values, with `F`: `V′ = F V`.
    Values,
}

/// Escapes `&`, `<`, `>` and `"` for text inside MathML.
pub fn escape(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => s.push_str("&amp;"),
            '<' => s.push_str("&lt;"),
            '>' => s.push_str("&gt;"),
            '"' => s.push_str("&quot;"),
            c => s.push(c),
        }
    }
    s
}

fn wrap(inner: &str) -> String {
    format!("<math xmlns=\"http://www.w3.org/1998/Math/MathML\" display=\"block\">{inner}</math>")
}
fn mi(x: &str) -> String {
    format!("<mi>{}</mi>", escape(x))
}
fn mo(x: &str) -> String {
    format!("<mo>{}</mo>", escape(x))
}
fn mn(x: &str) -> String {
    format!("<mn>{}</mn>", escape(x))
}
fn mtext(x: &str) -> String {
    format!("<mtext>{}</mtext>", escape(x))
}
fn row(parts: &[String]) -> String {
    format!("<mrow>{}</mrow>", parts.concat())
}
fn sub(base: String, s: String) -> String {
    format!("<msub>{base}{s}</msub>")
}
fn sup(base: String, s: String) -> String {
    format!("<msup>{base}{s}</msup>")
}
fn subsup(base: String, s: String, p: String) -> String {
    format!("<msubsup>{base}{s}{p}</msubsup>")
}
fn frac(a: String, b: String) -> String {
    format!("<mfrac>{a}{b}</mfrac>")
}
fn sqrt(a: String) -> String {
    format!("<msqrt>{a}</msqrt>")
}
fn t(x: String) -> String {
    sup(x, mi("\u{22a4}"))
}
fn paren(x: String) -> String {
    row(&[mo("("), x, mo(")")])
}

/// `X = E + PE` (or the concatenation, or `E` alone) and, as a second `<math>` block, the
/// query's own row: for query 7, "it", `x_7 = e(“it”) + PE(7)`.
pub fn input(model: &ModelConfig, query: Option<&Query>) -> String {
    let e = match model.embedding_scale {
        EmbeddingScale::Unit => mi("E"),
        EmbeddingScale::SqrtDModel => {
            row(&[sqrt(sub(mi("d"), mi("model"))), mo("\u{2062}"), mi("E")])
        }
    };
    let pe = match model.position.kind {
        PositionKind::Learned => mi("P"),
        _ => mi("PE"),
    };
    let rhs = match (model.position.kind, model.position.combine) {
        (PositionKind::None, _) => e.clone(),
        (_, Combine::Add) => row(&[e.clone(), mo("+"), pe.clone()]),
        (_, Combine::Concat { .. }) => row(&[mo("["), e.clone(), mo("|"), pe.clone(), mo("]")]),
    };
    let matrix = wrap(&row(&[mi("X"), mo("="), rhs]));
    let Some(query) = query else {
        return matrix;
    };
    let i = query.index.to_string();
    let word = row(&[
        mi("e"),
        paren(row(&[mtext(&format!("\u{201c}{}\u{201d}", query.token))])),
    ]);
    let line = match (model.position.kind, model.position.combine) {
        (PositionKind::None, _) => word,
        (_, Combine::Add) => row(&[word, mo("+"), pe.clone(), paren(mn(&i))]),
        (_, Combine::Concat { .. }) => {
            row(&[mo("["), word, mo("|"), pe.clone(), paren(mn(&i)), mo("]")])
        }
    };
    // Two equations, two blocks: the page wraps them onto two lines when they do not
    // fit side by side.
    matrix + &wrap(&row(&[sub(mi("x"), mn(&i)), mo("="), line]))
}

fn mspace() -> String {
    "<mspace width=\"1em\"></mspace>".to_string()
}

/// `Q = X W^Q_h`, `K = X_src W^K_h` in cross-attention (or `Q = X` for identity
/// projections).
pub fn projection(which: Qkv, head: usize, mode: Mode, projection: Projection) -> String {
    let x = match (which, mode) {
        (Qkv::Keys | Qkv::Values, Mode::Cross) => sub(mi("X"), mi("src")),
        _ => mi("X"),
    };
    let lhs = which.symbol();
    match projection {
        Projection::Identity => wrap(&row(&[mi(lhs), mo("="), x])),
        Projection::Seeded => {
            let h = head.to_string();
            wrap(&row(&[
                sub(mi(lhs), mn(&h)),
                mo("="),
                x,
                mo("\u{2062}"),
                subsup(mi("W"), mn(&h), mi(lhs)),
            ]))
        }
    }
}

/// `Q_h`, `K_h` or `V_h` as brought (no `X`, no projection).
pub fn brought(which: Qkv, head: usize) -> String {
    wrap(&sub(mi(which.symbol()), mn(&head.to_string())))
}

/// Linformer's `K' = E K` (`k × m` times `m × d_k`).
pub fn linformer_projection(of: LinformerInput, k: usize, m: usize) -> String {
    let (which, by) = match of {
        LinformerInput::Keys => ("K", "E"),
        LinformerInput::Values => ("V", "F"),
    };
    wrap(&row(&[
        sup(mi(which), mo("\u{2032}")),
        mo("="),
        mi(by),
        mo("\u{2062}"),
        mi(which),
        mo(","),
        mspace(),
        mi(by),
        mo("\u{2208}"),
        sup(
            mi("\u{211d}"),
            row(&[mn(&k.to_string()), mo("\u{d7}"), mn(&m.to_string())]),
        ),
    ]))
}

fn qk() -> String {
    row(&[
        t(sub(mi("q"), mi("i"))),
        mo("\u{2062}"),
        sub(mi("k"), mi("j")),
    ])
}

/// The raw score `s_ij` of the score function (against Linformer's projected keys, the
/// plain `q_iᵀ k′_j`).
pub fn scores(f: ScoreFunction, keys: Keys) -> String {
    let s = sub(mi("s"), mi("ij"));
    let body = match keys {
        Keys::Projected => row(&[
            t(sub(mi("q"), mi("i"))),
            mo("\u{2062}"),
            subsup(mi("k"), mi("j"), mo("\u{2032}")),
        ]),
        Keys::Tokens => match f {
            ScoreFunction::Dot | ScoreFunction::ScaledDot => qk(),
            ScoreFunction::General => row(&[
                t(sub(mi("q"), mi("i"))),
                mo("\u{2062}"),
                mi("W"),
                mo("\u{2062}"),
                sub(mi("k"), mi("j")),
            ]),
            ScoreFunction::Additive => row(&[
                t(mi("v")),
                mo("\u{2062}"),
                mi("tanh"),
                paren(row(&[
                    sub(mi("W"), mi("a")),
                    sub(mi("q"), mi("i")),
                    mo("+"),
                    sub(mi("U"), mi("a")),
                    sub(mi("k"), mi("j")),
                ])),
            ]),
            ScoreFunction::Cosine => frac(
                qk(),
                row(&[
                    mo("\u{2016}"),
                    sub(mi("q"), mi("i")),
                    mo("\u{2016}"),
                    mo("\u{2016}"),
                    sub(mi("k"), mi("j")),
                    mo("\u{2016}"),
                ]),
            ),
        },
    };
    wrap(&row(&[s, mo("="), body]))
}

/// The logits `l_ij = s_ij / (√d_k τ)` or `s_ij / τ`.
pub fn scaled(f: ScoreFunction, d_k: usize, tau: f32) -> String {
    let l = sub(mi("l"), mi("ij"));
    let s = sub(mi("s"), mi("ij"));
    let tau_n = mn(&number::decimals(tau, 2));
    let parts = if f == ScoreFunction::ScaledDot {
        vec![
            l,
            mo("="),
            frac(
                s,
                row(&[sqrt(sub(mi("d"), mi("k"))), mo("\u{2062}"), mi("\u{3c4}")]),
            ),
            mo(","),
            mspace(),
            sub(mi("d"), mi("k")),
            mo("="),
            mn(&d_k.to_string()),
            mo(","),
            mspace(),
            mi("\u{3c4}"),
            mo("="),
            tau_n,
        ]
    } else {
        vec![
            l,
            mo("="),
            frac(s, mi("\u{3c4}")),
            mo(","),
            mspace(),
            mi("\u{3c4}"),
            mo("="),
            tau_n,
        ]
    };
    wrap(&row(&parts))
}

fn mask_condition(variant: &Variant) -> String {
    let on = variant.masks.on();
    if on.is_empty() {
        return mtext("every key allowed (no mask)");
    }
    let and = |kinds: &[&MaskKind]| {
        let mut parts = Vec::new();
        for kind in kinds {
            if !parts.is_empty() {
                parts.push(mo("\u{2227}"));
            }
            parts.push(match kind {
                MaskKind::Causal => row(&[mi("j"), mo("\u{2264}"), mi("i")]),
                MaskKind::Window => row(&[
                    mo("|"),
                    mi("i"),
                    mo("\u{2212}"),
                    mi("j"),
                    mo("|"),
                    mo("\u{2264}"),
                    mn(&variant.masks.window.unwrap_or(0).to_string()),
                ]),
                other => mtext(other.label()),
            });
        }
        parts
    };
    // Attention sinks open the first s keys after causal, window, strided and global
    // ((…) ∨ j < s); padding and custom close cells after them.
    let closing = |k: &&MaskKind| matches!(k, MaskKind::Padding | MaskKind::Custom);
    let before: Vec<&MaskKind> = on
        .iter()
        .filter(|k| **k != MaskKind::Sinks && !closing(k))
        .collect();
    let after: Vec<&MaskKind> = on.iter().filter(closing).collect();
    let mut parts = and(&before);
    if let Some(s) = variant.masks.sinks {
        let sinks = row(&[mi("j"), mo("<"), mn(&s.to_string())]);
        parts = match parts.is_empty() {
            true => vec![sinks],
            false => vec![paren(row(&parts)), mo("\u{2228}"), sinks],
        };
    }
    let after = and(&after);
    if !after.is_empty() {
        if !parts.is_empty() {
            parts.push(mo("\u{2227}"));
        }
        parts.extend(after);
    }
    row(&parts)
}

/// `l̃_ij = l_ij` where the mask allows, else `−∞`.
pub fn masked(variant: &Variant) -> String {
    let table = format!(
        "<mrow><mo>{{</mo><mtable>\
         <mtr><mtd>{}</mtd><mtd>{}</mtd></mtr>\
         <mtr><mtd>{}</mtd><mtd>{}</mtd></mtr></mtable></mrow>",
        sub(mi("l"), mi("ij")),
        row(&[mtext("if "), mask_condition(variant)]),
        row(&[mo("\u{2212}"), mi("\u{221e}")]),
        mtext("otherwise"),
    );
    wrap(&row(&[sub(mover_tilde(), mi("ij")), mo("="), table]))
}

fn mover_tilde() -> String {
    "<mover><mi>l</mi><mo>~</mo></mover>".to_string()
}

/// `a_ij = exp(l̃_ij − max) / Σ exp(…)`.
pub fn softmax() -> String {
    let e = |j: &str| {
        row(&[
            mi("exp"),
            paren(row(&[
                sub(mover_tilde(), mi(&format!("i{j}"))),
                mo("\u{2212}"),
                sub(mi("max"), mi("j")),
                sub(mover_tilde(), mi("ij")),
            ])),
        ])
    };
    wrap(&row(&[
        sub(mi("a"), mi("ij")),
        mo("="),
        frac(
            e("j"),
            row(&[sub(mo("\u{2211}"), mi("j\u{2032}")), e("j\u{2032}")]),
        ),
    ]))
}

/// The feature map of a kernel variant, applied to each row of `side`.
pub fn feature_map(map: FeatureMap, side: Side) -> String {
    let x = mi("x");
    let def = match map {
        FeatureMap::Elu1 => row(&[mi("elu"), paren(x), mo("+"), mn("1")]),
        FeatureMap::Relu => row(&[mi("max"), paren(row(&[x, mo(","), mn("0")]))]),
        FeatureMap::Taylor => row(&[
            mo("["),
            mn("1"),
            mo(","),
            frac(mi("x"), row(&[mo("\u{2016}"), mi("x"), mo("\u{2016}")])),
            mo("]"),
        ]),
    };
    wrap(&row(&[
        mi("\u{3c6}"),
        paren(mi("x")),
        mo("="),
        def,
        mo(","),
        mspace(),
        mtext(&format!("applied to each row of {}", side.symbol())),
    ]))
}

/// `S_ij = M_ij φ(q_i)ᵀ φ(k_j)`.
pub fn similarity(variant: &Variant) -> String {
    let masked = !variant.masks.on().is_empty();
    let mut parts = vec![sub(mi("S"), mi("ij")), mo("=")];
    if masked {
        parts.extend([sub(mi("M"), mi("ij")), mo("\u{2062}")]);
    }
    parts.extend([
        t(row(&[mi("\u{3c6}"), paren(sub(mi("q"), mi("i")))])),
        mo("\u{2062}"),
        mi("\u{3c6}"),
        paren(sub(mi("k"), mi("j"))),
    ]);
    wrap(&row(&parts))
}

/// `Â_ij = S_ij / (Σ_j' S_ij' + ε)`.
pub fn implied() -> String {
    wrap(&row(&[
        sub("<mover><mi>A</mi><mo>^</mo></mover>".to_string(), mi("ij")),
        mo("="),
        frac(
            sub(mi("S"), mi("ij")),
            row(&[
                sub(mo("\u{2211}"), mi("j\u{2032}")),
                sub(mi("S"), mi("ij\u{2032}")),
                mo("+"),
                mi("\u{3b5}"),
            ]),
        ),
    ]))
}

/// Efficient attention's normalisations: the queries' rows over their features, the
/// keys' columns over the positions.
pub fn efficient_map(side: Side) -> String {
    let (over_what, over) = match side {
        Side::Queries => ("row", "over the d_k features of each row"),
        Side::Keys => ("col", "over the positions of each column"),
    };
    let of = side.symbol();
    wrap(&row(&[
        mi("\u{3c6}"),
        paren(mi(of)),
        mo("="),
        sub(mi("softmax"), mi(over_what)),
        paren(mi(of)),
        mspace(),
        mtext(over),
    ]))
}

/// Efficient attention's implied matrix.
pub fn efficient_implied() -> String {
    wrap(&row(&[
        "<mover><mi>A</mi><mo>^</mo></mover>".to_string(),
        mo("="),
        mi("\u{3c6}"),
        paren(mi("Q")),
        mo("\u{2062}"),
        mi("\u{3c6}"),
        t(paren(mi("K"))),
    ]))
}

/// `O_h = A V` (Linformer, whose weights are over the projected keys: `A V′`).
pub fn head_output(head: usize, keys: Keys) -> String {
    let v = match keys {
        Keys::Projected => sup(mi("V"), mo("\u{2032}")),
        Keys::Tokens => mi("V"),
    };
    wrap(&row(&[
        sub(mi("O"), mn(&head.to_string())),
        mo("="),
        mi("A"),
        mo("\u{2062}"),
        v,
    ]))
}

/// The O(n) kernel form (causal: sums over `j ≤ i`).
pub fn linear_output(head: usize, causality: Causality) -> String {
    let range = match causality {
        Causality::Causal => row(&[mi("j"), mo("\u{2264}"), mi("i")]),
        Causality::Full => mi("j"),
    };
    let sum = |body: String| row(&[sub(mo("\u{2211}"), range.clone()), body]);
    let phi = |x: &str, i: &str| row(&[mi("\u{3c6}"), paren(sub(mi(x), mi(i)))]);
    wrap(&row(&[
        sub(mi("o"), row(&[mi("i"), mo(","), mn(&head.to_string())])),
        mo("="),
        frac(
            row(&[
                t(phi("q", "i")),
                paren(sum(row(&[phi("k", "j"), t(sub(mi("v"), mi("j")))]))),
            ]),
            row(&[t(phi("q", "i")), sum(phi("k", "j")), mo("+"), mi("\u{3b5}")]),
        ),
    ]))
}

/// Efficient attention's output.
pub fn efficient_output(head: usize) -> String {
    wrap(&row(&[
        sub(mi("O"), mn(&head.to_string())),
        mo("="),
        mi("\u{3c6}"),
        paren(mi("Q")),
        paren(row(&[mi("\u{3c6}"), t(paren(mi("K"))), mi("V")])),
    ]))
}

/// `MultiHead = Concat(O_0 … O_{h−1}) W^O` (without `W^O` for identity projections).
pub fn output(heads: usize, projection: Projection) -> String {
    let mut parts = vec![
        mi("MultiHead"),
        mo("="),
        mi("Concat"),
        paren(row(&[
            sub(mi("O"), mn("0")),
            mo(","),
            mo("\u{2026}"),
            mo(","),
            sub(mi("O"), mn(&heads.saturating_sub(1).to_string())),
        ])),
    ];
    if projection == Projection::Seeded {
        parts.extend([mo("\u{2062}"), sup(mi("W"), mi("O"))]);
    }
    wrap(&row(&parts))
}
