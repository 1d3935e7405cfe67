//! The rules (docs/TANK-WAR.md, "Rules as implemented"): which tanks may be picked, how a round resolves,
//! when the game ends and who wins.

use std::cmp::Ordering;

use serde::Serialize;
use thiserror::Error;

use super::state::{Player, Position, Setup};
use crate::games::grid::Cell;

/// Why a pick is illegal; its text is its code (what the rule says is
/// the catalogues' to write, in the language asked).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Error)]
pub enum PickError {
    #[error("GAME_OVER")]
    GameOver,
    #[error("NO_SUCH_TANK")]
    NoSuchTank,
    #[error("END_OF_TRACK")]
    EndOfTrack,
    #[error("SQUARE_OCCUPIED")]
    SquareOccupied,
}

impl PickError {
    /// Every refusal, in checking order.
    pub const ALL: [PickError; 4] = [
        PickError::GameOver,
        PickError::NoSuchTank,
        PickError::EndOfTrack,
        PickError::SquareOccupied,
    ];

    /// The stable machine code.
    pub const fn code(self) -> &'static str {
        match self {
            PickError::GameOver => "GAME_OVER",
            PickError::NoSuchTank => "NO_SUCH_TANK",
            PickError::EndOfTrack => "END_OF_TRACK",
            PickError::SquareOccupied => "SQUARE_OCCUPIED",
        }
    }
}

/// Why the game ended (as an answer writes it: `no_moves`, `time`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// A player had no tank that could be picked.
    NoMoves,
    /// A clock ran out.
    Time,
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// `None` for a draw.
    pub winner: Option<Player>,
    pub reason: EndReason,
}

/// Something that happened in a round, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A player's clock ran out; the round's moves were not executed.
    Timeout { player: Player },
    /// A picked tank moved one square forward.
    Moved { tank: usize, from: Cell, to: Cell },
    /// A picked tank lost the contest for a square to the square's owner.
    Blocked { tank: usize, from: Cell, to: Cell },
    /// A tank was destroyed in the firing phase by the listed tanks.
    Destroyed {
        tank: usize,
        at: Cell,
        by: Vec<usize>,
    },
}

/// Which square holds which living tank.
fn occupancy(setup: &Setup, pos: &Position) -> Vec<Option<usize>> {
    let mut grid = vec![None; setup.board.len()];
    for id in living(pos) {
        if let Some(cell) = setup.square(pos, id) {
            if let Some(slot) = grid.get_mut(setup.board.index(cell)) {
                *slot = Some(id);
            }
        }
    }
    grid
}

fn living(pos: &Position) -> impl Iterator<Item = usize> + '_ {
    pos.alive
        .iter()
        .enumerate()
        .filter(|(_, a)| **a)
        .map(|(id, _)| id)
}

/// Number of living tanks of `player`.
pub fn surviving(setup: &Setup, pos: &Position, player: Player) -> usize {
    living(pos)
        .filter(|&id| setup.tanks.get(id).is_some_and(|t| t.owner == player))
        .count()
}

/// Number of squares `player` owns.
pub fn territory(pos: &Position, player: Player) -> usize {
    pos.territory.iter().filter(|&&p| p == player).count()
}

/// The next square of tank `id`, if it can move there now (rule 2),
/// ignoring whether the game is over.
fn next_free_square(
    setup: &Setup,
    pos: &Position,
    id: usize,
    grid: &[Option<usize>],
) -> Result<Cell, PickError> {
    let tank = setup.tanks.get(id).ok_or(PickError::NoSuchTank)?;
    let at = pos.at.get(id).copied().ok_or(PickError::NoSuchTank)?;
    let next = tank
        .track
        .get(at + 1)
        .copied()
        .ok_or(PickError::EndOfTrack)?;
    match grid.get(setup.board.index(next)) {
        Some(None) => Ok(next),
        _ => Err(PickError::SquareOccupied),
    }
}

/// The tanks `player` may pick, in setup order (empty when the game is
/// over).
pub fn pickable(setup: &Setup, pos: &Position, player: Player) -> Vec<usize> {
    if outcome(setup, pos).is_some() {
        return Vec::new();
    }
    pickable_ignoring_end(setup, pos, player)
}

fn pickable_ignoring_end(setup: &Setup, pos: &Position, player: Player) -> Vec<usize> {
    let grid = occupancy(setup, pos);
    living(pos)
        .filter(|&id| setup.tanks.get(id).is_some_and(|t| t.owner == player))
        .filter(|&id| next_free_square(setup, pos, id, &grid).is_ok())
        .collect()
}

/// Checks `player`'s pick of the tank called `name`.
pub fn check_pick(
    setup: &Setup,
    pos: &Position,
    player: Player,
    name: &str,
) -> Result<usize, PickError> {
    if outcome(setup, pos).is_some() {
        return Err(PickError::GameOver);
    }
    let id = setup.find(pos, player, name).ok_or(PickError::NoSuchTank)?;
    next_free_square(setup, pos, id, &occupancy(setup, pos))?;
    Ok(id)
}

/// The result if the game is over (rules 6 and 7), `None` while it goes on.
pub fn outcome(setup: &Setup, pos: &Position) -> Option<Outcome> {
    let [u_clock, d_clock] = pos.clock_ms;
    if u_clock <= 0 || d_clock <= 0 {
        let winner = match (u_clock <= 0, d_clock <= 0) {
            (true, false) => Some(Player::D),
            (false, true) => Some(Player::U),
            _ => None,
        };
        return Some(Outcome {
            winner,
            reason: EndReason::Time,
        });
    }
    let stuck = Player::ALL
        .iter()
        .any(|&p| pickable_ignoring_end(setup, pos, p).is_empty());
    if !stuck {
        return None;
    }
    let by = |f: &dyn Fn(Player) -> usize| f(Player::U).cmp(&f(Player::D));
    let order = by(&|p| surviving(setup, pos, p)).then(by(&|p| territory(pos, p)));
    let winner = match order {
        Ordering::Greater => Some(Player::U),
        Ordering::Less => Some(Player::D),
        Ordering::Equal => None,
    };
    Some(Outcome {
        winner,
        reason: EndReason::NoMoves,
    })
}

/// Plays one round with picks already checked by [`check_pick`]
/// (`picks[0]` is U's, `picks[1]` D's): charges each player's thinking
/// time, then, unless a clock ran out, resolves the round. Returns the
/// events in order.
pub fn play_round(
    setup: &Setup,
    pos: &mut Position,
    picks: [usize; 2],
    elapsed_ms: [u64; 2],
) -> Vec<Event> {
    let timeouts = charge_clocks(pos, elapsed_ms);
    if !timeouts.is_empty() {
        return timeouts;
    }
    resolve_round(setup, pos, picks)
}

/// Charges each player's thinking time (rule 7): a `Timeout` event for each
/// player whose clock falls to 0 or below; the round is then not played.
pub fn charge_clocks(pos: &mut Position, elapsed_ms: [u64; 2]) -> Vec<Event> {
    for (clock, &spent) in pos.clock_ms.iter_mut().zip(&elapsed_ms) {
        *clock = clock.saturating_sub(i64::try_from(spent).unwrap_or(i64::MAX));
    }
    Player::ALL
        .into_iter()
        .filter(|p| pos.clock_ms[p.index()] <= 0)
        .map(|player| Event::Timeout { player })
        .collect()
}

/// The moving and firing phases of a round with checked picks.
pub fn resolve_round(setup: &Setup, pos: &mut Position, picks: [usize; 2]) -> Vec<Event> {
    let mut events = Vec::new();

    // Moving phase.
    let targets = picks.map(|id| {
        let from = setup.square(pos, id);
        let to = setup.tanks.get(id).and_then(|t| {
            t.track
                .get(pos.at.get(id).copied().unwrap_or(0) + 1)
                .copied()
        });
        (id, from, to)
    });
    let contested = targets[0].2.is_some() && targets[0].2 == targets[1].2;
    for (player, &(id, from, to)) in Player::ALL.iter().zip(targets.iter()) {
        let (Some(from), Some(to)) = (from, to) else {
            continue;
        };
        let owner = pos.territory.get(setup.board.index(to)).copied();
        if contested && owner != Some(*player) {
            events.push(Event::Blocked { tank: id, from, to });
            continue;
        }
        if let Some(at) = pos.at.get_mut(id) {
            *at += 1;
        }
        if let Some(square) = pos.territory.get_mut(setup.board.index(to)) {
            *square = *player;
        }
        events.push(Event::Moved { tank: id, from, to });
    }

    // Firing phase: everyone fires at once, then the hit tanks are removed.
    let grid = occupancy(setup, pos);
    let mut hits: Vec<(usize, Cell, Vec<usize>)> = Vec::new();
    for shooter in living(pos) {
        let (Some(tank), Some(cell)) = (setup.tanks.get(shooter), setup.square(pos, shooter))
        else {
            continue;
        };
        for (dc, dr) in tank.kind.pattern() {
            let Some(target_cell) = cell.offset(setup.board, dc, dr) else {
                continue;
            };
            let Some(Some(target)) = grid.get(setup.board.index(target_cell)).copied() else {
                continue;
            };
            if setup
                .tanks
                .get(target)
                .is_some_and(|t| t.owner != tank.owner)
            {
                match hits.iter_mut().find(|(id, _, _)| *id == target) {
                    Some((_, _, by)) => by.push(shooter),
                    None => hits.push((target, target_cell, vec![shooter])),
                }
            }
        }
    }
    hits.sort_by_key(|(id, _, _)| (setup.tanks.get(*id).map(|t| t.owner), *id));
    for (tank, at, by) in hits {
        if let Some(alive) = pos.alive.get_mut(tank) {
            *alive = false;
        }
        events.push(Event::Destroyed { tank, at, by });
    }
    pos.round = pos.round.saturating_add(1);
    events
}
