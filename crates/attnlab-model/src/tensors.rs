//! Reading named tensors from a safetensors file: a Hugging Face checkpoint (f32, its
//! names maybe under a prefix such as `bert.`) or an attnlab asset (int8 matrices as
//! `NAME.q8` + `NAME.scale`).

use std::collections::HashMap;

use safetensors::{Dtype, SafeTensors, tensor::TensorView};

use crate::error::{ModelError, Result};
use crate::weights::Matrix;

/// The suffix of a quantised matrix's values (I8, `rows × cols`).
pub const Q8: &str = ".q8";
/// The suffix of a Q4_0 matrix's blocks (U8, `rows × (cols / 32 · 18)`).
pub const Q4: &str = ".q4";
/// The suffix of a quantised matrix's row scales (F32, `rows`).
pub const SCALE: &str = ".scale";
/// The suffix of a quantised matrix's column scales (F32, `cols`; all 1 when absent).
pub const COL_SCALE: &str = ".col_scale";
/// The vocabulary ids of the word-embedding rows an asset ships (U32, ascending), when
/// it ships only some.
pub const WORD_IDS: &str = "embeddings.word_embeddings.ids";
/// The tensor every BERT-family checkpoint has; its prefix is the checkpoint's.
const ANCHOR: &str = "embeddings.word_embeddings.weight";

/// A parsed safetensors file.
pub struct Tensors<'a> {
    file: SafeTensors<'a>,
    prefix: String,
    metadata: HashMap<String, String>,
}

impl<'a> Tensors<'a> {
    /// Parses the header of `bytes` (the data stays where it is).
    pub fn parse(bytes: &'a [u8]) -> Result<Tensors<'a>> {
        let format = |e: safetensors::SafeTensorError| {
            ModelError::Format(format!("not a safetensors file ({e})"))
        };
        let (_, header) = SafeTensors::read_metadata(bytes).map_err(format)?;
        let metadata = header.metadata().clone().unwrap_or_default();
        let file = SafeTensors::deserialize(bytes).map_err(format)?;
        let prefix = file
            .names()
            .into_iter()
            .find_map(|n| {
                n.strip_suffix(Q8)
                    .or_else(|| n.strip_suffix(Q4))
                    .unwrap_or(n)
                    .strip_suffix(ANCHOR)
                    .map(str::to_owned)
            })
            .ok_or_else(|| ModelError::MissingTensor(ANCHOR.into()))?;
        Ok(Tensors {
            file,
            prefix,
            metadata,
        })
    }

    /// The file's `__metadata__` (empty when it has none).
    pub fn metadata(&self) -> &HashMap<String, String> {
        &self.metadata
    }

    fn view(&self, name: &str) -> Option<TensorView<'a>> {
        self.file.tensor(&format!("{}{name}", self.prefix)).ok()
    }

    fn expect(&self, name: &str, view: &TensorView<'_>, shape: &[usize]) -> Result<()> {
        if view.shape() != shape {
            return Err(ModelError::TensorShape {
                name: name.into(),
                expected: shape.to_vec(),
                got: view.shape().to_vec(),
            });
        }
        Ok(())
    }

    fn f32s(&self, name: &str, view: &TensorView<'_>) -> Result<Vec<f32>> {
        match view.dtype() {
            Dtype::F32 => Ok(view
                .data()
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect()),
            other => Err(ModelError::TensorDtype {
                name: name.into(),
                dtype: format!("{other:?}"),
            }),
        }
    }

    /// The `rows × cols` matrix `name`: f32, or int8 from `name.q8` and `name.scale`.
    pub fn matrix(&self, name: &str, rows: usize, cols: usize) -> Result<Matrix> {
        if let Some(view) = self.view(name) {
            self.expect(name, &view, &[rows, cols])?;
            return Ok(Matrix::from_f32(rows, cols, self.f32s(name, &view)?));
        }
        if let Some(view) = self.view(&format!("{name}{Q4}")) {
            let q_name = format!("{name}{Q4}");
            let width = cols / crate::weights::Q4_BLOCK * crate::weights::Q4_BLOCK_BYTES;
            self.expect(&q_name, &view, &[rows, width])?;
            if view.dtype() != Dtype::U8 {
                return Err(ModelError::TensorDtype {
                    name: q_name,
                    dtype: format!("{:?}", view.dtype()),
                });
            }
            crate::weights::check_q4_0(rows, cols, view.data())
                .map_err(|why| ModelError::Format(format!("{q_name}: {why}")))?;
            return Ok(Matrix::from_q4_0(rows, cols, view.data().to_vec()));
        }
        let q_name = format!("{name}{Q8}");
        let s_name = format!("{name}{SCALE}");
        let (Some(q), Some(s)) = (self.view(&q_name), self.view(&s_name)) else {
            return Err(ModelError::MissingTensor(name.into()));
        };
        self.expect(&q_name, &q, &[rows, cols])?;
        self.expect(&s_name, &s, &[rows])?;
        if q.dtype() != Dtype::I8 {
            return Err(ModelError::TensorDtype {
                name: q_name,
                dtype: format!("{:?}", q.dtype()),
            });
        }
        let data = q.data().iter().map(|b| *b as i8).collect();
        let c_name = format!("{name}{COL_SCALE}");
        let col_scales = match self.view(&c_name) {
            Some(c) => {
                self.expect(&c_name, &c, &[cols])?;
                self.f32s(&c_name, &c)?
            }
            None => vec![1.0; cols],
        };
        Ok(Matrix::from_int8(
            rows,
            cols,
            data,
            self.f32s(&s_name, &s)?,
            col_scales,
        ))
    }

    /// The vector `name`, `len` long, as f32.
    pub fn vector(&self, name: &str, len: usize) -> Result<Vec<f32>> {
        let view = self
            .view(name)
            .ok_or_else(|| ModelError::MissingTensor(name.into()))?;
        self.expect(name, &view, &[len])?;
        self.f32s(name, &view)
    }

    /// The U32 tensor `name`, or `None` when the file has no such tensor.
    pub fn u32s(&self, name: &str) -> Result<Option<Vec<u32>>> {
        let Some(view) = self.view(name) else {
            return Ok(None);
        };
        if view.dtype() != Dtype::U32 || view.shape().len() != 1 {
            return Err(ModelError::TensorDtype {
                name: name.into(),
                dtype: format!("{:?} {:?}", view.dtype(), view.shape()),
            });
        }
        Ok(Some(
            view.data()
                .chunks_exact(4)
                .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect(),
        ))
    }

    /// The vocabulary ids of the word-embedding table's rows when an asset ships only
    /// some ([`WORD_IDS`]).
    pub fn word_ids(&self) -> Result<Option<Vec<u32>>> {
        self.u32s(WORD_IDS)
    }

    /// The raw bytes of the U8 tensor `name` (an asset's vocabulary).
    pub fn bytes(&self, name: &str) -> Result<&'a [u8]> {
        let view = self
            .view(name)
            .ok_or_else(|| ModelError::MissingTensor(name.into()))?;
        if view.dtype() != Dtype::U8 {
            return Err(ModelError::TensorDtype {
                name: name.into(),
                dtype: format!("{:?}", view.dtype()),
            });
        }
        Ok(view.data())
    }
}
