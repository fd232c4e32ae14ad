//! Linformer on one head: its seeded `E`, `F` and the `n × k` weights, and their
//! figures.

use attnlab_core::attention::{AttentionKind, HeadInput, Problem};
use attnlab_core::mask::MaskSpec;
use attnlab_plot::{Heatmap, HeatmapError};
use ndarray::Array2;

use attnlab_i18n::{Lang, msg, plot_words};
use attnlab_lab::state::ModelConfig;

use super::{LinearLabError, head_input, labels, run, signed, values};

/// Linformer on one head: the projections and the `n × k` attention.
#[derive(Debug, Clone, PartialEq)]
pub struct LinformerView {
    /// The number of projected keys.
    pub k: usize,
    /// `E ∈ R^{k×m}`: `K' = E K`.
    pub e: Array2<f32>,
    /// `F ∈ R^{k×m}`: `V' = F V`.
    pub f: Array2<f32>,
    /// `softmax(Q (E K)ᵀ / √d_k)`, `n × k`.
    pub weights: Array2<f32>,
}

/// Linformer with `k` projected keys on head `head` of `problem`, with the model's
/// seeded `E, F` (the lab's own Linformer variants use the same). The temperature is
/// the variant's if it is a Linformer variant, else 1.
pub fn linformer_view(
    model: &ModelConfig,
    problem: &Problem,
    head: usize,
    k: usize,
) -> Result<LinformerView, LinearLabError> {
    let input = head_input(problem, head)?;
    let m = input.k.nrows();
    if input.q.nrows() == 0 || m == 0 {
        return Err(LinearLabError::Empty);
    }
    let params = model.linformer_params(k, m, head);
    let mut with = HeadInput::new(input.q.clone(), input.k.clone(), input.v.clone());
    with.linformer = Some(params.clone());
    let temperature = if problem.spec().attention == AttentionKind::Linformer {
        problem.spec().temperature
    } else {
        1.0
    };
    let r = run(
        &with,
        AttentionKind::Linformer,
        MaskSpec::default(),
        temperature,
    )?;
    Ok(LinformerView {
        k,
        e: params.e,
        f: params.f,
        weights: r.weights.into_owned(),
    })
}

/// The figures of a [`LinformerView`]: `Eᵀ` and `Fᵀ` (keys × projected rows) and the
/// `n × k` attention, their words in `lang`.
pub fn linformer_figures(
    view: &LinformerView,
    rows: &[String],
    keys: &[String],
    lang: Lang,
) -> Result<[Heatmap; 3], HeatmapError> {
    let k = view.k;
    let proj = labels("k'", k);
    let e_title = msg::linear::LinearETitle { k: &k }.say(lang);
    let f_title = msg::linear::LinearFTitle { k: &k }.say(lang);
    let keys_axis = msg::linear::LINEAR_AXIS_KEYS.get(lang);
    let projected_keys = msg::linear::LINEAR_AXIS_PROJECTED_KEYS.get(lang);
    let e = signed(
        e_title,
        (keys.to_vec(), proj.clone()),
        &view.e.t().to_owned(),
        msg::linear::LINEAR_E_ENTRY.get(lang),
        (keys_axis, projected_keys),
        lang,
    )?;
    let f = signed(
        f_title,
        (keys.to_vec(), proj.clone()),
        &view.f.t().to_owned(),
        msg::linear::LINEAR_F_ENTRY.get(lang),
        (
            keys_axis,
            msg::linear::LINEAR_AXIS_PROJECTED_VALUES.get(lang),
        ),
        lang,
    )?;
    let a = Heatmap::weights(
        format!("softmax(Q(EK)\u{1d40}/\u{221a}d_k): n\u{d7}{k}"),
        rows.to_vec(),
        proj,
        values(&view.weights),
    )?
    .with_words(plot_words(lang))
    .with_axis_titles(msg::linear::LINEAR_AXIS_QUERIES.get(lang), projected_keys);
    Ok([e, f, a])
}

#[cfg(test)]
mod tests {
    use super::*;
    use attnlab_lab::compute::Pipeline;
    use attnlab_lab::state::LabState;

    #[test]
    fn linformer_matches_the_labs_linformer_variant() {
        let mut state = LabState::default();
        state.variants[1].attention = AttentionKind::Linformer;
        state.variants[1].linformer_k = 5;
        let run = Pipeline::new(&state);
        let b = run.variant(1).unwrap();
        let view = linformer_view(&state.model, &b.problem, 1, 5).unwrap();
        assert_eq!(view.weights, b.heads[1].weights);
        let labels = run.queries().labels();
        let [e, f, a] = linformer_figures(&view, &labels, &labels, Lang::En).unwrap();
        assert_eq!((e.n_rows(), e.n_cols()), (11, 5));
        assert_eq!((f.n_rows(), f.n_cols()), (11, 5));
        assert_eq!((a.n_rows(), a.n_cols()), (11, 5));
        for r in view.weights.rows() {
            assert!((r.sum() - 1.0).abs() < 1e-5);
        }
    }
}
