//! What the lessons `kv-cache` (15) and `why-attention` (16) say, checked against what
//! the app computes for each step's own state (read from the lesson files): the lab, the
//! Block page's stack decoded on the Decoding page (`attnlab_pages::decoding::stepper`),
//! the Decoding page's KV-cache calculator (`attnlab_pages::decoding`) and the Complexity
//! page's "why attention" (`attnlab_pages::complexity::why`). The sentence checked is
//! quoted above each assertion.

mod common;

use attnlab_pages::decoding::stepper::{self, StepAt, Stepper};
use common::{block_run, encoded_target, max_abs, predicted, run, says, step, with_block_input};

use attnlab_lab::compute::Pipeline;
use attnlab_lab::state::{LabState, Mode, Page};
use attnlab_lessons::Lang;
use attnlab_pages::complexity::why::{self, DEFAULT_LAYERS, DEFAULT_OUTPUT, Layer, Sizes, reach};
use attnlab_pages::decoding::{
    CacheKind, PRESETS, bytes_text, checked, compared, per_token_formula, sizes, total_formula,
};
use ndarray::Array2;

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

/// The Decoding page's stepper on a step's state: the Block page's stack decoded.
fn stepper_of(state: &LabState) -> Stepper {
    with_block_input(state, |_, input| stepper::stepper(input).unwrap())
}

#[test]
fn kv_cache_stepper_at_step_3_cross_enters_and_each_layer_caches_4_rows() {
    let s = step("kv-cache", "stepper");
    assert_eq!(s.state.view.page, Page::Decoding);
    let st = stepper_of(&s.state);
    let t = s.state.view.decode_step.step;
    // "the Block page's stack of 2 layers"
    says("kv-cache", "stepper", "stack of 2 layers", "2 层的堆叠");
    assert_eq!(st.used().layers, 2);
    // "At step t = 3 the token "cross" enters: its query is row 3 of the weights"
    says(
        "kv-cache",
        "stepper",
        "At step t = 3 the token \"cross\" enters",
        "第 t = 3 步时词 \"cross\" 进来",
    );
    assert_eq!(t, 3);
    assert_eq!(st.prepared.queries[3], "cross");
    let at = StepAt::within(&st, t, 0, 0);
    // "which now holds 4 of each": the K and V rows of the head shown, and the whole
    // cache's 2 × 2 layers × 4 rows.
    says(
        "kv-cache",
        "stepper",
        "which now holds 4 of each",
        "现在每层各存 4 行",
    );
    let cache = stepper::cache(&st, at, Lang::En).unwrap();
    assert_eq!(cache.keys.n_rows(), 4);
    assert_eq!(cache.values.n_rows(), 4);
    assert_eq!(st.decoded.cache[3].entries, 2 * 2 * 4);
    // "the rows after row 3 are hatched: they are not decoded yet"
    says(
        "kv-cache",
        "stepper",
        "the rows after row 3 are hatched",
        "第 3 行以后画着斜线",
    );
    let weights = stepper::weights(&st, at, Lang::En).unwrap();
    let n = st.len();
    for i in 0..n {
        let hatched = (0..n).all(|j| weights.is_blocked(i, j));
        assert_eq!(hatched, i > 3, "row {i} at step 3");
    }
}

#[test]
fn kv_cache_same_as_parallel_1_098_240_against_6_617_600_and_equal_up_to_rounding() {
    let s = step("kv-cache", "same-as-parallel");
    let st = stepper_of(&s.state);
    let t = s.state.view.decode_step.step;
    // "At the last step, t = 10, … over the 11 steps"
    says(
        "kv-cache",
        "same-as-parallel",
        "At the last step, t = 10",
        "到最后一步 t = 10",
    );
    assert_eq!((t, st.len()), (10, 11));
    // "the cache has done 1,098,240 multiply–adds over the 11 steps, against 6,617,600
    // for recomputing the prefix at every step: 6.03 times fewer"
    says(
        "kv-cache",
        "same-as-parallel",
        "1,098,240 multiply–adds",
        "1,098,240 次乘加",
    );
    says(
        "kv-cache",
        "same-as-parallel",
        "6,617,600 for recomputing",
        "6,617,600 次",
    );
    says(
        "kv-cache",
        "same-as-parallel",
        "6.03 times fewer",
        "少了 6.03 倍",
    );
    let (cached, recomputed) = stepper::cumulative(&st, t);
    assert_eq!((cached, recomputed), (1_098_240, 6_617_600));
    assert_eq!(format!("{:.2}", recomputed as f64 / cached as f64), "6.03");
    // "The largest difference is about 10⁻⁶, f32 rounding: equal up to rounding."
    says("kv-cache", "same-as-parallel", "about 10⁻⁶", "约为 10⁻⁶");
    let e = st.equality();
    assert!(e.equal(), "{e:?}");
    assert!(e.output > 1e-7 && e.output < 1e-5, "{}", e.output);
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
