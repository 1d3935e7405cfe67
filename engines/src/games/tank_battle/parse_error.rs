//! Parse errors of the Tank Battle engine: text that does not follow a
//! notation (kept apart from rule errors, `error.rs`). Each says its fault
//! and the facts it names ([`Fault`]), so that a service can write it in
//! any language; `Display` writes it in English.

use std::fmt;

use thiserror::Error;

use super::Side;

/// Which notation a [`ParseError`] is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notation {
    /// TBN position text.
    Position,
    /// Layout text or name.
    Layout,
    /// A move (`e4-e5`) or a square (`e4`).
    Move,
}

/// Text that does not follow a notation.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{fault}")]
pub struct ParseError {
    pub notation: Notation,
    pub fault: Fault,
}

impl ParseError {
    pub(crate) fn new(notation: Notation, fault: Fault) -> ParseError {
        ParseError { notation, fault }
    }
}

/// What is wrong with a text, and the facts that say where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// A position is not three fields (placement, side, ply).
    Fields,
    /// The side to move is neither `w` nor `b`.
    Side { found: String },
    /// The placement does not have 11 ranks.
    Ranks { found: usize },
    /// The ply is not a non-negative integer.
    Ply { found: String },
    /// The ply does not fit.
    PlyTooLarge { found: String },
    /// A run of empty squares is not 1..11.
    EmptyRun { rank: u8, found: String },
    /// A placement character that is no piece nor digit.
    PieceCharacter { rank: u8, found: char },
    /// A rank does not cover 11 squares.
    RankWidth { rank: u8, covers: u32 },
    /// A move is not two squares.
    Move { found: String },
    /// A square is not `a1` .. `k11`.
    Square { found: String },
    /// A layout is not 11 rows nor the `standard` layout's name
    /// (`name_like`: one short row, so perhaps a misspelt name).
    LayoutRows {
        found: usize,
        name_like: bool,
        standard: &'static str,
    },
    /// A layout row does not have 11 squares.
    LayoutRowLength {
        row: usize,
        rank: usize,
        found: usize,
    },
    /// A layout character that is no terrain.
    LayoutCharacter { square: String, found: char },
    /// A layout has not exactly one commander start of a side.
    CommanderStarts { side: Side, count: u32 },
}

impl Fault {
    /// Every fault's name, as [`Fault::name`] says it.
    pub const NAMES: [&'static str; 14] = [
        "fields",
        "side",
        "ranks",
        "ply",
        "ply-too-large",
        "empty-run",
        "piece-character",
        "rank-width",
        "move",
        "square",
        "layout-rows",
        "layout-row-length",
        "layout-character",
        "commander-starts",
    ];

    /// The fault's name (kebab case).
    pub const fn name(&self) -> &'static str {
        let index = match self {
            Fault::Fields => 0,
            Fault::Side { .. } => 1,
            Fault::Ranks { .. } => 2,
            Fault::Ply { .. } => 3,
            Fault::PlyTooLarge { .. } => 4,
            Fault::EmptyRun { .. } => 5,
            Fault::PieceCharacter { .. } => 6,
            Fault::RankWidth { .. } => 7,
            Fault::Move { .. } => 8,
            Fault::Square { .. } => 9,
            Fault::LayoutRows { .. } => 10,
            Fault::LayoutRowLength { .. } => 11,
            Fault::LayoutCharacter { .. } => 12,
            Fault::CommanderStarts { .. } => 13,
        };
        Fault::NAMES[index]
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::Fields => f.write_str(
                "a position is `<placement> <side> <ply>`, e.g. `11/11/11/11/11/11/11/11/11/11/10C w 0`",
            ),
            Fault::Side { found } => write!(f, "side to move must be `w` or `b`, not `{found}`"),
            Fault::Ranks { found } => write!(
                f,
                "the placement has {found} ranks separated by `/`, expected 11"
            ),
            Fault::Ply { found } => {
                write!(f, "the ply must be a non-negative integer, not `{found}`")
            }
            Fault::PlyTooLarge { found } => write!(f, "the ply `{found}` is too large"),
            Fault::EmptyRun { rank, found } => write!(
                f,
                "rank {rank}: `{found}` is not a number of empty squares (1..11)"
            ),
            Fault::PieceCharacter { rank, found } => write!(
                f,
                "rank {rank}: unexpected character {found:?}; use T C t c and 1..11"
            ),
            Fault::RankWidth { rank, covers } => {
                write!(f, "rank {rank} covers {covers} squares, expected 11")
            }
            Fault::Move { found } => write!(
                f,
                "`{found}` is not a move: write two squares such as `j4-j5` or `d10xd4`"
            ),
            Fault::Square { found } => write!(f, "`{found}` is not a square (a1 .. k11)"),
            Fault::LayoutRows {
                found,
                name_like,
                standard,
            } => {
                write!(
                    f,
                    "a layout is `{standard}` or 11 rows separated by `/`, found {found} row{}",
                    if *found == 1 { "" } else { "s" }
                )?;
                if *name_like {
                    f.write_str(" (unknown layout name?)")?;
                }
                Ok(())
            }
            Fault::LayoutRowLength { row, rank, found } => write!(
                f,
                "row {row} (rank {rank}) has {found} squares, expected 11"
            ),
            Fault::LayoutCharacter { square, found } => write!(
                f,
                "unexpected character {found:?} at {square}: use . # ~ w W b B"
            ),
            Fault::CommanderStarts { side, count } => write!(
                f,
                "a layout needs exactly one {side} commander start (`{}`), found {count}",
                if *side == Side::White { 'W' } else { 'B' }
            ),
        }
    }
}
