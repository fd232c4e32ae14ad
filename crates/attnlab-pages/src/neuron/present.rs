//! The neuron view as the page shows it: strips of coloured cells (one per dimension),
//! the steps from the sum to the weight in words, and the row's keys side by side.

use attnlab_plot::{ColorScale, RGBColor, ValueRange, number};

use super::{Form, Neuron, Normalisation, Order};
use attnlab_i18n::Lang;
use attnlab_i18n::msg::neuron as text;

/// One vector as a strip of cells.
#[derive(Debug, Clone, PartialEq)]
pub struct Strip {
    /// Its name, e.g. `"q_i ⊙ k_j"`.
    pub name: String,
    /// A short id for tests and styling: `q`, `k`, `left`, `right`, `product`.
    pub id: &'static str,
    /// `(dimension, value, colour)` in the order asked for.
    pub cells: Vec<(usize, f32, RGBColor)>,
}

/// One key of the row, beside the selected one.
#[derive(Debug, Clone, PartialEq)]
pub struct RowEntry {
    /// The key's index.
    pub key: usize,
    /// Its label.
    pub label: String,
    /// Its raw score.
    pub score: f32,
    /// Its weight.
    pub weight: f32,
    /// Whether the mask allows it.
    pub allowed: bool,
    /// Whether it is the selected key.
    pub selected: bool,
}

fn strip(name: String, id: &'static str, values: &[f32], order: &[usize]) -> Strip {
    // Diverging colours around 0, each strip on its own symmetric range.
    let top = values.iter().fold(0.0f32, |m, v| m.max(v.abs()));
    let range = ValueRange::symmetric(top);
    Strip {
        name,
        id,
        cells: order
            .iter()
            .filter_map(|&d| {
                let v = *values.get(d)?;
                Some((d, v, ColorScale::Diverging.at(range.normalise(v))))
            })
            .collect(),
    }
}

impl Neuron {
    /// The strips in `order`: `q_i`, `k_j`, the two factors when they are not `q_i` and
    /// `k_j` themselves (general, additive, cosine, kernels, efficient), and their
    /// product. The additive factors have `d_a` dimensions, not `d_k`: `q_i` and `k_j`
    /// then keep their own order.
    pub fn strips(&self, order: Order) -> Vec<Strip> {
        let by = self.order(order);
        let plain: Vec<usize> = (0..self.q.len()).collect();
        let qk_order = if self.q.len() == self.products.len() {
            &by
        } else {
            &plain
        };
        let (l, r) = (self.form.left_name(), self.form.right_name());
        let k_name = if self.projected_keys {
            "k'_j = (E K)_j"
        } else {
            "k_j"
        };
        let mut out = vec![
            strip("q_i".into(), "q", &self.q, qk_order),
            strip(k_name.into(), "k", &self.k, qk_order),
        ];
        if l != "q_i" {
            out.push(strip(l.into(), "left", &self.left, &by));
        }
        if r != "k_j" {
            out.push(strip(r.into(), "right", &self.right, &by));
        }
        out.push(strip(
            format!("{l} \u{2299} {r}"),
            "product",
            &self.products,
            &by,
        ));
        out
    }

    /// From the sum to the weight, one sentence per step, in `lang`.
    pub fn steps(&self, lang: Lang) -> Vec<String> {
        let f = |v: f32| number::full(v);
        let (n, sum_name, sum) = (self.products.len(), self.form.sum_name(lang), f(self.sum));
        let mut lines = vec![
            text::NeuronStepSum {
                n: &n,
                sum_name: &sum_name,
                sum: &sum,
            }
            .say(lang),
        ];
        if let Form::Cosine { q_norm, k_norm } = self.form {
            let (q, k) = (f(q_norm), f(k_norm));
            lines.push(text::NeuronStepCosine { q: &q, k: &k }.say(lang));
        }
        let allows = text::NEURON_STEP_ALLOWED;
        match &self.normalisation {
            Normalisation::Softmax {
                scale,
                temperature,
                logits,
            } => {
                if *scale != 1.0 {
                    let (s, v) = (f(*scale), f(self.sum * scale));
                    lines.push(
                        text::NeuronStepScaled {
                            scale: &s,
                            value: &v,
                        }
                        .say(lang),
                    );
                }
                let (t, logit) = (f(*temperature), f(logits[self.key]));
                lines.push(
                    text::NeuronStepTemperature {
                        tau: &t,
                        logit: &logit,
                    }
                    .say(lang),
                );
                lines.push(if self.is_allowed() {
                    allows.get(lang).to_string()
                } else {
                    text::NEURON_STEP_BLOCKED_LOGIT.get(lang).to_string()
                });
                let allowed = self.allowed.iter().filter(|a| **a).count();
                let w = f(self.weight);
                lines.push(
                    text::NeuronStepSoftmax {
                        allowed: &allowed,
                        weight: &w,
                    }
                    .say(lang),
                );
            }
            Normalisation::Kernel { normaliser } => {
                lines.push(if self.is_allowed() {
                    allows.get(lang).to_string()
                } else {
                    text::NEURON_STEP_BLOCKED_SIMILARITY.get(lang).to_string()
                });
                let (z, w) = (f(*normaliser), f(self.weight));
                lines.push(text::NeuronStepNormaliser { z: &z, weight: &w }.say(lang));
            }
            Normalisation::Computed { kind } => {
                lines.push(if self.is_allowed() {
                    allows.get(lang).to_string()
                } else {
                    text::NEURON_STEP_BLOCKED_LOGIT.get(lang).to_string()
                });
                let (k, w) = (
                    attnlab_lab::explain::kind_label(*kind, lang),
                    f(self.weight),
                );
                lines.push(
                    text::NeuronStepComputed {
                        kind: &k,
                        weight: &w,
                    }
                    .say(lang),
                );
            }
            Normalisation::None => {
                let w = f(self.weight);
                lines.push(text::NeuronStepEfficient { weight: &w }.say(lang));
            }
        }
        lines
    }

    /// Every key of the row with its score and weight, labelled by `keys`.
    pub fn row(&self, keys: &[String]) -> Vec<RowEntry> {
        (0..self.row_weights.len())
            .map(|j| RowEntry {
                key: j,
                label: keys.get(j).cloned().unwrap_or_else(|| format!("k'{j}")),
                score: self.row_scores[j],
                weight: self.row_weights[j],
                allowed: self.allowed[j],
                selected: j == self.key,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use crate::neuron::{Order, neuron};
    use attnlab_core::score::ScoreFunction;
    use attnlab_i18n::Lang;
    use attnlab_lab::compute::Pipeline;
    use attnlab_lab::state::LabState;

    #[test]
    fn strips_steps_and_row_for_the_page() {
        let mut state = LabState::default();
        state.variants[0].score = ScoreFunction::Additive;
        state.variants[0].masks.causal = true;
        let run = Pipeline::new(&state).variant(0).unwrap();
        let view = neuron(&run.problem, 0, 7, 1).unwrap();
        let strips = view.strips(Order::Magnitude);
        let ids: Vec<_> = strips.iter().map(|s| s.id).collect();
        assert_eq!(ids, ["q", "k", "left", "right", "product"]);
        let product = &strips[4];
        assert_eq!(product.name, "tanh(W q_i + U k_j) \u{2299} v");
        assert!(product.cells[0].1.abs() >= product.cells[1].1.abs());
        // q keeps its own order: d_a differs from d_k here? Either way every dimension
        // is there once.
        assert_eq!(strips[0].cells.len(), 16);
        let steps = view.steps(Lang::En);
        assert!(steps[0].starts_with("Sum over the"), "{steps:?}");
        assert!(steps.last().unwrap().contains("weight \u{3b1} ="));
        let keys: Vec<String> = (0..11).map(|j| format!("t{j}")).collect();
        let row = view.row(&keys);
        assert_eq!(row.len(), 11);
        assert!(row[1].selected && row[1].allowed && !row[8].allowed);
        let blocked = neuron(&run.problem, 0, 2, 5).unwrap();
        assert!(
            blocked
                .steps(Lang::En)
                .iter()
                .any(|s| s.contains("blocks this cell"))
        );
    }
}
