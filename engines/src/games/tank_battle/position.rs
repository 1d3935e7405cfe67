//! Positions: where the tanks stand, who moves, and how many moves were
//! played. A [`Setup`] is what TBN text says; a [`Position`] is a setup that
//! has been checked against a [`Layout`].

use super::bitboard::Bitboard;
use super::error::PositionError;
use super::layout::Layout;
use super::piece::{Piece, Role};
use super::side::Side;
use super::square::Square;

/// Tanks, side to move and ply, as written in TBN, not yet checked against
/// a layout.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Setup {
    /// Each side's tanks, its commanders included.
    pub tanks: [Bitboard; 2],
    /// Each side's commanders.
    pub commanders: [Bitboard; 2],
    pub turn: Side,
    /// Number of moves played so far.
    pub ply: u64,
}

impl Setup {
    /// The start position of `layout`: each commander on its commander
    /// start, a normal tank on every other square of its base, White to move.
    pub fn initial(layout: &Layout) -> Setup {
        let tanks = Side::ALL.map(|side| layout.base(side));
        let commanders = Side::ALL.map(|side| Bitboard::from_square(layout.commander_start(side)));
        Setup {
            tanks,
            commanders,
            turn: Side::White,
            ply: 0,
        }
    }

    /// The piece on `sq`, if any.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        Side::ALL.into_iter().find_map(|side| {
            self.tanks[side.index()].contains(sq).then(|| Piece {
                side,
                role: if self.commanders[side.index()].contains(sq) {
                    Role::Commander
                } else {
                    Role::Tank
                },
            })
        })
    }
}

/// A legal position on a given layout: no tank on a mine, no normal tank on
/// a contaminated square, at most one commander a side.
///
/// A position does not hold its layout; every method that needs terrain
/// takes the `&Layout` the position was checked against.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    tanks: [Bitboard; 2],
    commanders: Bitboard,
    turn: Side,
    ply: u64,
}

impl Position {
    /// The start position of `layout`.
    pub fn initial(layout: &Layout) -> Position {
        let setup = Setup::initial(layout);
        Position {
            tanks: setup.tanks,
            commanders: setup.commanders[0] | setup.commanders[1],
            turn: setup.turn,
            ply: 0,
        }
    }

    /// Checks `setup` against the invariants of `layout`.
    pub fn from_setup(setup: Setup, layout: &Layout) -> Result<Position, PositionError> {
        let [white, black] = setup.tanks;
        // A square holding tanks of both sides is resolved by TBN parsing;
        // a hand-made setup may still have it.
        if let Some(sq) = (white & black).first() {
            return Err(PositionError::SquareTwice(sq));
        }
        let all = white | black;
        let commanders = (setup.commanders[0] & white) | (setup.commanders[1] & black);
        if let Some(sq) = (all & layout.mines()).first() {
            return Err(PositionError::TankOnMine(sq));
        }
        if let Some(sq) = (all & !commanders & layout.contaminated()).first() {
            return Err(PositionError::TankOnContaminated(sq));
        }
        for side in Side::ALL {
            if (commanders & setup.tanks[side.index()]).count() > 1 {
                return Err(PositionError::SeveralCommanders(side));
            }
        }
        Ok(Position {
            tanks: setup.tanks,
            commanders,
            turn: setup.turn,
            ply: setup.ply,
        })
    }

    /// The position as plain data.
    pub fn to_setup(&self) -> Setup {
        Setup {
            tanks: self.tanks,
            commanders: self.tanks.map(|t| t & self.commanders),
            turn: self.turn,
            ply: self.ply,
        }
    }

    /// The side to move.
    pub const fn turn(&self) -> Side {
        self.turn
    }

    /// Moves played so far.
    pub const fn ply(&self) -> u64 {
        self.ply
    }

    /// `side`'s tanks, its commander included.
    pub const fn tanks(&self, side: Side) -> Bitboard {
        self.tanks[side.index()]
    }

    /// The commanders of both sides.
    pub const fn commanders(&self) -> Bitboard {
        self.commanders
    }

    /// Every square holding a tank.
    pub fn occupied(&self) -> Bitboard {
        self.tanks[0] | self.tanks[1]
    }

    /// The piece on `sq`, if any.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let side = if self.tanks[0].contains(sq) {
            Side::White
        } else if self.tanks[1].contains(sq) {
            Side::Black
        } else {
            return None;
        };
        let role = if self.commanders.contains(sq) {
            Role::Commander
        } else {
            Role::Tank
        };
        Some(Piece { side, role })
    }

    /// Whether every remaining tank of `side` stands in the opponent's base
    /// (true for a side with no tanks left).
    pub fn all_in_enemy_base(&self, side: Side, layout: &Layout) -> bool {
        (self.tanks(side) & !layout.base(!side)).is_empty()
    }

    /// Rule 7's first condition, for either side.
    pub(crate) fn a_side_is_home(&self, layout: &Layout) -> bool {
        self.all_in_enemy_base(Side::White, layout) || self.all_in_enemy_base(Side::Black, layout)
    }

    /// Plays `mv` without checking it: `mv` must be legal in this position.
    pub fn play_unchecked(&mut self, mv: super::Move) {
        let us = self.turn.index();
        let them = 1 - us;
        let from = Bitboard::from_square(mv.from).0;
        let to = Bitboard::from_square(mv.to).0;
        self.tanks[them].0 &= !to;
        self.commanders.0 &= !to;
        self.tanks[us].0 ^= from | to;
        if self.commanders.0 & from != 0 {
            self.commanders.0 ^= from | to;
        }
        self.turn = !self.turn;
        self.ply = self.ply.saturating_add(1);
    }
}
