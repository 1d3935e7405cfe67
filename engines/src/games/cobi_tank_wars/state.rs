//! The state of a Tank Wars round: vehicles with their card slots, and the
//! artillery, support and gunfire tokens on the board.

use std::fmt;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::notation::StateData;
use crate::games::grid::{Board, Cell, MAX_SIDE};

/// A player; `first` of the state executes first in each slot.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Player {
    P1,
    P2,
}

impl Player {
    pub const ALL: [Player; 2] = [Player::P1, Player::P2];

    /// The players' names, P1's first: how requests, answers and the
    /// catalogue name them (written here only).
    pub const NAMES: [&'static str; 2] = ["P1", "P2"];

    pub const fn index(self) -> usize {
        self as usize
    }

    /// `"P1"` or `"P2"`.
    pub const fn name(self) -> &'static str {
        Player::NAMES[self.index()]
    }

    pub const fn other(self) -> Player {
        match self {
            Player::P1 => Player::P2,
            Player::P2 => Player::P1,
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A vehicle on the board.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Vehicle {
    pub id: String,
    pub owner: Player,
    pub square: Cell,
    pub armor: u32,
    /// Card position 1 (top) to 3 (bottom): the order of execution.
    pub slot: u8,
}

/// A checked state.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct State {
    pub board: Board,
    pub first: Player,
    pub vehicles: Vec<Vehicle>,
    pub artillery: Vec<Cell>,
    pub support: Vec<Cell>,
    pub gunfire: Vec<Cell>,
    pub support_cards: [u32; 2],
    pub round: u32,
}

/// A state that breaks an invariant (`INVALID_POSITION`).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum StateError {
    #[error("the board must have 2 to {MAX_SIDE} columns and rows, not {cols}x{rows}")]
    BoardSize { cols: u32, rows: u32 },
    #[error("{0} has more than 3 vehicles")]
    TooManyVehicles(Player),
    #[error("vehicle {0:?}: slot must be 1, 2 or 3, each used once per player")]
    Slot(String),
    #[error("two vehicles are called {0:?}")]
    DuplicateId(String),
    #[error("vehicle {0:?}: armor must be at least 1")]
    Armor(String),
    #[error("{0:?} is not a square of the board")]
    Square(String),
    #[error("two vehicles stand on {0}")]
    SharedSquare(Cell),
    #[error("the {kind} tokens list {square} twice")]
    DuplicateToken { kind: &'static str, square: Cell },
}

fn square(board: Board, text: &str) -> Result<Cell, StateError> {
    Cell::parse(text)
        .filter(|c| board.contains(*c))
        .ok_or_else(|| StateError::Square(text.to_owned()))
}

fn tokens(board: Board, kind: &'static str, texts: &[String]) -> Result<Vec<Cell>, StateError> {
    let mut out: Vec<Cell> = Vec::with_capacity(texts.len());
    for text in texts {
        let cell = square(board, text)?;
        if out.contains(&cell) {
            return Err(StateError::DuplicateToken { kind, square: cell });
        }
        out.push(cell);
    }
    Ok(out)
}

impl State {
    /// Places a round's gunfire tokens (both players', before the orders
    /// are executed). A square already holding a token keeps one: the
    /// rules cost a vehicle 1 armor for ending on a field "where the
    /// Gunfire token is located", so two players' tokens on one field are
    /// one hit, and a site need not merge them. A square off the board is
    /// refused, and nothing is placed.
    pub fn place_gunfire(&mut self, squares: &[String]) -> Result<(), StateError> {
        let cells = squares
            .iter()
            .map(|text| square(self.board, text))
            .collect::<Result<Vec<Cell>, StateError>>()?;
        for cell in cells {
            if !self.gunfire.contains(&cell) {
                self.gunfire.push(cell);
            }
        }
        Ok(())
    }

    /// Checks `data` against the invariants of the rules.
    pub fn from_data(data: &StateData) -> Result<State, StateError> {
        let board = Board::checked(data.rows, data.cols, 2).ok_or(StateError::BoardSize {
            cols: data.cols,
            rows: data.rows,
        })?;
        for player in Player::ALL {
            if data.vehicles.iter().filter(|v| v.owner == player).count() > 3 {
                return Err(StateError::TooManyVehicles(player));
            }
        }
        let mut vehicles: Vec<Vehicle> = Vec::with_capacity(data.vehicles.len());
        for v in &data.vehicles {
            if vehicles.iter().any(|o| o.id == v.id) {
                return Err(StateError::DuplicateId(v.id.clone()));
            }
            let slot = u8::try_from(v.slot)
                .ok()
                .filter(|s| (1..=3).contains(s))
                .filter(|s| !vehicles.iter().any(|o| o.owner == v.owner && o.slot == *s))
                .ok_or_else(|| StateError::Slot(v.id.clone()))?;
            let armor = u32::try_from(v.armor)
                .ok()
                .filter(|a| *a >= 1)
                .ok_or_else(|| StateError::Armor(v.id.clone()))?;
            let cell = square(board, &v.square)?;
            if vehicles.iter().any(|o| o.square == cell) {
                return Err(StateError::SharedSquare(cell));
            }
            vehicles.push(Vehicle {
                id: v.id.clone(),
                owner: v.owner,
                square: cell,
                armor,
                slot,
            });
        }
        Ok(State {
            board,
            first: data.first,
            vehicles,
            artillery: tokens(board, "artillery", &data.artillery)?,
            support: tokens(board, "support", &data.support)?,
            gunfire: tokens(board, "gunfire", &data.gunfire)?,
            support_cards: data.support_cards,
            round: data.round,
        })
    }

    /// The default state: 8x8, three vehicles a side with 3 armor, no
    /// tokens, P1 first.
    pub fn initial() -> State {
        let vehicle = |id: &str, owner, square: &str, slot| Vehicle {
            id: id.to_owned(),
            owner,
            square: Cell::parse(square).unwrap_or(Cell { col: 0, row: 0 }),
            armor: 3,
            slot,
        };
        State {
            board: Board { rows: 8, cols: 8 },
            first: Player::P1,
            vehicles: vec![
                vehicle("P1-1", Player::P1, "c1", 1),
                vehicle("P1-2", Player::P1, "d1", 2),
                vehicle("P1-3", Player::P1, "f1", 3),
                vehicle("P2-1", Player::P2, "f8", 1),
                vehicle("P2-2", Player::P2, "e8", 2),
                vehicle("P2-3", Player::P2, "c8", 3),
            ],
            artillery: Vec::new(),
            support: Vec::new(),
            gunfire: Vec::new(),
            support_cards: [0, 0],
            round: 0,
        }
    }
}
