//! Squares of the 11x11 board and their notation (`a1` .. `k11`).

use std::fmt;
use std::str::FromStr;

use super::parse_error::{Fault, Notation, ParseError};

/// Number of files (and of ranks) on the board.
pub const SIZE: u8 = 11;
/// Number of squares on the board.
pub const SQUARES: usize = 121;

/// A square of the board. The index is `rank * 11 + file`, both 0-based, so
/// `a1` is 0, `k1` is 10 and `k11` is 120; bit `index` of a [`Bitboard`]
/// stands for the square.
///
/// [`Bitboard`]: super::Bitboard
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square with the given index, if it is on the board.
    pub const fn new(index: u8) -> Option<Square> {
        if (index as usize) < SQUARES {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square at 0-based `file` (a = 0) and `rank` (1 = 0).
    pub const fn from_coords(file: u8, rank: u8) -> Option<Square> {
        if file < SIZE && rank < SIZE {
            Some(Square(rank * SIZE + file))
        } else {
            None
        }
    }

    /// Builds a square from an index already known to be below 121.
    pub(crate) const fn from_index_unchecked(index: u8) -> Square {
        debug_assert!((index as usize) < SQUARES);
        Square(index)
    }

    /// 0-based index, `rank * 11 + file`.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// 0-based file (a = 0 .. k = 10).
    pub const fn file(self) -> u8 {
        self.0 % SIZE
    }

    /// 0-based rank (rank 1 = 0 .. rank 11 = 10).
    pub const fn rank(self) -> u8 {
        self.0 / SIZE
    }

    /// The key the API sorts squares by: file first, then rank.
    pub const fn file_major_key(self) -> u8 {
        self.file() * SIZE + self.rank()
    }

    /// The square rotated by 180 degrees (a1 <-> k11).
    pub const fn rotated(self) -> Square {
        Square(SQUARES as u8 - 1 - self.0)
    }

    /// The square one step in direction (`df`, `dr`), if still on the board.
    pub fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let file = self.file() as i8 + df;
        let rank = self.rank() as i8 + dr;
        if (0..SIZE as i8).contains(&file) && (0..SIZE as i8).contains(&rank) {
            Square::from_coords(file as u8, rank as u8)
        } else {
            None
        }
    }

    /// The unit step from `self` towards `to` when both lie on one rank,
    /// file or diagonal and differ; `None` otherwise.
    pub fn direction_to(self, to: Square) -> Option<(i8, i8)> {
        let df = to.file() as i8 - self.file() as i8;
        let dr = to.rank() as i8 - self.rank() as i8;
        if (df, dr) == (0, 0) || !(df == 0 || dr == 0 || df.abs() == dr.abs()) {
            return None;
        }
        Some((df.signum(), dr.signum()))
    }

    /// Every square, in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..SQUARES as u8).map(Square)
    }

    /// Parses a square at the start of `bytes`, returning it and the number
    /// of bytes read. The file letter may be in either case; the rank has no
    /// leading zero.
    pub(crate) fn parse_prefix(bytes: &[u8]) -> Option<(Square, usize)> {
        let (&letter, rest) = bytes.split_first()?;
        let file = letter.to_ascii_lowercase().checked_sub(b'a')?;
        let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
        let rank_text = rest.get(..digits)?;
        if digits == 0 || digits > 2 || rank_text.first() == Some(&b'0') {
            return None;
        }
        let rank = rank_text
            .iter()
            .fold(0u8, |acc, d| acc * 10 + (d - b'0'))
            .checked_sub(1)?;
        Square::from_coords(file, rank).map(|sq| (sq, 1 + digits))
    }
}

impl FromStr for Square {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<Square, ParseError> {
        match Square::parse_prefix(s.as_bytes()) {
            Some((sq, len)) if len == s.len() => Ok(sq),
            _ => Err(ParseError::new(
                Notation::Move,
                Fault::Square {
                    found: s.to_owned(),
                },
            )),
        }
    }
}

/// Every square's notation, by index.
const NAMES: [&str; SQUARES] = [
    "a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "i1", "j1", "k1", "a2", "b2", "c2", "d2", "e2",
    "f2", "g2", "h2", "i2", "j2", "k2", "a3", "b3", "c3", "d3", "e3", "f3", "g3", "h3", "i3", "j3",
    "k3", "a4", "b4", "c4", "d4", "e4", "f4", "g4", "h4", "i4", "j4", "k4", "a5", "b5", "c5", "d5",
    "e5", "f5", "g5", "h5", "i5", "j5", "k5", "a6", "b6", "c6", "d6", "e6", "f6", "g6", "h6", "i6",
    "j6", "k6", "a7", "b7", "c7", "d7", "e7", "f7", "g7", "h7", "i7", "j7", "k7", "a8", "b8", "c8",
    "d8", "e8", "f8", "g8", "h8", "i8", "j8", "k8", "a9", "b9", "c9", "d9", "e9", "f9", "g9", "h9",
    "i9", "j9", "k9", "a10", "b10", "c10", "d10", "e10", "f10", "g10", "h10", "i10", "j10", "k10",
    "a11", "b11", "c11", "d11", "e11", "f11", "g11", "h11", "i11", "j11", "k11",
];

/// Every square's notation as three bytes (zero after a two-byte name)
/// and its length, by index: notation is written from it with copies of
/// a fixed size.
const NAME_BYTES: [([u8; 3], usize); SQUARES] = {
    let mut table = [([0; 3], 0); SQUARES];
    let mut index = 0;
    while index < SQUARES {
        let name = NAMES[index].as_bytes();
        let mut i = 0;
        while i < name.len() {
            table[index].0[i] = name[i];
            i += 1;
        }
        table[index].1 = name.len();
        index += 1;
    }
    table
};

impl Square {
    /// The square's notation, e.g. `"j4"`.
    pub fn name(self) -> &'static str {
        NAMES.get(self.index()).copied().unwrap_or("?")
    }

    /// The square's notation as three bytes (zero after a two-byte name)
    /// and its length.
    pub(crate) fn name_bytes(self) -> ([u8; 3], usize) {
        NAME_BYTES
            .get(self.index())
            .copied()
            .unwrap_or(([b'?', 0, 0], 1))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A square in JSON: its notation, e.g. `"j4"` (written from the table
/// of names, nothing allocated).
impl serde::Serialize for Square {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips_for_every_square() {
        for sq in Square::all() {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
        }
    }

    #[test]
    fn corners_and_coordinates() {
        let k11: Square = "k11".parse().unwrap();
        assert_eq!((k11.file(), k11.rank(), k11.index()), (10, 10, 120));
        assert_eq!("A1".parse::<Square>().map(Square::index), Ok(0));
        assert_eq!(k11.rotated().to_string(), "a1");
    }

    #[test]
    fn rejects_off_board_and_malformed_squares() {
        for bad in ["", "a", "l1", "a0", "a12", "a01", "1a", "a1x", "é1", "a100"] {
            assert!(bad.parse::<Square>().is_err(), "{bad:?} parsed");
        }
    }

    #[test]
    fn serializes_as_its_notation() {
        for sq in Square::all() {
            assert_eq!(
                serde_json::to_value(sq).unwrap(),
                serde_json::Value::String(sq.to_string())
            );
        }
    }

    #[test]
    fn directions_only_along_lines() {
        let sq = |s: &str| s.parse::<Square>().unwrap();
        assert_eq!(sq("a1").direction_to(sq("k11")), Some((1, 1)));
        assert_eq!(sq("e5").direction_to(sq("e1")), Some((0, -1)));
        assert_eq!(sq("e5").direction_to(sq("e5")), None);
        assert_eq!(sq("a1").direction_to(sq("b3")), None);
    }
}
