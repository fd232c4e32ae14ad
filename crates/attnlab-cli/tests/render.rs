//! `attnlab render`: the binary, run on the app's link, writes the figure as SVG. The
//! tests read the SVG back: token labels, title, legend, and one square per cell.

use std::path::PathBuf;
use std::process::{Command, Output};

use attnlab_lab::{CompareWhat, LabState, Mode};

fn attnlab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_attnlab"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// A fresh output path under the target directory.
fn out(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("render");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

/// Runs `render` with `args` plus `-o PATH` and returns the SVG.
fn render(name: &str, args: &[&str]) -> String {
    let path = out(name);
    let mut all = vec!["render"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["-o", path.to_str().unwrap()]);
    let o = attnlab(&all);
    assert!(
        o.status.success(),
        "render {args:?} failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    std::fs::read_to_string(&path).expect("the SVG was written")
}

/// The texts of the SVG's `<text>` elements.
fn texts(svg: &str) -> Vec<String> {
    svg.split("<text ")
        .skip(1)
        .map(|t| {
            let body = &t[t.find('>').unwrap() + 1..t.find("</text>").unwrap()];
            body.trim()
                .replace("&apos;", "'")
                .replace("&quot;", "\"")
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&amp;", "&")
        })
        .collect()
}

/// The integer attribute `key` of a tag's attributes (`x="1" y="2" …`).
fn attr(attrs: &str, key: &str) -> Option<i64> {
    let attrs = format!(" {attrs}");
    let at = attrs.find(&format!(" {key}=\""))? + key.len() + 3;
    attrs[at..].split('"').next()?.parse().ok()
}

/// The cells of the heatmap: the squares (sides within one pixel of each other and of
/// the most common side, at least 8 px) among the SVG's rectangles; returns how many,
/// and on how many distinct rows and columns they sit.
fn cells(svg: &str) -> (usize, usize, usize) {
    let rects: Vec<(i64, i64, i64, i64)> = svg
        .split("<rect ")
        .skip(1)
        .filter_map(|t| {
            let tag = &t[..t.find('>')?];
            Some((
                attr(tag, "x")?,
                attr(tag, "y")?,
                attr(tag, "width")?,
                attr(tag, "height")?,
            ))
        })
        .filter(|&(_, _, w, h)| w >= 8 && (w - h).abs() <= 1)
        .collect();
    let mut sides: Vec<i64> = rects.iter().map(|r| r.2.max(r.3)).collect();
    sides.sort_unstable();
    let mode = sides
        .iter()
        .max_by_key(|&&s| sides.iter().filter(|&&t| t == s).count())
        .copied()
        .unwrap_or(0);
    let squares: Vec<_> = rects
        .into_iter()
        .filter(|r| (r.2 - mode).abs() <= 1 && (r.3 - mode).abs() <= 1)
        .collect();
    let distinct = |f: fn(&(i64, i64, i64, i64)) -> i64| {
        let mut v: Vec<i64> = squares.iter().map(f).collect();
        v.sort_unstable();
        v.dedup();
        v.len()
    };
    (squares.len(), distinct(|r| r.1), distinct(|r| r.0))
}

#[test]
fn the_default_link_renders_head_0_with_every_token() {
    // "#v1.e30" is the link of the default state: the classic sentence, 4 heads.
    let svg = render("default.svg", &["--state", "#v1.e30"]);
    let t = texts(&svg);
    for word in [
        "The", "animal", "didn't", "cross", "the", "street", "because", "it", "was", "too", "tired",
    ] {
        assert!(
            t.iter().filter(|x| *x == word).count() >= 2,
            "{word} labels a row and a column: {t:?}"
        );
    }
    assert!(
        t.contains(
            &"A \u{b7} scaled dot-product softmax \u{b7} Head 0 \u{b7} 4 heads \u{b7} d_model 64"
                .to_string()
        )
    );
    assert_eq!(cells(&svg), (121, 11, 11));
}

#[test]
fn a_cross_attention_link_with_its_own_settings() {
    let mut state = LabState::default();
    state.set_mode(Mode::Cross);
    state.model.heads = 2;
    // A window, not a causal mask: cross-attention has no causal mask (its link would be
    // repaired).
    state.variants[1].masks.window = Some(1);
    let link = format!(
        "https://example.org/attnlab/#{}",
        attnlab_link::encode(&state)
    );
    let svg = render(
        "cross.svg",
        &["--state", &link, "--variant", "B", "--head", "1"],
    );
    let t = texts(&svg);
    for word in [
        "I", "love", "machine", "learning", "我", "爱", "机", "器", "学", "习",
    ] {
        assert!(t.contains(&word.to_string()), "{word} in {t:?}");
    }
    assert!(
        t[0].starts_with(
            "B \u{b7} dot-product softmax \u{b7} window 1 \u{b7} Head 1 \u{b7} 2 heads"
        ),
        "{t:?}"
    );
    assert_eq!(cells(&svg), (24, 4, 6), "4 target queries × 6 source keys");
}

#[test]
fn the_head_average_and_the_difference() {
    let state = LabState {
        text: "I love it".into(),
        ..LabState::default()
    };
    let f = attnlab_link::encode(&state);

    let svg = render(
        "average.svg",
        &["--state", &f, "--figure", "average", "-v", "B"],
    );
    let t = texts(&svg);
    assert!(
        t[0].starts_with("Average of 4 heads \u{b7} B: dot-product softmax"),
        "{t:?}"
    );
    assert!(t.contains(&"weight".to_string()), "legend caption in {t:?}");
    assert_eq!(cells(&svg), (9, 3, 3));

    // The link's compared pair is A, B: no --against needed.
    let svg = render("difference.svg", &["--state", &f, "--figure", "difference"]);
    let t = texts(&svg);
    assert_eq!(t[0], "A \u{2212} B \u{b7} head 0");
    assert!(
        t.contains(&"\u{394} weight".to_string()),
        "diverging legend in {t:?}"
    );
    assert!(
        t.iter().any(|x| x.starts_with('\u{2212}')) && t.iter().any(|x| x.starts_with('+')),
        "{t:?}"
    );
    assert_eq!(cells(&svg), (9, 3, 3));

    let svg = render(
        "difference_avg.svg",
        &[
            "--state",
            &f,
            "--figure",
            "difference",
            "--variant",
            "B",
            "--against",
            "A",
            "--head",
            "average",
        ],
    );
    assert_eq!(texts(&svg)[0], "B \u{2212} A \u{b7} average of the heads");

    // A link whose comparison compares the head averages: the difference does too.
    let mut averages = state.clone();
    averages.view.compare_what = CompareWhat::Average;
    let f = attnlab_link::encode(&averages);
    let svg = render(
        "difference_link_avg.svg",
        &["--state", &f, "--figure", "difference"],
    );
    assert_eq!(texts(&svg)[0], "A \u{2212} B \u{b7} average of the heads");
}

#[test]
fn standard_output_and_size() {
    let o = attnlab(&[
        "render", "--state", "v1.e30", "--size", "640x480", "-o", "-",
    ]);
    assert!(o.status.success());
    let svg = String::from_utf8(o.stdout).unwrap();
    assert!(
        svg.starts_with("<svg") && svg.contains("width=\"640\" height=\"480\""),
        "{}",
        &svg[..200]
    );
}

#[test]
fn a_repaired_link_renders_with_a_warning() {
    let o = attnlab(&["render", "--state", "#v1.eyJoIjo3fQ", "-o", "-"]); // {"h":7}
    assert!(o.status.success());
    assert_eq!(
        String::from_utf8_lossy(&o.stderr).trim(),
        "warning: the state was repaired: 7 heads do not divide d_model = 64, so there are 4"
    );
}

#[test]
fn errors_exit_2_with_one_line() {
    let f = attnlab_link::encode(&LabState::default());
    let mut linformer = LabState::default();
    linformer.variants[1].attention = attnlab_core::attention::AttentionKind::Linformer;
    let lf = attnlab_link::encode(&linformer);
    let cases: [(&[&str], &str); 10] = [
        (
            &["render", "--state", "#v2.e30", "-o", "-"],
            "--state: This link was made by a newer version of attnlab (state version 2; this one reads version 1)",
        ),
        (
            &["render", "--state", "#v1.e3!!", "-o", "-"],
            "--state: The state in this link is damaged (a character was changed or the link was cut)",
        ),
        (
            &["render", "--state", "#nonsense", "-o", "-"],
            "--state: The end of this link (after #) is not an attnlab state",
        ),
        (
            &["render", "--state", &f, "--variant", "Z", "-o", "-"],
            "--variant: there is no variant called \"Z\" (the variants are A, B)",
        ),
        (
            &["render", "--state", &f, "--head", "4", "-o", "-"],
            "--head: there is no head 4 (there are 4, numbered from 0)",
        ),
        (
            &["render", "--state", &f, "--figure", "pie", "-o", "-"],
            "--figure: unknown figure \"pie\" (heatmap, average or difference)",
        ),
        (
            &[
                "render",
                "--state",
                &f,
                "--figure",
                "difference",
                "--against",
                "A",
                "-o",
                "-",
            ],
            "--against: a variant minus itself is zero everywhere; name another",
        ),
        (
            &[
                "render",
                "--state",
                &lf,
                "--figure",
                "difference",
                "-o",
                "-",
            ],
            "These variants cannot be compared cell by cell: their weights are 11×11 and 11×4 (Linformer attends to k projected keys, not to the tokens).",
        ),
        (
            &["render", "--state", &f],
            "render: --output FILE is needed (the SVG file to write, or - for standard output)",
        ),
        (
            &["render", "--state", &f, "--colour", "red", "-o", "-"],
            "render: unknown option \"--colour\" (see attnlab render --help)",
        ),
    ];
    for (args, want) in cases {
        let o = attnlab(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert_eq!(err.trim_end(), want, "{args:?}");
        assert!(o.stdout.is_empty(), "{args:?}");
    }
    let path = out("unwritable.svg");
    let bad = path.join("no/such/dir.svg");
    let o = attnlab(&["render", "--state", &f, "-o", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).starts_with("-o: cannot write "));
}

/// The lab's figure for `request` drawn as `render` draws it (SVG, 1100 × 760).
fn lab_svg(state: &LabState, request: attnlab_lab::figure::FigureRequest) -> String {
    let figure = attnlab_lab::Pipeline::new(state)
        .figure(request)
        .expect("the lab builds the figure");
    attnlab_plot::export::heatmap_svg_sized(&figure, (1100, 760)).expect("the figure draws")
}

#[test]
fn render_draws_exactly_the_figure_the_lab_builds_for_the_link() {
    use attnlab_lab::compute::Which;
    use attnlab_lab::figure::FigureRequest;
    let mut cross = LabState::default();
    cross.set_mode(Mode::Cross);
    cross.model.heads = 2;
    cross.variants[1].masks.window = Some(1);
    let mut masked = LabState {
        text: "我爱机器学习 and 🙂 too".into(),
        pad_to: Some(12),
        ..LabState::default()
    };
    masked.variants[0].masks.padding = true;
    masked.variants[0].masks.window = Some(1);
    masked.variants[1].temperature = 0.3;
    masked.view.compare_what = CompareWhat::Average;
    for (state, case) in [
        (LabState::default(), "default"),
        (cross, "cross"),
        (masked, "masked"),
    ] {
        let link = format!("#{}", attnlab_link::encode(&state));
        let cases: [(&[&str], FigureRequest); 4] = [
            (
                &[],
                FigureRequest::Head {
                    variant: 0,
                    head: 0,
                },
            ),
            (
                &["--variant", "B", "--head", "1"],
                FigureRequest::Head {
                    variant: 1,
                    head: 1,
                },
            ),
            (
                &["--figure", "average", "--variant", "B"],
                FigureRequest::Average { variant: 1 },
            ),
            (
                &["--figure", "difference"],
                FigureRequest::Difference {
                    a: 0,
                    b: 1,
                    which: match state.view.compare_what {
                        CompareWhat::Head => Which::Head(0),
                        CompareWhat::Average => Which::Average,
                    },
                },
            ),
        ];
        for (i, (args, request)) in cases.into_iter().enumerate() {
            let mut all = vec!["--state", link.as_str()];
            all.extend_from_slice(args);
            let got = render(&format!("same-{case}-{i}.svg"), &all);
            assert!(
                got == lab_svg(&state, request),
                "{case}: `render {all:?}` differs from the lab's {request:?}"
            );
        }
    }
}
