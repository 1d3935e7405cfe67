//! The state of a game: a [`Setup`] that never changes (board, tanks and
//! their tracks) and a [`Position`] that changes every round (where each
//! tank is on its track, who is alive, territory, round, clocks).

use std::fmt;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::notation::{StateData, TankData};
use crate::games::grid::{Board, Cell, MAX_SIDE};

/// Each player's total thinking time.
pub const INITIAL_CLOCK_MS: i64 = 120_000;

/// A player: `U` starts at the top, `D` at the bottom.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Player {
    U,
    D,
}

impl Player {
    pub const ALL: [Player; 2] = [Player::U, Player::D];

    /// The players' names, U's first: how requests, answers and the
    /// catalogue name them (written here only).
    pub const NAMES: [&'static str; 2] = ["U", "D"];

    pub const fn index(self) -> usize {
        self as usize
    }

    /// `"U"` or `"D"`.
    pub const fn name(self) -> &'static str {
        Player::NAMES[self.index()]
    }

    pub const fn other(self) -> Player {
        match self {
            Player::U => Player::D,
            Player::D => Player::U,
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A tank type and its firing pattern.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum TankType {
    /// The 4 diagonal neighbours.
    A,
    /// The 4 orthogonal neighbours.
    B,
    /// The 4 squares exactly two away orthogonally.
    C,
}

impl TankType {
    /// Offsets (column, row) of the squares the type fires at.
    pub const fn pattern(self) -> [(i8, i8); 4] {
        match self {
            TankType::A => [(-1, -1), (-1, 1), (1, -1), (1, 1)],
            TankType::B => [(0, -1), (0, 1), (-1, 0), (1, 0)],
            TankType::C => [(0, -2), (0, 2), (-2, 0), (2, 0)],
        }
    }
}

/// What never changes about a tank.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TankInfo {
    pub owner: Player,
    pub name: String,
    pub kind: TankType,
    /// The squares the tank may occupy, in order; it moves one step along
    /// it each time it is picked.
    pub track: Vec<Cell>,
}

/// The board and the tanks: the part of a state no round changes.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Setup {
    pub board: Board,
    pub tanks: Vec<TankInfo>,
}

/// What a round changes.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    /// Index into each tank's track.
    pub at: Vec<usize>,
    pub alive: Vec<bool>,
    /// Owner of each square, row-major from row 1.
    pub territory: Vec<Player>,
    pub round: u32,
    pub clock_ms: [i64; 2],
}

/// A state that breaks an invariant (`INVALID_POSITION`).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum StateError {
    #[error("the board must have 1 to {MAX_SIDE} rows and columns, not {rows}x{cols}")]
    BoardSize { rows: u32, cols: u32 },
    #[error("territory must have {rows} rows of {cols} letters U or D")]
    Territory { rows: u8, cols: u8 },
    #[error("{owner} has two tanks named {name:?}")]
    DuplicateName { owner: Player, name: String },
    #[error("the track of {owner}'s {name} is empty")]
    EmptyTrack { owner: Player, name: String },
    #[error("the track of {owner}'s {name} leaves the board at {square:?}")]
    TrackOffBoard {
        owner: Player,
        name: String,
        square: String,
    },
    #[error("the track of {owner}'s {name} steps from {from} to {to}, which are not orthogonal neighbours")]
    TrackNotAChain {
        owner: Player,
        name: String,
        from: Cell,
        to: Cell,
    },
    #[error("{owner}'s {name} is at index {at} of a track of {len} squares")]
    AtOutOfRange {
        owner: Player,
        name: String,
        at: usize,
        len: usize,
    },
    #[error("two tanks stand on {0}")]
    SharedSquare(Cell),
}

/// What [`Setup::to_data_as`] writes a state's texts as: `String`, or an
/// inline small string.
pub trait Text:
    AsRef<str> + for<'a> From<&'a str> + FromIterator<char> + fmt::Write + Default
{
}

impl<S> Text for S where
    S: AsRef<str> + for<'a> From<&'a str> + FromIterator<char> + fmt::Write + Default
{
}

impl Setup {
    /// The square of tank `id` in `pos`.
    pub fn square(&self, pos: &Position, id: usize) -> Option<Cell> {
        let tank = self.tanks.get(id)?;
        tank.track.get(*pos.at.get(id)?).copied()
    }

    /// Checks `data` and splits it into setup and position.
    pub fn from_data<S: AsRef<str>>(data: &StateData<S>) -> Result<(Setup, Position), StateError> {
        let board = Board::checked(data.rows, data.cols, 1).ok_or(StateError::BoardSize {
            rows: data.rows,
            cols: data.cols,
        })?;
        let territory = parse_territory(board, &data.territory).ok_or(StateError::Territory {
            rows: board.rows,
            cols: board.cols,
        })?;
        let mut tanks = Vec::with_capacity(data.tanks.len());
        let mut at = Vec::with_capacity(data.tanks.len());
        let mut occupied = vec![false; board.len()];
        let mut names = std::collections::HashSet::with_capacity(data.tanks.len());
        for tank in &data.tanks {
            let name = tank.name.as_ref();
            let named = |e: fn(Player, String) -> StateError| e(tank.owner, name.to_owned());
            if !names.insert((tank.owner, name)) {
                return Err(named(|owner, name| StateError::DuplicateName {
                    owner,
                    name,
                }));
            }
            let mut track = Vec::with_capacity(tank.track.len());
            for text in &tank.track {
                let text = text.as_ref();
                let cell = Cell::parse(text)
                    .filter(|c| board.contains(*c))
                    .ok_or_else(|| StateError::TrackOffBoard {
                        owner: tank.owner,
                        name: name.to_owned(),
                        square: text.to_owned(),
                    })?;
                if let Some(&last) = track.last() {
                    if !Cell::is_orthogonal_neighbour(last, cell) {
                        return Err(StateError::TrackNotAChain {
                            owner: tank.owner,
                            name: name.to_owned(),
                            from: last,
                            to: cell,
                        });
                    }
                }
                track.push(cell);
            }
            if track.is_empty() {
                return Err(named(|owner, name| StateError::EmptyTrack { owner, name }));
            }
            let Some(&square) = track.get(tank.at) else {
                return Err(StateError::AtOutOfRange {
                    owner: tank.owner,
                    name: name.to_owned(),
                    at: tank.at,
                    len: track.len(),
                });
            };
            let slot = occupied.get_mut(board.index(square));
            match slot {
                Some(taken) if !*taken => *taken = true,
                _ => return Err(StateError::SharedSquare(square)),
            }
            tanks.push(TankInfo {
                owner: tank.owner,
                name: name.to_owned(),
                kind: tank.kind,
                track,
            });
            at.push(tank.at);
        }
        let alive = vec![true; tanks.len()];
        Ok((
            Setup { board, tanks },
            Position {
                at,
                alive,
                territory,
                round: data.round,
                clock_ms: data.clock_ms,
            },
        ))
    }

    /// The state as data: only living tanks are listed.
    pub fn to_data(&self, pos: &Position) -> StateData {
        self.to_data_as(pos)
    }

    /// [`Setup::to_data`] with its texts as `S` (an inline small string
    /// writes a state without a heap allocation a square).
    pub fn to_data_as<S: Text>(&self, pos: &Position) -> StateData<S> {
        let board = self.board;
        let territory = (0..board.rows)
            .rev()
            .map(|row| {
                (0..board.cols)
                    .map(|col| {
                        let owner = pos.territory.get(board.index(Cell { col, row }));
                        if owner == Some(&Player::D) {
                            'D'
                        } else {
                            'U'
                        }
                    })
                    .collect()
            })
            .collect();
        let tanks = self
            .tanks
            .iter()
            .enumerate()
            .filter(|(id, _)| pos.alive.get(*id).copied().unwrap_or(false))
            .map(|(id, tank)| TankData {
                owner: tank.owner,
                name: S::from(tank.name.as_str()),
                kind: tank.kind,
                track: tank
                    .track
                    .iter()
                    .map(|cell| {
                        let mut text = S::default();
                        // Writing to a string cannot fail.
                        let _ = write!(text, "{cell}");
                        text
                    })
                    .collect(),
                at: pos.at.get(id).copied().unwrap_or(0),
            })
            .collect();
        StateData {
            rows: u32::from(board.rows),
            cols: u32::from(board.cols),
            territory,
            tanks,
            round: pos.round,
            clock_ms: pos.clock_ms,
        }
    }

    /// The living tank of `owner` called `name`.
    pub fn find(&self, pos: &Position, owner: Player, name: &str) -> Option<usize> {
        self.tanks.iter().enumerate().position(|(id, t)| {
            t.owner == owner && t.name == name && pos.alive.get(id).copied().unwrap_or(false)
        })
    }
}

fn parse_territory<S: AsRef<str>>(board: Board, rows: &[S]) -> Option<Vec<Player>> {
    if rows.len() != board.rows as usize {
        return None;
    }
    let mut owners = vec![Player::U; board.len()];
    for (top_index, text) in rows.iter().enumerate() {
        let text = text.as_ref();
        let row = board.rows as usize - 1 - top_index;
        if text.chars().count() != board.cols as usize {
            return None;
        }
        for (col, c) in text.chars().enumerate() {
            let owner = match c {
                'U' => Player::U,
                'D' => Player::D,
                _ => return None,
            };
            *owners.get_mut(row * board.cols as usize + col)? = owner;
        }
    }
    Some(owners)
}

/// The rules' illustration from the default setup (docs/TANK-WAR.md), round by
/// round: (U's pick, D's pick).
pub const ILLUSTRATION: [(&str, &str); 5] = [
    ("LA", "RC"),
    ("LC", "RB"),
    ("RA", "RB"),
    ("LA", "RB"),
    ("LC", "RA"),
];

/// The default setup (docs/TANK-WAR.md, State), a reconstruction that reproduces the
/// rules' illustration: 6x6, D owns rows 1-3 and U rows 4-6; D's tanks on
/// row 1 move up their columns, U's on row 6 move down.
pub fn default_state() -> (Setup, Position) {
    let board = Board { rows: 6, cols: 6 };
    let d_names = ["LC", "LA", "LB", "RB", "RA", "RC"];
    let u_names = ["RC", "RA", "RB", "LB", "LA", "LC"];
    let kind = |name: &str| match name.as_bytes().get(1) {
        Some(b'A') => TankType::A,
        Some(b'B') => TankType::B,
        _ => TankType::C,
    };
    let column = |col: u8, up: bool| -> Vec<Cell> {
        let rows: Vec<u8> = if up {
            (0..6).collect()
        } else {
            (0..6).rev().collect()
        };
        rows.into_iter().map(|row| Cell { col, row }).collect()
    };
    let mut tanks = Vec::new();
    for (col, name) in (0u8..).zip(u_names) {
        tanks.push(TankInfo {
            owner: Player::U,
            name: name.to_owned(),
            kind: kind(name),
            track: column(col, false),
        });
    }
    for (col, name) in (0u8..).zip(d_names) {
        tanks.push(TankInfo {
            owner: Player::D,
            name: name.to_owned(),
            kind: kind(name),
            track: column(col, true),
        });
    }
    let territory = (0..board.len())
        .map(|i| if i < 18 { Player::D } else { Player::U })
        .collect();
    let n = tanks.len();
    (
        Setup { board, tanks },
        Position {
            at: vec![0; n],
            alive: vec![true; n],
            territory,
            round: 0,
            clock_ms: [INITIAL_CLOCK_MS; 2],
        },
    )
}
