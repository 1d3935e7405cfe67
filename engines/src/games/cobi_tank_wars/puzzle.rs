//! Tank Wars' puzzles ([`Puzzles`]): in a round the review found something
//! in, a player's joint orders that alone keep the advantage. Orders are
//! hidden and revealed together, so no reply is forced: a solution is one
//! round's orders. The search's best joint orders by mean, at five times
//! the judge's budget, are measured for their chance to win against the
//! same enemy samples; the first is the puzzle's when it beats every
//! other by the margin, or alone wins while none wins anyway.

use super::ai::{self, Chance};
use super::game::CHANCE_PER_POINT;
use super::{check_round, CobiTankWars, Order, Player, State};
use crate::games::level::{Level, Style};
use crate::games::review::puzzle::{
    digest, rating_of_level, Asked, Puzzle, Puzzles, Source, Theme, DEFENDED, LOST, MARGIN,
    UNSOLVED_RATING, WINS_ANYWAY,
};
use crate::games::review::{logistic_chance, Forced, Spent};
use crate::games::{Game, SearchLimits};

/// The version of the rules a puzzle's id is of: bumped whenever a rule
/// changes what a position means.
pub const RULES_VERSION: u32 = 1;

/// How many of the search's best joint orders (by mean) are measured for
/// their chance: its choice and seven rivals. Orders further down the
/// halving's ranking lost on their mean already.
pub const RIVALS: usize = 8;

/// The most enemy joint orders a win whatever they are is checked
/// against (three vehicles have at most 13^3 = 2,197).
const MOST_ENEMY_ORDERS: usize = 4096;

/// One player's orders, by vehicle in card order.
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
    let (suggestion, rivals) = ai::rivals(state, player, RIVALS, limits, 0, &material_chance)?;
    spent.add(suggestion.simulations);
    let (best, others) = rivals.split_first()?;
    let second = others.iter().map(|r| r.chance).reduce(f64::max)?;
    if !only(best, second) || limits.stop_requested() {
        return None;
    }
    let orders: Vec<Order> = best.orders.iter().map(|(_, o)| *o).collect();
    let wins = ai::wins_whatever(state, player, &orders, MOST_ENEMY_ORDERS) == Some(true);
    Some(Puzzle {
        id: puzzle_id(state, player),
        ply: asked.ply,
        player: player.index(),
        themes: themes(state, best, second, wins),
        forced: wins.then_some(Forced {
            win: true,
            plies: Some(1),
        }),
        chance: best.chance,
        second_chance: second,
        rating: rating(state, player, &best.orders, asked.limits, spent),
        source: Source { played, label },
        solution: vec![best.orders.clone()],
    })
    .filter(|_| !limits.stop_requested())
}

/// Whether `best` alone keeps the advantage: its chance beats the best
/// of the rivals' (`second`) by [`MARGIN`], or it wins against every
/// sample and no rival wins anyway ([`WINS_ANYWAY`]).
fn only(best: &Chance, second: f64) -> bool {
    if best.chance >= 100.0 {
        return second < WINS_ANYWAY;
    }
    best.chance - second >= MARGIN
}

/// The themes of `best` played at `state` (`wins`: whatever the enemy
/// orders).
fn themes(state: &State, best: &Chance, second: f64, wins: bool) -> Vec<Theme> {
    let mut found = Vec::new();
    for (id, order) in &best.orders {
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
    if best.chance < DEFENDED && second <= LOST {
        found.push(Theme::Defence);
    }
    found.sort();
    found.dedup();
    found
}

/// The lowest level whose orders at `state` for `player` (its own
/// budgets, seed 0, as `ai-move` gives them with neither limits nor
/// gunfire tokens asked) are `orders`, as a rating.
fn rating(
    state: &State,
    player: Player,
    orders: &Orders,
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
        if found.orders == *orders {
            return rating_of_level(level.get());
        }
    }
    UNSOLVED_RATING
}

#[cfg(test)]
mod tests;
