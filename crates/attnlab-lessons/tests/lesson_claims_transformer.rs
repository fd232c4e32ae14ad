//! What the lessons `block` (13), `decoder` (14), `kv-cache` (15) and `why-attention`
//! (16) say, checked against what the app computes for each step's own state (read from
//! the lesson files): the Block page's run (`attnlab_pages::block`), the lab, the
//! Decoding page's KV-cache calculator (`attnlab_pages::decoding`) and the Complexity
//! page's "why attention" (`attnlab_pages::complexity::why`). The sentence checked is
//! quoted above each assertion.

mod common;

use common::{block_run, encoded_target, max_abs, predicted, run, says, step};

use attnlab_core::block::{Activation, Norm, gelu, layer_norm};
use attnlab_lab::compute::Pipeline;
use attnlab_lab::state::{MaskKind, Mode, Page};
use attnlab_lessons::{Answer, Lang, StepKind, answer};
use attnlab_pages::block::{self, SublayerKind};
use attnlab_plot::number;

/// The mean of a row of norms.
fn mean(v: ndarray::ArrayView1<'_, f32>) -> f32 {
    v.sum() / v.len() as f32
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
