//! Sets of squares as the low 121 bits of a `u128`.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not};

use super::square::{Square, SIZE, SQUARES};

/// Each square's place in file-major order (its [`Square::file_major_key`]),
/// by index, and the square at each place.
const FILE_MAJOR_PLACE: [u8; SQUARES] = {
    let mut places = [0; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        places[sq] = (sq % SIZE as usize * SIZE as usize + sq / SIZE as usize) as u8;
        sq += 1;
    }
    places
};
const FILE_MAJOR_SQUARE: [u8; SQUARES] = {
    let mut squares = [0; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        squares[FILE_MAJOR_PLACE[sq] as usize] = sq as u8;
        sq += 1;
    }
    squares
};

/// A set of squares; bit `i` is the square with index `i`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u128);

impl Bitboard {
    /// No square.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 121 squares.
    pub const FULL: Bitboard = Bitboard((1u128 << SQUARES) - 1);

    /// The set holding just `sq`.
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1u128 << sq.index())
    }

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub const fn any(self) -> bool {
        self.0 != 0
    }

    pub const fn contains(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    pub fn insert(&mut self, sq: Square) {
        self.0 |= 1u128 << sq.index();
    }

    pub fn remove(&mut self, sq: Square) {
        self.0 &= !(1u128 << sq.index());
    }

    /// The lowest square of the set.
    pub fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_unchecked(self.0.trailing_zeros() as u8))
        }
    }

    /// The squares file by file (a..k), each file from rank 1 up: the
    /// order in which the API lists squares.
    pub fn file_major(self) -> impl Iterator<Item = Square> {
        // The set transposed (bit `i` for the square at place `i` in
        // file-major order), then read lowest place first: a step a
        // square, whatever the set.
        let mut places = 0u128;
        for sq in self {
            if let Some(&place) = FILE_MAJOR_PLACE.get(sq.index()) {
                places |= 1 << place;
            }
        }
        Squares(places).map(|place| {
            let index = FILE_MAJOR_SQUARE.get(place.index()).copied().unwrap_or(0);
            Square::from_index_unchecked(index)
        })
    }

    /// The set rotated by 180 degrees.
    pub fn rotated(self) -> Bitboard {
        Bitboard((self.0.reverse_bits() >> (128 - SQUARES)) & Bitboard::FULL.0)
    }
}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = Squares;

    fn into_iter(self) -> Squares {
        Squares(self.0)
    }
}

/// The squares of a [`Bitboard`], lowest index first.
#[derive(Clone, Debug)]
pub struct Squares(u128);

impl Iterator for Squares {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let sq = Square::from_index_unchecked(self.0.trailing_zeros() as u8);
        self.0 &= self.0 - 1;
        Some(sq)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Squares {}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        let mut bb = Bitboard::EMPTY;
        for sq in iter {
            bb.insert(sq);
        }
        bb
    }
}

impl BitAnd for Bitboard {
    type Output = Bitboard;
    fn bitand(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & rhs.0)
    }
}

impl BitOr for Bitboard {
    type Output = Bitboard;
    fn bitor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 | rhs.0)
    }
}

impl BitAndAssign for Bitboard {
    fn bitand_assign(&mut self, rhs: Bitboard) {
        self.0 &= rhs.0;
    }
}

impl BitOrAssign for Bitboard {
    fn bitor_assign(&mut self, rhs: Bitboard) {
        self.0 |= rhs.0;
    }
}

/// The complement within the board (bits above 120 stay clear).
impl Not for Bitboard {
    type Output = Bitboard;
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & Bitboard::FULL.0)
    }
}

/// A picture of the set, rank 11 at the top.
impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..SIZE).rev() {
            for file in 0..SIZE {
                let on = Square::from_coords(file, rank).is_some_and(|sq| self.contains(sq));
                f.write_str(if on { "1" } else { "." })?;
            }
            f.write_str("\n")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iterates_in_index_order() {
        let sqs = ["k11", "a1", "f6"].map(|s| s.parse::<Square>().unwrap());
        let bb: Bitboard = sqs.into_iter().collect();
        let back: Vec<String> = bb.into_iter().map(|s| s.to_string()).collect();
        assert_eq!(back, ["a1", "f6", "k11"]);
    }

    #[test]
    fn file_major_order() {
        let all: Vec<Square> = Bitboard::FULL.file_major().collect();
        let mut expected: Vec<Square> = Square::all().collect();
        expected.sort_by_key(|sq| sq.file_major_key());
        assert_eq!(all, expected);
    }

    #[test]
    fn complement_stays_on_board() {
        assert_eq!(!Bitboard::EMPTY, Bitboard::FULL);
        assert_eq!((!Bitboard::FULL).count(), 0);
        assert_eq!(Bitboard::FULL.count(), 121);
    }

    #[test]
    fn rotation_maps_each_square() {
        for sq in Square::all() {
            assert_eq!(
                Bitboard::from_square(sq).rotated(),
                Bitboard::from_square(sq.rotated())
            );
        }
    }
}
