//! The puzzle script's Tank Wars: its games between levels, and the check
//! of a puzzle's orders by a deeper search.

use std::collections::BTreeMap;

use tank_rules_engines::games::cobi_tank_wars::ai::{self, deviations};
use tank_rules_engines::games::cobi_tank_wars::{
    only_orders, CobiTankWars, Order, OrderData, Player, Round, State, CHANCE_PER_POINT,
};
use tank_rules_engines::games::level::{Level, Style};
use tank_rules_engines::games::review::logistic_chance;
use tank_rules_engines::games::review::puzzle::Puzzle;
use tank_rules_engines::games::{Game, SearchLimits};

use super::{limits, Measured, PAIRS};

/// The gunfire squares each player asks for a round: `GUNFIRE_TOKENS`
/// in the environment, 0 (as `review-check.py` plays) when absent.
fn gunfire_tokens() -> usize {
    std::env::var("GUNFIRE_TOKENS")
        .ok()
        .and_then(|t| t.parse().ok())
        .unwrap_or(0)
}

impl Measured for CobiTankWars {
    /// `review-check.py`'s 30 rounds.
    const MAX_PLIES: usize = 30;

    /// Each player's orders at its level with seed `(700 + n) * 1000 +
    /// round`, with `GUNFIRE_TOKENS` gunfire squares asked (placed before
    /// the round's orders); that seed the round's too.
    fn game(n: usize, max_rounds: usize) -> Vec<(State, Round)> {
        let (first, second) = PAIRS[n % PAIRS.len()];
        let mut state = State::initial();
        let mut rounds = Vec::new();
        let tokens = gunfire_tokens();
        for round in 0..max_rounds {
            let seed = (700 + n as u64) * 1000 + round as u64;
            let mut orders: [BTreeMap<String, OrderData>; 2] = Default::default();
            let mut gunfire = Vec::new();
            for (player, level) in Player::ALL.into_iter().zip([first, second]) {
                let Some(level) = Level::new(level) else {
                    return rounds;
                };
                let open = SearchLimits {
                    max_nodes: u64::MAX,
                    max_depth: u32::MAX,
                    ..SearchLimits::default()
                };
                let style = Style::at(level);
                let Some(found) = ai::suggest_with(&state, player, tokens, open, seed, style)
                else {
                    return rounds;
                };
                gunfire.extend(found.gunfire.iter().map(|g| g.square.to_string()));
                orders[player.index()] = found
                    .orders
                    .iter()
                    .map(|(id, o)| (id.clone(), data(*o)))
                    .collect();
            }
            if state.place_gunfire(&gunfire).is_err() {
                break;
            }
            let step = Round { orders, seed };
            let before = state.clone();
            if CobiTankWars::play(&mut state, step.clone()).is_err() {
                break;
            }
            rounds.push((before, step));
            if CobiTankWars::outcome(&state).is_some() {
                break;
            }
        }
        rounds
    }

    /// The deeper search's choice has the same key orders, each again
    /// the only one ([`only_orders`]).
    fn agrees(state: &State, puzzle: &Puzzle<Vec<(String, Order)>>, nodes: u64) -> bool {
        let Some(&player) = Player::ALL.get(puzzle.player) else {
            return false;
        };
        let chance = |points: f64| logistic_chance(points, CHANCE_PER_POINT);
        let Some((_, measured)) = deviations(state, player, limits(nodes), 0, &chance) else {
            return false;
        };
        let Some((keys, _)) = only_orders(&measured) else {
            return false;
        };
        puzzle.solution.first() == Some(&keys)
    }

    /// Every player's every round: the widest lead of the choice over the
    /// same orders but one vehicle's changed (that vehicle's best other).
    fn widest_lead(plies: &[(State, Round)], nodes: u64) -> Option<f64> {
        let chance = |points: f64| logistic_chance(points, CHANCE_PER_POINT);
        let mut widest: Option<f64> = None;
        for (state, _) in plies {
            for player in Player::ALL {
                let Some((_, measured)) = deviations(state, player, limits(nodes), 0, &chance)
                else {
                    continue;
                };
                for other in measured.others.iter().flatten() {
                    let lead = measured.chance - other;
                    widest = Some(widest.map_or(lead, |w| w.max(lead)));
                }
            }
        }
        widest
    }

    fn describe(_: &State, p: &Puzzle<Vec<(String, Order)>>) -> String {
        let orders = |orders: &[(String, Order)]| {
            let each: Vec<String> = orders
                .iter()
                .map(|(id, o)| format!("{id} {}{}", o.dir.name(), o.dist))
                .collect();
            each.join(", ")
        };
        let solution = p.solution.first().map(|o| orders(o)).unwrap_or_default();
        format!("[{solution}] played [{}]", orders(&p.source.played))
    }
}

fn data(order: Order) -> OrderData {
    OrderData {
        dir: order.dir.name().into(),
        dist: i64::from(order.dist),
    }
}
