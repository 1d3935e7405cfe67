//! Sets of squares as the low 121 bits of a `u128`.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not};

use super::square::{Square, SIZE, SQUARES};

/// The squares of each file (bit `i` of file `f` is set when `i % 11 == f`).
const FILES: [u128; SIZE as usize] = {
    let mut files = [0; SIZE as usize];
    let mut sq = 0;
    while sq < SQUARES {
        files[sq % SIZE as usize] |= 1 << sq;
        sq += 1;
    }
    files
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
    pub fn file_major(self) -> FileMajor {
        FileMajor {
            rest: self.0,
            files: self.files(),
            file: 0,
        }
    }

    /// The files that hold a square of the set, as bits 0 (file a) to 10:
    /// the eleven ranks folded onto the first (a rank `r` reaches it
    /// through shifts of 6, 3, 2 and 1 ranks whose sum is `r`).
    fn files(self) -> u16 {
        const RANK: u32 = SIZE as u32;
        let mut bits = self.0;
        bits |= bits >> (6 * RANK);
        bits |= bits >> (3 * RANK);
        bits |= bits >> (2 * RANK);
        bits |= bits >> RANK;
        (bits & ((1 << SIZE) - 1)) as u16
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

/// The squares of a [`Bitboard`] file by file, each file from rank 1 up
/// (within a file the index rises with the rank): a file's squares are
/// taken together, and only files that hold a square are visited.
#[derive(Clone, Debug)]
pub struct FileMajor {
    /// The squares not yet taken, outside `file`.
    rest: u128,
    /// The files still to visit.
    files: u16,
    /// What is left of the file being visited.
    file: u128,
}

impl Iterator for FileMajor {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        while self.file == 0 {
            if self.files == 0 {
                return None;
            }
            let file = FILES
                .get(self.files.trailing_zeros() as usize)
                .copied()
                .unwrap_or(0);
            self.files &= self.files - 1;
            self.file = self.rest & file;
            self.rest &= !file;
        }
        let sq = Square::from_index_unchecked(self.file.trailing_zeros() as u8);
        self.file &= self.file - 1;
        Some(sq)
    }
}

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
    fn file_major_order_of_any_set() {
        // Sets of every density from a fixed xorshift sequence.
        let mut state = 0x9E37_79B9_7F4A_7C15_u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for round in 0..2_000 {
            let mut bits = (u128::from(next()) << 64 | u128::from(next())) & Bitboard::FULL.0;
            for _ in 0..round % 4 {
                bits &= u128::from(next()) << 64 | u128::from(next());
            }
            let set = Bitboard(bits);
            let mut expected: Vec<Square> = set.into_iter().collect();
            expected.sort_by_key(|sq| sq.file_major_key());
            assert_eq!(set.file_major().collect::<Vec<_>>(), expected, "{set:?}");
        }
        assert_eq!(Bitboard::EMPTY.file_major().next(), None);
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
