//! Pieces: a side's normal tank or commander.

use serde::Serialize;

/// The two kinds of tank.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// A normal tank: may not enter the contaminated area.
    Tank,
    /// The commander: may enter and pass contaminated squares.
    Commander,
}

impl Role {
    /// `"tank"` or `"commander"`.
    pub const fn name(self) -> &'static str {
        match self {
            Role::Tank => "tank",
            Role::Commander => "commander",
        }
    }
}

/// A tank of one side.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    pub side: super::Side,
    pub role: Role,
}

impl Piece {
    /// The TBN letter: `T`/`C` for White, `t`/`c` for Black.
    pub const fn char(self) -> char {
        match (self.side, self.role) {
            (super::Side::White, Role::Tank) => 'T',
            (super::Side::White, Role::Commander) => 'C',
            (super::Side::Black, Role::Tank) => 't',
            (super::Side::Black, Role::Commander) => 'c',
        }
    }

    /// The piece for a TBN letter.
    pub const fn from_char(c: char) -> Option<Piece> {
        let (side, role) = match c {
            'T' => (super::Side::White, Role::Tank),
            'C' => (super::Side::White, Role::Commander),
            't' => (super::Side::Black, Role::Tank),
            'c' => (super::Side::Black, Role::Commander),
            _ => return None,
        };
        Some(Piece { side, role })
    }
}
