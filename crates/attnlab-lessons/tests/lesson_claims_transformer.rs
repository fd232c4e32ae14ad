//! What the lessons `block` (13), `decoder` (14), `kv-cache` (15) and `why-attention`
//! (16) say, checked against what the app computes for each step's own state (read from
//! the lesson files): the Block page's run (`attnlab_pages::block`), the lab, the
//! Decoding page's KV-cache calculator (`attnlab_pages::decoding`) and the Complexity
//! page's "why attention" (`attnlab_pages::complexity::why`). The sentence checked is
//! quoted above each assertion.

mod common;

use common::{run, step, words};

use attnlab_core::block::{Activation, Norm, gelu, layer_norm};
use attnlab_core::model::Encoded;
use attnlab_lab::compute::{self, Pipeline};
use attnlab_lab::state::{LabState, MaskKind, Mode, Page};
use attnlab_lessons::{Answer, Lang, StepKind, answer};
use attnlab_pages::block::{self, BlockInput, BlockRun, SublayerKind};
use attnlab_pages::complexity::why::{self, DEFAULT_LAYERS, DEFAULT_OUTPUT, Layer, Sizes, reach};
use attnlab_pages::decoding::{
    CacheKind, PRESETS, bytes_text, checked, compared, per_token_formula, sizes, total_formula,
};
use attnlab_plot::number;
use ndarray::{Array2, ArrayRef2};

/// Both languages say `en` / `zh`.
fn says(lesson: &str, id: &str, en: &str, zh: &str) {
    let [e, z] = words(lesson, id);
    assert!(
        e.contains(en),
        "{lesson}/{id} (en) does not say “{en}”: {e}"
    );
    assert!(
        z.contains(zh),
        "{lesson}/{id} (zh) does not say “{zh}”: {z}"
    );
}

/// The Block page's run on `state`, as src/pages/block/block_page.rs makes it: the
/// sentence's (target's) X, in cross mode the source's X for the encoder, the lab's seed
/// and the page's settings.
fn block_run(state: &LabState) -> (Encoded, BlockRun) {
    let pipeline = Pipeline::new(state);
    let encoded = compute::encode(&state.model, pipeline.queries()).unwrap();
    let labels = pipeline.queries().labels();
    let source = match state.mode {
        Mode::Cross => Some((
            compute::encode(&state.model, pipeline.keys()).unwrap(),
            pipeline.keys().labels(),
        )),
        Mode::SelfAttention => None,
    };
    let input = BlockInput {
        queries: (&encoded, &labels),
        source: source.as_ref().map(|(e, l)| (e, l.as_slice())),
        seed: state.model.seed,
        settings: &state.view.block,
    };
    let run = block::run(&input).unwrap();
    (encoded, run)
}

/// The mean of a row of norms.
fn mean(v: ndarray::ArrayView1<'_, f32>) -> f32 {
    v.sum() / v.len() as f32
}

/// The largest |difference| of two matrices.
fn max_abs(a: &ArrayRef2<f32>, b: &ArrayRef2<f32>) -> f32 {
    (a - b).iter().fold(0.0f32, |m, d| m.max(d.abs()))
}

// ---- 13 block ---------------------------------------------------------------------

#[test]
fn block_sublayers_two_sub_layers_each_x_plus_f_of_x_at_the_page_s_sizes() {
    let s = step("block", "sublayers");
    assert_eq!(s.page, Page::Block);
    let (_, r) = block_run(&s.state);
    // "11 tokens of width d = 64, 4 heads of d_k = 16, a feed-forward of width f = 256"
    says(
        "block",
        "sublayers",
        "11 tokens of width d = 64, 4 heads of d_k = 16, a feed-forward of width f = 256",
        "11 个词，宽度 d = 64，4 个头，每个头 d_k = 16，前馈网络宽度 f = 256",
    );
    let u = r.used;
    assert_eq!(
        (u.tokens.0, u.d, u.heads, u.d / u.heads, u.ffn_width),
        (11, 64, 4, 16, 256)
    );
    // "two sub-layers: multi-head self-attention, then a position-wise feed-forward"
    let kinds: Vec<_> = block::sublayers(&r, 0, Lang::En)
        .unwrap()
        .iter()
        .map(|f| f.kind)
        .collect();
    assert_eq!(
        kinds,
        [SublayerKind::SelfAttention, SublayerKind::FeedForward]
    );
    // "the stream carries on as x + f(x)": post-LN, the stream leaving is LN(x + f(x)).
    assert_eq!(r.norm, Norm::Post);
    let l = &r.stack.layers[0];
    for (sub, ln) in [
        (&l.self_sublayer, &r.block.layers()[0].ln_self),
        (&l.ffn_sublayer, &r.block.layers()[0].ln_ffn),
    ] {
        let sum = &sub.input + &sub.transformed;
        let expected = layer_norm(&sum.view(), ln, r.block.eps());
        assert!(max_abs(&expected, &sub.output.to_owned()) < 1e-5);
    }
    // The stream leaving the self-attention is the one entering the feed-forward.
    assert_eq!(l.self_sublayer.output, l.ffn_sublayer.input);
}

#[test]
fn block_post_ln_every_token_leaves_at_norm_8_and_x_ranges_8_3_to_10_9() {
    let s = step("block", "post-ln");
    let (_, r) = block_run(&s.state);
    // "(then applies a learned gain and bias, 1 and 0 here)"
    for layer in r.block.layers() {
        for ln in [&layer.ln_self, &layer.ln_ffn] {
            assert!(ln.gain.iter().all(|&g| g == 1.0));
            assert!(ln.bias.iter().all(|&b| b == 0.0));
        }
    }
    // "every token leaves every sub-layer with the same norm, √64 = 8 … the rows after
    // layer 1 and layer 2 read 8 in every column"
    says("block", "post-ln", "√64 = 8", "√64 = 8");
    for l in 0..r.stack.layers.len() {
        for f in block::sublayers(&r, l, Lang::En).unwrap() {
            assert!((f.mean_output_norm - 8.0).abs() < 1e-3, "{l} {:?}", f.kind);
        }
    }
    let norms = block::residual_norms(&r);
    assert_eq!(norms.nrows(), 3, "X, layer 1, layer 2");
    for row in 1..3 {
        for &v in norms.row(row) {
            assert_eq!(format!("{v:.2}"), "8.00");
        }
    }
    // "while the input X ranges from 8.3 to 10.9"
    says(
        "block",
        "post-ln",
        "from 8.3 to 10.9",
        "在 8.3 到 10.9 之间",
    );
    let x = norms.row(0);
    let (lo, hi) = x
        .iter()
        .fold((f32::MAX, 0f32), |(a, b), &v| (a.min(v), b.max(v)));
    assert_eq!(
        (format!("{lo:.1}"), format!("{hi:.1}")),
        ("8.3".into(), "10.9".into())
    );
}

#[test]
fn block_pre_ln_the_stream_grows_from_about_10_to_about_20_and_the_final_norm_gives_8() {
    let s = step("block", "pre-ln");
    let (_, r) = block_run(&s.state);
    // "Here six pre-LN layers"
    assert_eq!((r.norm, r.used.layers), (Norm::Pre, 6));
    // "the tokens' mean norm grows from about 10 at the input to about 20 after layer 6,
    // a little with every layer"
    says(
        "block",
        "pre-ln",
        "from about 10 at the input to about 20 after layer 6",
        "从输入处的约 10，一层一层慢慢增长，到第 6 层之后约为 20",
    );
    let norms = block::residual_norms(&r);
    let means: Vec<f32> = norms.rows().into_iter().map(mean).collect();
    assert_eq!(means.len(), 7);
    assert_eq!(means[0].round(), 10.0, "{means:?}");
    assert_eq!(means[6].round(), 20.0, "{means:?}");
    assert!(means.windows(2).all(|w| w[1] > w[0]), "{means:?}");
    // "x ← x + f(LN(x))": the stream leaving is the stream entering plus the branch.
    let sub = &r.stack.layers[2].ffn_sublayer;
    let sum = &sub.input + &sub.transformed;
    assert!(max_abs(&sum, &sub.output.to_owned()) < 1e-5);
    // "A last LayerNorm after the stack … brings the output back to 8."
    assert!(r.block.final_norm().is_some());
    for v in block::row_norms(r.stack.output.view()) {
        assert!((v - 8.0).abs() < 1e-3, "{v}");
    }
    says("block", "pre-ln", "Xiong et al. (2020)", "Xiong 等（2020）");
}

#[test]
fn block_ffn_64_256_64_and_the_reversed_sentence_gives_0_against_attention_s_1_15() {
    let s = step("block", "ffn");
    let (encoded, r) = block_run(&s.state);
    // "each token's 64 features go up to f = 256 and back down to 64 … f = 4·d"
    let ffn = &r.block.layers()[0].ffn;
    assert_eq!(ffn.w_1.dim(), (64, 256));
    assert_eq!(ffn.w_2.dim(), (256, 64));
    assert_eq!(ffn.activation, Activation::Relu);
    // "it reverses the sentence. The feed-forward's outputs are its old rows, reversed:
    // the largest difference is exactly 0. Self-attention … gives 1.15."
    says(
        "block",
        "ffn",
        "the largest difference is exactly 0",
        "最大差值恰好是 0",
    );
    says("block", "ffn", "gives 1.15", "最大差值是 1.15");
    let check = block::permutation(&r, &encoded).unwrap();
    assert_eq!(check.order, (0..11).rev().collect::<Vec<_>>());
    assert_eq!(check.ffn, 0.0);
    // The page shows three significant digits (src/pages/block/block_permutation.rs).
    assert_eq!(number::significant(check.attention, 3), "1.15");
    assert!(!check.no_positions, "attention reads positions");
    // "a one-dimensional convolution of width 1": Su Jianlin's 窗口大小为1的一维卷积.
    says(
        "block",
        "ffn",
        "convolution of width 1",
        "窗口大小为 1 的一维卷积",
    );
}

/// The answer of a predict step, by the app's own [`answer`].
fn predicted(s: &attnlab_lessons::Step) -> Answer {
    let StepKind::Predict(q) = &s.kind else {
        panic!("{} asks nothing", s.id)
    };
    answer(q, &s.state, None).unwrap()
}

#[test]
fn block_predict_shuffle_the_feed_forward_follows_and_attention_does_not() {
    let s = step("block", "predict-shuffle");
    let (encoded, r) = block_run(&s.state);
    let check = block::permutation(&r, &encoded).unwrap();
    // "It is the {answer}. … its largest difference is exactly 0."
    let a = predicted(&s);
    assert_eq!(a.label(Lang::En), "feed-forward");
    assert_eq!(a.label(Lang::Zh), "前馈网络");
    assert_eq!(check.ffn, 0.0);
    assert!(check.attention > 0.1);
    // The other choice is self-attention.
    let StepKind::Predict(q) = &s.kind else {
        unreachable!()
    };
    let options = attnlab_lessons::choices(q, &s.state, Lang::En).unwrap();
    assert_eq!(options, ["self-attention", "feed-forward"]);
    assert_eq!(a.index(), 1);
}

#[test]
fn block_gelu_changes_every_number_but_the_permutation_check_stays_0() {
    let s = step("block", "gelu");
    let (encoded, r) = block_run(&s.state);
    assert_eq!(r.block.layers()[0].ffn.activation, Activation::Gelu);
    // "GELU(−1) ≈ −0.16 where ReLU gives 0"
    says("block", "gelu", "GELU(−1) ≈ −0.16", "GELU(−1) ≈ −0.16");
    assert_eq!(format!("{:.2}", gelu(-1.0)), "-0.16");
    // "every number of the feed-forward changes"
    let relu = {
        let mut st = s.state.clone();
        st.view.block.activation = Activation::Relu;
        block_run(&st).1
    };
    let (g, rl) = (
        &r.stack.layers[0].ffn_sublayer.transformed,
        &relu.stack.layers[0].ffn_sublayer.transformed,
    );
    assert_eq!(
        r.stack.layers[0].ffn_sublayer.input,
        relu.stack.layers[0].ffn_sublayer.input
    );
    assert!(g.iter().zip(rl).all(|(a, b)| a != b));
    // "the permutation check still reads exactly 0"
    assert_eq!(block::permutation(&r, &encoded).unwrap().ffn, 0.0);
}

#[test]
fn block_heads_layer_6_of_6_has_4_heads_of_11_by_11_unlike_layer_1() {
    let s = step("block", "heads");
    let (_, r) = block_run(&s.state);
    // "Here the stack has 6 layers and the page shows layer 6: its 4 heads, each an
    // 11 × 11 matrix"
    says(
        "block",
        "heads",
        "shows layer 6: its 4 heads",
        "显示的是第 6 层：它的 4 个头",
    );
    assert_eq!((r.used.layers, r.used.shown), (6, 5));
    let heads = block::heads(&r, r.used.shown, Lang::En).unwrap();
    assert_eq!(heads.len(), 4);
    let last = &r.stack.layers[5].self_attention;
    let first = &r.stack.layers[0].self_attention;
    for h in 0..4 {
        assert_eq!(last[h].dim(), (11, 11));
        // "unlike those of layer 1"
        assert!(max_abs(&last[h], &first[h]) > 0.05, "head {h}");
    }
    // "The paper stacks N = 6 such layers … each with 8 heads; BERT-base has 12 layers
    // of 12 heads."
    says(
        "block",
        "heads",
        "BERT-base has 12 layers of 12 heads",
        "BERT-base 有 12 层，每层 12 个头",
    );
}

// ---- 14 decoder -------------------------------------------------------------------

#[test]
fn decoder_three_sub_layers_on_4_target_and_6_source_tokens() {
    let s = step("decoder", "three-sublayers");
    assert_eq!(s.state.mode, Mode::Cross);
    let (_, r) = block_run(&s.state);
    // "an encoder on the source 我爱机器学习 (6 tokens), and a decoder on the target
    // "I love machine learning" (4 tokens)"
    assert!(r.is_decoder());
    assert_eq!(r.keys, ["我", "爱", "机", "器", "学", "习"]);
    assert_eq!(r.queries, ["I", "love", "machine", "learning"]);
    says("decoder", "three-sublayers", "(6 tokens)", "（6 个词）");
    says("decoder", "three-sublayers", "(4 tokens)", "（4 个词）");
    // "self-attention over the target, then attention over the encoder's output
    // (cross-attention), then the feed-forward"
    let kinds: Vec<_> = block::sublayers(&r, 0, Lang::En)
        .unwrap()
        .iter()
        .map(|f| f.kind)
        .collect();
    assert_eq!(
        kinds,
        [
            SublayerKind::SelfAttention,
            SublayerKind::CrossAttention,
            SublayerKind::FeedForward
        ]
    );
}

#[test]
fn decoder_masked_self_attention_is_0_above_the_diagonal_and_cross_is_4_by_6_open() {
    let s = step("decoder", "masked-self");
    let (_, r) = block_run(&s.state);
    // "In every self-attention head of the decoder, everything above the diagonal is
    // exactly 0, and the first row, "I", gives weight 1 to itself."
    for layer in &r.stack.layers {
        for w in &layer.self_attention {
            let n = w.nrows();
            for i in 0..n {
                for j in i + 1..n {
                    assert_eq!(w[[i, j]], 0.0);
                }
            }
            assert_eq!(w[[0, 0]], 1.0);
        }
        // "The cross-attention heads beside them are n × m = 4 × 6, with nothing
        // blocked."
        for w in layer.cross_attention.as_ref().unwrap() {
            assert_eq!(w.dim(), (4, 6));
            assert!(w.iter().all(|&v| v > 0.0));
        }
    }
    says("decoder", "masked-self", "n × m = 4 × 6", "n × m = 4 × 6");
    // The page draws them: 4 self heads, then 4 cross heads.
    let heads = block::heads(&r, 0, Lang::En).unwrap();
    let cross = heads
        .iter()
        .filter(|(k, _)| *k == SublayerKind::CrossAttention)
        .count();
    assert_eq!((heads.len(), cross), (8, 4));
}

#[test]
fn decoder_predict_the_first_word_reads_only_itself() {
    let s = step("decoder", "predict-first");
    assert_eq!(s.state.mode, Mode::SelfAttention);
    assert_eq!(s.state.text, "I love machine learning");
    assert!(s.state.variants[0].masks.causal);
    let StepKind::Predict(q) = &s.kind else {
        panic!("asks nothing")
    };
    // "It is {answer}, with weight exactly 1"
    let Answer::Key {
        index,
        token,
        weight,
    } = answer(q, &s.state, None).unwrap()
    else {
        panic!()
    };
    assert_eq!((index, token.as_str(), weight), (0, "I", 1.0));
    // ""love" shares its weight between two keys, "machine" among three."
    let w = &run(&s, 0).heads[0].weights;
    for i in 0..4 {
        let open = (0..4).filter(|&j| w[[i, j]] > 0.0).count();
        assert_eq!(open, i + 1, "row {i}");
    }
}

#[test]
fn decoder_cross_attention_is_4_by_6_all_open_and_the_causal_knob_is_refused() {
    let s = step("decoder", "cross");
    let r = run(&s, 0);
    // "the queries are the 4 target words and the keys the 6 source characters: a 4 × 6
    // matrix. Every cell is above 0"
    says("decoder", "cross", "a 4 × 6 matrix", "一个 4 × 6 的矩阵");
    for h in &r.heads {
        assert_eq!(h.weights.dim(), (4, 6));
        assert!(h.weights.iter().all(|&v| v > 0.0));
    }
    // "the lab refuses the causal knob in cross mode and says why"
    let v = &s.state.variants[0];
    for lang in [Lang::En, Lang::Zh] {
        assert!(
            v.why_not_mask_in(MaskKind::Causal, Mode::Cross, lang)
                .is_some()
        );
    }
    assert!(
        v.why_not_mask_in(MaskKind::Causal, Mode::SelfAttention, Lang::En)
            .is_none()
    );
    // "a link that sets it is opened with the mask off and a notice"
    let mut linked = s.state.clone();
    linked.variants[0].masks.causal = true;
    let link = attnlab_link::encode(&linked);
    let opened = attnlab_link::load(&link);
    assert!(!opened.state.variants[0].masks.causal);
    assert!(opened.notice.is_some());
}

#[test]
fn decoder_padding_blocks_the_two_pad_columns_of_the_source_only() {
    let s = step("decoder", "padding");
    let p = Pipeline::new(&s.state);
    // "here the source is padded from 6 to 8 tokens"
    says(
        "decoder",
        "padding",
        "from 6 to 8 tokens",
        "从 6 个词填充到 8 个词",
    );
    let keys = p.keys().labels();
    assert_eq!(keys.len(), 8);
    assert_eq!(&keys[6..], ["<pad>", "<pad>"]);
    assert_eq!(p.queries().labels().len(), 4, "the target is not padded");
    // "the two <pad> columns are exactly 0 in every row, and the 6 real characters share
    // each row"
    let r = run(&s, 0);
    for h in &r.heads {
        for row in h.weights.rows() {
            assert!(row.iter().take(6).all(|&v| v > 0.0));
            assert_eq!((row[6], row[7]), (0.0, 0.0));
            assert!((row.sum() - 1.0).abs() < 1e-5);
        }
    }
}

#[test]
fn decoder_memory_is_the_encoder_s_6_by_64_output_read_by_every_layer() {
    let s = step("decoder", "memory");
    let (_, r) = block_run(&s.state);
    // "one row per source character, 6 × 64"
    says("decoder", "memory", "6 × 64", "6 × 64");
    let memory = &r.encoder.as_ref().unwrap().output;
    assert_eq!(memory.dim(), (6, 64));
    assert!(block::memory(&r, Lang::En).is_some());
    // "the cross-attention of every decoder layer takes its keys and values from this
    // same matrix": decoding the target row by row against this memory, given
    // explicitly, gives every layer's cross-attention weights of the page's run.
    let (encoded, _) = block_run(&s.state);
    let decoded = r
        .block
        .decode(&encoded_target(&r, &encoded), Some(memory))
        .unwrap();
    for (l, layer) in decoded.layers.iter().enumerate() {
        let run_weights = r.stack.layers[l].cross_attention.as_ref().unwrap();
        let weights = layer.cross_attention.as_ref().unwrap();
        assert_eq!(weights.len(), 4);
        for (a, b) in weights.iter().zip(run_weights) {
            assert_eq!(a.dim(), (4, 6));
            assert!(max_abs(a, b) < 1e-5, "layer {l}");
        }
    }
    says(
        "decoder",
        "memory",
        "6 encoder layers, then 6 decoder layers",
        "6 层编码器，再接 6 层解码器",
    );
}

// ---- 15 kv-cache ------------------------------------------------------------------

#[test]
fn kv_cache_one_at_a_time_row_i_reads_keys_0_to_i() {
    let s = step("kv-cache", "one-at-a-time");
    let r = run(&s, 0);
    // "The last row here, "tired", reads all 11 tokens; the row above it 10; the first
    // row only itself."
    says(
        "kv-cache",
        "one-at-a-time",
        "reads all 11 tokens",
        "读取全部 11 个词",
    );
    let labels = Pipeline::new(&s.state).queries().labels();
    assert_eq!(labels.last().map(String::as_str), Some("tired"));
    for h in &r.heads {
        let w = &h.weights;
        assert_eq!(w.nrows(), 11);
        for i in 0..11 {
            let open: Vec<usize> = (0..11).filter(|&j| w[[i, j]] > 0.0).collect();
            assert_eq!(open, (0..=i).collect::<Vec<_>>());
        }
    }
}

#[test]
fn kv_cache_why_taking_the_last_word_away_leaves_the_first_10_rows_unchanged() {
    let s = step("kv-cache", "why-cache");
    // "Take away the last word of this sentence: the first 10 rows are exactly the same
    // numbers."
    says(
        "kv-cache",
        "why-cache",
        "the first 10 rows are exactly the same",
        "前 10 行的数字完全相同",
    );
    let full = run(&s, 0);
    let mut shorter = s.state.clone();
    let words: Vec<&str> = shorter.text.split_whitespace().collect();
    shorter.text = words[..words.len() - 1].join(" ");
    let short = Pipeline::new(&shorter).variant(0).unwrap();
    assert_eq!(short.heads[0].weights.nrows(), 10);
    for (a, b) in full.heads.iter().zip(&short.heads) {
        let top = a.weights.slice(ndarray::s![..10, ..10]).to_owned();
        assert_eq!(top, b.weights);
        let out = a.output.slice(ndarray::s![..10, ..]).to_owned();
        assert_eq!(out, b.output);
    }
    // Without the causal mask they would change: the cache needs the mask.
    let (mut open, mut open_short) = (s.state.clone(), shorter.clone());
    open.variants[0].masks.causal = false;
    open_short.variants[0].masks.causal = false;
    let (a, b) = (
        Pipeline::new(&open).variant(0).unwrap(),
        Pipeline::new(&open_short).variant(0).unwrap(),
    );
    let top: Array2<f32> = a.heads[0].weights.slice(ndarray::s![..10, ..10]).to_owned();
    assert!(max_abs(&top, &b.heads[0].weights) > 1e-3);
}

#[test]
fn kv_cache_work_176_multiplications_with_the_cache_1936_without() {
    let s = step("kv-cache", "work");
    // "one head with d_k = 16 and t = 11: 11 × 16 = 176 … 11 × 11 × 16 = 1,936"
    says(
        "kv-cache",
        "work",
        "11 × 16 = 176 multiplications for the scores with the cache, 11 × 11 × 16 = 1,936 without",
        "11 × 16 = 176 次乘法，没有缓存时需要 11 × 11 × 16 = 1,936 次",
    );
    let t = Pipeline::new(&s.state).queries().labels().len();
    let d_k = s.state.model.d_k();
    assert_eq!((t, d_k), (11, 16));
    assert_eq!(t * d_k, 176);
    assert_eq!(t * t * d_k, 1936);
    // The core's decoder scores heads · (t + 1) cells per layer at step t, never
    // (t + 1)²: its cache's count at the last step of an 11-token decode.
    let (encoded, r) = block_run(&{
        let mut st = s.state.clone();
        st.set_mode(Mode::Cross);
        st
    });
    let memory = &r.encoder.as_ref().unwrap().output;
    let decoded = r
        .block
        .decode(&encoded_target(&r, &encoded), Some(memory))
        .unwrap();
    let last = decoded.cache.last().unwrap();
    let (layers, heads, n, m) = (r.used.layers, r.used.heads, r.queries.len(), r.keys.len());
    assert_eq!(last.cells, layers * heads * (n + m));
}

/// The decoder's input `X` (the target's rows the run used).
fn encoded_target(r: &BlockRun, encoded: &Encoded) -> Array2<f32> {
    encoded
        .x
        .slice(ndarray::s![..r.used.tokens.0, ..])
        .to_owned()
}

#[test]
fn kv_cache_per_token_llama_3_8b_is_128_kib() {
    let s = step("kv-cache", "per-token");
    let c = s.state.view.kv_cache;
    // "For Llama 3 8B (Meta, 2024): 32 layers, 8 key/value heads of size 128, at fp16"
    let llama = PRESETS.iter().find(|p| p.id == "llama-3-8b").unwrap();
    assert_eq!(c, llama.cache);
    assert!(checked(&c).notes.is_empty());
    // "32 × 2 × 8 × 128 × 2 B = 131,072 B = 128 KiB"
    let formula = per_token_formula(&c);
    assert_eq!(formula, "32 × 2 × 8 × 128 × 2 B = 131,072 B = 128 KiB");
    says("kv-cache", "per-token", &formula, &formula);
    says(
        "kv-cache",
        "per-token",
        "L × 2 × G × d_h",
        "L × 2 × G × d_h",
    );
}

#[test]
fn kv_cache_long_context_1_gib_at_8192_and_16_gib_at_131072() {
    let s = step("kv-cache", "long-context");
    let c = s.state.view.kv_cache;
    // "Llama 3.1 reads 131,072 tokens: then 128 KiB × 131,072 = 16 GiB"
    assert_eq!(c.context, 131_072);
    assert_eq!(
        total_formula(&c),
        "131,072 B × 131,072 × 1 = 17,179,869,184 B = 16 GiB"
    );
    says(
        "kv-cache",
        "long-context",
        "128 KiB × 131,072 = 16 GiB",
        "128 KiB × 131,072 = 16 GiB",
    );
    // "At Llama 3's context of 8,192 tokens the cache of one sequence is 1 GiB."
    let preset = PRESETS.iter().find(|p| p.id == "llama-3-8b").unwrap().cache;
    assert_eq!(preset.context, 8192);
    assert_eq!(bytes_text(sizes(&preset).bytes_total()), "1 GiB");
    says(
        "kv-cache",
        "long-context",
        "8,192-token context one sequence's cache is 1 GiB",
        "8,192 个词的上下文里，一条序列的缓存是 1 GiB",
    );
    // "more than the model's own weights at fp16 (8 billion × 2 B ≈ 15 GiB)"
    let weights = 8e9 * 2.0;
    assert_eq!(bytes_text(weights), "14.9 GiB");
    assert!(sizes(&c).bytes_total() > weights);
    // "the cache grows with the batch"
    let batch = attnlab_lab::state::KvCache { batch: 4, ..c };
    assert_eq!(sizes(&batch).bits_total, 4 * sizes(&c).bits_total);
}

#[test]
fn kv_cache_gqa_mha_512_kib_and_4_gib_mqa_16_kib_and_128_mib() {
    let s = step("kv-cache", "gqa");
    let c = s.state.view.kv_cache;
    assert_eq!(CacheKind::of(&c), CacheKind::Gqa);
    // "its 32 query heads share 8 key/value heads, 4 each"
    assert_eq!((c.query_heads, c.kv_heads), (32, 8));
    // The chart's three: this GQA, then MHA (G = 32) and MQA (G = 1).
    let all = compared(&c);
    let kinds: Vec<_> = all.iter().map(|c| (CacheKind::of(c), c.kv_heads)).collect();
    assert_eq!(
        kinds,
        [
            (CacheKind::Gqa, 8),
            (CacheKind::Mha, 32),
            (CacheKind::Mqa, 1)
        ]
    );
    let text = |c| {
        let s = sizes(c);
        (bytes_text(s.bytes_per_token()), bytes_text(s.bytes_total()))
    };
    // "(MHA, G = 32) it would be 4 times larger: 512 KiB per token, 4 GiB at 8,192
    // tokens"
    assert_eq!(text(&all[1]), ("512 KiB".into(), "4 GiB".into()));
    assert_eq!(sizes(&all[1]).bits_total, 4 * sizes(&c).bits_total);
    says(
        "kv-cache",
        "gqa",
        "512 KiB per token, 4 GiB at 8,192 tokens",
        "每个词 512 KiB，8,192 个词时 4 GiB",
    );
    // "(MQA, Shazeer, 2019) it is 16 KiB per token and 128 MiB"
    assert_eq!(text(&all[2]), ("16 KiB".into(), "128 MiB".into()));
    says(
        "kv-cache",
        "gqa",
        "16 KiB per token and 128 MiB",
        "每个词 16 KiB，共 128 MiB",
    );
    // "straight lines": two points from 0 each.
    let chart = attnlab_pages::decoding::chart(&c, Lang::En);
    assert_eq!(chart.series.len(), 3);
    for series in &chart.series {
        assert_eq!(series.points[0], (0.0, 0.0));
    }
}

#[test]
fn kv_cache_predict_mla_mqa_is_smallest_then_the_latent_67_5_kib_against_3_75_mib() {
    let s = step("kv-cache", "predict-mla");
    let c = s.state.view.kv_cache;
    let deepseek = PRESETS
        .iter()
        .find(|p| p.id == "deepseek-v2")
        .unwrap()
        .cache;
    // The step's calculator is the DeepSeek-V2 preset.
    assert_eq!(c, deepseek);
    assert_eq!(CacheKind::of(&c), CacheKind::Mla);
    // "The chart compares this cache with the same model's as MHA (its 128 heads of size
    // 128), GQA with G = 8, and MQA."
    let all = compared(&c);
    let names: Vec<String> = all
        .iter()
        .map(attnlab_pages::decoding::series_name)
        .collect();
    assert_eq!(
        names,
        [
            "MLA, d_c + d_r = 576",
            "MHA, G = 128",
            "GQA, G = 8",
            "MQA, G = 1"
        ]
    );
    // "It is {answer}: 60 × 2 × 1 × 128 × 2 B = 30 KiB per token."
    let a = predicted(&s);
    assert_eq!(a.label(Lang::En), "MQA, G = 1");
    assert_eq!(
        per_token_formula(&all[3]),
        "60 × 2 × 1 × 128 × 2 B = 30,720 B = 30 KiB"
    );
    says(
        "kv-cache",
        "predict-mla",
        "60 × 2 × 1 × 128 × 2 B = 30 KiB",
        "每个词 60 × 2 × 1 × 128 × 2 B = 30 KiB",
    );
    // "The latent cache takes 60 × (512 + 64) × 2 B = 69,120 B = 67.5 KiB"
    let formula = per_token_formula(&c);
    assert_eq!(formula, "60 × (512 + 64) × 2 B = 69,120 B = 67.5 KiB");
    says("kv-cache", "predict-mla", &formula, &formula);
    // "against 240 KiB with G = 8 and 3.75 MiB as MHA, about 57 times more"
    assert_eq!(bytes_text(sizes(&all[2]).bytes_per_token()), "240 KiB");
    assert_eq!(bytes_text(sizes(&all[1]).bytes_per_token()), "3.75 MiB");
    let ratio = sizes(&all[1]).bits_per_token as f64 / sizes(&c).bits_per_token as f64;
    assert_eq!(ratio.round(), 57.0);
    says(
        "kv-cache",
        "predict-mla",
        "240 KiB with G = 8 and 3.75 MiB as MHA, about 57 times more",
        "G = 8 时是 240 KiB，按 MHA 则是 3.75 MiB，约多 57 倍",
    );
    // "at 131,072 tokens it is 8.44 GiB"
    assert_eq!(c.context, 131_072);
    assert_eq!(bytes_text(sizes(&c).bytes_total()), "8.44 GiB");
    says("kv-cache", "predict-mla", "8.44 GiB", "8.44 GiB");
    // "a cache equal to that of GQA with only 2.25 groups: 512 + 64 = 2 × 2.25 × 128"
    let (d_c, d_r) = c.latent.unwrap();
    assert_eq!((d_c + d_r) as f64, 2.0 * 2.25 * c.head_dim as f64);
    says(
        "kv-cache",
        "predict-mla",
        "512 + 64 = 2 × 2.25 × 128",
        "512 + 64 = 2 × 2.25 × 128",
    );
}

// ---- 16 why-attention -------------------------------------------------------------

/// The "why attention" section as it opens (it keeps no settings in the link).
fn why_sizes() -> Sizes {
    Sizes::default()
}

#[test]
fn why_attention_every_step_is_on_its_page_as_it_opens() {
    for id in ["predict-work", "cheaper", "sequential", "path", "reach"] {
        assert_eq!(step("why-attention", id).page, Page::Complexity, "{id}");
    }
    let s = why_sizes();
    assert_eq!((s.n, s.d, s.k, s.r), (16, 512, 3, 2));
    assert_eq!((DEFAULT_LAYERS, DEFAULT_OUTPUT), (2, 8));
}

#[test]
fn why_attention_predict_work_restricted_does_least_and_the_work_of_each_layer() {
    // "The section opens with n = 16, d = 512, k = 3 and r = 2."
    says(
        "why-attention",
        "predict-work",
        "n = 16, d = 512, k = 3 and r = 2",
        "n = 16、d = 512、k = 3、r = 2",
    );
    // "It is {answer}."
    let a = predicted(&step("why-attention", "predict-work"));
    assert_eq!(a.label(Lang::En), "restricted self-attention");
    assert_eq!(a.label(Lang::Zh), "受限自注意力");
    let s = why_sizes();
    let least = Layer::ALL.into_iter().min_by_key(|&l| s.work(l)).unwrap();
    assert_eq!(least, Layer::Restricted);
    // Each worked product as the table writes it, in the lesson's order.
    let expected = [
        (Layer::Recurrent, "n·d² = 16·512² = 4,194,304"),
        (Layer::Convolution, "k·n·d² = 3·16·512² = 12,582,912"),
        (Layer::SelfAttention, "n²·d = 16²·512 = 131,072"),
        (Layer::Restricted, "r·n·d = 2·16·512 = 16,384"),
    ];
    for (layer, text) in expected {
        assert_eq!(s.work_text(layer), text);
        says("why-attention", "predict-work", text, text);
    }
}

#[test]
fn why_attention_cheaper_32_times_here_4_times_dearer_at_2048() {
    let s = why_sizes();
    // "self-attention does 32 times less work than the recurrent layer … d/n = 512/16"
    says("why-attention", "cheaper", "32 times less work", "少 32 倍");
    assert_eq!(s.work(Layer::Recurrent) / s.work(Layer::SelfAttention), 32);
    assert_eq!(s.work(Layer::Recurrent) % s.work(Layer::SelfAttention), 0);
    // "It is cheaper exactly when n < d"
    for n in [2, 100, 511, 512, 513, 4096] {
        let t = Sizes { n, ..s };
        assert_eq!(
            t.work(Layer::SelfAttention) < t.work(Layer::Recurrent),
            n < t.d,
            "n = {n}"
        );
    }
    // "at n = 2,048 and d = 512 self-attention costs 4 times more"
    let long = Sizes { n: 2048, ..s };
    assert_eq!(
        long.work(Layer::SelfAttention),
        4 * long.work(Layer::Recurrent)
    );
    says(
        "why-attention",
        "cheaper",
        "costs 4 times more",
        "是循环层的 4 倍",
    );
}

#[test]
fn why_attention_sequential_16_for_the_recurrence_1_for_the_others() {
    let s = why_sizes();
    // "16 steps in turn for 16 positions … all positions at once: 1"
    says(
        "why-attention",
        "sequential",
        "16 steps in turn for 16 positions",
        "16 个位置就要依次走 16 步",
    );
    assert_eq!(s.sequential(Layer::Recurrent), 16);
    for layer in [Layer::Convolution, Layer::SelfAttention, Layer::Restricted] {
        assert_eq!(s.sequential(layer), 1);
    }
    // "从Attention到Bert": the article's 实现 RNN 不能实现的并行化.
    says(
        "why-attention",
        "sequential",
        "从Attention到Bert",
        "《从Attention到Bert》",
    );
}

#[test]
fn why_attention_path_16_15_1_8_and_3_dilated() {
    let s = why_sizes();
    // "The recurrence … 16. A convolution with k = 3 … 15 layers … Self-attention: 1
    // … Restricted to r = 2: ⌈15 / 2⌉ = 8."
    assert_eq!(s.max_path(Layer::Recurrent), 16);
    assert_eq!(s.max_path(Layer::Convolution), 15);
    assert_eq!(s.max_path(Layer::SelfAttention), 1);
    assert_eq!(s.max_path(Layer::Restricted), 8);
    assert_eq!(
        s.path_text(Layer::Restricted),
        "⌈(n − 1) / r⌉ = ⌈15 / 2⌉ = 8"
    );
    says("why-attention", "path", "⌈15 / 2⌉ = 8", "⌈15 / 2⌉ = 8");
    says("why-attention", "path", "15 layers", "15 层");
    // "x_0 → h_0 → h_1 → … → h_15": the path from input 0 to output 15.
    assert_eq!(why::path(&s, Layer::Recurrent, 15, 0), Some(16));
    // "dilated ones, ⌈log_3 16⌉ = 3 layers here"
    assert_eq!(s.dilated_path(), 3);
    says("why-attention", "path", "⌈log_3 16⌉ = 3", "⌈log_3 16⌉ = 3");
    // Su Jianlin's 一步到位获取了全局信息.
    says(
        "why-attention",
        "path",
        "in one step",
        "一步到位获取了全局信息",
    );
}

#[test]
fn why_attention_reach_of_output_8_after_2_layers() {
    let s = why_sizes();
    let rows = reach(&s, DEFAULT_OUTPUT, DEFAULT_LAYERS);
    let reached = |layer: Layer| -> Vec<usize> {
        let row = rows.iter().find(|r| r.layer == layer).unwrap();
        (0..row.cells.len())
            .filter(|&j| row.cells[j].is_some())
            .collect()
    };
    // "Output 8 of layer 2 reads: recurrence, 9 positions, 0 … 8; convolution, 5
    // positions, 6 … 10; restricted, 9 positions, 4 … 12; attention, all 16."
    assert_eq!(reached(Layer::Recurrent), (0..=8).collect::<Vec<_>>());
    assert_eq!(reached(Layer::Convolution), (6..=10).collect::<Vec<_>>());
    assert_eq!(reached(Layer::SelfAttention), (0..16).collect::<Vec<_>>());
    assert_eq!(reached(Layer::Restricted), (4..=12).collect::<Vec<_>>());
    says(
        "why-attention",
        "reach",
        "9 positions, 0 … 8",
        "0 … 8 这 9 个位置",
    );
    says(
        "why-attention",
        "reach",
        "5 positions, 6 … 10",
        "6 … 10 这 5 个位置",
    );
    says(
        "why-attention",
        "reach",
        "9 positions, 4 … 12",
        "4 … 12 这 9 个位置",
    );
    // (zh: "一层就够了") All 16 after one layer already.
    let one = reach(&s, DEFAULT_OUTPUT, 1);
    let att = one
        .iter()
        .find(|r| r.layer == Layer::SelfAttention)
        .unwrap();
    assert_eq!(att.reached, 16);
}

#[test]
fn why_attention_restricted_the_lab_window_reads_what_the_figure_reaches_in_one_layer() {
    let s = step("why-attention", "restricted");
    // "with r = 2, query i reads keys i − 2 … i + 2. The row of position 8 here reads 5
    // keys, 6 … 10, the same positions the figure's restricted row reaches after one
    // layer."
    assert_eq!(s.state.variants[0].masks.window, Some(2));
    let r = run(&s, 0);
    let sizes = why_sizes();
    let one = reach(&sizes, 8, 1);
    let restricted = one.iter().find(|r| r.layer == Layer::Restricted).unwrap();
    let figure: Vec<usize> = (0..16).filter(|&j| restricted.cells[j].is_some()).collect();
    for h in &r.heads {
        let open: Vec<usize> = (0..h.weights.ncols())
            .filter(|&j| h.weights[[8, j]] > 0.0)
            .collect();
        assert_eq!(open, (6..=10).collect::<Vec<_>>());
        assert_eq!(open, figure);
    }
    says(
        "why-attention",
        "restricted",
        "reads 5 keys, 6 … 10",
        "读 6 … 10 这 5 个键",
    );
}
