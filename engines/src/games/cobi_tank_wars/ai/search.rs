//! The search: successive halving of our joint orders against samples of
//! the enemy's, each pair played as one simulated round with the rules' own
//! movement and gunfire.

use std::time::Instant;

use super::levels::FIRST_SAMPLES;
use super::material::{material, VEHICLE_POINTS, WIN_POINTS};
use crate::games::cobi_tank_wars::rules::{gunfire, movement, outcome, Order};
use crate::games::cobi_tank_wars::state::{Player, State, Vehicle};
use crate::games::grid::Cell;
use crate::games::SearchLimits;

/// The result of a successive halving.
pub(super) struct Halving {
    /// The finalists, best first.
    pub(super) alive: Vec<Tally>,
    /// Candidates dropped by each round, best first within a round.
    pub(super) dropped: Vec<Vec<Tally>>,
    /// Samples every finalist was measured against (unless the budget ran
    /// out during the last round).
    pub(super) used: usize,
    pub(super) rounds: u32,
}

impl Halving {
    /// Every measured candidate: the finalists by mean, then those dropped
    /// later before those dropped earlier.
    pub(super) fn ranking(&self) -> Vec<&Tally> {
        self.alive
            .iter()
            .chain(self.dropped.iter().rev().flatten())
            .filter(|t| t.count > 0)
            .collect()
    }
}

/// Results of one candidate.
pub(super) struct Tally {
    pub(super) candidate: usize,
    pub(super) sum: f64,
    pub(super) count: usize,
}

impl Tally {
    pub(super) fn new(candidate: usize) -> Tally {
        Tally {
            candidate,
            sum: 0.0,
            count: 0,
        }
    }

    pub(super) fn add(&mut self, value: f64) {
        self.sum += value;
        self.count += 1;
    }

    pub(super) fn mean(&self) -> f64 {
        if self.count == 0 {
            f64::NEG_INFINITY
        } else {
            self.sum / self.count as f64
        }
    }
}

pub(super) struct Search<'a> {
    pub(super) state: &'a State,
    pub(super) player: Player,
    pub(super) own: Vec<&'a Vehicle>,
    pub(super) enemy: Vec<&'a Vehicle>,
    pub(super) limits: SearchLimits<'a>,
    pub(super) start: Instant,
    pub(super) simulations: u64,
    /// The player's material before the round.
    pub(super) before: f64,
    /// Each square's chance (row by row) of being fired at by the enemy;
    /// empty when not expected.
    pub(super) threat: Vec<f64>,
}

impl<'a> Search<'a> {
    pub(super) fn new(
        state: &'a State,
        player: Player,
        limits: SearchLimits<'a>,
        start: Instant,
    ) -> Self {
        Search {
            state,
            player,
            own: card_order(state, player),
            enemy: card_order(state, player.other()),
            limits,
            start,
            simulations: 0,
            before: material(state, player),
            threat: Vec::new(),
        }
    }

    pub(super) fn exhausted(&self) -> bool {
        let late = || {
            self.limits
                .max_time
                .is_some_and(|t| self.start.elapsed() >= t)
        };
        self.simulations >= self.limits.max_nodes
            || (self.simulations.is_multiple_of(64) && (self.limits.stop_requested() || late()))
    }

    pub(super) fn square_index(&self, cell: Cell) -> usize {
        usize::from(cell.row) * usize::from(self.state.board.cols) + usize::from(cell.col)
    }

    /// Successive halving over `candidates` against `samples`: every
    /// round doubles the samples of the candidates left and keeps the
    /// better half, until one is left, all samples are used, the rounds
    /// run out or the budget does.
    pub(super) fn halve(&mut self, candidates: &[Vec<Order>], samples: &[Vec<Order>]) -> Halving {
        let mut alive: Vec<Tally> = (0..candidates.len()).map(Tally::new).collect();
        let mut dropped: Vec<Vec<Tally>> = Vec::new();
        let mut used = 0;
        let mut rounds = 0;
        let all = samples.len().max(1);
        'rounds: while rounds < self.limits.max_depth.max(1) {
            let target = if used == 0 {
                FIRST_SAMPLES.min(all)
            } else {
                (used * 2).min(all)
            };
            for tally in alive.iter_mut() {
                let Some(candidate) = candidates.get(tally.candidate) else {
                    continue;
                };
                for sample in samples.get(used..target).unwrap_or_default() {
                    if self.exhausted() {
                        break 'rounds;
                    }
                    tally.add(self.simulate(candidate, sample));
                }
            }
            used = target;
            rounds += 1;
            alive.sort_by(|a, b| {
                b.mean()
                    .total_cmp(&a.mean())
                    .then(a.candidate.cmp(&b.candidate))
            });
            if used >= all || alive.len() == 1 {
                break;
            }
            dropped.push(alive.split_off(alive.len().div_ceil(2)));
        }
        // Every candidate still alive has at least the previous round's
        // samples; the best mean among them wins, the earlier candidate on
        // ties.
        alive.sort_by(|a, b| {
            (b.count > 0)
                .cmp(&(a.count > 0))
                .then(b.mean().total_cmp(&a.mean()))
                .then(a.candidate.cmp(&b.candidate))
        });
        Halving {
            alive,
            dropped,
            used,
            rounds,
        }
    }

    /// Whether `fixed` (an order a vehicle of ours, `None`: free) wins
    /// the game this round whatever the free vehicles and the enemy order:
    /// against each distinct joint order of theirs ([`options`]), with the
    /// gunfire on the board; `None` where there are more than `most`.
    pub(super) fn wins_whatever(&mut self, fixed: &[Option<Order>], most: usize) -> Option<bool> {
        if fixed.len() != self.own.len() {
            return None;
        }
        let own: Vec<Vec<Order>> = self
            .own
            .iter()
            .zip(fixed)
            .map(|(v, order)| order.map_or_else(|| options(self.state, v), |o| vec![o]))
            .collect();
        let enemy: Vec<Vec<Order>> = self.enemy.iter().map(|v| options(self.state, v)).collect();
        let count = own
            .iter()
            .chain(&enemy)
            .try_fold(1usize, |n, c| n.checked_mul(c.len()))?;
        if count > most {
            return None;
        }
        let (own, enemy) = (product(&own), product(&enemy));
        Some(own.iter().all(|own| {
            enemy.iter().all(|enemy| {
                let next = self.play(own, enemy, true);
                outcome(&next) == Some(Some(self.player))
            })
        }))
    }

    /// The state after the movement (and, with `fire`, the gunfire) of a
    /// round with these orders.
    pub(super) fn play(&mut self, own: &[Order], enemy: &[Order], fire: bool) -> State {
        self.simulations += 1;
        let mut next = self.state.clone();
        let order_of = |id: &str| {
            let find = |vehicles: &[&Vehicle], orders: &[Order]| {
                vehicles
                    .iter()
                    .position(|v| v.id == id)
                    .and_then(|i| orders.get(i).copied())
            };
            find(&self.own, own).or_else(|| find(&self.enemy, enemy))
        };
        let mut events = Vec::new();
        movement(&mut next, order_of, &mut events);
        if fire {
            gunfire(&mut next, &mut events);
        }
        next
    }

    /// The change of the material balance in a round. The supply drop is
    /// left out: it only places a token for a later round. When the
    /// enemy's gunfire is expected, each own vehicle pays its square's
    /// chance of being fired at times what a hit costs (an armor point; a
    /// vehicle, and the game with the last one, at 1 armor).
    pub(super) fn simulate(&mut self, own: &[Order], enemy: &[Order]) -> f64 {
        let next = self.play(own, enemy, true);
        self.value_after(&next)
    }

    /// [`Search::simulate`], and the game's result after the round (a
    /// review's chance to win counts a round won outright as certain).
    pub(super) fn simulate_to_end(
        &mut self,
        own: &[Order],
        enemy: &[Order],
    ) -> (f64, Option<Option<Player>>) {
        let next = self.play(own, enemy, true);
        (self.value_after(&next), outcome(&next))
    }

    /// What [`Search::simulate`] says of the state after a round.
    fn value_after(&self, next: &State) -> f64 {
        let mut value = material(next, self.player) - self.before;
        if !self.threat.is_empty() {
            let mine: Vec<&Vehicle> = next
                .vehicles
                .iter()
                .filter(|v| v.owner == self.player)
                .collect();
            for v in &mine {
                let chance = self
                    .threat
                    .get(self.square_index(v.square))
                    .copied()
                    .unwrap_or(0.0);
                let cost = match (v.armor, mine.len()) {
                    (0..=1, 1) => 1.0 + VEHICLE_POINTS + WIN_POINTS,
                    (0..=1, _) => 1.0 + VEHICLE_POINTS,
                    _ => 1.0,
                };
                value -= chance * cost;
            }
        }
        value
    }
}

pub(super) fn cell_at(cols: u8, index: usize) -> Cell {
    let cols = usize::from(cols.max(1));
    Cell {
        col: (index % cols) as u8,
        row: (index / cols) as u8,
    }
}

/// The player's vehicles in card order.
pub(super) fn card_order(state: &State, player: Player) -> Vec<&Vehicle> {
    let mut vehicles: Vec<&Vehicle> = state
        .vehicles
        .iter()
        .filter(|v| v.owner == player)
        .collect();
    vehicles.sort_by_key(|v| v.slot);
    vehicles
}

/// The distinct choices of a vehicle: every order whose destination is on
/// the board, and one order that leaves the board (a certain cancellation:
/// staying put) when there is one.
pub(super) fn options(state: &State, vehicle: &Vehicle) -> Vec<Order> {
    let mut options: Vec<Order> = Order::ALL
        .into_iter()
        .filter(|o| o.destination(state.board, vehicle.square).is_some())
        .collect();
    if let Some(hold) = Order::ALL
        .into_iter()
        .find(|o| o.destination(state.board, vehicle.square).is_none())
    {
        options.push(hold);
    }
    options
}

/// Every combination of one option per vehicle, the first vehicle's
/// option varying slowest.
pub(super) fn product(options: &[Vec<Order>]) -> Vec<Vec<Order>> {
    options.iter().fold(vec![Vec::new()], |acc, choices| {
        acc.iter()
            .flat_map(|prefix| {
                choices.iter().map(move |o| {
                    let mut next = prefix.clone();
                    next.push(*o);
                    next
                })
            })
            .collect()
    })
}
