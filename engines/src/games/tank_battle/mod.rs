//! Tank Battle: an 11x11 game of sliding tanks, commanders, mines, a
//! contaminated centre and two bases (docs/TANK-BATTLE.md).
//!
//! The engine knows nothing of HTTP. Vocabulary types ([`Square`], [`Side`],
//! [`Bitboard`], [`Layout`], [`Position`], [`Move`]) each live in a file of
//! their own; rules live in `movegen` (bitboards), `validate` (the reference
//! walk with reason codes), `outcome` (end and score) and `perft`.

pub mod ai;
mod attacks;
mod bitboard;
mod end;
mod error;
mod game;
mod judge;
mod layout;
mod movegen;
mod moves;
mod outcome;
mod parse_error;
pub mod perft;
mod piece;
mod position;
mod puzzle;
mod side;
mod square;
mod state;
mod tbn;
mod validate;

pub use bitboard::Bitboard;
pub use end::{EndPolicy, EndReason, Past};
pub use error::{IllegalMove, PositionError, Reason};
pub use game::TankBattle;
pub use judge::chance_of;
#[doc(hidden)]
pub use judge::{probe, Probe};
pub use layout::{Layout, Terrain, STANDARD_NAME, STANDARD_TEXT};
pub use moves::{Move, MoveText};
pub use outcome::{Outcome, Score, SideScore};
pub use parse_error::{Fault as NotationFault, Notation, ParseError};
pub use piece::{Piece, Role};
pub use position::{Position, Setup};
pub use puzzle::puzzle_id;
pub use side::Side;
pub use square::{Square, SQUARES};
pub use state::State;
pub use tbn::{INITIAL_TBN, SCORING_EXAMPLE_TBN};

/// The version of the rules' answers: bumped when a rule answers
/// differently (the conformance corpus carries it, a puzzle's id too).
pub const RULES_VERSION: u32 = 1;

/// Parses TBN `text` and checks it against `layout`.
pub fn parse_position(text: &str, layout: &Layout) -> Result<Position, PositionParseError> {
    let setup: Setup = text.parse()?;
    Ok(Position::from_setup(setup, layout)?)
}

/// TBN text that is not notation, or notation that breaks an invariant.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionParseError {
    #[error(transparent)]
    Parse(#[from] ParseError),
    #[error(transparent)]
    Invalid(#[from] PositionError),
}

#[cfg(test)]
mod perft_tests;

#[cfg(test)]
mod rules_tests;
