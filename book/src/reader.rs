//! [`Book`]: a Polyglot book in memory, checked on load, searched by key;
//! [`BookMove`]s of a position and the two ways of choosing one.

use std::borrow::Cow;
use std::fmt;
use std::io;
use std::path::Path;

use attacks::SliderAttacks;
use movegen::{Move, Position};

use crate::entry::{ENTRY_SIZE, Entry, decode_move};
use rng::Rng;

/// Why a book cannot be used.
#[derive(Debug)]
pub enum BookError {
    /// The file could not be read.
    Io(io::Error),
    /// The size in bytes is not a multiple of 16: not a Polyglot book, or a
    /// truncated one.
    Size {
        /// The size in bytes.
        len: usize,
    },
    /// The entries are not sorted by key, so binary search would miss some.
    Unsorted {
        /// The index of the first entry whose key is smaller than the one
        /// before it.
        index: usize,
        /// That entry's key.
        key: u64,
        /// The key of the entry before it.
        previous: u64,
    },
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookError::Io(e) => write!(f, "cannot read the book: {e}"),
            BookError::Size { len } => write!(
                f,
                "not a Polyglot book: its size, {len} bytes, is not a multiple of {ENTRY_SIZE}"
            ),
            BookError::Unsorted {
                index,
                key,
                previous,
            } => write!(
                f,
                "corrupt Polyglot book: entries are not sorted by key \
                 (entry {index} has key {key:#018x}, after key {previous:#018x})"
            ),
        }
    }
}

impl std::error::Error for BookError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            BookError::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl From<io::Error> for BookError {
    fn from(e: io::Error) -> BookError {
        BookError::Io(e)
    }
}

/// A book entry for a position, decoded to one of its legal moves.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The legal move (castling as the king's move, `e1g1`).
    pub mv: Move,
    /// The entry's weight.
    pub weight: u16,
    /// The entry's learn field.
    pub learn: u32,
}

/// A Polyglot opening book: entries sorted by key, searched in place.
///
/// The bytes are checked once, on load (size a multiple of 16, keys in
/// order); then every look-up is a binary search over them, with nothing
/// decoded beyond the entries of the position asked for.
///
/// ```
/// use book::{Book, Entry, entries_to_bytes};
/// use movegen::Position;
///
/// let start: Position = Position::startpos();
/// let e4 = Entry { key: start.key(), raw_move: 0x031c, weight: 10, learn: 0 };
/// let book = Book::from_bytes(entries_to_bytes(&[e4])).unwrap();
/// assert_eq!(book.best_move(&start).unwrap().to_string(), "e2e4");
/// ```
#[derive(Clone, Debug)]
pub struct Book {
    bytes: Cow<'static, [u8]>,
}

impl Book {
    /// A book from its bytes: a `Vec<u8>`, or `&'static [u8]` (from
    /// `include_bytes!`) without a copy. Fails on a size that is not a
    /// multiple of 16 or on keys out of order.
    pub fn from_bytes(bytes: impl Into<Cow<'static, [u8]>>) -> Result<Book, BookError> {
        let bytes = bytes.into();
        if bytes.len() % ENTRY_SIZE != 0 {
            return Err(BookError::Size { len: bytes.len() });
        }
        let book = Book { bytes };
        let mut previous = 0;
        for index in 0..book.len() {
            let key = book.key_at(index);
            if key < previous {
                return Err(BookError::Unsorted {
                    index,
                    key,
                    previous,
                });
            }
            previous = key;
        }
        Ok(book)
    }

    /// Reads and checks the book file at `path`.
    pub fn open(path: impl AsRef<Path>) -> Result<Book, BookError> {
        Book::from_bytes(std::fs::read(path)?)
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.bytes.len() / ENTRY_SIZE
    }

    /// `true` if the book has no entry.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The bytes of the book file.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    fn key_at(&self, index: usize) -> u64 {
        let at = index * ENTRY_SIZE;
        let mut key = [0; 8];
        key.copy_from_slice(&self.bytes[at..at + 8]);
        u64::from_be_bytes(key)
    }

    /// The entry at `index` (file order), if there is one.
    pub fn entry(&self, index: usize) -> Option<Entry> {
        let at = index.checked_mul(ENTRY_SIZE)?;
        let bytes: &[u8; ENTRY_SIZE] = self.bytes.get(at..at + ENTRY_SIZE)?.try_into().ok()?;
        Some(Entry::from_bytes(bytes))
    }

    /// All entries in file order.
    pub fn iter(&self) -> impl Iterator<Item = Entry> + '_ {
        self.bytes.chunks_exact(ENTRY_SIZE).map(|chunk| {
            let mut bytes = [0; ENTRY_SIZE];
            bytes.copy_from_slice(chunk);
            Entry::from_bytes(&bytes)
        })
    }

    /// The entries with `key`, in file order (by weight, highest first, in
    /// books that Polyglot or [`BookBuilder`](crate::BookBuilder) made),
    /// whatever moves they hold. Found by binary search.
    pub fn entries(&self, key: u64) -> Vec<Entry> {
        let first = partition_point(self.len(), |i| self.key_at(i) < key);
        (first..self.len())
            .take_while(|&i| self.key_at(i) == key)
            .filter_map(|i| self.entry(i))
            .collect()
    }

    /// The book moves of `pos`: its entries decoded to legal moves, in file
    /// order. Entries that decode to no legal move (corruption, or another
    /// position with the same key) are left out.
    pub fn probe<A: SliderAttacks>(&self, pos: &Position<A>) -> Vec<BookMove> {
        self.entries(pos.key())
            .into_iter()
            .filter_map(|e| {
                decode_move(pos, e.raw_move).map(|mv| BookMove {
                    mv,
                    weight: e.weight,
                    learn: e.learn,
                })
            })
            .collect()
    }

    /// The book move of highest weight for `pos` (the first of equals), or
    /// `None` if there is none of weight above 0.
    pub fn best_move<A: SliderAttacks>(&self, pos: &Position<A>) -> Option<Move> {
        choose_best(&self.probe(pos)).map(|m| m.mv)
    }

    /// A book move for `pos` chosen at random in proportion to the weights,
    /// or `None` if there is none of weight above 0.
    pub fn weighted_move<A: SliderAttacks>(
        &self,
        pos: &Position<A>,
        rng: &mut Rng,
    ) -> Option<Move> {
        choose_weighted(&self.probe(pos), rng).map(|m| m.mv)
    }
}

/// The first index in `0..len` for which `before` is false, given that it is
/// true for a prefix and false after it.
fn partition_point(len: usize, before: impl Fn(usize) -> bool) -> usize {
    let (mut lo, mut hi) = (0, len);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if before(mid) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    lo
}

/// The move of highest weight (the first of equals); `None` if no move has
/// a weight above 0, since weight 0 means "never play", as in Polyglot.
pub fn choose_best(moves: &[BookMove]) -> Option<&BookMove> {
    let mut best: Option<&BookMove> = None;
    for m in moves {
        if m.weight > 0 && best.is_none_or(|b| m.weight > b.weight) {
            best = Some(m);
        }
    }
    best
}

/// A move drawn at random with probability weight / total weight; `None` if
/// no move has a weight above 0.
pub fn choose_weighted<'a>(moves: &'a [BookMove], rng: &mut Rng) -> Option<&'a BookMove> {
    let total: u64 = moves.iter().map(|m| u64::from(m.weight)).sum();
    if total == 0 {
        return None;
    }
    let mut pick = rng.below(total);
    for m in moves {
        let w = u64::from(m.weight);
        if pick < w {
            return Some(m);
        }
        pick -= w;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entry::{encode_move, entries_to_bytes};
    use attacks::Square;

    fn raw(from: Square, to: Square, promotion: u16) -> u16 {
        to as u16 | (from as u16) << 6 | promotion << 12
    }

    fn entry(key: u64, raw_move: u16, weight: u16, learn: u32) -> Entry {
        Entry {
            key,
            raw_move,
            weight,
            learn,
        }
    }

    const CASTLE_FEN: &str = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    const PROMO_FEN: &str = "8/P6k/8/8/8/8/8/K7 w - - 0 1";

    /// A small book: the start position (e2e4 10, d2d4 5, an illegal e2e5),
    /// a castling position (e1h1, e1a1) and a promotion (a7a8q, a7a8n),
    /// plus unrelated keys around them.
    fn sample() -> (Book, Position, Position, Position) {
        let start = Position::startpos();
        let castle = Position::from_fen(CASTLE_FEN).unwrap();
        let promo = Position::from_fen(PROMO_FEN).unwrap();
        let mut entries = vec![
            entry(start.key(), raw(Square::E2, Square::E4, 0), 10, 0),
            entry(start.key(), raw(Square::D2, Square::D4, 0), 5, 7),
            entry(start.key(), raw(Square::E2, Square::E5, 0), 99, 0),
            entry(castle.key(), raw(Square::E1, Square::H1, 0), 3, 0),
            entry(castle.key(), raw(Square::E1, Square::A1, 0), 1, 0),
            entry(promo.key(), raw(Square::A7, Square::A8, 4), 8, 0),
            entry(promo.key(), raw(Square::A7, Square::A8, 1), 2, 0),
            entry(0, 1, 1, 0),
            entry(u64::MAX, 1, 1, 0),
            entry(start.key() - 1, 1, 1, 0),
            entry(start.key() + 1, 1, 1, 0),
        ];
        entries.sort_by_key(|e| e.key);
        let book = Book::from_bytes(entries_to_bytes(&entries)).unwrap();
        (book, start, castle, promo)
    }

    fn uci(moves: &[BookMove]) -> Vec<(String, u16)> {
        moves.iter().map(|m| (m.mv.to_string(), m.weight)).collect()
    }

    #[test]
    fn lookup_finds_all_entries_of_a_key() {
        let (book, start, castle, promo) = sample();
        assert_eq!(book.len(), 11);
        assert_eq!(book.entries(start.key()).len(), 3);
        assert_eq!(book.entries(castle.key()).len(), 2);
        assert_eq!(book.entries(promo.key()).len(), 2);
        assert_eq!(book.entries(12345).len(), 0);
        assert_eq!(book.entries(0).len(), 1);
        assert_eq!(book.entries(u64::MAX).len(), 1);
        // The illegal e2e5 is skipped by probe, weights and learn kept.
        let moves = book.probe(&start);
        assert_eq!(
            uci(&moves),
            [("e2e4".to_owned(), 10), ("d2d4".to_owned(), 5)]
        );
        assert_eq!(moves[1].learn, 7);
        assert_eq!(book.best_move(&start).unwrap().to_string(), "e2e4");
    }

    #[test]
    fn castling_and_promotion_entries_decode() {
        let (book, _, castle, promo) = sample();
        assert_eq!(
            uci(&book.probe(&castle)),
            [("e1g1".to_owned(), 3), ("e1c1".to_owned(), 1)]
        );
        assert_eq!(
            uci(&book.probe(&promo)),
            [("a7a8q".to_owned(), 8), ("a7a8n".to_owned(), 2)]
        );
        let m = book.best_move(&castle).unwrap();
        assert_eq!(encode_move(m), raw(Square::E1, Square::H1, 0));
    }

    #[test]
    fn empty_book_and_unknown_positions() {
        let book = Book::from_bytes(Vec::new()).unwrap();
        assert!(book.is_empty());
        let start: Position = Position::startpos();
        assert!(book.probe(&start).is_empty());
        assert_eq!(book.best_move(&start), None);
        assert_eq!(book.weighted_move(&start, &mut Rng::new(1)), None);
        assert_eq!(book.entry(0), None);
    }

    #[test]
    fn static_bytes_are_borrowed() {
        static BYTES: [u8; 16] = [
            0x46, 0x3b, 0x96, 0x18, 0x16, 0x91, 0xfc, 0x9c, 0x03, 0x1c, 0, 1, 0, 0, 0, 0,
        ];
        let book = Book::from_bytes(&BYTES[..]).unwrap();
        assert_eq!(book.as_bytes().as_ptr(), BYTES.as_ptr());
        assert_eq!(
            book.best_move(&Position::<attacks::Magic>::startpos())
                .unwrap()
                .to_string(),
            "e2e4"
        );
    }

    #[test]
    fn weighted_choice_follows_the_weights() {
        let (book, start, _, _) = sample();
        let mut rng = Rng::new(2024);
        let (mut e4, mut d4) = (0, 0);
        for _ in 0..30_000 {
            match book
                .weighted_move(&start, &mut rng)
                .unwrap()
                .to_string()
                .as_str()
            {
                "e2e4" => e4 += 1,
                "d2d4" => d4 += 1,
                other => panic!("unexpected book move {other}"),
            }
        }
        // Expected 20000 : 10000; the illegal e2e5 (weight 99) never drawn.
        assert!((19_400..20_600).contains(&e4), "e4 {e4}, d4 {d4}");
        assert_eq!(e4 + d4, 30_000);
        // The same seed draws the same moves.
        let draw = |seed| {
            let mut rng = Rng::new(seed);
            (0..20)
                .map(|_| book.weighted_move(&start, &mut rng).unwrap())
                .collect::<Vec<_>>()
        };
        assert_eq!(draw(5), draw(5));
    }

    #[test]
    fn zero_weights_are_never_chosen() {
        let start: Position = Position::startpos();
        let m = |w| BookMove {
            mv: start.parse_uci("e2e4").unwrap(),
            weight: w,
            learn: 0,
        };
        let n = BookMove {
            mv: start.parse_uci("d2d4").unwrap(),
            weight: 0,
            learn: 0,
        };
        assert_eq!(choose_best(&[m(0), n]), None);
        assert_eq!(choose_weighted(&[m(0), n], &mut Rng::new(3)), None);
        let mut rng = Rng::new(3);
        for _ in 0..100 {
            assert_eq!(choose_weighted(&[n, m(1), n], &mut rng).unwrap().weight, 1);
        }
        assert_eq!(choose_best(&[n, m(1), m(1)]).unwrap().weight, 1);
    }

    #[test]
    fn corrupt_books_are_refused() {
        let (book, ..) = sample();
        let bytes = book.as_bytes().to_vec();
        let e = Book::from_bytes(bytes[..bytes.len() - 1].to_vec()).unwrap_err();
        assert!(matches!(e, BookError::Size { len } if len == bytes.len() - 1));
        assert!(e.to_string().contains("not a multiple of 16"), "{e}");
        // Swap the first and last entries: out of order.
        let mut swapped = bytes.clone();
        let n = swapped.len();
        let first: Vec<u8> = swapped[..16].to_vec();
        let last: Vec<u8> = swapped[n - 16..].to_vec();
        swapped[..16].copy_from_slice(&last);
        swapped[n - 16..].copy_from_slice(&first);
        let e = Book::from_bytes(swapped).unwrap_err();
        assert!(matches!(e, BookError::Unsorted { index: 1, .. }), "{e:?}");
        assert!(e.to_string().contains("not sorted"), "{e}");
        let e = Book::open("/nonexistent/book.bin").unwrap_err();
        assert!(matches!(e, BookError::Io(_)));
    }

    #[test]
    fn partition_point_edges() {
        assert_eq!(partition_point(0, |_| true), 0);
        assert_eq!(partition_point(5, |_| true), 5);
        assert_eq!(partition_point(5, |_| false), 0);
        assert_eq!(partition_point(5, |i| i < 3), 3);
    }
}
