//! The two sides.

use std::fmt;
use std::ops::Not;

use serde::Serialize;

/// A side: White moves first and starts in the bottom-right base.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    White,
    Black,
}

impl Side {
    /// Both sides, White first.
    pub const ALL: [Side; 2] = [Side::White, Side::Black];

    /// 0 for White, 1 for Black: the index of per-side arrays.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The sides' names, White's first: how requests, answers and the
    /// catalogue name them (written here only).
    pub const NAMES: [&'static str; 2] = ["white", "black"];

    /// `"white"` or `"black"`.
    pub const fn name(self) -> &'static str {
        Side::NAMES[self.index()]
    }

    /// The side-to-move letter of TBN: `w` or `b`.
    pub const fn letter(self) -> char {
        match self {
            Side::White => 'w',
            Side::Black => 'b',
        }
    }
}

impl Not for Side {
    type Output = Side;

    fn not(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
