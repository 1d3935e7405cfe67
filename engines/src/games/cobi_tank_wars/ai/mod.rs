//! The AI: orders chosen by simulating the round against sampled enemy
//! orders, and gunfire aimed where the enemy is most likely to stop.
//!
//! Orders are hidden and revealed together, so the AI cannot search a game
//! tree. It samples the enemy's orders from a model of the enemy, plays
//! every joint order of its own vehicles against those samples with the
//! rules' own movement and gunfire, and keeps the order with the best mean
//! result. Successive halving spends the simulations on the promising
//! orders: each round doubles the samples and keeps the better half of the
//! candidates.
//!
//! The model starts from a sensible player (one who takes support, avoids
//! known artillery and gunfire, and does not drive into occupied squares).
//! At full strength it is one step deeper: the enemy's own joint orders
//! are measured the same way against sensible samples of ours, and most
//! enemy samples are drawn from its good answers; and the enemy's gunfire
//! is expected where a sensible aimer would put it, at the squares where
//! our vehicles would most often stop if we were the sensible player, so
//! stopping there costs what a hit costs times its chance. The levels
//! below leave these out, or locate them with fewer samples.
//!
//! The folder holds one concern a file: [`levels`] (what each level
//! simulates), `search` (the successive halving and the simulated round),
//! `enemy` (the sensible player, the modelled enemy and its expected
//! gunfire) and `aiming` (where to put our gunfire).

mod aiming;
mod enemy;
pub mod levels;
mod material;
mod search;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::rules::{outcome, Order};
use super::state::{Player, State};
use crate::games::grid::Cell;
use crate::games::level::{choose_by_temperature, level_rng, Style};
pub use crate::games::SearchLimits;
use levels::FIRST_SAMPLES;
pub use levels::{recipe, Recipe, FULL, MAX_SAMPLES, RECIPES};
pub use material::{material, WIN_POINTS};
use search::{options, product, Search};

/// Bumped whenever the AI's answers change, so cached answers expire.
pub const ENGINE_VERSION: u32 = 3;

/// The gunfire squares the AI is asked for when a question names none.
pub const DEFAULT_GUNFIRE_TOKENS: usize = 1;

/// The most gunfire squares the AI suggests.
pub const MAX_GUNFIRE_TOKENS: usize = 8;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GunfireTarget {
    pub square: Cell,
    /// Share of the samples in which an enemy vehicle stopped there.
    pub probability: f64,
}

/// Joint orders as an analysis reports them.
#[derive(Clone, Debug, PartialEq)]
pub struct OrdersLine {
    /// One order per vehicle of the player, in card order.
    pub orders: Vec<(String, Order)>,
    /// Mean change of the material balance over its samples, less the
    /// expected cost of the enemy's gunfire when the AI dodges it.
    pub value: f64,
    /// Enemy samples it was measured against.
    pub samples: usize,
}

/// The AI's answer for one player.
#[derive(Clone, Debug, PartialEq)]
pub struct Suggestion {
    /// One order per vehicle of the player, in card order.
    pub orders: Vec<(String, Order)>,
    /// The best joint orders, best first, as many as asked: the finalists
    /// of the successive halving by mean, then the candidates dropped in
    /// later rounds before those dropped earlier.
    pub lines: Vec<OrdersLine>,
    /// Up to the asked number of gunfire squares, most promising first.
    pub gunfire: Vec<GunfireTarget>,
    /// Mean change of the material balance over the samples, for the
    /// player: armor plus 3 a vehicle, 2 a support card, 100 a won game;
    /// less the expected cost of the enemy's gunfire when the AI dodges it.
    pub value: f64,
    /// Joint orders considered.
    pub candidates: usize,
    /// Enemy samples the chosen orders were measured against.
    pub samples: usize,
    /// Halving rounds finished.
    pub rounds: u32,
    /// Rounds simulated.
    pub simulations: u64,
    pub elapsed: Duration,
}

/// Suggests orders and gunfire squares for `player` at full strength;
/// `None` when the game is over. With a round or simulation limit and no
/// time limit the answer depends only on the arguments.
pub fn suggest(
    state: &State,
    player: Player,
    gunfire_tokens: usize,
    limits: SearchLimits,
    seed: u64,
) -> Option<Suggestion> {
    suggest_with(state, player, gunfire_tokens, limits, seed, Style::FULL)
}

/// Suggests orders as `style` asks: at a level, its recipe's budgets
/// within `limits` and its choice among the measured candidates, drawn
/// with `seed`; `style.lines` best joint orders reported.
pub fn suggest_with(
    state: &State,
    player: Player,
    gunfire_tokens: usize,
    limits: SearchLimits,
    seed: u64,
    style: Style,
) -> Option<Suggestion> {
    suggest_measuring(state, player, gunfire_tokens, limits, seed, style, None).map(|(s, _)| s)
}

/// A review's judgement of one player's orders for a round.
#[derive(Clone, Debug, PartialEq)]
pub struct Judgement {
    /// The AI's orders (no gunfire), measured against the enemy samples.
    pub suggestion: Suggestion,
    /// The mean value of the orders played against the samples the
    /// suggestion's orders were measured against (the suggestion's value
    /// when they are its orders).
    pub value_played: f64,
    /// The chance to win (0-100) of the suggestion's orders and of the
    /// orders played: the mean over those samples of each round's chance
    /// — 100 for a round that wins the game, 0 for one that loses it, 50
    /// for a draw, else the material chance of the balance after it. A
    /// win against every sample is certain, however far ahead in material
    /// the player already is.
    pub chance: f64,
    pub chance_played: f64,
}

/// Judges the orders `played` (by vehicle id) by `player` for a review,
/// `material_chance` giving the chance to win (0-100) of a material
/// balance. `None` when the game is over.
pub fn judge(
    state: &State,
    player: Player,
    played: &BTreeMap<String, Order>,
    limits: SearchLimits,
    seed: u64,
    style: Style,
    material_chance: &dyn Fn(f64) -> f64,
) -> Option<Judgement> {
    let judging = Judging {
        asking: Asking::Played(played),
        material_chance,
    };
    let (suggestion, judged) =
        suggest_measuring(state, player, 0, limits, seed, style, Some(judging))?;
    let Some(Measured::Played {
        value_played,
        chance,
        chance_played,
    }) = judged
    else {
        return None;
    };
    Some(Judgement {
        suggestion,
        value_played,
        chance,
        chance_played,
    })
}

/// The search's choice and what each of its orders is worth: its chance
/// to win with the choice, and with the choice but one vehicle's order
/// changed, measured against the samples the choice was measured against
/// (as [`judge`] measures the orders played).
#[derive(Clone, Debug, PartialEq)]
pub struct Deviations {
    /// The choice, one order a vehicle in card order.
    pub orders: Vec<(String, Order)>,
    pub chance: f64,
    /// By vehicle in card order: the best chance of the choice with that
    /// vehicle's order changed (its every other distinct choice), `None`
    /// where it has no other.
    pub others: Vec<Option<f64>>,
}

/// The search's choice for `player` and each of its orders' worth
/// ([`Deviations`]): what a puzzle's only orders are told from. `None`
/// when the game is over.
pub fn deviations(
    state: &State,
    player: Player,
    limits: SearchLimits,
    seed: u64,
    material_chance: &dyn Fn(f64) -> f64,
) -> Option<(Suggestion, Deviations)> {
    let judging = Judging {
        asking: Asking::Deviations,
        material_chance,
    };
    let (suggestion, judged) =
        suggest_measuring(state, player, 0, limits, seed, Style::FULL, Some(judging))?;
    match judged {
        Some(Measured::Deviations { chance, others }) => {
            let orders = suggestion.orders.clone();
            Some((
                suggestion,
                Deviations {
                    orders,
                    chance,
                    others,
                },
            ))
        }
        _ => None,
    }
}

/// Whether `fixed` (one a vehicle of `player`, in card order: an order,
/// or `None` for a vehicle free to take any) wins the game this round
/// whatever the free vehicles and the enemy order; `None` where that is
/// more than `most` joint orders.
pub fn wins_whatever(
    state: &State,
    player: Player,
    fixed: &[Option<Order>],
    most: usize,
) -> Option<bool> {
    let mut search = Search::new(state, player, SearchLimits::default(), Instant::now());
    search.wins_whatever(fixed, most)
}

/// What a review's judge asks of a search besides its suggestion.
struct Judging<'a> {
    asking: Asking<'a>,
    material_chance: &'a dyn Fn(f64) -> f64,
}

/// What orders a judging search measures for their chance.
enum Asking<'a> {
    /// The orders played, beside the search's choice.
    Played(&'a BTreeMap<String, Order>),
    /// The search's choice with each vehicle's order changed in turn.
    Deviations,
}

/// A [`Judgement`]'s numbers, or [`Deviations`]' chances.
enum Measured {
    Played {
        value_played: f64,
        chance: f64,
        chance_played: f64,
    },
    Deviations {
        chance: f64,
        others: Vec<Option<f64>>,
    },
}

fn suggest_measuring(
    state: &State,
    player: Player,
    gunfire_tokens: usize,
    limits: SearchLimits,
    seed: u64,
    style: Style,
    judging: Option<Judging>,
) -> Option<(Suggestion, Option<Measured>)> {
    if outcome(state).is_some() {
        return None;
    }
    let recipe = style.level.map_or(FULL, recipe);
    let limits = limits.within(recipe.rounds, recipe.simulations);
    let max_samples = recipe.samples.clamp(FIRST_SAMPLES, MAX_SAMPLES);
    let start = Instant::now();
    // Aiming the gunfire replays the chosen orders against up to
    // `max_samples` samples; those simulations are set aside first.
    let gunfire_tokens = gunfire_tokens.min(MAX_GUNFIRE_TOKENS);
    let aim_reserve = if gunfire_tokens == 0 {
        0
    } else {
        (limits.max_nodes / 4).min(max_samples as u64)
    };
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut search = Search::new(
        state,
        player,
        SearchLimits {
            max_nodes: limits.max_nodes - aim_reserve,
            ..limits
        },
        start,
    );
    if recipe.dodge > 0 {
        search.threat = search.threat(recipe.dodge, &mut rng);
    }
    let options: Vec<Vec<Order>> = search.own.iter().map(|v| options(state, v)).collect();
    let candidates = product(&options);
    let samples = if recipe.model > 0.0 {
        search.modelled_enemy(max_samples, recipe.model, recipe.dodge, &mut rng)
    } else {
        search.sensible_samples(&search.enemy, max_samples, &mut rng)
    };
    let halving = search.halve(&candidates, &samples);
    let ranking = halving.ranking();
    let mut best = ranking.first().copied().or_else(|| halving.alive.first())?;
    if recipe.temperature > 0.0 {
        let means: Vec<f64> = ranking.iter().map(|t| t.mean()).collect();
        if let Some(chosen) =
            choose_by_temperature(&means, recipe.temperature, &mut level_rng(seed))
                .and_then(|i| ranking.get(i))
        {
            best = chosen;
        }
    }
    let chosen = candidates.get(best.candidate)?;
    let aim_count = halving
        .used
        .max(FIRST_SAMPLES)
        .min(usize::try_from(aim_reserve).unwrap_or(0));
    let aim_samples = samples.get(..aim_count).unwrap_or_default();
    let gunfire = search.aim(chosen, aim_samples, gunfire_tokens);
    // The value played and both chances (see [`Judgement`]), or the
    // chances of the choice and of its deviations ([`Deviations`]).
    let judged = judging.map(|judging| {
        // The orders played, by vehicle in card order (`None`: some
        // vehicle has none), or each vehicle's other choices.
        enum Asked<'o> {
            Played(Option<Vec<Order>>),
            Deviations(&'o [Vec<Order>]),
        }
        let asked = match judging.asking {
            Asking::Played(played) => Asked::Played(
                search
                    .own
                    .iter()
                    .map(|v| played.get(&v.id).copied())
                    .collect(),
            ),
            Asking::Deviations => Asked::Deviations(&options),
        };
        let measured = samples.get(..best.count.max(1)).unwrap_or_default();
        let before = search.before;
        let mut measure = |orders: &[Order]| {
            let (mut value, mut chance) = (0.0, 0.0);
            for sample in measured {
                let (change, end) = search.simulate_to_end(orders, sample);
                value += change;
                chance += match end {
                    Some(Some(winner)) if winner == player => 100.0,
                    Some(Some(_)) => 0.0,
                    Some(None) => 50.0,
                    None => (judging.material_chance)(before + change),
                };
            }
            let n = measured.len().max(1) as f64;
            (value / n, chance / n)
        };
        match asked {
            Asked::Played(own) => {
                let (_, chance) = measure(chosen);
                match own {
                    Some(own) if own != *chosen => {
                        let (value_played, chance_played) = measure(&own);
                        Measured::Played {
                            value_played,
                            chance,
                            chance_played,
                        }
                    }
                    _ => Measured::Played {
                        value_played: best.mean(),
                        chance,
                        chance_played: chance,
                    },
                }
            }
            Asked::Deviations(choices) => {
                let (_, chance) = measure(chosen);
                let mut others = Vec::with_capacity(choices.len());
                for (i, options) in choices.iter().enumerate() {
                    let mut best: Option<f64> = None;
                    for &order in options {
                        if chosen.get(i) == Some(&order) {
                            continue;
                        }
                        let mut changed = chosen.clone();
                        if let Some(slot) = changed.get_mut(i) {
                            *slot = order;
                        }
                        let (_, other) = measure(&changed);
                        best = Some(best.map_or(other, |b| b.max(other)));
                    }
                    others.push(best);
                }
                Measured::Deviations { chance, others }
            }
        }
    });
    let name = |orders: &[Order]| -> Vec<(String, Order)> {
        search
            .own
            .iter()
            .zip(orders)
            .map(|(v, o)| (v.id.clone(), *o))
            .collect()
    };
    let lines = ranking
        .iter()
        .take(style.lines.max(1))
        .filter_map(|t| {
            Some(OrdersLine {
                orders: name(candidates.get(t.candidate)?),
                value: t.mean(),
                samples: t.count,
            })
        })
        .collect();
    let suggestion = Suggestion {
        orders: name(chosen),
        lines,
        gunfire,
        value: best.mean(),
        candidates: candidates.len(),
        samples: best.count,
        rounds: halving.rounds,
        simulations: search.simulations,
        elapsed: start.elapsed(),
    };
    Some((suggestion, judged))
}
