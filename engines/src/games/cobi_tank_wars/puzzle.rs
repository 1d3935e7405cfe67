//! Tank Wars' puzzles ([`Puzzles`]): in a round the review found something
//! in, the orders of a player's vehicles that alone keep its advantage.
//! Orders are hidden and revealed together, so no reply is forced: a
//! solution is one round's orders. The search's choice, at five times the
//! judge's budget, is measured for its chance to win against the choice
//! with one vehicle's order changed, on the same samples of the enemy's
//! orders ([`ai::Deviations`]); a vehicle whose every other order loses
//! the margin is a key, and the keys' orders are the solution (the other
//! vehicles' orders are free).

use super::ai::{self, Deviations};
use super::game::CHANCE_PER_POINT;
use super::{check_round, CobiTankWars, Order, Player, State};
use crate::games::level::{Level, Style};
use crate::games::review::puzzle::{
    digest, rating_of_level, Asked, Puzzle, Puzzles, Source, Theme, DEFENDED, LOST, MARGIN,
    REPLY_EPSILON, UNSOLVED_RATING, WINS_ANYWAY,
};
use crate::games::review::{logistic_chance, Forced, Spent};
use crate::games::{Game, SearchLimits};

/// The version of the rules a puzzle's id is of: bumped whenever a rule
/// changes what a position means.
pub const RULES_VERSION: u32 = 1;

/// The most joint orders (the free vehicles' and the enemy's) a win
/// whatever they are is checked against.
const MOST_JOINT_ORDERS: usize = 4096;

/// One player's orders, one a vehicle.
type Orders = Vec<(String, Order)>;

/// The puzzle's id: its game, rules version, state and solver.
pub fn puzzle_id(state: &State, player: Player) -> String {
    let text = serde_json::to_string(&state.to_data()).unwrap_or_default();
    digest(&format!(
        "{}|rules {RULES_VERSION}|{text}|{}",
        CobiTankWars::ID,
        player.name()
    ))
}

impl Puzzles for CobiTankWars {
    fn puzzles(state: &State, asked: &Asked<'_, Self>, spent: &mut Spent) -> Vec<Puzzle<Orders>> {
        let Ok(checked) = check_round(state, asked.step) else {
            return Vec::new();
        };
        Player::ALL
            .into_iter()
            .filter_map(|player| {
                let played = state
                    .vehicles
                    .iter()
                    .filter(|v| v.owner == player)
                    .filter_map(|v| Some((v.id.clone(), *checked.get(&v.id)?)))
                    .collect();
                puzzle(state, player, played, asked, spent)
            })
            .collect()
    }
}

/// `player`'s puzzle at `state`, if one starts there (`played`: the
/// orders the player gave).
fn puzzle(
    state: &State,
    player: Player,
    played: Orders,
    asked: &Asked<'_, CobiTankWars>,
    spent: &mut Spent,
) -> Option<Puzzle<Orders>> {
    let label = asked.label(player.index())?;
    if !asked.worth_a_look(player.index()) {
        return None;
    }
    let limits = asked.verifying();
    let material_chance = |points: f64| logistic_chance(points, CHANCE_PER_POINT);
    let (suggestion, deviations) = ai::deviations(state, player, limits, 0, &material_chance)?;
    spent.add(suggestion.simulations);
    let (keys, second) = only_orders(&deviations)?;
    if limits.stop_requested() {
        return None;
    }
    let fixed: Vec<Option<Order>> = deviations
        .orders
        .iter()
        .map(|(id, order)| keys.iter().any(|(key, _)| key == id).then_some(*order))
        .collect();
    let wins = ai::wins_whatever(state, player, &fixed, MOST_JOINT_ORDERS) == Some(true);
    Some(Puzzle {
        id: puzzle_id(state, player),
        ply: asked.ply,
        player: player.index(),
        themes: themes(state, &keys, (deviations.chance, second), wins),
        forced: wins.then_some(Forced {
            win: true,
            plies: Some(1),
        }),
        chance: deviations.chance,
        second_chance: second,
        rating: rating(state, player, &keys, asked.limits, spent),
        source: Source { played, label },
        solution: vec![keys],
    })
    .filter(|_| !limits.stop_requested())
}

/// The orders of the search's choice that alone keep the advantage, and
/// the best chance with one of them changed; `None` where none does. A
/// vehicle's order is a key when every other order of it loses
/// [`MARGIN`] of the chance, or the choice wins against every sample and
/// no other order of it wins anyway ([`WINS_ANYWAY`]). No key is read
/// from a choice that changing another vehicle's order betters by more
/// than [`REPLY_EPSILON`]: the search did not settle it.
pub fn only_orders(deviations: &Deviations) -> Option<(Orders, f64)> {
    let chance = deviations.chance;
    let settled = deviations
        .others
        .iter()
        .flatten()
        .all(|&other| other <= chance + REPLY_EPSILON);
    let only = |other: f64| {
        if chance >= 100.0 {
            other < WINS_ANYWAY
        } else {
            chance - other >= MARGIN
        }
    };
    let mut keys = Vec::new();
    let mut second: Option<f64> = None;
    for (order, other) in deviations.orders.iter().zip(&deviations.others) {
        if let Some(other) = other.filter(|&o| only(o)) {
            keys.push(order.clone());
            second = Some(second.map_or(other, |s| s.max(other)));
        }
    }
    Some((keys, second?)).filter(|_| settled)
}

/// The themes of the key orders `keys` at `state`, with their chance and
/// the second's (`wins`: whatever the free vehicles and the enemy order).
fn themes(state: &State, keys: &Orders, (chance, second): (f64, f64), wins: bool) -> Vec<Theme> {
    let mut found = Vec::new();
    for (id, order) in keys {
        let Some(vehicle) = state.vehicles.iter().find(|v| &v.id == id) else {
            continue;
        };
        let to = order.destination(state.board, vehicle.square);
        if to.is_some_and(|to| state.support.contains(&to)) {
            found.push(Theme::Support);
        }
        let under_fire = |cell| state.gunfire.contains(&cell);
        if under_fire(vehicle.square) && to.is_some_and(|to| !under_fire(to)) {
            found.push(Theme::Escape);
        }
    }
    if wins {
        found.push(Theme::ForcedWin);
    }
    if chance < DEFENDED && second <= LOST {
        found.push(Theme::Defence);
    }
    found.sort();
    found.dedup();
    found
}

/// The lowest level whose orders at `state` for `player` (its own
/// budgets, seed 0, as `ai-move` gives them with neither limits nor
/// gunfire tokens asked) give the key vehicles `keys`' orders, as a
/// rating.
fn rating(
    state: &State,
    player: Player,
    keys: &Orders,
    limits: SearchLimits<'_>,
    spent: &mut Spent,
) -> u32 {
    let open = SearchLimits {
        max_depth: u32::MAX,
        max_nodes: u64::MAX,
        ..limits
    };
    for level in Level::all() {
        let Some(found) = ai::suggest_with(
            state,
            player,
            ai::DEFAULT_GUNFIRE_TOKENS,
            open,
            0,
            Style::at(level),
        ) else {
            break;
        };
        spent.add(found.simulations);
        if keys.iter().all(|key| found.orders.contains(key)) {
            return rating_of_level(level.get());
        }
    }
    UNSOLVED_RATING
}

#[cfg(test)]
mod tests;
