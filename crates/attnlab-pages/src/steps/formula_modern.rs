//! The formulas of the stages of the kinds and options of docs/maths.md §7b–7d and §13:
//! RoPE's turn, the softcap, ALiBi's bias, the normalisers, differential attention, the
//! decay and FAVOR+'s features. Symbols only, the same in every language.

use attnlab_core::score::ScoreFunction;
use attnlab_plot::number;

use super::*;

fn num(x: f32) -> String {
    mn(&number::rounded(x, 4))
}

fn lt() -> String {
    sub(mover_tilde(), mi("ij"))
}

fn lt_j(j: &str) -> String {
    sub(mover_tilde(), mi(&format!("i{j}")))
}

fn exp_of(x: String) -> String {
    sup(mi("e"), x)
}

fn sum_j(body: String) -> String {
    row(&[sub(mo("\u{2211}"), mi("j\u{2032}")), body])
}

/// RoPE's turn of pair `t` at position `p`: `(a, b) → (a cos pθ_t − b sin pθ_t, a sin pθ_t
/// + b cos pθ_t)`, `θ_t = base^(−2t/r)`, for the queries (`q̃_i`) or the keys (`k̃_j`).
pub fn rope_turn(keys: bool, base: f32, r: usize, half: bool) -> String {
    let (x, i) = if keys { ("k", "j") } else { ("q", "i") };
    let angle = row(&[sub(mi("p"), mi(i)), sub(mi("\u{3b8}"), mi("t"))]);
    let cos = row(&[mi("cos"), mo("\u{2061}"), angle.clone()]);
    let sin = row(&[mi("sin"), mo("\u{2061}"), angle]);
    let pair = if half {
        row(&[mi("t"), mo(","), mi("t"), mo("+"), frac(mi("r"), mn("2"))])
    } else {
        row(&[
            mn("2"),
            mi("t"),
            mo(","),
            mn("2"),
            mi("t"),
            mo("+"),
            mn("1"),
        ])
    };
    wrap(&row(&[
        paren(row(&[
            sub(mover(x), mi("a")),
            mo(","),
            sub(mover(x), mi("b")),
        ])),
        mo("="),
        paren(row(&[
            mi("a"),
            cos.clone(),
            mo("\u{2212}"),
            mi("b"),
            sin.clone(),
            mo(","),
            mi("a"),
            sin,
            mo("+"),
            mi("b"),
            cos,
        ])),
        mo(","),
        mspace(),
        paren(row(&[mi("a"), mo(","), mi("b")])),
        mo("="),
        paren(pair),
        mo(","),
        mspace(),
        sub(mi("\u{3b8}"), mi("t")),
        mo("="),
        sup(
            num(base),
            row(&[mo("\u{2212}"), mn("2"), mi("t"), mo("/"), mi("r")]),
        ),
        mo(","),
        mspace(),
        mi("r"),
        mo("="),
        mn(&r.to_string()),
    ]))
}

fn mover(x: &str) -> String {
    format!("<mover><mi>{x}</mi><mo>~</mo></mover>")
}

/// The softcap: `z ← c·tanh(z/c)`.
pub fn softcap(c: f32) -> String {
    let l = sub(mi("l"), mi("ij"));
    wrap(&row(&[
        l.clone(),
        mo("\u{2190}"),
        mi("c"),
        mo("\u{2062}"),
        mi("tanh"),
        paren(frac(l, mi("c"))),
        mo(","),
        mspace(),
        mi("c"),
        mo("="),
        num(c),
    ]))
}

/// ALiBi's bias of head `head`: `l_ij ← l_ij − m_h |i − j|`.
pub fn alibi(head: usize, slope: f32) -> String {
    let l = sub(mi("l"), mi("ij"));
    let m = sub(mi("m"), mn(&head.to_string()));
    wrap(&row(&[
        l.clone(),
        mo("\u{2190}"),
        l,
        mo("\u{2212}"),
        m.clone(),
        mo("|"),
        mi("i"),
        mo("\u{2212}"),
        mi("j"),
        mo("|"),
        mo(","),
        mspace(),
        m,
        mo("="),
        num(slope),
    ]))
}

/// Softmax + 1: `a_ij = e^{l̃_ij} / (1 + Σ_j' e^{l̃_ij'})`.
pub fn plus_one() -> String {
    wrap(&row(&[
        sub(mi("a"), mi("ij")),
        mo("="),
        frac(
            exp_of(lt()),
            row(&[mn("1"), mo("+"), sum_j(exp_of(lt_j("j\u{2032}")))]),
        ),
    ]))
}

/// Sigmoid attention: `a_ij = σ(l̃_ij + b)`.
pub fn sigmoid(bias: f32, default: bool, m: usize) -> String {
    let mut parts = vec![
        sub(mi("a"), mi("ij")),
        mo("="),
        mi("\u{3c3}"),
        paren(row(&[lt(), mo("+"), mi("b")])),
        mo(","),
        mspace(),
        mi("b"),
        mo("="),
    ];
    if default {
        parts.extend([
            mo("\u{2212}"),
            mi("ln"),
            mo("\u{2061}"),
            mn(&m.to_string()),
            mo("="),
        ]);
    }
    parts.push(num(bias));
    wrap(&row(&parts))
}

/// Softpick: `a_ij = max(e^{l̃_ij} − 1, 0) / (Σ_j' |e^{l̃_ij'} − 1| + 10⁻⁶)`.
pub fn softpick() -> String {
    wrap(&row(&[
        sub(mi("a"), mi("ij")),
        mo("="),
        frac(
            row(&[
                mi("max"),
                paren(row(&[
                    exp_of(lt()),
                    mo("\u{2212}"),
                    mn("1"),
                    mo(","),
                    mn("0"),
                ])),
            ]),
            row(&[
                sum_j(row(&[
                    mo("|"),
                    exp_of(lt_j("j\u{2032}")),
                    mo("\u{2212}"),
                    mn("1"),
                    mo("|"),
                ])),
                mo("+"),
                sup(mn("10"), row(&[mo("\u{2212}"), mn("6")])),
            ]),
        ),
    ]))
}

/// Sink attention: `a_ij = e^{l̃_ij} / (e^{s_h} + Σ_j' e^{l̃_ij'})`.
pub fn sink(head: usize, s: f32) -> String {
    let sh = sub(mi("s"), mn(&head.to_string()));
    wrap(&row(&[
        sub(mi("a"), mi("ij")),
        mo("="),
        frac(
            exp_of(lt()),
            row(&[
                exp_of(sh.clone()),
                mo("+"),
                sum_j(exp_of(lt_j("j\u{2032}"))),
            ]),
        ),
        mo(","),
        mspace(),
        sh,
        mo("="),
        num(s),
    ]))
}

/// Differential attention's map `which` (1 or 2): `a^w_ij = softmax_j(l̃^w_ij)`, the
/// second from `q₂`, `k₂`.
pub fn differential_map(which: usize) -> String {
    let w = mn(&which.to_string());
    let mut parts = vec![
        subsup(mi("a"), mi("ij"), w.clone()),
        mo("="),
        sub(mi("softmax"), mi("j")),
        paren(subsup(mover_tilde(), mi("ij"), w)),
    ];
    if which == 2 {
        parts.extend([
            mo(","),
            mspace(),
            sup(mi("l"), mn("2")),
            mo("\u{2190}"),
            t(sub(mi("q"), row(&[mn("2"), mo(","), mi("i")]))),
            sub(mi("k"), row(&[mn("2"), mo(","), mi("j")])),
        ]);
    }
    wrap(&row(&parts))
}

/// Differential attention's weights: `a_ij = a¹_ij − λ a²_ij`.
pub fn differential(lambda: f32) -> String {
    wrap(&row(&[
        sub(mi("a"), mi("ij")),
        mo("="),
        subsup(mi("a"), mi("ij"), mn("1")),
        mo("\u{2212}"),
        mi("\u{3bb}"),
        subsup(mi("a"), mi("ij"), mn("2")),
        mo(","),
        mspace(),
        mi("\u{3bb}"),
        mo("="),
        num(lambda),
    ]))
}

/// Decayed linear attention's score: `s_ij = q_iᵀ k_j` (`/√d_k` for the scaled dot).
pub fn decayed_scores(f: ScoreFunction) -> String {
    let qk = row(&[
        t(sub(mi("q"), mi("i"))),
        mo("\u{2062}"),
        sub(mi("k"), mi("j")),
    ]);
    let body = match f {
        ScoreFunction::ScaledDot => frac(qk, sqrt(sub(mi("d"), mi("k")))),
        _ => qk,
    };
    wrap(&row(&[sub(mi("s"), mi("ij")), mo("="), body]))
}

/// The decay `D_ij = γ^{i−j}` for `j ≤ i`, else 0.
pub fn decay(gamma: f32) -> String {
    wrap(&row(&[
        sub(mi("D"), mi("ij")),
        mo("="),
        sup(mi("\u{3b3}"), row(&[mi("i"), mo("\u{2212}"), mi("j")])),
        mo("\u{2003}"),
        paren(row(&[mi("j"), mo("\u{2264}"), mi("i")])),
        mo(","),
        mspace(),
        mi("\u{3b3}"),
        mo("="),
        num(gamma),
    ]))
}

/// Decayed weights: `w_ij = D_ij · s_ij`, no normaliser.
pub fn decayed() -> String {
    wrap(&row(&[
        sub(mi("w"), mi("ij")),
        mo("="),
        sub(mi("D"), mi("ij")),
        mo("\u{b7}"),
        sub(mi("s"), mi("ij")),
    ]))
}

/// FAVOR+'s features of `side`: `φ(x) = exp(W x′ − ‖x′‖²/2)/√r`, `x′ = x / d_k^{1/4}`.
pub fn favor(side: Side, r: usize, d_k: usize) -> String {
    let xp = sup(mi("x"), mo("\u{2032}"));
    let norm = sup(row(&[mo("\u{2016}"), xp.clone(), mo("\u{2016}")]), mn("2"));
    let x = match side {
        Side::Queries => "q",
        Side::Keys => "k",
    };
    wrap(&row(&[
        mi("\u{3c6}"),
        paren(mi(x)),
        mo("="),
        frac(
            row(&[
                mi("exp"),
                paren(row(&[
                    mi("W"),
                    xp.clone(),
                    mo("\u{2212}"),
                    frac(norm, mn("2")),
                ])),
            ]),
            sqrt(mi("r")),
        ),
        mo(","),
        mspace(),
        xp,
        mo("="),
        frac(
            mi(x),
            sup(sub(mi("d"), mi("k")), row(&[mn("1"), mo("/"), mn("4")])),
        ),
        mo(","),
        mspace(),
        mi("r"),
        mo("="),
        mn(&r.to_string()),
        mo(","),
        mspace(),
        sub(mi("d"), mi("k")),
        mo("="),
        mn(&d_k.to_string()),
    ]))
}
