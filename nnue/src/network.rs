//! The net's weights, read from the quantised file layout, and its output
//! layer.

use std::fmt;
use std::path::Path;

use crate::{HIDDEN, INPUTS, QA, QB, SCALE};

/// A quantised `(768 → HIDDEN) × 2 → 1` net.
#[derive(Clone)]
pub struct Network {
    /// The hidden layer's weights, a row of [`HIDDEN`] for each input.
    pub l0_weights: Box<[[i16; HIDDEN]; INPUTS]>,
    /// The hidden layer's biases.
    pub l0_bias: [i16; HIDDEN],
    /// The output weights: the side to move's half, then the other's.
    pub l1_weights: [i16; 2 * HIDDEN],
    /// The output bias, scaled by `QA × QB`.
    pub l1_bias: i16,
}

/// Why a net file was refused.
#[derive(Debug, PartialEq, Eq)]
pub enum NetError {
    /// The file could not be read.
    Io(String),
    /// Not the size of the architecture asked for.
    WrongSize {
        /// The file's size in bytes.
        got: usize,
        /// The hidden width asked for.
        hidden: usize,
    },
    /// The bytes after the weights, there only to round the size up to a
    /// multiple of 64, are neither zeros nor bullet's `bullet` repeated:
    /// not a file of this layout.
    Padding,
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::Io(e) => write!(f, "cannot read the net: {e}"),
            NetError::WrongSize { got, hidden } => write!(
                f,
                "the net file has {got} bytes; a (768->{hidden})x2->1 net has {} ({} padded to 64)",
                weight_bytes(*hidden),
                padded(weight_bytes(*hidden))
            ),
            NetError::Padding => f.write_str(
                "the net file's padding is neither zeros nor bullet's 'bulletbullet...': not a (768->H)x2->1 quantised net",
            ),
        }
    }
}

impl std::error::Error for NetError {}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Network((768->{HIDDEN})x2->1)")
    }
}

impl Network {
    /// The bytes of the weights: `i16`s in the order of the fields.
    pub const SIZE: usize = weight_bytes(HIDDEN);
    /// [`Self::SIZE`] rounded up to a multiple of 64, as bullet writes it.
    pub const PADDED_SIZE: usize = padded(Self::SIZE);

    /// A net from its file's bytes: [`Self::SIZE`] bytes, or
    /// [`Self::PADDED_SIZE`] with the padding [`is_padding`] accepts after
    /// the weights ([`file_words`] reads them).
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        let mut words = file_words(bytes, HIDDEN)?.into_iter();
        let mut next = || words.next().expect("SIZE counts every weight");
        let mut net = Network::zeroed();
        for row in net.l0_weights.iter_mut() {
            row.iter_mut().for_each(|w| *w = next());
        }
        net.l0_bias.iter_mut().for_each(|w| *w = next());
        net.l1_weights.iter_mut().for_each(|w| *w = next());
        net.l1_bias = next();
        Ok(net)
    }

    /// A net from a file (see [`Self::from_bytes`]). A file of the wrong
    /// size is refused before it is read.
    pub fn from_file(path: &Path) -> Result<Network, NetError> {
        let io = |e: std::io::Error| NetError::Io(format!("{}: {e}", path.display()));
        let mut file = std::fs::File::open(path).map_err(io)?;
        let len = file.metadata().map_err(io)?.len();
        if len != Self::SIZE as u64 && len != Self::PADDED_SIZE as u64 {
            return Err(NetError::WrongSize {
                got: usize::try_from(len).unwrap_or(usize::MAX),
                hidden: HIDDEN,
            });
        }
        let mut bytes = Vec::with_capacity(Self::PADDED_SIZE);
        std::io::Read::read_to_end(&mut file, &mut bytes).map_err(io)?;
        Network::from_bytes(&bytes)
    }

    /// The file's bytes, padded to a multiple of 64 ([`Self::from_bytes`]
    /// reads them back).
    pub fn to_bytes(&self) -> Vec<u8> {
        let words = self
            .l0_weights
            .iter()
            .flatten()
            .chain(&self.l0_bias)
            .chain(&self.l1_weights)
            .chain(core::iter::once(&self.l1_bias));
        file_bytes(words.copied())
    }

    /// A net of zeros.
    pub fn zeroed() -> Network {
        let rows: Box<[[i16; HIDDEN]]> = vec![[0; HIDDEN]; INPUTS].into_boxed_slice();
        Network {
            l0_weights: rows.try_into().expect("INPUTS rows"),
            l0_bias: [0; HIDDEN],
            l1_weights: [0; 2 * HIDDEN],
            l1_bias: 0,
        }
    }

    /// The output layer: the score in centipawns from the two halves of the
    /// hidden layer, the side to move's first.
    #[inline]
    pub fn output(&self, us: &[i16; HIDDEN], them: &[i16; HIDDEN]) -> i32 {
        // SCReLU: clamp(x, 0, QA)² × w is at most 255² × 32767 < 2³¹; the
        // sum wraps, so its value does not depend on the order of the
        // additions (and a trained net's weights keep it far from wrapping).
        let half = |xs: &[i16; HIDDEN], ws: &[i16]| {
            xs.iter().zip(ws).fold(0i32, |sum, (&x, &w)| {
                let v = i32::from(x).clamp(0, QA);
                sum.wrapping_add(v * v * i32::from(w))
            })
        };
        let sum = half(us, &self.l1_weights[..HIDDEN])
            .wrapping_add(half(them, &self.l1_weights[HIDDEN..]));
        (sum / QA + i32::from(self.l1_bias)) * SCALE / (QA * QB)
    }
}

/// The bytes of the weights of a net file whose hidden layer has `hidden`
/// neurons, before the padding: one `i16` a weight.
pub const fn weight_bytes(hidden: usize) -> usize {
    2 * (INPUTS * hidden + hidden + 2 * hidden + 1)
}

/// `size` rounded up to a multiple of 64, as bullet pads a net file.
const fn padded(size: usize) -> usize {
    size.div_ceil(64) * 64
}

/// The weights of a net file whose hidden layer has `hidden` neurons, in
/// file order (see the crate's documentation): the one reader of the
/// layout, for any hidden width, as [`file_bytes`] is its one writer. The
/// file is [`weight_bytes`] long, or that padded to a multiple of 64 with
/// padding [`is_padding`] accepts.
pub fn file_words(bytes: &[u8], hidden: usize) -> Result<Vec<i16>, NetError> {
    let size = weight_bytes(hidden);
    if bytes.len() != size && bytes.len() != padded(size) {
        return Err(NetError::WrongSize {
            got: bytes.len(),
            hidden,
        });
    }
    if !is_padding(&bytes[size..]) {
        return Err(NetError::Padding);
    }
    Ok(bytes[..size]
        .chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]))
        .collect())
}

/// A float weight on its layer's grid of `1 / scale` ([`QA`] for the hidden
/// layer, [`QB`] for the output weights, `QA × QB` for the output bias): the
/// file's `i16`, rounded to the nearest and saturated. The one quantisation
/// of the net, for any hidden width (`borrow-train` writes nets of other
/// widths than this build's).
pub fn quantise(weight: f32, scale: i32) -> i16 {
    (weight * scale as f32)
        .round()
        .clamp(f32::from(i16::MIN), f32::from(i16::MAX)) as i16
}

/// A net file's bytes from its weights in file order (see the crate's
/// documentation), little-endian, padded with zeros to a multiple of 64:
/// the one writer of the layout, for any hidden width.
pub fn file_bytes(words: impl IntoIterator<Item = i16>) -> Vec<u8> {
    let mut out: Vec<u8> = words.into_iter().flat_map(i16::to_le_bytes).collect();
    out.resize(out.len().div_ceil(64) * 64, 0);
    out
}

/// The bytes bullet repeats to pad a quantised net to a multiple of 64
/// (its trainer's `to_quantised_buffer`, `crates/trainer/src/model/weights.rs`).
pub const BULLET_PADDING: &[u8; 6] = b"bullet";

/// Whether `tail`, the bytes after a net's weights, is padding as a trainer
/// writes it: zeros (`borrow-train`, older bullet versions) or
/// [`BULLET_PADDING`] repeated from its first byte (bullet).
pub const fn is_padding(tail: &[u8]) -> bool {
    let (mut zeros, mut bullet) = (true, true);
    let mut i = 0;
    while i < tail.len() {
        zeros &= tail[i] == 0;
        bullet &= tail[i] == BULLET_PADDING[i % BULLET_PADDING.len()];
        i += 1;
    }
    zeros || bullet
}

/// Whether `bytes` is a net file of this layout: its size, and the padding
/// after the weights. A `const fn`, so that a build can check the net it
/// includes.
pub const fn is_net_file(bytes: &[u8]) -> bool {
    (bytes.len() == Network::SIZE || bytes.len() == Network::PADDED_SIZE)
        && is_padding(bytes.split_at(Network::SIZE).1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A net of seeded pseudo-random weights, small enough that the output
    /// stays in range.
    fn random_net(seed: u64) -> Network {
        let mut state = seed | 1;
        let mut next = |bound: i16| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % (2 * bound as u64 + 1)) as i16 - bound
        };
        let mut net = Network::zeroed();
        for row in net.l0_weights.iter_mut() {
            row.iter_mut().for_each(|w| *w = next(90));
        }
        net.l0_bias.iter_mut().for_each(|w| *w = next(90));
        net.l1_weights.iter_mut().for_each(|w| *w = next(120));
        net.l1_bias = next(5_000);
        net
    }

    #[test]
    fn a_net_reads_and_writes_back_the_same_bytes() {
        let bytes = random_net(7).to_bytes();
        assert_eq!(bytes.len(), Network::PADDED_SIZE);
        assert!(is_net_file(&bytes));
        assert_eq!(Network::from_bytes(&bytes).unwrap().to_bytes(), bytes);
    }

    #[test]
    fn files_of_another_size_or_with_garbage_padding_are_refused() {
        let bytes = random_net(3).to_bytes();
        assert_eq!(
            Network::from_bytes(&bytes[..100]).unwrap_err(),
            NetError::WrongSize {
                got: 100,
                hidden: HIDDEN
            }
        );
        let mut longer = bytes.clone();
        longer.extend_from_slice(&[0; 64]);
        assert!(matches!(
            Network::from_bytes(&longer),
            Err(NetError::WrongSize { .. })
        ));
        let mut garbage = bytes.clone();
        *garbage.last_mut().unwrap() = 1;
        if Network::PADDED_SIZE > Network::SIZE {
            assert_eq!(
                Network::from_bytes(&garbage).unwrap_err(),
                NetError::Padding
            );
        }
        // Unpadded is fine too.
        assert!(Network::from_bytes(&bytes[..Network::SIZE]).is_ok());
        let missing = Network::from_file(Path::new("/nonexistent/borrow.nnue")).unwrap_err();
        assert!(matches!(missing, NetError::Io(_)), "{missing}");
    }

    /// A net's weights padded as bullet pads a quantised file
    /// (`to_quantised_buffer` in bullet's `crates/trainer/src/model/weights.rs`:
    /// `b"bullet"` repeated from the end of the weights up to a multiple of
    /// 64 bytes).
    fn bullet_padded() -> Vec<u8> {
        let mut bytes = random_net(11).to_bytes();
        bytes.truncate(Network::SIZE);
        let chs = [b'b', b'u', b'l', b'l', b'e', b't'];
        let pad = bytes.len() % 64;
        if pad > 0 {
            for i in 0..64 - pad {
                bytes.push(chs[i % chs.len()]);
            }
        }
        bytes
    }

    #[test]
    fn a_net_padded_as_bullet_pads_it_evaluates_as_the_zero_padded_one() {
        let bullet = bullet_padded();
        assert_eq!(bullet.len(), Network::PADDED_SIZE);
        let zeros = random_net(11);
        assert_ne!(bullet, zeros.to_bytes(), "the padding differs from zeros");
        let net = Network::from_bytes(&bullet).expect("bullet's padding is accepted");
        assert_eq!(net.to_bytes(), zeros.to_bytes());
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 0 1",
        ] {
            let pos: movegen::Position = movegen::Position::from_fen(fen).expect("a legal FEN");
            let a = crate::Accumulator::refresh(&net, &pos).evaluate(&net, pos.turn());
            let b = crate::Accumulator::refresh(&zeros, &pos).evaluate(&zeros, pos.turn());
            assert_eq!(a, b, "{fen}");
        }
        // A file as bullet writes it, read from disk.
        let path = std::env::temp_dir().join(format!("borrow-bullet-{}.nnue", std::process::id()));
        std::fs::write(&path, &bullet).unwrap();
        let read = Network::from_file(&path);
        std::fs::remove_file(&path).unwrap();
        assert_eq!(read.expect("loads").to_bytes(), zeros.to_bytes());
    }

    #[test]
    fn padding_is_zeros_or_bullets_pattern_from_its_first_byte() {
        assert!(is_padding(b""));
        assert!(is_padding(&[0; 62]));
        assert!(is_padding(b"bulletbulletbu"));
        assert!(
            !is_padding(b"ulletb"),
            "the pattern starts at the first byte"
        );
        assert!(!is_padding(b"bulletbullet\0\0"));
        assert!(!is_padding(b"bu\0"));
    }

    #[test]
    fn the_output_follows_the_quantised_formula() {
        let mut net = Network::zeroed();
        net.l1_weights[0] = QB as i16; // 1.0
        net.l1_weights[HIDDEN] = -(QB as i16) / 2; // -0.5
        net.l1_bias = (QA * QB / 10) as i16; // 0.1
        let mut us = [0i16; HIDDEN];
        let mut them = [0i16; HIDDEN];
        us[0] = QA as i16; // activation 1.0
        them[0] = 600; // clamped to 1.0
        us[1] = -50; // clamped to 0
        // 1.0 × 1.0 - 0.5 × 1.0 + 0.1 = 0.6, times 400.
        assert_eq!(net.output(&us, &them), 240);
        us[0] = (QA / 2) as i16; // 127/255 ≈ 0.498, squared ≈ 0.248
        let expect = ((127.0f64 / 255.0).powi(2) - 0.5 + 0.1) * 400.0;
        assert!((f64::from(net.output(&us, &them)) - expect).abs() <= 1.0);
    }
}
