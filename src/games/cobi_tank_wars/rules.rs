//! One round: orders checked, movement in card order, artillery, support,
//! gunfire, supply drop, end of the game.

use std::collections::BTreeMap;

use thiserror::Error;

use super::state::{Player, State};
use crate::games::grid::Cell;

/// A direction of movement; N is towards higher rows.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Dir {
    N,
    E,
    S,
    W,
}

impl Dir {
    fn step(self) -> (i8, i8) {
        match self {
            Dir::N => (0, 1),
            Dir::E => (1, 0),
            Dir::S => (0, -1),
            Dir::W => (-1, 0),
        }
    }
}

/// A vehicle's command: a direction and a distance of 1 to 3.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Order {
    pub dir: Dir,
    pub dist: u8,
}

/// An order as data, before checking.
#[derive(Clone, Debug)]
pub struct OrderData {
    pub dir: String,
    pub dist: i64,
}

/// Why orders are refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum OrderError {
    #[error("the game is over")]
    GameOver,
    #[error("the player has no vehicle with that id")]
    NoSuchVehicle,
    #[error("every vehicle of each player needs exactly one order")]
    MissingOrder,
    #[error("a direction is N, E, S or W")]
    BadDirection,
    #[error("a distance is 1, 2 or 3")]
    BadDistance,
}

impl OrderError {
    pub const fn code(self) -> &'static str {
        match self {
            OrderError::GameOver => "GAME_OVER",
            OrderError::NoSuchVehicle => "NO_SUCH_VEHICLE",
            OrderError::MissingOrder => "MISSING_ORDER",
            OrderError::BadDirection => "BAD_DIRECTION",
            OrderError::BadDistance => "BAD_DISTANCE",
        }
    }
}

/// What happened in a round, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    Moved {
        vehicle: String,
        from: Cell,
        to: Cell,
    },
    Cancelled {
        vehicle: String,
        at: Cell,
        to: Option<Cell>,
    },
    ArtilleryHit {
        vehicle: String,
        square: Cell,
    },
    SupportTaken {
        vehicle: String,
        square: Cell,
        player: Player,
    },
    GunfireHit {
        vehicle: String,
        square: Cell,
    },
    Destroyed {
        vehicle: String,
        square: Cell,
    },
    SupplyDrop {
        square: Cell,
    },
}

/// The result of a finished game: `None` for a draw.
pub fn outcome(state: &State) -> Option<Option<Player>> {
    let has = |p: Player| state.vehicles.iter().any(|v| v.owner == p);
    match (has(Player::P1), has(Player::P2)) {
        (true, true) => None,
        (true, false) => Some(Some(Player::P1)),
        (false, true) => Some(Some(Player::P2)),
        (false, false) => Some(None),
    }
}

/// Checks one player's orders: one valid order per own vehicle. Errors
/// name the vehicle id (or the order's id for `NO_SUCH_VEHICLE`).
pub fn check_orders(
    state: &State,
    player: Player,
    orders: &BTreeMap<String, OrderData>,
) -> Result<BTreeMap<String, Order>, Vec<(String, OrderError)>> {
    if outcome(state).is_some() {
        return Err(vec![(String::new(), OrderError::GameOver)]);
    }
    let mut errors = Vec::new();
    let mut checked = BTreeMap::new();
    for (id, order) in orders {
        if !state
            .vehicles
            .iter()
            .any(|v| v.owner == player && &v.id == id)
        {
            errors.push((id.clone(), OrderError::NoSuchVehicle));
            continue;
        }
        let dir = match order.dir.as_str() {
            "N" => Dir::N,
            "E" => Dir::E,
            "S" => Dir::S,
            "W" => Dir::W,
            _ => {
                errors.push((id.clone(), OrderError::BadDirection));
                continue;
            }
        };
        let Some(dist) = u8::try_from(order.dist)
            .ok()
            .filter(|d| (1..=3).contains(d))
        else {
            errors.push((id.clone(), OrderError::BadDistance));
            continue;
        };
        checked.insert(id.clone(), Order { dir, dist });
    }
    for v in state.vehicles.iter().filter(|v| v.owner == player) {
        if !orders.contains_key(&v.id) {
            errors.push((v.id.clone(), OrderError::MissingOrder));
        }
    }
    if errors.is_empty() {
        Ok(checked)
    } else {
        Err(errors)
    }
}

/// SplitMix64's first output for `seed`.
pub fn splitmix64(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Plays a round with checked orders (every vehicle has one).
pub fn resolve(state: &mut State, orders: &BTreeMap<String, Order>, seed: u64) -> Vec<Event> {
    let mut events = Vec::new();
    // 1. Card order: slot 1 of `first`, slot 1 of the other, slot 2, ….
    let mut sequence = Vec::new();
    for slot in 1..=3u8 {
        for player in [state.first, state.first.other()] {
            if let Some(v) = state
                .vehicles
                .iter()
                .find(|v| v.owner == player && v.slot == slot)
            {
                sequence.push(v.id.clone());
            }
        }
    }
    for id in sequence {
        let Some(index) = state.vehicles.iter().position(|v| v.id == id) else {
            continue; // destroyed earlier in the round
        };
        let Some(order) = orders.get(&id) else {
            continue;
        };
        move_vehicle(state, index, *order, &mut events);
    }
    // 4. Gunfire.
    let gunfire = std::mem::take(&mut state.gunfire);
    for &square in &gunfire {
        let Some(index) = state.vehicles.iter().position(|v| v.square == square) else {
            continue;
        };
        let Some(vehicle) = state.vehicles.get_mut(index) else {
            continue;
        };
        vehicle.armor = vehicle.armor.saturating_sub(1);
        events.push(Event::GunfireHit {
            vehicle: vehicle.id.clone(),
            square,
        });
        if vehicle.armor == 0 {
            let gone = state.vehicles.remove(index);
            events.push(Event::Destroyed {
                vehicle: gone.id,
                square,
            });
        }
    }
    state.artillery.retain(|s| !gunfire.contains(s));
    state.support.retain(|s| !gunfire.contains(s));
    // 5. Supply drop on a free square, column fastest from a1.
    let mut free = Vec::new();
    for row in 0..state.board.rows {
        for col in 0..state.board.cols {
            let cell = Cell { col, row };
            let taken = state.vehicles.iter().any(|v| v.square == cell)
                || state.artillery.contains(&cell)
                || state.support.contains(&cell);
            if !taken {
                free.push(cell);
            }
        }
    }
    if !free.is_empty() {
        let pick = (splitmix64(seed) % free.len() as u64) as usize;
        if let Some(&square) = free.get(pick) {
            state.support.push(square);
            events.push(Event::SupplyDrop { square });
        }
    }
    // 6.
    state.round = state.round.saturating_add(1);
    events
}

/// Steps 2 and 3 for one vehicle.
fn move_vehicle(state: &mut State, index: usize, order: Order, events: &mut Vec<Event>) {
    let Some(vehicle) = state.vehicles.get(index) else {
        return;
    };
    let from = vehicle.square;
    let (dc, dr) = order.dir.step();
    let mut path = Vec::with_capacity(3);
    let mut at = Some(from);
    for _ in 0..order.dist {
        at = at.and_then(|c| c.offset(state.board, dc, dr));
        if let Some(c) = at {
            path.push(c);
        }
    }
    let destination = at.filter(|_| path.len() == usize::from(order.dist));
    let id = vehicle.id.clone();
    let Some(to) = destination.filter(|to| !state.vehicles.iter().any(|v| v.square == *to)) else {
        events.push(Event::Cancelled {
            vehicle: id,
            at: from,
            to: destination,
        });
        return;
    };
    events.push(Event::Moved {
        vehicle: id.clone(),
        from,
        to,
    });
    let mut armor = state.vehicles.get(index).map_or(0, |v| v.armor);
    for square in &path {
        if let Some(t) = state.artillery.iter().position(|s| s == square) {
            state.artillery.remove(t);
            armor = armor.saturating_sub(1);
            events.push(Event::ArtilleryHit {
                vehicle: id.clone(),
                square: *square,
            });
        }
    }
    if armor == 0 {
        state.vehicles.remove(index);
        events.push(Event::Destroyed {
            vehicle: id,
            square: to,
        });
        return;
    }
    let owner = match state.vehicles.get_mut(index) {
        Some(v) => {
            v.square = to;
            v.armor = armor;
            v.owner
        }
        None => return,
    };
    if let Some(t) = state.support.iter().position(|s| *s == to) {
        state.support.remove(t);
        if let Some(cards) = state.support_cards.get_mut(owner.index()) {
            *cards = cards.saturating_add(1);
        }
        events.push(Event::SupportTaken {
            vehicle: id,
            square: to,
            player: owner,
        });
    }
}
