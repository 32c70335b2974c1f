//! [`Checkpoint`]: the whole state of a run after an epoch (the float
//! weights, the optimiser's moments, the epochs done), so that `--resume`
//! goes on exactly where the run stopped.

use std::fmt;
use std::io::{self, Read, Write};
use std::path::Path;

use crate::model::{Layout, Model, supported_buckets};
use crate::optimizer::{AdamW, adamw};

/// The header of a checkpoint of one output bucket, as the trainer wrote
/// them before buckets (still read).
const MAGIC_V1: &[u8; 8] = b"BRWTRN01";
/// The header of a checkpoint that names its output buckets.
const MAGIC: &[u8; 8] = b"BRWTRN02";

/// A run's state between epochs.
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    /// Epochs done.
    pub epochs_done: u32,
    /// The float net.
    pub model: Model,
    /// The optimiser.
    pub optimizer: AdamW,
}

/// A checkpoint file that cannot be used.
#[derive(Debug)]
pub enum CheckpointError {
    /// Reading or writing failed.
    Io(io::Error),
    /// Not a checkpoint of this trainer, or cut short.
    Corrupt(String),
}

impl fmt::Display for CheckpointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckpointError::Io(e) => write!(f, "{e}"),
            CheckpointError::Corrupt(why) => write!(f, "not a usable checkpoint: {why}"),
        }
    }
}

impl std::error::Error for CheckpointError {}

impl From<io::Error> for CheckpointError {
    fn from(e: io::Error) -> CheckpointError {
        CheckpointError::Io(e)
    }
}

fn put_floats(out: &mut Vec<u8>, xs: &[f32]) {
    for x in xs {
        out.extend_from_slice(&x.to_le_bytes());
    }
}

impl Checkpoint {
    /// The checkpoint as bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&(self.model.hidden as u32).to_le_bytes());
        out.extend_from_slice(&(self.model.buckets as u32).to_le_bytes());
        out.extend_from_slice(&self.epochs_done.to_le_bytes());
        out.extend_from_slice(&self.optimizer.steps.to_le_bytes());
        for x in [
            self.optimizer.beta1,
            self.optimizer.beta2,
            self.optimizer.decay,
        ] {
            out.extend_from_slice(&x.to_le_bytes());
        }
        put_floats(&mut out, &self.model.params);
        put_floats(&mut out, &self.optimizer.m);
        put_floats(&mut out, &self.optimizer.v);
        out
    }

    /// A checkpoint from its bytes (of this version, or of the first, whose
    /// nets have one output bucket).
    pub fn from_bytes(bytes: &[u8]) -> Result<Checkpoint, CheckpointError> {
        let corrupt = |why: &str| CheckpointError::Corrupt(why.to_owned());
        let v1 = bytes.len() >= 8 && &bytes[..8] == MAGIC_V1;
        // The version 1 header has no bucket count: everything after the
        // width starts 4 bytes earlier.
        let at = if v1 { 12 } else { 16 };
        if bytes.len() < at + 24 || (!v1 && &bytes[..8] != MAGIC) {
            return Err(corrupt("no borrow-train checkpoint header"));
        }
        let u32_at = |i: usize| u32::from_le_bytes(bytes[i..i + 4].try_into().expect("4 bytes"));
        let f32_at = |i: usize| f32::from_le_bytes(bytes[i..i + 4].try_into().expect("4 bytes"));
        let hidden = u32_at(8) as usize;
        if hidden == 0 || hidden > 1 << 16 {
            return Err(corrupt("hidden width out of range"));
        }
        let buckets = if v1 { 1 } else { u32_at(12) as usize };
        if !supported_buckets(buckets) {
            return Err(corrupt(&format!("{buckets} output buckets")));
        }
        let epochs_done = u32_at(at);
        let steps = u64::from_le_bytes(bytes[at + 4..at + 12].try_into().expect("8 bytes"));
        let (beta1, beta2, decay) = (f32_at(at + 12), f32_at(at + 16), f32_at(at + 20));
        let start = at + 24;
        let n = Layout { hidden, buckets }.params();
        if bytes.len() != start + 12 * n {
            return Err(corrupt(&format!(
                "{} bytes, a net of {hidden} neurons and {buckets} output buckets needs {}",
                bytes.len(),
                start + 12 * n
            )));
        }
        let floats =
            |k: usize| -> Vec<f32> { (0..n).map(|i| f32_at(start + 4 * (k * n + i))).collect() };
        Ok(Checkpoint {
            epochs_done,
            model: Model {
                hidden,
                buckets,
                params: floats(0),
            },
            optimizer: AdamW {
                steps,
                m: floats(1),
                v: floats(2),
                beta1,
                beta2,
                ..adamw(0, decay)
            },
        })
    }

    /// Writes the checkpoint to `path` (through a temporary file, so that a
    /// stop mid-write leaves the last one whole).
    pub fn save(&self, path: &Path) -> Result<(), CheckpointError> {
        let tmp = path.with_extension("tmp");
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(&self.to_bytes())?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)?;
        Ok(())
    }

    /// Reads the checkpoint at `path`.
    pub fn load(path: &Path) -> Result<Checkpoint, CheckpointError> {
        let mut bytes = Vec::new();
        std::fs::File::open(path)?.read_to_end(&mut bytes)?;
        Checkpoint::from_bytes(&bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_checkpoint_reads_back_and_a_bad_one_is_refused() {
        for buckets in [1, nnue::OUTPUT_BUCKETS] {
            reads_back(buckets);
        }
    }

    /// A checkpoint as version 1 wrote it: no bucket count in the header.
    fn version_1_bytes(c: &Checkpoint) -> Vec<u8> {
        let mut bytes = c.to_bytes();
        bytes.drain(12..16);
        bytes[..8].copy_from_slice(MAGIC_V1);
        bytes
    }

    #[test]
    fn a_checkpoint_of_the_first_version_reads_as_one_bucket() {
        let model = Model::new(4, 1, 3);
        let c = Checkpoint {
            epochs_done: 2,
            optimizer: adamw(model.params.len(), 0.01),
            model,
        };
        assert_eq!(Checkpoint::from_bytes(&version_1_bytes(&c)).unwrap(), c);
    }

    fn reads_back(buckets: usize) {
        let model = Model::new(4, buckets, 7);
        let mut optimizer = adamw(model.params.len(), 0.01);
        optimizer.steps = 12;
        optimizer.m[3] = 0.25;
        optimizer.v[5] = 0.5;
        let c = Checkpoint {
            epochs_done: 3,
            model,
            optimizer,
        };
        let bytes = c.to_bytes();
        assert_eq!(Checkpoint::from_bytes(&bytes).unwrap(), c);
        assert!(Checkpoint::from_bytes(&bytes[..bytes.len() - 1]).is_err());
        assert!(Checkpoint::from_bytes(b"hello").is_err());
        let mut three = bytes.clone();
        three[12..16].copy_from_slice(&3u32.to_le_bytes());
        assert!(
            Checkpoint::from_bytes(&three)
                .unwrap_err()
                .to_string()
                .contains("3 output buckets")
        );
        let mut wrong = bytes.clone();
        wrong[0] = b'X';
        assert!(
            Checkpoint::from_bytes(&wrong)
                .unwrap_err()
                .to_string()
                .contains("header")
        );
    }
}
