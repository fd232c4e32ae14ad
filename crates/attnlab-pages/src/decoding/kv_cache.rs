//! The KV-cache calculator: what a decoder keeps per token, for a context and a batch.
//!
//! At each step a decoder's self-attention needs the keys and values of every earlier
//! position, so it keeps them: per layer, per key/value head, one key and one value of
//! `d_h` numbers each. Per token that is `L × 2 × G × d_h` values; with `G = H` (every
//! query head its own keys and values) it is multi-head attention, with `G = 1` multi-query
//! attention (Shazeer 2019), in between grouped-query attention (Ainslie et al. 2023). A
//! latent cache (MLA, DeepSeek-V2) keeps per layer one latent vector of width `d_c`, from
//! which every head's keys and values are projected, and one decoupled RoPE key of width
//! `d_r`: `L × (d_c + d_r)` values per token.
//!
//! Sizes are counted in bits, so int4's half byte stays exact; a size is shown in bytes
//! and in binary units (KiB = 1024 B).

use std::ops::RangeInclusive;

use attnlab_i18n::said::Said;
use attnlab_i18n::{Lang, Tr, msg};
use attnlab_lab::state::KvCache;
use attnlab_plot::{Axis, AxisScale, LineChart, LineDash, RGBColor, Series, Ticks};

/// The widths of a cached value the page offers, in bits: fp32, fp16/bf16, fp8/int8, int4.
pub const BITS: [u64; 4] = [32, 16, 8, 4];

/// A number the calculator reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Knob {
    /// Layers L.
    Layers,
    /// Query heads H.
    QueryHeads,
    /// Key/value heads G.
    KvHeads,
    /// The head size d_h.
    HeadDim,
    /// The latent's width d_c (MLA).
    LatentWidth,
    /// The decoupled RoPE key's width d_r (MLA).
    RopeWidth,
    /// The context length T.
    Context,
    /// The batch size.
    Batch,
}

impl Knob {
    /// Every knob, in the order of the page.
    pub const ALL: [Knob; 8] = [
        Knob::Layers,
        Knob::QueryHeads,
        Knob::KvHeads,
        Knob::HeadDim,
        Knob::LatentWidth,
        Knob::RopeWidth,
        Knob::Context,
        Knob::Batch,
    ];

    /// The values it takes. (G is also at most H.)
    pub fn range(self) -> RangeInclusive<u64> {
        match self {
            Knob::Layers => 1..=512,
            Knob::QueryHeads | Knob::KvHeads => 1..=512,
            Knob::HeadDim => 1..=1024,
            Knob::LatentWidth => 1..=8192,
            Knob::RopeWidth => 0..=1024,
            Knob::Context => 1..=10_000_000,
            Knob::Batch => 1..=1024,
        }
    }

    /// Its name in `data-testid`s.
    pub fn name(self) -> &'static str {
        match self {
            Knob::Layers => "layers",
            Knob::QueryHeads => "query-heads",
            Knob::KvHeads => "kv-heads",
            Knob::HeadDim => "head-dim",
            Knob::LatentWidth => "latent-width",
            Knob::RopeWidth => "rope-width",
            Knob::Context => "context",
            Knob::Batch => "batch",
        }
    }

    /// Its label.
    pub fn label(self) -> Tr {
        use msg::decoding as m;
        match self {
            Knob::Layers => m::DECODING_KNOB_LAYERS,
            Knob::QueryHeads => m::DECODING_KNOB_QUERY_HEADS,
            Knob::KvHeads => m::DECODING_KNOB_KV_HEADS,
            Knob::HeadDim => m::DECODING_KNOB_HEAD_DIM,
            Knob::LatentWidth => m::DECODING_KNOB_LATENT_WIDTH,
            Knob::RopeWidth => m::DECODING_KNOB_ROPE_WIDTH,
            Knob::Context => m::DECODING_KNOB_CONTEXT,
            Knob::Batch => m::DECODING_KNOB_BATCH,
        }
    }

    /// Its value in `c` (0 for the latent's widths when there is no latent).
    pub fn get(self, c: &KvCache) -> u64 {
        match self {
            Knob::Layers => c.layers,
            Knob::QueryHeads => c.query_heads,
            Knob::KvHeads => c.kv_heads,
            Knob::HeadDim => c.head_dim,
            Knob::LatentWidth => c.latent.map_or(0, |l| l.0),
            Knob::RopeWidth => c.latent.map_or(0, |l| l.1),
            Knob::Context => c.context,
            Knob::Batch => c.batch,
        }
    }

    /// Sets it in `c` (a latent width turns the latent cache on).
    pub fn set(self, c: &mut KvCache, v: u64) {
        let (d_c, d_r) = c.latent.unwrap_or((512, 64));
        match self {
            Knob::Layers => c.layers = v,
            Knob::QueryHeads => c.query_heads = v,
            Knob::KvHeads => c.kv_heads = v,
            Knob::HeadDim => c.head_dim = v,
            Knob::LatentWidth => c.latent = Some((v, d_r)),
            Knob::RopeWidth => c.latent = Some((d_c, v)),
            Knob::Context => c.context = v,
            Knob::Batch => c.batch = v,
        }
    }
}

/// What the cache keeps per layer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CacheKind {
    /// Multi-head: a key and a value per query head (`G = H`).
    Mha,
    /// Grouped-query: `G` key/value heads, each shared by `H / G` query heads.
    Gqa,
    /// Multi-query: one key and one value for all query heads (`G = 1`).
    Mqa,
    /// A latent vector and a decoupled RoPE key (MLA).
    Mla,
}

impl CacheKind {
    /// The kind of cache `c` describes.
    pub fn of(c: &KvCache) -> CacheKind {
        match (c.latent, c.kv_heads) {
            (Some(_), _) => CacheKind::Mla,
            (None, g) if g >= c.query_heads => CacheKind::Mha,
            (None, 1) => CacheKind::Mqa,
            (None, _) => CacheKind::Gqa,
        }
    }

    /// Its short name (the same in every language).
    pub fn short(self) -> &'static str {
        match self {
            CacheKind::Mha => "MHA",
            CacheKind::Gqa => "GQA",
            CacheKind::Mqa => "MQA",
            CacheKind::Mla => "MLA",
        }
    }

    /// What it is, in a sentence.
    pub fn explained(self) -> Tr {
        use msg::decoding as m;
        match self {
            CacheKind::Mha => m::DECODING_KIND_MHA,
            CacheKind::Gqa => m::DECODING_KIND_GQA,
            CacheKind::Mqa => m::DECODING_KIND_MQA,
            CacheKind::Mla => m::DECODING_KIND_MLA,
        }
    }
}

/// Settings in range, with a note for each value that was not.
#[derive(Debug, Clone, PartialEq)]
pub struct Checked {
    /// The settings the sizes are computed from.
    pub cache: KvCache,
    /// What was changed, or what is unusual, in a sentence each.
    pub notes: Vec<Said>,
}

/// `c` with every value in its knob's range, `G ≤ H` and a width the page offers; a note
/// for each change, and one when `G` does not divide `H` (the size is still computed).
pub fn checked(c: &KvCache) -> Checked {
    let mut cache = *c;
    let mut notes = Vec::new();
    for knob in Knob::ALL {
        if c.latent.is_none() && matches!(knob, Knob::LatentWidth | Knob::RopeWidth) {
            continue;
        }
        let v = knob.get(c);
        let range = knob.range();
        let fixed = v.clamp(*range.start(), *range.end());
        if fixed != v {
            knob.set(&mut cache, fixed);
            notes.push(clamped_note(knob, &grouped(v), fixed));
        }
    }
    if cache.kv_heads > cache.query_heads {
        let (g, h) = (cache.kv_heads, cache.query_heads);
        notes.push(msg::decoding::DecodingNoteKvAboveQ { g: &g, h: &h }.said());
        cache.kv_heads = h;
    } else if cache.latent.is_none() && !cache.query_heads.is_multiple_of(cache.kv_heads) {
        let (g, h) = (cache.kv_heads, cache.query_heads);
        notes.push(msg::decoding::DecodingNoteKvUneven { g: &g, h: &h }.said());
    }
    if !BITS.contains(&cache.bits) {
        let bits = cache.bits;
        notes.push(msg::decoding::DecodingNoteBits { bits: &bits }.said());
        cache.bits = 16;
    }
    Checked { cache, notes }
}

fn clamped_note(knob: Knob, typed: &str, now: u64) -> Said {
    let range = knob.range();
    let (lo, hi, now) = (grouped(*range.start()), grouped(*range.end()), grouped(now));
    Said::of(|lang| {
        msg::decoding::DecodingNoteClamped {
            knob: &knob.label().get(lang),
            typed: &typed,
            lo: &lo,
            hi: &hi,
            now: &now,
        }
        .say(lang)
    })
}

/// The value of `knob` after a person typed `text` while it was `was`: a whole number in
/// range as it is; a number out of range, negative or not whole, clamped and rounded, with
/// a note; anything else (empty, not a number) leaves `was`, with a note.
pub fn typed(knob: Knob, text: &str, was: u64) -> (u64, Option<Said>) {
    let t = text.trim();
    let range = knob.range();
    match t.parse::<f64>() {
        Ok(v) if v.is_finite() => {
            let whole = v.round().clamp(*range.start() as f64, *range.end() as f64) as u64;
            if whole as f64 == v {
                (whole, None)
            } else {
                (whole, Some(clamped_note(knob, t, whole)))
            }
        }
        _ => {
            let kept = grouped(was);
            let typed = t.to_string();
            let note = Said::of(move |lang| {
                msg::decoding::DecodingNoteNotNumber {
                    knob: &knob.label().get(lang),
                    typed: &typed,
                    kept: &kept,
                }
                .say(lang)
            });
            (was, Some(note))
        }
    }
}

/// The sizes of a checked setting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sizes {
    /// Values cached per token (all layers).
    pub values_per_token: u128,
    /// Bits per token.
    pub bits_per_token: u128,
    /// Bits for the context and the batch.
    pub bits_total: u128,
}

impl Sizes {
    /// Bytes per token (a half byte with int4 and an odd count of values).
    pub fn bytes_per_token(&self) -> f64 {
        self.bits_per_token as f64 / 8.0
    }

    /// Bytes for the context and the batch.
    pub fn bytes_total(&self) -> f64 {
        self.bits_total as f64 / 8.0
    }
}

/// The cache of `c` (already [`checked`]): `L × 2 × G × d_h` or `L × (d_c + d_r)` values
/// per token, times the bits of a value; times `T × batch` for the whole.
pub fn sizes(c: &KvCache) -> Sizes {
    let l = u128::from(c.layers);
    let values_per_token = match c.latent {
        Some((d_c, d_r)) => l * (u128::from(d_c) + u128::from(d_r)),
        None => l * 2 * u128::from(c.kv_heads) * u128::from(c.head_dim),
    };
    let bits_per_token = values_per_token * u128::from(c.bits);
    Sizes {
        values_per_token,
        bits_per_token,
        bits_total: bits_per_token * u128::from(c.context) * u128::from(c.batch),
    }
}

/// An integer with a comma between groups of three digits: `131,072`.
pub fn grouped(v: impl Into<u128>) -> String {
    let digits = v.into().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A count of bits as bytes, exactly: `131,072 B`, `2.5 B`.
fn exact_bytes(bits: u128) -> String {
    let whole = grouped(bits / 8);
    match bits % 8 {
        0 => format!("{whole} B"),
        r => format!(
            "{whole}.{} B",
            format!("{:03}", 125 * r).trim_end_matches('0')
        ),
    }
}

/// The binary units, from bytes up.
const UNITS: [&str; 7] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];

/// The binary unit a size of `bytes` reads in: the largest whose 1 fits (`(1024^k, name)`).
fn unit_of(bytes: f64) -> (f64, &'static str) {
    let mut k = 0;
    while k + 1 < UNITS.len() && bytes >= 1024f64.powi(k as i32 + 1) {
        k += 1;
    }
    (1024f64.powi(k as i32), UNITS[k])
}

/// A size in its binary unit, with at most two decimals (none when whole): `128 KiB`,
/// `67.5 KiB`, `1 GiB`.
pub fn bytes_text(bytes: f64) -> String {
    let (scale, unit) = unit_of(bytes);
    let v = bytes / scale;
    let text = format!("{v:.2}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    format!("{text} {unit}")
}

/// Bytes per value as the formula writes them: `4`, `2`, `1`, `0.5`.
fn value_bytes(bits: u64) -> String {
    match bits % 8 {
        0 => (bits / 8).to_string(),
        _ => format!("{}", bits as f64 / 8.0),
    }
}

/// The per-token formula with the numbers: `32 × 2 × 8 × 128 × 2 B = 131,072 B = 128 KiB`
/// or `60 × (512 + 64) × 2 B = 69,120 B = 67.5 KiB`.
pub fn per_token_formula(c: &KvCache) -> String {
    let s = sizes(c);
    let b = value_bytes(c.bits);
    let product = match c.latent {
        Some((d_c, d_r)) => format!("{} × ({d_c} + {d_r}) × {b} B", c.layers),
        None => format!("{} × 2 × {} × {} × {b} B", c.layers, c.kv_heads, c.head_dim),
    };
    format!(
        "{product} = {} = {}",
        exact_bytes(s.bits_per_token),
        bytes_text(s.bytes_per_token())
    )
}

/// The whole formula: `131,072 B × 8,192 × 1 = 1,073,741,824 B = 1 GiB`.
pub fn total_formula(c: &KvCache) -> String {
    let s = sizes(c);
    format!(
        "{} × {} × {} = {} = {}",
        exact_bytes(s.bits_per_token),
        grouped(c.context),
        grouped(c.batch),
        exact_bytes(s.bits_total),
        bytes_text(s.bytes_total())
    )
}

/// The symbolic formula of `c`'s kind.
pub fn symbolic_formula(c: &KvCache) -> &'static str {
    match c.latent {
        Some(_) => "L × (d_c + d_r) × bytes",
        None => "L × 2 × G × d_h × bytes",
    }
}

/// The settings compared on the chart: `c` itself, then the multi-head, grouped-query
/// (G = 8, when 1 < 8 < H and 8 divides H) and multi-query caches of the same shape that
/// `c` is not.
pub fn compared(c: &KvCache) -> Vec<KvCache> {
    let mut out = vec![*c];
    let with_g = |g: u64| KvCache {
        latent: None,
        kv_heads: g,
        ..*c
    };
    let mine = CacheKind::of(c);
    if mine != CacheKind::Mha {
        out.push(with_g(c.query_heads));
    }
    if mine != CacheKind::Gqa && c.query_heads > 8 && c.query_heads.is_multiple_of(8) {
        out.push(with_g(8));
    }
    if mine != CacheKind::Mqa && c.query_heads > 1 {
        out.push(with_g(1));
    }
    out
}

/// A setting's name on the chart: `GQA, G = 8`, `MLA, d_c + d_r = 576`.
pub fn series_name(c: &KvCache) -> String {
    match c.latent {
        Some((d_c, d_r)) => format!("MLA, d_c + d_r = {}", d_c + d_r),
        None => format!("{}, G = {}", CacheKind::of(c).short(), c.kv_heads),
    }
}

const COLOURS: [RGBColor; 4] = [
    RGBColor(31, 94, 168),
    RGBColor(190, 70, 40),
    RGBColor(40, 130, 70),
    RGBColor(120, 60, 150),
];

/// The cache of `c` and of the settings it is [`compared`] with against the context
/// length, from 0 to `c`'s context, for `c`'s batch, in the binary unit of the largest.
pub fn chart(c: &KvCache, lang: Lang) -> LineChart {
    let settings = compared(c);
    let largest = settings
        .iter()
        .map(|s| sizes(s).bytes_total())
        .fold(0.0, f64::max);
    let (scale, unit) = unit_of(largest);
    let t = c.context as f64;
    let series = settings
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let name = series_name(s);
            Series {
                name: Some(if i == 0 {
                    msg::decoding::DecodingSeriesThis { name: &name }.say(lang)
                } else {
                    name
                }),
                points: vec![(0.0, 0.0), (t, sizes(s).bytes_total() / scale)],
                color: COLOURS[i % COLOURS.len()],
                dash: if i == 0 {
                    LineDash::Solid
                } else {
                    LineDash::Dashed
                },
                markers: false,
            }
        })
        .collect();
    LineChart {
        title: msg::decoding::DecodingChartTitle {
            batch: &grouped(c.batch),
        }
        .say(lang),
        x: Axis {
            label: msg::decoding::DECODING_CHART_AXIS_T.get(lang).into(),
            scale: AxisScale::Linear,
            ticks: Ticks::Auto,
        },
        y: Axis {
            label: msg::decoding::DecodingChartAxisSize { unit: &unit }.say(lang),
            scale: AxisScale::Linear,
            ticks: Ticks::Auto,
        },
        series,
        markers: vec![],
        note: Some(msg::decoding::DECODING_CHART_NOTE.get(lang).into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn llama3() -> KvCache {
        KvCache::default()
    }

    #[test]
    fn llama_3_8b_at_fp16_keeps_128_kib_per_token() {
        // 32 layers × (K and V) × 8 KV heads × 128 values × 2 bytes.
        let s = sizes(&llama3());
        assert_eq!(s.values_per_token, 65_536);
        assert_eq!(s.bits_per_token, 131_072 * 8);
        assert_eq!(s.bytes_per_token(), 131_072.0);
        assert_eq!(bytes_text(s.bytes_per_token()), "128 KiB");
        // × 8,192 tokens = 1 GiB.
        assert_eq!(s.bytes_total(), 1_073_741_824.0);
        assert_eq!(
            per_token_formula(&llama3()),
            "32 × 2 × 8 × 128 × 2 B = 131,072 B = 128 KiB"
        );
        assert_eq!(
            total_formula(&llama3()),
            "131,072 B × 8,192 × 1 = 1,073,741,824 B = 1 GiB"
        );
        assert_eq!(CacheKind::of(&llama3()), CacheKind::Gqa);
    }

    #[test]
    fn mha_gqa_and_mqa_scale_with_g() {
        let c = llama3();
        let g = |g| sizes(&KvCache { kv_heads: g, ..c }).bits_per_token;
        assert_eq!(g(32), 4 * g(8));
        assert_eq!(g(8), 8 * g(1));
        assert_eq!(g(32), 32 * g(1));
        // Llama 2 7B: 32 × 2 × 32 × 128 × 2 B = 512 KiB.
        assert_eq!(g(32) / 8, 524_288);
        assert_eq!(
            CacheKind::of(&KvCache { kv_heads: 32, ..c }),
            CacheKind::Mha
        );
        assert_eq!(CacheKind::of(&KvCache { kv_heads: 1, ..c }), CacheKind::Mqa);
    }

    #[test]
    fn mla_keeps_the_latent_and_the_rope_key() {
        // DeepSeek-V2: 60 × (512 + 64) × 2 B = 69,120 B.
        let c = KvCache {
            layers: 60,
            query_heads: 128,
            kv_heads: 128,
            head_dim: 128,
            latent: Some((512, 64)),
            ..KvCache::default()
        };
        assert_eq!(sizes(&c).bits_per_token / 8, 69_120);
        assert_eq!(
            per_token_formula(&c),
            "60 × (512 + 64) × 2 B = 69,120 B = 67.5 KiB"
        );
        assert_eq!(CacheKind::of(&c), CacheKind::Mla);
        // Its multi-head cache of the same shape is 3,932,160 B, 56.9 times more.
        let mha = KvCache { latent: None, ..c };
        assert_eq!(sizes(&mha).bits_per_token / 8, 3_932_160);
    }

    #[test]
    fn int4_counts_half_bytes_exactly() {
        let c = KvCache {
            layers: 1,
            latent: Some((3, 0)),
            bits: 4,
            context: 3,
            ..KvCache::default()
        };
        assert_eq!(per_token_formula(&c), "1 × (3 + 0) × 0.5 B = 1.5 B = 1.5 B");
        assert_eq!(total_formula(&c), "1.5 B × 3 × 1 = 4.5 B = 4.5 B");
    }

    #[test]
    fn units_and_groups() {
        assert_eq!(grouped(0u64), "0");
        assert_eq!(grouped(999u64), "999");
        assert_eq!(grouped(1000u64), "1,000");
        assert_eq!(grouped(10_000_000u64), "10,000,000");
        assert_eq!(bytes_text(1023.0), "1023 B");
        assert_eq!(bytes_text(1024.0), "1 KiB");
        assert_eq!(bytes_text(1536.0), "1.5 KiB");
        assert_eq!(bytes_text(3.0 * 1024f64.powi(3)), "3 GiB");
        assert_eq!(bytes_text(0.0), "0 B");
    }

    #[test]
    fn typed_values_are_clamped_or_refused_with_a_note() {
        assert_eq!(typed(Knob::Layers, "40", 32), (40, None));
        let (v, note) = typed(Knob::Layers, "0", 32);
        assert_eq!(v, 1);
        assert_eq!(
            note.unwrap().get(Lang::En),
            "layers L: 0 is outside 1 … 512; set to 1."
        );
        let (v, note) = typed(Knob::Context, "-5", 8192);
        assert_eq!(v, 1);
        assert!(note.is_some());
        let (v, note) = typed(Knob::Context, "1e12", 8192);
        assert_eq!(v, 10_000_000);
        assert!(note.unwrap().get(Lang::En).contains("10,000,000"));
        let (v, note) = typed(Knob::HeadDim, "abc", 128);
        assert_eq!(v, 128);
        assert!(note.unwrap().get(Lang::Zh).contains("128"));
        let (v, note) = typed(Knob::HeadDim, "64.4", 128);
        assert_eq!((v, note.is_some()), (64, true));
    }

    #[test]
    fn a_link_out_of_range_is_clamped_with_notes_never_nan() {
        let c = KvCache {
            layers: 0,
            kv_heads: 40,
            bits: 7,
            context: u64::MAX,
            ..KvCache::default()
        };
        let ch = checked(&c);
        assert_eq!(ch.cache.layers, 1);
        assert_eq!(ch.cache.kv_heads, 32);
        assert_eq!(ch.cache.bits, 16);
        assert_eq!(ch.cache.context, 10_000_000);
        assert_eq!(ch.notes.len(), 4);
        let s = sizes(&ch.cache);
        assert!(s.bytes_total().is_finite());
        let uneven = checked(&KvCache {
            kv_heads: 5,
            ..KvCache::default()
        });
        assert_eq!(uneven.cache.kv_heads, 5);
        assert_eq!(uneven.notes.len(), 1);
        assert!(checked(&KvCache::default()).notes.is_empty());
    }

    #[test]
    fn the_chart_compares_mha_gqa_and_mqa_of_the_same_shape() {
        let c = chart(&llama3(), Lang::En);
        let names: Vec<&str> = c.series.iter().filter_map(|s| s.name.as_deref()).collect();
        assert_eq!(
            names,
            ["GQA, G = 8 (this setting)", "MHA, G = 32", "MQA, G = 1"]
        );
        // 1 GiB at 8,192 tokens; MHA 4 GiB.
        assert_eq!(c.series[0].points[1], (8192.0, 1.0));
        assert_eq!(c.series[1].points[1], (8192.0, 4.0));
        assert_eq!(c.series[2].points[1], (8192.0, 0.125));
        assert!(c.y.label.contains("GiB"));
        let mha = chart(
            &KvCache {
                kv_heads: 32,
                ..llama3()
            },
            Lang::En,
        );
        assert_eq!(mha.series.len(), 3);
        assert_eq!(mha.series[1].name.as_deref(), Some("GQA, G = 8"));
    }
}
