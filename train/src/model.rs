//! [`Model`]: the `(768 → H) × 2 → 1` net in floating point, with one
//! output bucket or [`OUTPUT_BUCKETS`], as the trainer fits it: the forward
//! pass, the gradient of the loss for one sample, and the quantised file the
//! engine reads ([`nnue`]).
//!
//! The float net computes what the quantised one does: the hidden layer
//! `h = b0 + Σ w0[f]` over the active inputs of a view, SCReLU
//! `clamp(h, 0, 1)²`, the output `w1[b] · [a_us, a_them] + b1[b]` of the
//! position's bucket `b` ([`nnue::output_bucket`]), in units of
//! [`nnue::SCALE`] centipawns. Quantising multiplies the hidden layer
//! by `QA`, the output weights by `QB` and the output biases by `QA × QB`.

use nnue::network::{NetError, file_bytes, file_words, quantise};
use nnue::{INPUTS, OUTPUT_BUCKETS, QA, QB, output_bucket};
use rng::Rng;

use crate::sample::{MAX_PIECES, Sample, sigmoid};

/// The largest weight magnitude, as bullet clips: an output weight of at
/// most `1.98 × QB = 126` keeps the engine's `i32` output sum (`255² × 126`
/// a term) from wrapping, and a hidden weight of at most `1.98 × QA = 505`
/// keeps 32 pieces' sums inside an `i16`.
pub const WEIGHT_CLIP: f32 = 1.98;

/// The float net's parameters, in one vector: `w0` (a row of `hidden` per
/// input), `b0`, `w1` (a row of `2 × hidden` per output bucket, side to
/// move's half first), `b1` (one per bucket): the file's order.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// Neurons in the hidden layer.
    pub hidden: usize,
    /// Output buckets: 1, or [`OUTPUT_BUCKETS`] chosen by material.
    pub buckets: usize,
    /// Every parameter, in the order above.
    pub params: Vec<f32>,
}

/// Where each part of [`Model::params`] (and of a gradient) starts.
#[derive(Copy, Clone, Debug)]
pub struct Layout {
    /// The hidden width.
    pub hidden: usize,
    /// The output buckets.
    pub buckets: usize,
}

/// Whether the trainer fits nets of `buckets` output buckets: one, or the
/// engine's [`OUTPUT_BUCKETS`] (by material, as the engine picks them).
pub fn supported_buckets(buckets: usize) -> bool {
    buckets == 1 || buckets == OUTPUT_BUCKETS
}

impl Layout {
    /// Start of the hidden biases.
    pub fn b0(self) -> usize {
        INPUTS * self.hidden
    }
    /// Start of the output weights.
    pub fn w1(self) -> usize {
        self.b0() + self.hidden
    }
    /// Start of the output biases.
    pub fn b1(self) -> usize {
        self.w1() + self.buckets * 2 * self.hidden
    }
    /// Parameters in all.
    pub fn params(self) -> usize {
        self.b1() + self.buckets
    }
    /// Start of bucket `b`'s output weights.
    pub fn w1_of(self, b: usize) -> usize {
        self.w1() + b * 2 * self.hidden
    }
    /// Bucket `b`'s output bias.
    pub fn b1_of(self, b: usize) -> usize {
        self.b1() + b
    }
    /// The quantisation scale of parameter `i`'s layer: `QA` for the hidden
    /// layer (weights and biases), `QB` for the output weights, `QA × QB`
    /// for the output biases. The file holds each parameter times its scale.
    pub fn scale(self, i: usize) -> i32 {
        if i < self.w1() {
            QA
        } else if i < self.b1() {
            QB
        } else {
            QA * QB
        }
    }
}

/// Work space for one sample's passes, reused between samples.
pub struct Scratch {
    h: [Vec<f32>; 2],
    g: [Vec<f32>; 2],
    views: [[usize; MAX_PIECES]; 2],
}

impl Scratch {
    /// Space for a net of `hidden` neurons.
    pub fn new(hidden: usize) -> Scratch {
        Scratch {
            h: [vec![0.0; hidden], vec![0.0; hidden]],
            g: [vec![0.0; hidden], vec![0.0; hidden]],
            views: [[0; MAX_PIECES]; 2],
        }
    }
}

/// A weight drawn uniformly from `±bound` (24 bits of `rng`'s next draw).
fn uniform(rng: &mut Rng, bound: f32) -> f32 {
    let u = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
    (2.0 * u - 1.0) * bound
}

/// SCReLU.
#[inline(always)]
fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

impl Model {
    /// A net of `hidden` neurons and `buckets` output buckets with weights
    /// drawn uniformly from `±1/√fan_in` by `seed` (in parameter order, so
    /// that a net of one bucket is what it was before buckets).
    pub fn new(hidden: usize, buckets: usize, seed: u64) -> Model {
        let layout = Layout { hidden, buckets };
        let mut rng = Rng::new(seed);
        let mut params = vec![0.0; layout.params()];
        let l0 = 1.0 / (INPUTS as f32).sqrt();
        let l1 = 1.0 / ((2 * hidden) as f32).sqrt();
        for (i, p) in params.iter_mut().enumerate() {
            *p = uniform(&mut rng, if i < layout.w1() { l0 } else { l1 });
        }
        Model {
            hidden,
            buckets,
            params,
        }
    }

    /// The net a quantised file of `hidden` neurons holds, as floats, with
    /// `buckets` output buckets: each weight divided by its layer's scale,
    /// so that [`Model::quantised_bytes`] writes the file back as it was.
    /// A file of one bucket gives each of `buckets` its output layer (the
    /// same net), as the engine reads it. The start of a fine-tuning run.
    pub fn from_file_bytes(bytes: &[u8], hidden: usize, buckets: usize) -> Result<Model, NetError> {
        let words = file_words(bytes, hidden, buckets)?;
        let l = Layout { hidden, buckets };
        let params = words
            .iter()
            .enumerate()
            .map(|(i, &w)| f32::from(w) / l.scale(i) as f32)
            .collect();
        Ok(Model {
            hidden,
            buckets,
            params,
        })
    }

    /// This net with `hidden` neurons (at least as many as it has): the new
    /// neurons' input weights drawn uniformly from `±1/√768` by `seed`,
    /// their biases and output weights zero, so the wider net computes what
    /// this one does, and training gives the new neurons their part (their
    /// output weights get gradients at once, their input weights as soon as
    /// those are not zero).
    pub fn widened(&self, hidden: usize, seed: u64) -> Model {
        assert!(hidden >= self.hidden, "a net is widened, not narrowed");
        let (old, new) = (
            self.layout(),
            Layout {
                hidden,
                buckets: self.buckets,
            },
        );
        let mut rng = Rng::new(seed);
        let bound = 1.0 / (INPUTS as f32).sqrt();
        let mut params = Vec::with_capacity(new.params());
        for f in 0..INPUTS {
            params.extend_from_slice(&self.params[f * self.hidden..(f + 1) * self.hidden]);
            params.extend((self.hidden..hidden).map(|_| uniform(&mut rng, bound)));
        }
        params.extend_from_slice(&self.params[old.b0()..old.w1()]);
        params.resize(new.w1(), 0.0);
        for b in 0..self.buckets {
            for side in 0..2 {
                let start = old.w1_of(b) + side * self.hidden;
                params.extend_from_slice(&self.params[start..start + self.hidden]);
                params.resize(params.len() + hidden - self.hidden, 0.0);
            }
        }
        params.extend_from_slice(&self.params[old.b1()..]);
        debug_assert_eq!(params.len(), new.params());
        Model {
            hidden,
            buckets: self.buckets,
            params,
        }
    }

    /// This net with its input rows turned round by file (row `f` takes
    /// row `f ^ 7`'s weights, the square of the other file on the same
    /// rank): the start of a mirrored net from a plain one (`borrow-train
    /// --mirror --init-plain`). A view whose king stands on files e–h,
    /// which the mirrored net turns round ([`nnue::mirror_flip`]), then
    /// computes what the plain net does; a view whose king is on a–d what
    /// the plain net does for the board turned round.
    pub fn inputs_turned_round(&self) -> Model {
        let h = self.hidden;
        let mut m = self.clone();
        for f in 0..INPUTS {
            let from = f ^ 7;
            m.params[f * h..(f + 1) * h].copy_from_slice(&self.params[from * h..(from + 1) * h]);
        }
        m
    }

    /// Where the parts lie.
    pub fn layout(&self) -> Layout {
        Layout {
            hidden: self.hidden,
            buckets: self.buckets,
        }
    }

    /// The output bucket `s` goes through.
    #[inline]
    pub fn bucket(&self, s: &Sample) -> usize {
        if self.buckets == 1 {
            0
        } else {
            output_bucket(s.pieces() as u32)
        }
    }

    /// The hidden layer of the views in `scratch` (pre-activation).
    fn hidden_layer(&self, n: usize, scratch: &mut Scratch) {
        let h = self.hidden;
        let l = self.layout();
        let bias = &self.params[l.b0()..l.w1()];
        for side in 0..2 {
            let acc = &mut scratch.h[side];
            acc.copy_from_slice(bias);
            for &f in &scratch.views[side][..n] {
                let row = &self.params[f * h..(f + 1) * h];
                for (a, &w) in acc.iter_mut().zip(row) {
                    *a += w;
                }
            }
        }
    }

    /// The output of bucket `b` for the hidden layer in `scratch`.
    fn output_layer(&self, b: usize, scratch: &Scratch) -> f32 {
        let l = self.layout();
        let w1 = &self.params[l.w1_of(b)..l.w1_of(b) + 2 * self.hidden];
        let (w_us, w_them) = w1.split_at(self.hidden);
        let dot =
            |hs: &[f32], ws: &[f32]| hs.iter().zip(ws).map(|(&x, &w)| screlu(x) * w).sum::<f32>();
        dot(&scratch.h[0], w_us) + dot(&scratch.h[1], w_them) + self.params[l.b1_of(b)]
    }

    /// The net's output for `s` (multiply by the scale for centipawns).
    pub fn forward(&self, s: &Sample, scratch: &mut Scratch) -> f32 {
        let [us, them] = &mut scratch.views;
        let n = s.fill_views(us, them);
        self.hidden_layer(n, scratch);
        self.output_layer(self.bucket(s), scratch)
    }

    /// The loss of `s`, `(sigmoid(slope × output) − target)²`, without
    /// gradients. `slope` is the net's centipawns per unit of output over
    /// the logistic scale ([`crate::scale`]): 1 when that scale is the
    /// engine's `SCALE`.
    pub fn loss(&self, s: &Sample, target: f32, slope: f32, scratch: &mut Scratch) -> f32 {
        let p = sigmoid(slope * self.forward(s, scratch));
        (p - target) * (p - target)
    }

    /// Adds the gradient of `s`'s loss ([`Model::loss`]) to `grad` (laid
    /// out as the parameters) and returns the loss. Only the rows of the
    /// inputs `s` has are touched in the first layer.
    pub fn backward(
        &self,
        s: &Sample,
        target: f32,
        slope: f32,
        grad: &mut [f32],
        scratch: &mut Scratch,
    ) -> f32 {
        let h = self.hidden;
        let l = self.layout();
        let out = self.forward(s, scratch);
        let p = sigmoid(slope * out);
        let loss = (p - target) * (p - target);
        let g_out = 2.0 * (p - target) * p * (1.0 - p) * slope;

        // The output layer: the bucket's weights and bias.
        let b = self.bucket(s);
        let w1_start = l.w1_of(b);
        grad[l.b1_of(b)] += g_out;
        let w1 = &self.params[w1_start..w1_start + 2 * h];
        for side in 0..2 {
            let hs = &scratch.h[side];
            let ws = &w1[side * h..(side + 1) * h];
            let gw = &mut grad[w1_start + side * h..w1_start + (side + 1) * h];
            let gh = &mut scratch.g[side];
            for i in 0..h {
                let x = hs[i];
                gw[i] += g_out * screlu(x);
                gh[i] = if x > 0.0 && x < 1.0 {
                    g_out * ws[i] * 2.0 * x
                } else {
                    0.0
                };
            }
        }
        // The hidden layer: biases, and the rows of the active inputs.
        let n = s.pieces();
        for side in 0..2 {
            let gh = &scratch.g[side];
            for (b, &g) in grad[l.b0()..l.w1()].iter_mut().zip(gh) {
                *b += g;
            }
            for &f in &scratch.views[side][..n] {
                for (w, &g) in grad[f * h..(f + 1) * h].iter_mut().zip(gh) {
                    *w += g;
                }
            }
        }
        loss
    }

    /// The float net whose weights are the quantised net's, exactly: each
    /// weight rounded to its layer's grid (`1/QA`, `1/QB`, `1/(QA × QB)`).
    pub fn rounded(&self) -> Model {
        let l = self.layout();
        let mut m = self.clone();
        for (i, w) in m.params.iter_mut().enumerate() {
            let k = l.scale(i);
            *w = f32::from(quantise(*w, k)) / k as f32;
        }
        m
    }

    /// The net the quantised file holds, as floats: [`Model::rounded`], with
    /// each bucket's output bias moved by the mean of what the rounding
    /// changed in the output over the `calibration` positions of that bucket
    /// (then rounded to its own grid; a bucket without any takes the mean
    /// over all of them).
    ///
    /// Rounding the output weights to `1/QB` is not noise that averages
    /// out: the activations it multiplies are never negative, so the
    /// rounding errors add up to an offset shared by every position (tens
    /// of centipawns for some nets of 2 × 128 output weights). The bias
    /// takes that offset back; with no calibration positions it is
    /// [`Model::rounded`].
    pub fn quantised(&self, calibration: &[Sample]) -> Model {
        let mut q = self.rounded();
        if calibration.is_empty() {
            return q;
        }
        let (mut float, mut grid) = (Scratch::new(self.hidden), Scratch::new(self.hidden));
        let mut shift = vec![(0.0f64, 0usize); self.buckets];
        for s in calibration {
            let d = f64::from(self.forward(s, &mut float)) - f64::from(q.forward(s, &mut grid));
            let (sum, n) = &mut shift[self.bucket(s)];
            *sum += d;
            *n += 1;
        }
        let all = shift.iter().map(|&(sum, _)| sum).sum::<f64>() / calibration.len() as f64;
        let l = q.layout();
        for (b, &(sum, n)) in shift.iter().enumerate() {
            let mean = if n == 0 { all } else { sum / n as f64 };
            let b1 = l.b1_of(b);
            let k = f64::from(l.scale(b1));
            q.params[b1] = ((f64::from(q.params[b1]) + mean) * k).round() as f32 / k as f32;
        }
        q
    }

    /// The quantised net file, bullet's layout for this architecture
    /// ([`nnue::Network::from_bytes`] reads it when `hidden` is the
    /// engine's width): each weight rounded to its grid, so the file of
    /// [`Model::quantised`]'s net is that net exactly.
    pub fn quantised_bytes(&self) -> Vec<u8> {
        let l = self.layout();
        file_bytes(
            self.params
                .iter()
                .enumerate()
                .map(|(i, &w)| quantise(w, l.scale(i))),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use movegen::Position;
    use nnue::data::read::Labelled;
    use nnue::{Accumulator, HIDDEN, Network, SCALE};

    /// `n` positions from random games seeded by `seed`
    /// ([`testkit::random_fens`]).
    fn random_positions(n: usize, seed: u64) -> Vec<Position> {
        testkit::random_fens(seed, n)
            .iter()
            .map(|fen| Position::from_fen(fen).expect("shakmaty's FEN of a legal position"))
            .collect()
    }

    /// Positions of 2 to 32 pieces: every output bucket but 5.
    fn few_piece_positions() -> Vec<Position> {
        let fens = [
            "8/8/4k3/8/8/4K3/8/8 w - - 0 1",
            "8/8/4k3/8/3P4/4K3/8/8 b - - 0 1",
            "8/5k2/2p5/3p4/3P4/2P5/2K1B3/8 w - - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "3q2k1/5pp1/2n4p/3r4/8/2R2P1P/3N1PP1/3Q2K1 w - - 0 1",
            "r4rk1/pp3ppp/2n5/3p4/3P4/2N2N2/PP3PPP/R4RK1 b - - 0 1",
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2Q1RK1 w - - 0 1",
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R w KQkq - 0 1",
        ];
        let positions: Vec<Position> = fens
            .iter()
            .map(|f| Position::from_fen(f).expect("a legal FEN"))
            .collect();
        let buckets: Vec<usize> = positions
            .iter()
            .map(|p| output_bucket(p.occupied().count()))
            .collect();
        assert_eq!(buckets, [0, 0, 1, 2, 3, 4, 6, 7]);
        positions
    }

    fn sample(pos: Position, score: i32, result: f32) -> Sample {
        Sample::new(&Labelled { pos, score, result })
    }

    #[test]
    fn each_layer_has_its_own_scale_up_to_its_last_parameter() {
        for buckets in [1, OUTPUT_BUCKETS] {
            let l = Layout { hidden: 8, buckets };
            let scales = [
                0,
                l.b0(),
                l.w1() - 1,
                l.w1(),
                l.b1() - 1,
                l.b1(),
                l.params() - 1,
            ]
            .map(|i| l.scale(i));
            assert_eq!(scales, [QA, QA, QA, QB, QB, QA * QB, QA * QB]);
            assert_eq!(l.params(), INPUTS * 8 + 8 + buckets * (2 * 8 + 1));
            assert_eq!(l.w1_of(buckets - 1) + 16, l.b1());
            assert_eq!(l.b1_of(buckets - 1) + 1, l.params());
        }
    }

    #[test]
    fn a_quantised_file_reads_back_as_the_net_it_was_written_from() {
        for (hidden, buckets) in [
            (8, 1),
            (HIDDEN, 1),
            (8, OUTPUT_BUCKETS),
            (HIDDEN, OUTPUT_BUCKETS),
        ] {
            let q = Model::new(hidden, buckets, 7).rounded();
            let bytes = q.quantised_bytes();
            let read =
                Model::from_file_bytes(&bytes, hidden, buckets).expect("a file of its width");
            assert_eq!(read.quantised_bytes(), bytes);
            // On the grid, the weights are the rounded net's, to float precision.
            for (a, b) in read.params.iter().zip(&q.params) {
                assert!((a - b).abs() <= 1e-6 * b.abs().max(1.0), "{a} {b}");
            }
            let other = if hidden == 8 { 16 } else { 8 };
            assert_eq!(
                Model::from_file_bytes(&bytes, other, buckets).unwrap_err(),
                NetError::WrongSize {
                    got: bytes.len(),
                    hidden: other,
                    buckets,
                }
            );
        }
        // Eight buckets do not fold into one.
        let eight = Model::new(8, OUTPUT_BUCKETS, 7).quantised_bytes();
        assert!(Model::from_file_bytes(&eight, 8, 1).is_err());
    }

    #[test]
    fn a_plain_net_turned_round_computes_the_same_where_the_kings_stand_on_e_to_h() {
        let plain = Model::new(16, OUTPUT_BUCKETS, 5);
        let turned = plain.inputs_turned_round();
        assert_eq!(turned.inputs_turned_round(), plain);
        let mut scratch = Scratch::new(16);
        let mut out = |m: &Model, s: &Sample| m.forward(s, &mut scratch);
        // Both kings on files e-h: the mirrored sample on the turned net
        // is the plain sample on the plain net.
        let both: Position = Position::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        )
        .unwrap();
        let s = sample(both, 0, 0.5);
        assert_eq!(out(&turned, &s.mirrored()), out(&plain, &s));
        // White's king on c1: its view is the plain net's of the board
        // turned round, so the outputs differ.
        let one: Position = Position::from_fen(
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/2KR3R w kq - 0 1",
        )
        .unwrap();
        let s = sample(one, 0, 0.5);
        assert_ne!(out(&turned, &s.mirrored()), out(&plain, &s));
    }

    #[test]
    fn a_widened_net_computes_what_the_narrow_one_does_and_learns_with_its_new_neurons() {
        for buckets in [1, OUTPUT_BUCKETS] {
            let narrow = Model::new(16, buckets, 3);
            let wide = narrow.widened(40, 9);
            assert_eq!(
                wide.params.len(),
                Layout {
                    hidden: 40,
                    buckets
                }
                .params()
            );
            let mut s16 = Scratch::new(16);
            let mut s40 = Scratch::new(40);
            let mut grad = vec![0.0; wide.params.len()];
            for pos in random_positions(20, 5)
                .into_iter()
                .chain(few_piece_positions())
            {
                let s = sample(pos, 80, 1.0);
                let (a, b) = (narrow.forward(&s, &mut s16), wide.forward(&s, &mut s40));
                assert!((a - b).abs() < 1e-5, "{a} {b}");
                wide.backward(&s, s.target(0.0, 400.0), 1.0, &mut grad, &mut s40);
            }
            // The new neurons' output weights learn.
            let l = wide.layout();
            assert!((0..buckets).any(|b| {
                grad[l.w1_of(b) + 16..l.w1_of(b) + 40]
                    .iter()
                    .any(|&g| g != 0.0)
            }));
            assert_eq!(narrow.widened(16, 1), narrow);
        }
    }

    #[test]
    fn a_net_of_one_bucket_starts_every_bucket_of_a_bucketed_run_and_scores_the_same() {
        let one = Model::new(HIDDEN, 1, 4).rounded();
        let bytes = one.quantised_bytes();
        let eight = Model::from_file_bytes(&bytes, HIDDEN, OUTPUT_BUCKETS).expect("replicated");
        let (l1, l8) = (one.layout(), eight.layout());
        for b in 0..OUTPUT_BUCKETS {
            assert_eq!(
                eight.params[l8.w1_of(b)..l8.w1_of(b) + 2 * HIDDEN],
                one.params[l1.w1()..l1.b1()]
            );
            assert_eq!(eight.params[l8.b1_of(b)], one.params[l1.b1()]);
        }
        let mut scratch = Scratch::new(HIDDEN);
        for pos in random_positions(50, 8) {
            let s = sample(pos, 0, 0.5);
            let (a, b) = (
                one.forward(&s, &mut scratch),
                eight.forward(&s, &mut scratch),
            );
            assert!((a - b).abs() < 1e-6, "{a} {b}");
        }
    }

    #[test]
    fn gradients_match_finite_differences() {
        // f64 would be exact; in f32 a central difference with a step of
        // 1e-2 is good to about 1e-3 relative where the loss is smooth.
        for buckets in [1, OUTPUT_BUCKETS] {
            for slope in [1.0, 1.6] {
                check_gradients(buckets, slope);
            }
        }
    }

    fn check_gradients(buckets: usize, slope: f32) {
        let mut model = Model::new(8, buckets, 3);
        // Push the hidden layer into SCReLU's curved part for some neurons.
        let b0 = model.layout().b0();
        for i in 0..8 {
            model.params[b0 + i] = 0.3 + 0.05 * i as f32;
        }
        // Positions of every bucket: random play, then fewer and fewer pieces.
        let mut positions = random_positions(3, 11);
        positions.extend(few_piece_positions());
        let mut scratch = Scratch::new(8);
        let mut checked = 0;
        for (k, pos) in positions.into_iter().enumerate() {
            let s = sample(pos, 150 - 60 * k as i32, [0.0, 0.5, 1.0][k % 3]);
            let t = s.target(0.4, 400.0);
            let mut grad = vec![0.0; model.params.len()];
            model.backward(&s, t, slope, &mut grad, &mut scratch);
            // Only the sample's bucket has output gradients.
            let l = model.layout();
            let b = model.bucket(&s);
            for other in (0..buckets).filter(|&o| o != b) {
                assert!(
                    grad[l.w1_of(other)..l.w1_of(other) + 16]
                        .iter()
                        .all(|&g| g == 0.0)
                );
                assert_eq!(grad[l.b1_of(other)], 0.0);
            }
            assert_ne!(grad[l.b1_of(b)], 0.0);
            // Every parameter with a gradient, and a few without.
            let candidates: Vec<usize> = (0..model.params.len())
                .filter(|&i| grad[i] != 0.0 || i % 997 == 0)
                .collect();
            for i in candidates {
                let h = 1e-2;
                let mut m = model.clone();
                m.params[i] += h;
                let up = m.loss(&s, t, slope, &mut scratch);
                m.params[i] -= 2.0 * h;
                let down = m.loss(&s, t, slope, &mut scratch);
                let numeric = (up - down) / (2.0 * h);
                let tol = 2e-4 + 2e-2 * numeric.abs().max(grad[i].abs());
                assert!(
                    (numeric - grad[i]).abs() <= tol,
                    "param {i}: analytic {} numeric {numeric}",
                    grad[i]
                );
                checked += 1;
            }
        }
        assert!(checked > 100, "only {checked} parameters checked");
    }

    #[test]
    fn the_output_bias_takes_back_the_offset_the_output_weights_rounding_adds() {
        for buckets in [1, OUTPUT_BUCKETS] {
            bias_takes_back_the_offset(buckets);
        }
    }

    fn bias_takes_back_the_offset(buckets: usize) {
        let mut model = Model::new(HIDDEN, buckets, 9);
        // The worst case: every output weight 0.45 of a grid step above a
        // grid point, so rounding lowers each, and the output of every
        // position (activations are never negative) falls.
        let l = model.layout();
        // Hidden neurons half on, so that the activations are not all ~0.
        model.params[l.b0()..l.w1()].fill(0.5);
        for w in &mut model.params[l.w1()..l.b1()] {
            *w = ((*w * 8.0 * QB as f32).round() + 0.45) / QB as f32;
        }
        let calibration: Vec<Sample> = random_positions(200, 21)
            .into_iter()
            .map(|p| sample(p, 0, 0.5))
            .collect();
        let held_out: Vec<Sample> = random_positions(200, 22)
            .into_iter()
            .map(|p| sample(p, 0, 0.5))
            .collect();
        let mut scratch = Scratch::new(HIDDEN);
        let mut offset = |net: &Model| {
            held_out
                .iter()
                .map(|s| {
                    let float = model.forward(s, &mut scratch);
                    (float - net.forward(s, &mut scratch)) * SCALE as f32
                })
                .sum::<f32>()
                / held_out.len() as f32
        };
        let naive = offset(&model.rounded());
        let calibrated = offset(&model.quantised(&calibration));
        assert!(
            naive > 20.0,
            "rounding should lower every score: {naive} cp"
        );
        assert!(
            calibrated.abs() < 0.1 * naive,
            "the bias left {calibrated} cp of the {naive} cp offset"
        );
        assert_eq!(model.quantised(&[]), model.rounded());
    }

    #[test]
    fn the_engine_computes_what_the_float_net_does_with_the_quantised_weights() {
        for buckets in [1, OUTPUT_BUCKETS] {
            engine_matches_float_net(buckets);
        }
    }

    fn engine_matches_float_net(buckets: usize) {
        let mut model = Model::new(HIDDEN, buckets, 5);
        // Larger output weights than the initialisation, for scores of a
        // few hundred centipawns.
        let w1 = model.layout().w1();
        for w in &mut model.params[w1..] {
            *w *= 8.0;
        }
        let net = Network::from_bytes(&model.quantised_bytes()).expect("the engine's layout");
        let rounded = model.rounded();
        let mut scratch = Scratch::new(HIDDEN);
        let mut worst = 0.0f32;
        let mut spread = 0.0f32;
        for pos in random_positions(300, 17)
            .into_iter()
            .chain(few_piece_positions())
        {
            let float = rounded.forward(&sample(pos, 0, 0.5), &mut scratch) * SCALE as f32;
            let int = Accumulator::refresh(&net, &pos).evaluate(&net, &pos);
            worst = worst.max((float - int as f32).abs());
            spread = spread.max(float.abs());
        }
        assert!(spread > 100.0, "scores too small to tell: {spread}");
        // The engine truncates its two divisions, losing less than one unit
        // of `1/(QA × QB)` before the scale and one centipawn after it; the
        // float net's own rounding adds a little.
        let bound = 1.0 + SCALE as f32 / (QA * QB) as f32 + 0.01;
        assert!(
            worst < bound,
            "the engine and the float net differ by {worst} cp"
        );
    }
}
