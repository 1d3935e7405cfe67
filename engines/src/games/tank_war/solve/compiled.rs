//! A request's setup in the solver's terms: the default game, with its
//! table, when the setup is the default one (its tanks listed in any
//! order, some perhaps destroyed and left out), else the setup compiled on
//! its own. Positions and picks of the request's setup are translated
//! here, so that the AI can ask the solver about its root and its leaves
//! alike.

use super::packed::{Key, Packed};
use super::solver::{Bounds, Solver, Unsolved};
use super::table::{self, Table};
use crate::games::tank_war::state::{Position, Setup};

/// A setup the solver can walk.
#[derive(Debug)]
pub struct Compiled {
    /// The setup compiled on its own; `None` for the default game.
    own: Option<Packed>,
    /// For each tank of the request's setup, its id in the solver's game.
    ids: Vec<u8>,
}

impl Compiled {
    /// `None` when a position of `setup` does not pack into 128 bits.
    pub fn new(setup: &Setup, pos: &Position) -> Option<Compiled> {
        if let Some((ids, _)) = table::on_default_setup(setup, pos) {
            table::default_game()?;
            let ids = ids.into_iter().map(u8::try_from).collect::<Result<_, _>>();
            return Some(Compiled {
                own: None,
                ids: ids.ok()?,
            });
        }
        let own = Packed::new(setup, pos)?;
        let ids = (0..setup.tanks.len())
            .map(u8::try_from)
            .collect::<Result<_, _>>();
        Some(Compiled {
            own: Some(own),
            ids: ids.ok()?,
        })
    }

    /// The compiled game the solver walks.
    pub fn game(&self) -> Option<&Packed> {
        self.own.as_ref().or_else(|| table::default_game())
    }

    /// Whether this is the default game (answered from its table).
    pub fn is_default_game(&self) -> bool {
        self.own.is_none()
    }

    /// A solver of this game within `bounds` (with the default game's
    /// table for the default game).
    pub fn solver<'a>(&'a self, bounds: Bounds<'a>) -> Option<Solver<'a>> {
        // The server does not start without the built-in table.
        let table = if self.is_default_game() {
            Table::built_in().ok()
        } else {
            None
        };
        Some(Solver::new(self.game()?, table, bounds))
    }

    /// `pos`, a position of the request's setup, packed.
    pub fn key(&self, pos: &Position) -> Option<Key> {
        self.game()?.pack_as(pos, &self.ids)
    }

    /// Both players' picks, tank ids of the request's setup, as the
    /// solver's.
    pub fn picks(&self, picks: &[Vec<usize>; 2]) -> Option<[Vec<u8>; 2]> {
        let map = |list: &Vec<usize>| -> Option<Vec<u8>> {
            list.iter().map(|&id| self.ids.get(id).copied()).collect()
        };
        Some([map(&picks[0])?, map(&picks[1])?])
    }

    /// Every pair of `picks`' value for U from `pos` (row-major, U's by
    /// rows), solved by `solver` (one of this game's).
    pub fn matrix(
        &self,
        solver: &mut Solver<'_>,
        pos: &Position,
        picks: &[Vec<usize>; 2],
    ) -> Result<Vec<f64>, Unsolved> {
        let (Some(key), Some(picks)) = (self.key(pos), self.picks(picks)) else {
            return Err(Unsolved::Unpackable);
        };
        solver.matrix(key, &picks)
    }
}
