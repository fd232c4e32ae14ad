//! Attention rollout and attention flow (docs/maths.md §9): hand-checked cases, an
//! independent f64 reference (plain loops) and an independent brute-force maximum flow
//! on random inputs, properties, fully masked rows and every error.

use attnlab_model::relevance::{self, AttentionGraph, MAX_FLOW_TOKENS, RelevanceError};
use ndarray::{Array2, array};

type Layers = Vec<Vec<Array2<f32>>>;

fn assert_close(actual: &Array2<f32>, expected: &[Vec<f64>], tol: f64, label: &str) {
    assert_eq!(actual.nrows(), expected.len(), "{label}: rows");
    for (i, row) in expected.iter().enumerate() {
        assert_eq!(actual.ncols(), row.len(), "{label}: columns");
        for (j, &e) in row.iter().enumerate() {
            let a = f64::from(actual[[i, j]]);
            assert!(
                (a - e).abs() <= tol,
                "{label}: [{i}][{j}] is {a}, expected {e} (tolerance {tol})"
            );
        }
    }
}

fn rows(m: &Array2<f32>) -> Vec<Vec<f64>> {
    m.rows()
        .into_iter()
        .map(|r| r.iter().map(|&v| f64::from(v)).collect())
        .collect()
}

/// xorshift64*, uniform in [0, 1).
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407))
    }

    fn next(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545F4914F6CDD1D) >> 11) as f64 / (1u64 << 53) as f64
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() * n as f64) as usize
    }
}

/// Random row-stochastic heads: softmax rows of logits in [−3, 3), with now and then an
/// exact zero (a masked key).
fn random_layers(rng: &mut Rng, n: usize, layers: usize, heads: usize) -> Layers {
    (0..layers)
        .map(|_| {
            (0..heads)
                .map(|_| {
                    let mut a = Array2::from_shape_fn((n, n), |_| {
                        let logit = 6.0 * rng.next() - 3.0;
                        let masked = rng.next() < 0.1;
                        if masked { 0.0 } else { logit.exp() }
                    });
                    for (i, mut row) in a.rows_mut().into_iter().enumerate() {
                        if row.sum() == 0.0 {
                            row[i] = 1.0;
                        }
                        let sum = row.sum();
                        row.mapv_inplace(|v| v / sum);
                    }
                    a.mapv(|v| v as f32)
                })
                .collect()
        })
        .collect()
}

// ---------------------------------------------------------------------------------------
// The independent reference: plain loops in f64.

/// Â_l for every layer: the heads' mean, plus I, every row divided by its sum.
fn reference_augmented(layers: &Layers) -> Vec<Vec<Vec<f64>>> {
    layers
        .iter()
        .map(|heads| {
            let n = heads[0].nrows();
            let mut a = vec![vec![0.0f64; n]; n];
            for h in heads {
                for i in 0..n {
                    for j in 0..n {
                        a[i][j] += f64::from(h[[i, j]]) / heads.len() as f64;
                    }
                }
            }
            for (i, row) in a.iter_mut().enumerate() {
                row[i] += 1.0;
                let sum: f64 = row.iter().sum();
                for v in row.iter_mut() {
                    *v /= sum;
                }
            }
            a
        })
        .collect()
}

fn matmul(a: &[Vec<f64>], b: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let n = a.len();
    let mut c = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in 0..n {
            for k in 0..n {
                c[i][j] += a[i][k] * b[k][j];
            }
        }
    }
    c
}

fn reference_rollout(layers: &Layers) -> Vec<Vec<Vec<f64>>> {
    let mut out: Vec<Vec<Vec<f64>>> = Vec::new();
    for a in reference_augmented(layers) {
        let next = match out.last() {
            None => a,
            Some(prev) => matmul(&a, prev),
        };
        out.push(next);
    }
    out
}

/// Ford–Fulkerson with breadth-first search (Edmonds–Karp) on a dense capacity matrix.
fn brute_max_flow(mut cap: Vec<Vec<f64>>, s: usize, t: usize) -> f64 {
    let v = cap.len();
    let mut total = 0.0;
    loop {
        let mut parent = vec![usize::MAX; v];
        parent[s] = s;
        let mut queue = std::collections::VecDeque::from([s]);
        while let Some(u) = queue.pop_front() {
            for w in 0..v {
                if parent[w] == usize::MAX && cap[u][w] > 1e-15 {
                    parent[w] = u;
                    queue.push_back(w);
                }
            }
        }
        if parent[t] == usize::MAX {
            return total;
        }
        let mut b = f64::INFINITY;
        let mut w = t;
        while w != s {
            b = b.min(cap[parent[w]][w]);
            w = parent[w];
        }
        let mut w = t;
        while w != s {
            cap[parent[w]][w] -= b;
            cap[w][parent[w]] += b;
            w = parent[w];
        }
        total += b;
    }
}

/// The flow after layer `l`: the whole graph of (L + 1)·n nodes, node `t·n + k` for
/// token `k` after `t` layers, an edge (t−1, j) → (t, i) of capacity Â_{t−1}[i][j]; one
/// max flow per pair, rows divided by their sums.
fn reference_flow(layers: &Layers, l: usize) -> Vec<Vec<f64>> {
    let aug = reference_augmented(layers);
    let n = aug[0].len();
    let v = (aug.len() + 1) * n;
    let mut cap = vec![vec![0.0; v]; v];
    for (t, a) in aug.iter().enumerate() {
        for i in 0..n {
            for j in 0..n {
                cap[t * n + j][(t + 1) * n + i] = a[i][j];
            }
        }
    }
    (0..n)
        .map(|i| {
            let raw: Vec<f64> = (0..n)
                .map(|j| brute_max_flow(cap.clone(), j, (l + 1) * n + i))
                .collect();
            let sum: f64 = raw.iter().sum();
            raw.iter().map(|x| x / sum).collect()
        })
        .collect()
}

// ---------------------------------------------------------------------------------------
// By hand.

#[test]
fn one_layer_one_head_by_hand() {
    // A = [[1, 0], [1/2, 1/2]]; A + I = [[2, 0], [1/2, 3/2]], rows sum to 2 and 2:
    // Â = [[1, 0], [1/4, 3/4]].
    let layers = vec![vec![array![[1.0f32, 0.0], [0.5, 0.5]]]];
    let hand = [vec![1.0, 0.0], vec![0.25, 0.75]];
    let rollout = relevance::rollout(&layers).unwrap();
    assert_eq!(rollout.len(), 1);
    assert_close(&rollout[0], &hand, 1e-7, "rollout");
    // One layer: the flow from j to i is the one edge's capacity Â[i][j], and the rows
    // already sum to 1.
    assert_close(&relevance::flow(&layers, 0).unwrap(), &hand, 1e-7, "flow");
}

#[test]
fn heads_are_averaged_before_the_identity_is_added() {
    // Heads [[1, 0], [1, 0]] and [[0, 1], [0, 1]]: mean [[1/2, 1/2], [1/2, 1/2]];
    // + I: [[3/2, 1/2], [1/2, 3/2]], rows sum to 2: Â = [[3/4, 1/4], [1/4, 3/4]].
    let layers = vec![vec![
        array![[1.0f32, 0.0], [1.0, 0.0]],
        array![[0.0f32, 1.0], [0.0, 1.0]],
    ]];
    let graph = AttentionGraph::new(&layers).unwrap();
    let a = graph.augmented(0).unwrap();
    assert_eq!(a, &array![[0.75, 0.25], [0.25, 0.75]]);
    assert_eq!(graph.tokens(), 2);
    assert_eq!(graph.layers(), 1);
    assert!(graph.augmented(1).is_none());
}

#[test]
fn two_layer_rollout_by_hand() {
    // Layer 0: A = [[1, 0], [1/2, 1/2]] → Â_0 = [[1, 0], [1/4, 3/4]].
    // Layer 1: A = [[0, 1], [0, 1]] → A + I = [[1, 1], [0, 2]] → Â_1 = [[1/2, 1/2], [0, 1]].
    // R_1 = Â_1 · Â_0 = [[1/2·1 + 1/2·1/4, 1/2·0 + 1/2·3/4], [1/4, 3/4]]
    //     = [[5/8, 3/8], [1/4, 3/4]].
    let layers = vec![
        vec![array![[1.0f32, 0.0], [0.5, 0.5]]],
        vec![array![[0.0f32, 1.0], [0.0, 1.0]]],
    ];
    let r = relevance::rollout(&layers).unwrap();
    assert_close(&r[0], &[vec![1.0, 0.0], vec![0.25, 0.75]], 1e-7, "R_0");
    assert_close(&r[1], &[vec![0.625, 0.375], vec![0.25, 0.75]], 1e-7, "R_1");
}

#[test]
fn two_layer_flow_is_the_min_cut_by_hand() {
    // The same two layers. Edges (capacity Â[to][from]):
    //   layer 0 → 1: 0→0 1, 1→0 0, 0→1 1/4, 1→1 3/4
    //   layer 1 → 2: 0→0 1/2, 1→0 1/2, 0→1 0, 1→1 1
    // Into output 0 (after layer 1):
    //   from input 0: paths 0→0→0 (min(1, 1/2) = 1/2) and 0→1→0 (min(1/4, 1/2) = 1/4);
    //     they share no edge, so 3/4 (the cut {0→0→0's 1/2, 0→1's 1/4}).
    //   from input 1: only 1→1→0, min(3/4, 1/2) = 1/2.
    //   Row: [3/4, 1/2] / (5/4) = [3/5, 2/5].
    // Into output 1: from input 0 only 0→1→1, min(1/4, 1) = 1/4; from input 1 only
    //   1→1→1, min(3/4, 1) = 3/4. Row: [1/4, 3/4].
    // (Rollout gives [5/8, 3/8] for output 0: flow is not rollout.)
    let layers = vec![
        vec![array![[1.0f32, 0.0], [0.5, 0.5]]],
        vec![array![[0.0f32, 1.0], [0.0, 1.0]]],
    ];
    let f = relevance::flow(&layers, 1).unwrap();
    assert_close(&f, &[vec![0.6, 0.4], vec![0.25, 0.75]], 1e-7, "flow_1");
    // And after layer 0 it is Â_0.
    let f0 = relevance::flow(&layers, 0).unwrap();
    assert_close(&f0, &[vec![1.0, 0.0], vec![0.25, 0.75]], 1e-7, "flow_0");
}

#[test]
fn a_fully_masked_row_becomes_the_identity_row() {
    // Query 1 sees nothing: A = [[1/2, 1/2], [0, 0]]. A + I = [[3/2, 1/2], [0, 1]]:
    // Â = [[3/4, 1/4], [0, 1]]; position 1 keeps only itself.
    let layers = vec![vec![array![[0.5f32, 0.5], [0.0, 0.0]]]];
    let hand = [vec![0.75, 0.25], vec![0.0, 1.0]];
    assert_close(
        &relevance::rollout(&layers).unwrap()[0],
        &hand,
        1e-7,
        "rollout",
    );
    assert_close(&relevance::flow(&layers, 0).unwrap(), &hand, 1e-7, "flow");
    // Every row masked in every layer: nothing moves, both are the identity.
    let masked = vec![vec![Array2::<f32>::zeros((3, 3))]; 3];
    let identity = rows(&Array2::eye(3));
    for (l, r) in relevance::rollout(&masked).unwrap().iter().enumerate() {
        assert_close(r, &identity, 0.0, &format!("masked rollout {l}"));
        let f = relevance::flow(&masked, l).unwrap();
        assert_close(&f, &identity, 0.0, &format!("masked flow {l}"));
    }
}

#[test]
fn rows_that_do_not_sum_to_one_are_renormalised() {
    // A linear-attention row can sum to a little less than 1: [0.3, 0.3] + I = [1.3, 0.3],
    // sum 1.6: [13/16, 3/16].
    let layers = vec![vec![array![[0.3f32, 0.3], [0.0, 1.0]]]];
    let r = relevance::rollout(&layers).unwrap();
    assert_close(
        &r[0],
        &[vec![13.0 / 16.0, 3.0 / 16.0], vec![0.0, 1.0]],
        1e-7,
        "rollout",
    );
}

// ---------------------------------------------------------------------------------------
// Properties.

#[test]
fn identity_attention_gives_the_identity() {
    for n in [1, 2, 5] {
        let layers = vec![vec![Array2::<f32>::eye(n); 3]; 4];
        let identity = rows(&Array2::<f32>::eye(n));
        for (l, r) in relevance::rollout(&layers).unwrap().iter().enumerate() {
            assert_close(r, &identity, 0.0, &format!("rollout n = {n}, layer {l}"));
            let f = relevance::flow(&layers, l).unwrap();
            assert_close(&f, &identity, 0.0, &format!("flow n = {n}, layer {l}"));
        }
    }
}

#[test]
fn uniform_attention_then_rollout_keeps_a_half_on_its_own_token() {
    // A = 1/n everywhere: Â = (U + I) / 2 with U the uniform matrix. U·U = U, so
    // R_l = (U + I)^(l+1) / 2^(l+1) = I / 2^(l+1) + (1 − 1/2^(l+1)) U: the own token's
    // share halves each layer and the rest spreads evenly. n = 4, layer 2: diagonal
    // 1/8 + 7/8 · 1/4 = 11/32, off-diagonal 7/32.
    let n = 4;
    let layers = vec![vec![Array2::<f32>::from_elem((n, n), 0.25); 2]; 3];
    let r = relevance::rollout(&layers).unwrap();
    for (l, m) in r.iter().enumerate() {
        let own = 0.5f64.powi(l as i32 + 1);
        let expected: Vec<Vec<f64>> = (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| (1.0 - own) / n as f64 + if i == j { own } else { 0.0 })
                    .collect()
            })
            .collect();
        assert_close(m, &expected, 1e-6, &format!("uniform rollout {l}"));
    }
    assert!((f64::from(r[2][[0, 0]]) - 11.0 / 32.0).abs() < 1e-7);
    assert!((f64::from(r[2][[0, 1]]) - 7.0 / 32.0).abs() < 1e-7);
    // Flow is symmetric under permuting the tokens, so after any layer the off-diagonal
    // entries of a row are equal, and the diagonal is at least as large.
    let f = relevance::flow(&layers, 2).unwrap();
    for i in 0..n {
        let off: Vec<f32> = (0..n).filter(|&j| j != i).map(|j| f[[i, j]]).collect();
        assert!(off.iter().all(|v| (v - off[0]).abs() < 1e-6), "{f}");
        assert!(f[[i, i]] >= off[0], "{f}");
    }
}

#[test]
fn rollout_matches_the_f64_reference_on_random_inputs() {
    let mut rng = Rng::new(20200501);
    for case in 0..40 {
        let n = 1 + rng.below(10);
        let layers = 3 + rng.below(4);
        let heads = 1 + rng.below(4);
        let input = random_layers(&mut rng, n, layers, heads);
        let expected = reference_rollout(&input);
        let actual = relevance::rollout(&input).unwrap();
        assert_eq!(actual.len(), layers);
        for (l, (a, e)) in actual.iter().zip(&expected).enumerate() {
            assert_close(a, e, 1e-6, &format!("case {case} (n = {n}), layer {l}"));
            for (i, row) in a.rows().into_iter().enumerate() {
                let sum: f32 = row.sum();
                assert!(
                    (sum - 1.0).abs() < 1e-5,
                    "case {case} row {i} sums to {sum}"
                );
            }
        }
    }
}

#[test]
fn flow_matches_a_brute_force_max_flow_on_random_inputs() {
    let mut rng = Rng::new(2020);
    for case in 0..25 {
        let n = 1 + rng.below(7);
        let layers = 3 + rng.below(4);
        let heads = 1 + rng.below(3);
        let input = random_layers(&mut rng, n, layers, heads);
        let graph = AttentionGraph::new(&input).unwrap();
        for l in 0..layers {
            let actual = graph.flow(l).unwrap();
            let expected = reference_flow(&input, l);
            let label = format!("case {case} (n = {n}), layer {l}");
            assert_close(&actual, &expected, 1e-6, &label);
            for row in actual.rows() {
                assert!(row.iter().all(|v| (0.0..=1.0).contains(v)), "{label}");
                assert!((row.sum() - 1.0).abs() < 1e-5, "{label}: {row}");
            }
        }
    }
}

#[test]
fn flow_after_the_first_layer_is_rollout_after_it() {
    // With one layer every path is one edge: both are Â_0.
    let mut rng = Rng::new(7);
    let input = random_layers(&mut rng, 9, 3, 4);
    let graph = AttentionGraph::new(&input).unwrap();
    assert_close(
        &graph.flow(0).unwrap(),
        &rows(&graph.rollout()[0]),
        1e-7,
        "layer 0",
    );
}

#[test]
fn flow_takes_the_forward_pass_heads() {
    let (weights, config, vocab) = attnlab_model::testing::tiny_checkpoint(3);
    let model = attnlab_model::Pretrained::from_hugging_face(&weights, &config, None, &vocab)
        .expect("tiny checkpoint");
    let run = model
        .run("the cat sat on the mat", &Default::default())
        .expect("runs");
    let graph = AttentionGraph::from_forward(&run.forward).unwrap();
    let layers: Layers = run
        .forward
        .heads
        .iter()
        .map(|hs| hs.iter().map(|h| h.weights.clone()).collect())
        .collect();
    assert_eq!(graph, AttentionGraph::new(&layers).unwrap());
    assert_eq!(graph.tokens(), run.encoding.ids.len());
    let f = graph.flow(graph.layers() - 1).unwrap();
    assert_close(&f, &reference_flow(&layers, 1), 1e-6, "tiny model flow");
}

// ---------------------------------------------------------------------------------------
// Errors.

#[test]
fn every_error_is_typed_and_explained() {
    let ok = || array![[1.0f32, 0.0], [0.5, 0.5]];
    let cases: Vec<(Layers, RelevanceError, &str)> = vec![
        (vec![], RelevanceError::NoLayers, "no layer"),
        (
            vec![vec![ok()], vec![]],
            RelevanceError::NoHeads { layer: 1 },
            "layer 1 has no heads",
        ),
        (
            vec![vec![Array2::zeros((0, 0))]],
            RelevanceError::NoTokens,
            "no tokens",
        ),
        (
            vec![vec![ok(), Array2::zeros((2, 3))]],
            RelevanceError::NotSquare {
                layer: 0,
                head: 1,
                rows: 2,
                cols: 3,
            },
            "2 × 3",
        ),
        (
            vec![vec![ok()], vec![ok(), Array2::eye(3)]],
            RelevanceError::ShapeMismatch {
                layer: 1,
                head: 1,
                size: 3,
                tokens: 2,
            },
            "the first head's is 2 × 2",
        ),
        (
            vec![vec![array![[1.0f32, 0.0], [f32::NAN, 0.5]]]],
            RelevanceError::NotFinite {
                layer: 0,
                head: 0,
                row: 1,
                col: 0,
            },
            "not a finite number",
        ),
        (
            vec![
                vec![ok()],
                vec![array![[1.0f32, f32::INFINITY], [0.0, 1.0]]],
            ],
            RelevanceError::NotFinite {
                layer: 1,
                head: 0,
                row: 0,
                col: 1,
            },
            "query 0 for key 1",
        ),
        (
            vec![vec![ok(), array![[1.0f32, 0.0], [0.5, -0.25]]]],
            RelevanceError::Negative {
                layer: 0,
                head: 1,
                row: 1,
                col: 1,
                value: -0.25,
            },
            "is -0.25; a share of attention cannot be negative",
        ),
    ];
    for (layers, error, words) in cases {
        assert_eq!(AttentionGraph::new(&layers), Err(error.clone()));
        assert_eq!(relevance::rollout(&layers), Err(error.clone()));
        assert_eq!(relevance::flow(&layers, 0), Err(error.clone()));
        let sentence = error.to_string();
        assert!(sentence.contains(words), "{sentence:?} lacks {words:?}");
    }

    let two = vec![vec![ok()], vec![ok()]];
    let error = relevance::flow(&two, 2).unwrap_err();
    assert_eq!(
        error,
        RelevanceError::NoSuchLayer {
            layer: 2,
            layers: 2
        }
    );
    assert_eq!(
        error.to_string(),
        "there is no layer 2: the layers are numbered 0 to 1"
    );

    let n = MAX_FLOW_TOKENS + 33;
    let big = vec![vec![Array2::<f32>::eye(n)]];
    let error = relevance::flow(&big, 0).unwrap_err();
    assert_eq!(
        error,
        RelevanceError::TooManyTokens {
            tokens: 97,
            max: 64
        }
    );
    assert_eq!(
        error.to_string(),
        "attention flow needs one maximum-flow computation per pair of tokens; it is \
         offered up to 64 tokens, this text has 97"
    );
    // Rollout has no such limit.
    assert_eq!(relevance::rollout(&big).unwrap()[0], Array2::<f32>::eye(n));
    // At the limit flow is offered.
    let edge = vec![vec![Array2::<f32>::eye(MAX_FLOW_TOKENS)]; 2];
    assert_eq!(
        relevance::flow(&edge, 1).unwrap(),
        Array2::<f32>::eye(MAX_FLOW_TOKENS)
    );
}
