//! The net's weights, read from the quantised file layout, and its output
//! layer.

use std::fmt;
use std::path::Path;

use attacks::Square;

use crate::{HIDDEN, INPUTS, MIRRORED, OUTPUT_BUCKETS, QA, QB, SCALE, mirror_flip, output_bucket};

/// A quantised `(768 → HIDDEN) × 2 → 1` net with [`OUTPUT_BUCKETS`] output
/// buckets.
#[derive(Clone)]
pub struct Network {
    /// The hidden layer's weights, a row of [`HIDDEN`] for each input.
    pub l0_weights: Box<[[i16; HIDDEN]; INPUTS]>,
    /// The hidden layer's biases.
    pub l0_bias: [i16; HIDDEN],
    /// The output weights of each bucket: the side to move's half, then
    /// the other's.
    pub l1_weights: [[i16; 2 * HIDDEN]; OUTPUT_BUCKETS],
    /// The output bias of each bucket, scaled by `QA × QB`.
    pub l1_bias: [i16; OUTPUT_BUCKETS],
    /// Whether its inputs are mirrored horizontally by each side's king
    /// ([`mirror_flip`]): [`MIRRORED`] for a net read from a file, which
    /// does not say (a file of the other kind has the same size: it loads,
    /// and is evaluated wrongly).
    pub mirrored: bool,
}

/// Why a net file was refused.
#[derive(Debug, PartialEq, Eq)]
pub enum NetError {
    /// The file could not be read.
    Io(String),
    /// Not the size of the architecture asked for, with one output bucket
    /// or with `buckets`.
    WrongSize {
        /// The file's size in bytes.
        got: usize,
        /// The hidden width asked for.
        hidden: usize,
        /// The output buckets asked for (a file of one is read too).
        buckets: usize,
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
            NetError::WrongSize {
                got,
                hidden,
                buckets,
            } => {
                write!(
                    f,
                    "the net file has {got} bytes; a (768->{hidden})x2->1 net has {} ({} padded to 64)",
                    weight_bytes(*hidden, 1),
                    padded(weight_bytes(*hidden, 1))
                )?;
                if *buckets > 1 {
                    write!(
                        f,
                        ", and {} ({}) with {buckets} output buckets",
                        weight_bytes(*hidden, *buckets),
                        padded(weight_bytes(*hidden, *buckets))
                    )?;
                }
                Ok(())
            }
            NetError::Padding => f.write_str(
                "the net file's padding is neither zeros nor bullet's 'bulletbullet...': not a (768->H)x2->1 quantised net",
            ),
        }
    }
}

impl std::error::Error for NetError {}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mirrored = if self.mirrored { ", mirrored" } else { "" };
        write!(
            f,
            "Network((768->{HIDDEN})x2->1x{OUTPUT_BUCKETS}{mirrored})"
        )
    }
}

impl Network {
    /// The bytes of the weights: `i16`s in the order of the fields.
    pub const SIZE: usize = weight_bytes(HIDDEN, OUTPUT_BUCKETS);
    /// [`Self::SIZE`] rounded up to a multiple of 64, as bullet writes it.
    pub const PADDED_SIZE: usize = padded(Self::SIZE);

    /// A net from its file's bytes: a file of [`OUTPUT_BUCKETS`] output
    /// buckets ([`Self::SIZE`] bytes, or [`Self::PADDED_SIZE`] with the
    /// padding [`is_padding`] accepts after the weights), or of one (nets
    /// 1 to 7, bullet's single-output example), whose output layer then
    /// serves every bucket: the same net ([`file_words`] reads either).
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        let mut words = file_words(bytes, HIDDEN, OUTPUT_BUCKETS)?.into_iter();
        let mut next = || words.next().expect("the size counts every weight");
        let mut net = Network::zeroed();
        for row in net.l0_weights.iter_mut() {
            row.iter_mut().for_each(|w| *w = next());
        }
        net.l0_bias.iter_mut().for_each(|w| *w = next());
        for bucket in net.l1_weights.iter_mut() {
            bucket.iter_mut().for_each(|w| *w = next());
        }
        net.l1_bias.iter_mut().for_each(|b| *b = next());
        Ok(net)
    }

    /// A net from a file (see [`Self::from_bytes`]). A file of the wrong
    /// size is refused before it is read.
    pub fn from_file(path: &Path) -> Result<Network, NetError> {
        let io = |e: std::io::Error| NetError::Io(format!("{}: {e}", path.display()));
        let mut file = std::fs::File::open(path).map_err(io)?;
        let len = file.metadata().map_err(io)?.len();
        let got = usize::try_from(len).unwrap_or(usize::MAX);
        if file_buckets(got, HIDDEN).is_none() {
            return Err(NetError::WrongSize {
                got,
                hidden: HIDDEN,
                buckets: OUTPUT_BUCKETS,
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
            .chain(self.l1_weights.iter().flatten())
            .chain(&self.l1_bias);
        file_bytes(words.copied())
    }

    /// A net of zeros.
    pub fn zeroed() -> Network {
        let rows: Box<[[i16; HIDDEN]]> = vec![[0; HIDDEN]; INPUTS].into_boxed_slice();
        Network {
            l0_weights: rows.try_into().expect("INPUTS rows"),
            l0_bias: [0; HIDDEN],
            l1_weights: [[0; 2 * HIDDEN]; OUTPUT_BUCKETS],
            l1_bias: [0; OUTPUT_BUCKETS],
            mirrored: MIRRORED,
        }
    }

    /// What the inputs of the view whose king is on `king` are XORed with:
    /// [`mirror_flip`] in a mirrored net, 0 otherwise.
    #[inline(always)]
    pub fn flip(&self, king: Square) -> usize {
        if self.mirrored { mirror_flip(king) } else { 0 }
    }

    /// The output layer: the score in centipawns from the two halves of the
    /// hidden layer, the side to move's first, through the output bucket of
    /// a position with `pieces` pieces on the board ([`output_bucket`]).
    #[inline]
    pub fn output(&self, us: &[i16; HIDDEN], them: &[i16; HIDDEN], pieces: u32) -> i32 {
        let bucket = output_bucket(pieces);
        let (weights, bias) = (&self.l1_weights[bucket], self.l1_bias[bucket]);
        // SCReLU: clamp(x, 0, QA)² × w is at most 255² × 32767 < 2³¹; the
        // sum wraps, so its value does not depend on the order of the
        // additions (and a trained net's weights keep it far from wrapping).
        let half = |xs: &[i16; HIDDEN], ws: &[i16]| {
            xs.iter().zip(ws).fold(0i32, |sum, (&x, &w)| {
                let v = i32::from(x).clamp(0, QA);
                sum.wrapping_add(v * v * i32::from(w))
            })
        };
        let sum = half(us, &weights[..HIDDEN]).wrapping_add(half(them, &weights[HIDDEN..]));
        (sum / QA + i32::from(bias)) * SCALE / (QA * QB)
    }
}

/// The bytes of the weights of a net file whose hidden layer has `hidden`
/// neurons and whose output layer has `buckets` buckets, before the
/// padding: one `i16` a weight.
pub const fn weight_bytes(hidden: usize, buckets: usize) -> usize {
    2 * (INPUTS * hidden + hidden + buckets * (2 * hidden + 1))
}

/// The output buckets of a net file of `len` bytes whose hidden layer has
/// `hidden` neurons: [`OUTPUT_BUCKETS`] or 1, whichever the size (padded
/// or not) is; `None` for neither.
pub const fn file_buckets(len: usize, hidden: usize) -> Option<usize> {
    const fn fits(len: usize, hidden: usize, buckets: usize) -> bool {
        let size = weight_bytes(hidden, buckets);
        len == size || len == padded(size)
    }
    if fits(len, hidden, OUTPUT_BUCKETS) {
        Some(OUTPUT_BUCKETS)
    } else if fits(len, hidden, 1) {
        Some(1)
    } else {
        None
    }
}

/// `size` rounded up to a multiple of 64, as bullet pads a net file.
const fn padded(size: usize) -> usize {
    size.div_ceil(64) * 64
}

/// The shape of a net file of `len` bytes, read from its size: the hidden
/// width and the output buckets ([`OUTPUT_BUCKETS`] tried first, then 1),
/// for a width up to 4,096; `None` for a size no such net has.
pub fn file_shape(len: usize) -> Option<(usize, usize)> {
    (1..=4096).find_map(|hidden| file_buckets(len, hidden).map(|buckets| (hidden, buckets)))
}

/// The weights of a net whose hidden layer has `hidden` neurons and whose
/// output layer has `buckets` buckets, in file order (see the crate's
/// documentation), from a file of that net or of one output bucket, whose
/// output layer then serves each bucket (the same net): the one reader of
/// the layout, for any hidden width, as [`file_bytes`] is its one writer.
/// The file is [`weight_bytes`] long, or that padded to a multiple of 64
/// with padding [`is_padding`] accepts.
pub fn file_words(bytes: &[u8], hidden: usize, buckets: usize) -> Result<Vec<i16>, NetError> {
    let in_file = match file_buckets(bytes.len(), hidden) {
        Some(b) if b == buckets || b == 1 => b,
        _ => {
            return Err(NetError::WrongSize {
                got: bytes.len(),
                hidden,
                buckets,
            });
        }
    };
    let size = weight_bytes(hidden, in_file);
    if !is_padding(&bytes[size..]) {
        return Err(NetError::Padding);
    }
    let words: Vec<i16> = bytes[..size]
        .chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]))
        .collect();
    if in_file == buckets {
        return Ok(words);
    }
    let (hidden_layer, output) = words.split_at(INPUTS * hidden + hidden);
    let (weights, bias) = output.split_at(2 * hidden);
    let mut out = hidden_layer.to_vec();
    (0..buckets).for_each(|_| out.extend_from_slice(weights));
    out.extend(std::iter::repeat_n(bias[0], buckets));
    Ok(out)
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

/// Whether `bytes` is a net file this build reads ([`Network::from_bytes`]):
/// its size, of [`OUTPUT_BUCKETS`] output buckets or of one, and the padding
/// after the weights. A `const fn`, so that a build can check the net it
/// includes.
pub const fn is_net_file(bytes: &[u8]) -> bool {
    match file_buckets(bytes.len(), HIDDEN) {
        Some(buckets) => is_padding(bytes.split_at(weight_bytes(HIDDEN, buckets)).1),
        None => false,
    }
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
        for bucket in net.l1_weights.iter_mut() {
            bucket.iter_mut().for_each(|w| *w = next(120));
        }
        net.l1_bias.iter_mut().for_each(|b| *b = next(5_000));
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
                hidden: HIDDEN,
                buckets: OUTPUT_BUCKETS
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
            let a = crate::Accumulator::refresh(&net, &pos).evaluate(&net, &pos);
            let b = crate::Accumulator::refresh(&zeros, &pos).evaluate(&zeros, &pos);
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
        // Bucket 7 (30 to 32 pieces) as the formula asks; bucket 0 other.
        net.l1_weights[7][0] = QB as i16; // 1.0
        net.l1_weights[7][HIDDEN] = -(QB as i16) / 2; // -0.5
        net.l1_bias[7] = (QA * QB / 10) as i16; // 0.1
        net.l1_bias[0] = -(QA * QB / 10) as i16; // -0.1
        let mut us = [0i16; HIDDEN];
        let mut them = [0i16; HIDDEN];
        us[0] = QA as i16; // activation 1.0
        them[0] = 600; // clamped to 1.0
        us[1] = -50; // clamped to 0
        // 1.0 × 1.0 - 0.5 × 1.0 + 0.1 = 0.6, times 400.
        assert_eq!(net.output(&us, &them, 32), 240);
        assert_eq!(net.output(&us, &them, 30), 240);
        // Bucket 0: only its bias, -0.1.
        assert_eq!(net.output(&us, &them, 5), -40);
        us[0] = (QA / 2) as i16; // 127/255 ≈ 0.498, squared ≈ 0.248
        let expect = ((127.0f64 / 255.0).powi(2) - 0.5 + 0.1) * 400.0;
        assert!((f64::from(net.output(&us, &them, 31)) - expect).abs() <= 1.0);
    }

    /// A file of one output bucket, as bullet's single-output example and
    /// nets 1 to 7 are: `net`'s weights with bucket 0's output layer.
    fn single_bucket_file(net: &Network) -> Vec<u8> {
        let words = net
            .l0_weights
            .iter()
            .flatten()
            .chain(&net.l0_bias)
            .chain(&net.l1_weights[0])
            .chain(&net.l1_bias[..1]);
        file_bytes(words.copied())
    }

    #[test]
    fn a_file_of_one_output_bucket_serves_every_bucket() {
        let net = random_net(5);
        let single = single_bucket_file(&net);
        assert_eq!(single.len(), padded(weight_bytes(HIDDEN, 1)));
        assert_ne!(single.len(), Network::PADDED_SIZE);
        assert!(is_net_file(&single));
        let read = Network::from_bytes(&single).expect("one bucket is read");
        assert_eq!(*read.l0_weights, *net.l0_weights);
        assert_eq!(read.l0_bias, net.l0_bias);
        assert_eq!(read.l1_weights, [net.l1_weights[0]; OUTPUT_BUCKETS]);
        assert_eq!(read.l1_bias, [net.l1_bias[0]; OUTPUT_BUCKETS]);
        // Unpadded, and from a file, too.
        let unpadded = &single[..weight_bytes(HIDDEN, 1)];
        assert_eq!(
            Network::from_bytes(unpadded).unwrap().to_bytes(),
            read.to_bytes()
        );
        let path = std::env::temp_dir().join(format!("borrow-single-{}.nnue", std::process::id()));
        std::fs::write(&path, &single).unwrap();
        let from_file = Network::from_file(&path);
        std::fs::remove_file(&path).unwrap();
        assert_eq!(from_file.unwrap().to_bytes(), read.to_bytes());
        // Written back, it has every bucket.
        assert_eq!(read.to_bytes().len(), Network::PADDED_SIZE);
    }

    #[test]
    fn a_files_shape_is_read_from_its_size() {
        assert_eq!(
            file_shape(Network::PADDED_SIZE),
            Some((HIDDEN, OUTPUT_BUCKETS))
        );
        assert_eq!(file_shape(Network::SIZE), Some((HIDDEN, OUTPUT_BUCKETS)));
        for hidden in [16, 64, 128, 256, 1024] {
            for buckets in [1, OUTPUT_BUCKETS] {
                let size = weight_bytes(hidden, buckets);
                assert_eq!(file_shape(padded(size)), Some((hidden, buckets)));
                assert_eq!(file_shape(size), Some((hidden, buckets)));
            }
        }
        assert_eq!(file_shape(100), None);
        assert_eq!(file_shape(weight_bytes(256, 1) + 2), None);
    }

    #[test]
    fn each_bucket_of_the_file_is_its_own_output_layer() {
        // Bucket b's weights and bias in file order: the output layer of
        // bullet's `l1w` saved with `.transpose()` (a row of 2 × HIDDEN per
        // bucket), then its `l1b`.
        let net = random_net(13);
        let bytes = net.to_bytes();
        let word = |i: usize| i16::from_le_bytes([bytes[2 * i], bytes[2 * i + 1]]);
        let l1 = INPUTS * HIDDEN + HIDDEN;
        for b in 0..OUTPUT_BUCKETS {
            for i in [0, HIDDEN - 1, HIDDEN, 2 * HIDDEN - 1] {
                assert_eq!(word(l1 + b * 2 * HIDDEN + i), net.l1_weights[b][i]);
            }
            assert_eq!(word(l1 + OUTPUT_BUCKETS * 2 * HIDDEN + b), net.l1_bias[b]);
        }
        assert_eq!(Network::SIZE, 2 * (l1 + OUTPUT_BUCKETS * (2 * HIDDEN + 1)));
        // A position's score uses its own bucket's layer: the same hidden
        // layer through each bucket gives different scores.
        let pos: movegen::Position = movegen::Position::startpos();
        let acc = crate::Accumulator::refresh(&net, &pos);
        let scores: Vec<i32> = (2..=32)
            .step_by(4)
            .map(|n| net.output(&acc.halves[0], &acc.halves[1], n))
            .collect();
        assert_eq!(acc.evaluate(&net, &pos), scores[7]);
        let mut distinct = scores.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), OUTPUT_BUCKETS, "{scores:?}");
    }
}
