//! One round: orders checked, movement in card order, artillery, support,
//! gunfire, supply drop, end of the game.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::state::{Player, State, Vehicle};
use crate::games::grid::{Board, Cell};

/// A direction of movement; N is towards higher rows. It travels as its
/// letter.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub enum Dir {
    N,
    E,
    S,
    W,
}

impl Dir {
    pub const ALL: [Dir; 4] = [Dir::N, Dir::E, Dir::S, Dir::W];

    /// The direction's letter.
    pub const fn name(self) -> &'static str {
        match self {
            Dir::N => "N",
            Dir::E => "E",
            Dir::S => "S",
            Dir::W => "W",
        }
    }

    /// Parses `N`, `E`, `S` or `W`.
    pub fn parse(text: &str) -> Option<Dir> {
        Dir::ALL.into_iter().find(|d| d.name() == text)
    }

    fn step(self) -> (i8, i8) {
        match self {
            Dir::N => (0, 1),
            Dir::E => (1, 0),
            Dir::S => (0, -1),
            Dir::W => (-1, 0),
        }
    }
}

/// A vehicle's command: a direction and a distance of 1 to 3 (as an
/// answer writes it: `{"dir": "N", "dist": 2}`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Order {
    pub dir: Dir,
    pub dist: u8,
}

impl Order {
    /// The twelve orders, by direction (N, E, S, W) then distance.
    pub const ALL: [Order; 12] = {
        let mut all = [Order {
            dir: Dir::N,
            dist: 1,
        }; 12];
        let mut i = 0;
        while i < 12 {
            all[i] = Order {
                dir: Dir::ALL[i / 3],
                dist: (i % 3) as u8 + 1,
            };
            i += 1;
        }
        all
    };

    /// The squares a vehicle on `from` enters, in order, when they are all
    /// on the board: the passed squares, then the destination (rule 2).
    pub fn path(self, board: Board, from: Cell) -> Option<([Cell; 3], usize)> {
        let (dc, dr) = self.dir.step();
        let mut path = [from; 3];
        let mut at = from;
        for slot in path.iter_mut().take(usize::from(self.dist)) {
            at = at.offset(board, dc, dr)?;
            *slot = at;
        }
        Some((path, usize::from(self.dist)))
    }

    /// The destination of the order from `from`, if it is on the board.
    pub fn destination(self, board: Board, from: Cell) -> Option<Cell> {
        let (path, len) = self.path(board, from)?;
        path.get(len.checked_sub(1)?).copied()
    }
}

/// An order as data, before checking: as a player writes it
/// (`{"dir": "N", "dist": 2}`), any text and number.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OrderData {
    pub dir: String,
    pub dist: i64,
}

impl From<Order> for OrderData {
    fn from(order: Order) -> OrderData {
        OrderData {
            dir: order.dir.name().to_owned(),
            dist: i64::from(order.dist),
        }
    }
}

/// Why orders are refused; its text is its code (what the rule says is
/// the catalogues' to write, in the language asked).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum OrderError {
    #[error("GAME_OVER")]
    GameOver,
    #[error("NO_SUCH_VEHICLE")]
    NoSuchVehicle,
    #[error("MISSING_ORDER")]
    MissingOrder,
    #[error("BAD_DIRECTION")]
    BadDirection,
    #[error("BAD_DISTANCE")]
    BadDistance,
}

impl OrderError {
    /// Every refusal.
    pub const ALL: [OrderError; 5] = [
        OrderError::GameOver,
        OrderError::NoSuchVehicle,
        OrderError::MissingOrder,
        OrderError::BadDirection,
        OrderError::BadDistance,
    ];

    /// The stable machine code.
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

/// What happened in a round, in order (as an answer writes it: tagged by
/// `kind`, squares in grid notation).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
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
        let Some(dir) = Dir::parse(&order.dir) else {
            errors.push((id.clone(), OrderError::BadDirection));
            continue;
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

/// An order whose destination is on the board (docs/TANK-WARS.md, `legal-moves`;
/// written as it lists one: `{"dir", "dist", "to", "blocked_now"}`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct LegalOrder {
    #[serde(flatten)]
    pub order: Order,
    pub to: Cell,
    /// Whether another vehicle stands on `to` now, so the order would be
    /// cancelled if nothing moved first.
    pub blocked_now: bool,
}

/// The orders of `vehicle` whose destination is on the board, by direction
/// (N, E, S, W) then distance.
pub fn legal_orders(state: &State, vehicle: &Vehicle) -> Vec<LegalOrder> {
    Order::ALL
        .into_iter()
        .filter_map(|order| {
            let to = order.destination(state.board, vehicle.square)?;
            Some(LegalOrder {
                order,
                to,
                blocked_now: state.vehicles.iter().any(|v| v.square == to),
            })
        })
        .collect()
}

/// SplitMix64's first output for `seed`.
pub fn splitmix64(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Plays a round with checked orders (every vehicle has one): movement,
/// gunfire, supply drop, and the round counter.
pub fn resolve(state: &mut State, orders: &BTreeMap<String, Order>, seed: u64) -> Vec<Event> {
    let mut events = Vec::new();
    movement(state, |id| orders.get(id).copied(), &mut events);
    gunfire(state, &mut events);
    supply_drop(state, seed, &mut events);
    // 6.
    state.round = state.round.saturating_add(1);
    events
}

/// Rules 1-3: every vehicle with an order executes it, in card order (slot
/// 1 of `first`, slot 1 of the other player, slot 2, …). A vehicle
/// destroyed earlier in the round does not move.
pub fn movement(
    state: &mut State,
    order_of: impl Fn(&str) -> Option<Order>,
    events: &mut Vec<Event>,
) {
    let mut sequence = Vec::with_capacity(6);
    for slot in 1..=3u8 {
        for player in [state.first, state.first.other()] {
            if let Some(v) = state
                .vehicles
                .iter()
                .find(|v| v.owner == player && v.slot == slot)
            {
                if let Some(order) = order_of(&v.id) {
                    sequence.push((v.id.clone(), order));
                }
            }
        }
    }
    for (id, order) in sequence {
        if let Some(index) = state.vehicles.iter().position(|v| v.id == id) {
            move_vehicle(state, index, order, events);
        }
    }
}

/// Rule 4: each gunfire token costs the vehicle on its square 1 armor; then
/// the gunfire tokens go, with the artillery and support tokens under them.
pub fn gunfire(state: &mut State, events: &mut Vec<Event>) {
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
}

/// Rule 5: a support token on free square number `splitmix64(seed) mod
/// count`, the free squares listed from a1 with the column fastest.
pub fn supply_drop(state: &mut State, seed: u64, events: &mut Vec<Event>) {
    let taken = |cell: Cell| {
        state.vehicles.iter().any(|v| v.square == cell)
            || state.artillery.contains(&cell)
            || state.support.contains(&cell)
            || state.gunfire.contains(&cell)
    };
    let free: Vec<Cell> = (0..state.board.rows)
        .flat_map(|row| (0..state.board.cols).map(move |col| Cell { col, row }))
        .filter(|&cell| !taken(cell))
        .collect();
    if free.is_empty() {
        return;
    }
    let pick = splitmix64(seed) % free.len() as u64;
    if let Some(&square) = usize::try_from(pick).ok().and_then(|i| free.get(i)) {
        state.support.push(square);
        events.push(Event::SupplyDrop { square });
    }
}

/// Rules 2 and 3 for one vehicle.
fn move_vehicle(state: &mut State, index: usize, order: Order, events: &mut Vec<Event>) {
    let Some(vehicle) = state.vehicles.get(index) else {
        return;
    };
    let from = vehicle.square;
    let id = vehicle.id.clone();
    let path = order.path(state.board, from);
    let destination = path.and_then(|(cells, len)| cells.get(len.checked_sub(1)?).copied());
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
    let mut armor = vehicle.armor;
    let entered = path.as_ref().and_then(|(cells, len)| cells.get(..*len));
    for square in entered.unwrap_or_default() {
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
