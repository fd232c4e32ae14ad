//! Brought tensors between the worker that reads the files and the page: a JSON header
//! (files, labels, notes, sizes) and every number in one `f32` buffer, each head's `Q`,
//! `K`, `V` in turn and then `W^O`, row by row. The page checks the sizes once.

use attnlab_core::attention::HeadInput;
use attnlab_core::model::Projected;
use ndarray::Array2;
use serde::{Deserialize, Serialize};

use super::{Brought, Refusal};
use attnlab_i18n::said::Said;

/// Everything but the numbers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Header {
    /// The files, as named.
    pub files: Vec<String>,
    /// Query labels.
    pub queries: Vec<String>,
    /// Key labels.
    pub keys: Vec<String>,
    /// Notes on what was not used, in every language.
    pub notes: Vec<Said>,
    /// Heads.
    pub heads: usize,
    /// Width of `Q` and `K`.
    pub d_k: usize,
    /// Width of `V`.
    pub d_v: usize,
    /// `W^O`'s rows and columns, if given.
    pub w_o: Option<(usize, usize)>,
}

/// What the worker posts back: the tensors, or why not (one sentence in every language).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Reply {
    /// Read: the header; the numbers travel beside it.
    Brought(Header),
    /// Not read, and why.
    Refused(Refusal),
}

impl Brought {
    /// The header and the numbers.
    pub fn to_wire(&self) -> (Header, Vec<f32>) {
        let (_, _, d_k, d_v) = self.sizes();
        let mut data = Vec::new();
        for h in &self.projected.heads {
            for a in [&h.q, &h.k, &h.v] {
                data.extend(a.iter().copied());
            }
        }
        if let Some(w) = &self.projected.w_o {
            data.extend(w.iter().copied());
        }
        let header = Header {
            files: self.files.clone(),
            queries: self.queries.clone(),
            keys: self.keys.clone(),
            notes: self.notes.clone(),
            heads: self.heads(),
            d_k,
            d_v,
            w_o: self.projected.w_o.as_ref().map(|w| w.dim()),
        };
        (header, data)
    }

    /// The tensors again, if the numbers are as many as the header says (if not, why,
    /// in every language).
    pub fn from_wire(header: Header, data: &[f32]) -> Result<Brought, Said> {
        let (n, m) = (header.queries.len(), header.keys.len());
        let per_head = n * header.d_k + m * header.d_k + m * header.d_v;
        let w_o = header.w_o.map_or(0, |(r, c)| r * c);
        let expected = header.heads * per_head + w_o;
        if header.heads == 0 || n == 0 || m == 0 || data.len() != expected {
            return Err(attnlab_i18n::msg::formats::WireCount {
                sent: &data.len(),
                heads: &header.heads,
                n: &n,
                m: &m,
                expected: &expected,
            }
            .said());
        }
        let mut rest = data;
        let mut take = |rows: usize, cols: usize| {
            let (now, later) = rest.split_at(rows * cols);
            rest = later;
            Array2::from_shape_vec((rows, cols), now.to_vec()).expect("sized above")
        };
        let heads = (0..header.heads)
            .map(|_| {
                let q = take(n, header.d_k);
                let k = take(m, header.d_k);
                let v = take(m, header.d_v);
                HeadInput::new(q, k, v)
            })
            .collect();
        let w_o = header.w_o.map(|(r, c)| take(r, c));
        Ok(Brought {
            files: header.files,
            projected: Projected { heads, w_o },
            queries: header.queries,
            keys: header.keys,
            notes: header.notes,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_round_trip_keeps_every_number() {
        let q = Array2::from_shape_fn((2, 3), |(i, j)| (i * 3 + j) as f32);
        let k = Array2::from_shape_fn((4, 3), |(i, j)| 10.0 + (i * 3 + j) as f32);
        let v = Array2::from_shape_fn((4, 1), |(i, _)| 20.0 + i as f32);
        let b = Brought {
            files: vec!["a.json".into()],
            projected: Projected {
                heads: vec![HeadInput::new(q.clone(), k.clone(), v.clone()); 2],
                w_o: Some(Array2::from_elem((2, 5), 0.5)),
            },
            queries: vec!["a".into(), "b".into()],
            keys: (0..4).map(|i| format!("k{i}")).collect(),
            notes: vec![Said::new("a note", "一条说明")],
        };
        let (header, data) = b.to_wire();
        let text = serde_json::to_string(&Reply::Brought(header)).unwrap();
        let Reply::Brought(header) = serde_json::from_str(&text).unwrap() else {
            panic!("a header");
        };
        assert_eq!(Brought::from_wire(header.clone(), &data).unwrap(), b);
        let e = Brought::from_wire(header, &data[1..]).unwrap_err();
        assert!(
            e.contains("expected 2×(6+12+4)+10") || e.contains("expected 54"),
            "{e}"
        );
    }
}
