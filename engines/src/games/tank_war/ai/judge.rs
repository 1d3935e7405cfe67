//! A round of a review judged: the root's matrix game over both players'
//! picks (exact wherever the game from here is solved), each player's pick
//! measured against the opponent's equilibrium strategy.

use std::time::Instant;

use super::found::Found;
use super::levels::recipe;
use super::root::{plays_exact, root_game};
use super::strategy::{full_strength, FullStrength};
use crate::games::review::{logistic_chance, Verdict};
use crate::games::tank_war::rules::pickable;
use crate::games::tank_war::state::{Player, Position, Setup};
use crate::games::{SearchLimits, Style};

/// Probabilities below this are no part of a strategy (the simplex's
/// rounding).
const SUPPORT: f64 = 1e-9;

/// The chance to win of a searched value (points: 100 a tank, 4 a square,
/// 10,000 a won game): a tank ahead is about 62%.
const PER_POINT: f64 = 0.005;

/// Both players' verdicts on the round where U picks `picked[0]` and D
/// `picked[1]` (tank ids, pickable in `pos`), U's first, and the positions
/// the judge visited for them. `None` when the game is over. Exact (the expected result: +1 a win, 0 a draw, −1 a
/// loss) wherever the game from `pos` is solved within `limits`; the
/// search's points otherwise.
pub fn judge_round(
    setup: &Setup,
    pos: &Position,
    picked: [usize; 2],
    limits: SearchLimits,
    style: Style,
) -> Option<([Verdict<usize>; 2], u64)> {
    let start = Instant::now();
    let limits = match style.level.map(recipe) {
        Some(recipe) => limits.within(recipe.depth, recipe.nodes),
        None => limits,
    };
    let picks = [
        pickable(setup, pos, Player::U),
        pickable(setup, pos, Player::D),
    ];
    if picks.iter().any(Vec::is_empty) {
        return None;
    }
    let style = if plays_exact(style) {
        Style::FULL
    } else {
        style
    };
    let found = root_game(setup, pos, &picks, limits, style, start);
    let verdicts =
        Player::ALL.map(|player| verdict(&picks, &found, player, picked[player.index()]));
    Some((verdicts, found.nodes))
}

/// `player`'s verdict on its pick `played` from the root's matrix game.
fn verdict(
    picks: &[Vec<usize>; 2],
    found: &Found,
    player: Player,
    played: usize,
) -> Verdict<usize> {
    let Found { matrix, exact, .. } = found;
    let [u, d] = picks;
    // The player's payoffs, its picks by rows: U's view for U, the
    // negated transpose for D.
    let payoff = |i: usize, j: usize| match player {
        Player::U => matrix.get(i * d.len() + j).copied().unwrap_or(0.0),
        Player::D => -matrix.get(j * d.len() + i).copied().unwrap_or(0.0),
    };
    // Both players' strategies as `ai-move` plays them at full strength:
    // one equilibrium for both endpoints.
    let FullStrength {
        probabilities: own_p,
        value,
        ..
    } = full_strength(found, picks, player);
    let other_p = full_strength(found, picks, player.other()).probabilities;
    let (own, other) = match player {
        Player::U => (u, d),
        Player::D => (d, u),
    };
    let (own_p, other_p) = (&own_p, &other_p);
    let i = own.iter().position(|&id| id == played).unwrap_or(0);
    let probability = |p: &Vec<f64>, j: usize| p.get(j).copied().unwrap_or(0.0);
    let value_played: f64 = (0..other.len())
        .map(|j| probability(other_p, j) * payoff(i, j))
        .sum();
    let worst_case = (0..other.len())
        .map(|j| payoff(i, j))
        .fold(f64::INFINITY, f64::min);
    let best = (0..own.len())
        .filter(|&k| probability(own_p, k) > SUPPORT)
        .filter_map(|k| own.get(k).copied())
        .collect();
    let against = (0..other.len())
        .filter(|&j| probability(other_p, j) > SUPPORT)
        .filter_map(|j| Some((*other.get(j)?, probability(other_p, j))))
        .collect();
    let chance = |v: f64| match exact {
        true => 50.0 * (1.0 + v),
        false => logistic_chance(v, PER_POINT),
    };
    // A pick of the equilibrium's support keeps the value exactly; what
    // the sum leaves beyond nine decimals is the simplex's rounding.
    let snap = |v: f64| (v * 1e9).round() / 1e9;
    let value_played = if *exact {
        snap(value_played)
    } else {
        value_played
    };
    let mut verdict = Verdict::new(
        player.index(),
        played,
        best,
        (value, value_played),
        (chance(value), chance(value_played)),
        *exact,
    );
    verdict.against = against;
    verdict.worst_case = Some(worst_case + 0.0);
    verdict
}

#[cfg(test)]
mod tests {
    use rand::seq::IndexedRandom;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::games::tank_war::rules::{outcome, play_round};
    use crate::games::tank_war::solve::{self, lp, Table};
    use crate::games::tank_war::state::{default_state, ILLUSTRATION};

    /// The judge's default limits: its budget in positions, no clock.
    fn judge_limits() -> SearchLimits<'static> {
        SearchLimits {
            max_time: None,
            max_depth: u32::MAX,
            max_nodes: solve::MAX_POSITIONS,
            stop: None,
        }
    }

    /// Checks both verdicts of the round `picked` in `pos` against the
    /// whole game's solver: the matrix of the children's values, its
    /// value, and what each player's pick earns against the strategy the
    /// verdict says it was measured against.
    fn check_round(setup: &Setup, pos: &Position, picked: [usize; 2], solver: &mut solve::Solver) {
        let Some((verdicts, _)) = judge_round(setup, pos, picked, judge_limits(), Style::FULL)
        else {
            panic!("the game goes on");
        };
        let picks = Player::ALL.map(|p| pickable(setup, pos, p));
        let value_of = |solver: &mut solve::Solver, u: usize, d: usize| {
            let mut child = pos.clone();
            play_round(setup, &mut child, [u, d], [0, 0]);
            let key = solver
                .game()
                .pack(&child)
                .unwrap_or_else(|| panic!("packs"));
            solver.value(key).unwrap_or_else(|e| panic!("{e}"))
        };
        let mut matrix = Vec::new();
        for &u in &picks[0] {
            for &d in &picks[1] {
                matrix.push(value_of(solver, u, d));
            }
        }
        let value_for_u = lp::value(&matrix, picks[0].len(), picks[1].len());
        for (verdict, player) in verdicts.iter().zip(Player::ALL) {
            let sign = if player == Player::U { 1.0 } else { -1.0 };
            let (own, other) = match player {
                Player::U => (&picks[0], &picks[1]),
                Player::D => (&picks[1], &picks[0]),
            };
            let payoff = |mine: usize, theirs: usize| {
                let (i, j) = match player {
                    Player::U => (mine, theirs),
                    Player::D => (theirs, mine),
                };
                let row = picks[0]
                    .iter()
                    .position(|&id| id == i)
                    .unwrap_or(usize::MAX);
                let col = picks[1]
                    .iter()
                    .position(|&id| id == j)
                    .unwrap_or(usize::MAX);
                sign * matrix
                    .get(row * picks[1].len() + col)
                    .copied()
                    .unwrap_or(f64::NAN)
            };
            assert!(verdict.exact);
            assert!(
                (verdict.value - sign * value_for_u).abs() < 1e-6,
                "{} vs {}",
                verdict.value,
                sign * value_for_u
            );
            let total: f64 = verdict.against.iter().map(|(_, p)| p).sum();
            assert!((total - 1.0).abs() < 1e-6, "{total}");
            let earned = |mine: usize| -> f64 {
                verdict
                    .against
                    .iter()
                    .map(|&(theirs, p)| p * payoff(mine, theirs))
                    .sum()
            };
            // `against` is an equilibrium strategy: no pick of the player
            // gains anything against it.
            for &mine in own {
                assert!(
                    earned(mine) <= verdict.value + 1e-6,
                    "{mine}: {} > {}",
                    earned(mine),
                    verdict.value
                );
            }
            for &theirs in verdict.against.iter().map(|(t, _)| t) {
                assert!(other.contains(&theirs));
            }
            let played = picked[player.index()];
            assert!((verdict.value_played - earned(played)).abs() < 1e-6);
            let worst = other
                .iter()
                .map(|&t| payoff(played, t))
                .fold(f64::INFINITY, f64::min);
            assert!((verdict.worst_case.unwrap_or(f64::NAN) - worst).abs() < 1e-6);
            assert!((verdict.loss() - (verdict.value - earned(played)).max(0.0)).abs() < 1e-6);
            assert!((verdict.win_chance_loss() - 50.0 * verdict.loss()).abs() < 1e-6);
            // A pick of the equilibrium's support loses nothing.
            for &best in &verdict.best {
                assert!((earned(best) - verdict.value).abs() < 1e-6);
            }
        }
    }

    #[test]
    fn a_review_of_the_default_game_is_the_whole_games_solve() {
        let (setup, start) = default_state();
        let game = solve::Packed::new(&setup, &start).unwrap_or_else(|| panic!("packs"));
        let mut solver = solve::Solver::new(
            &game,
            Some(Table::built_in().unwrap_or_else(|e| panic!("{e}"))),
            solve::Bounds::NONE,
        );
        let mut rounds = 0;
        // The illustration, then 200 games of random picks.
        let mut pos = start.clone();
        for (u, d) in ILLUSTRATION {
            let picked = [
                setup.find(&pos, Player::U, u),
                setup.find(&pos, Player::D, d),
            ];
            let [Some(u), Some(d)] = picked else {
                panic!("{u} and {d} are alive");
            };
            check_round(&setup, &pos, [u, d], &mut solver);
            play_round(&setup, &mut pos, [u, d], [0, 0]);
            rounds += 1;
        }
        let mut rng = ChaCha8Rng::seed_from_u64(40);
        for _ in 0..200 {
            let mut pos = start.clone();
            while outcome(&setup, &pos).is_none() {
                let mut pick = |p| pickable(&setup, &pos, p).choose(&mut rng).copied();
                let (Some(u), Some(d)) = (pick(Player::U), pick(Player::D)) else {
                    break;
                };
                check_round(&setup, &pos, [u, d], &mut solver);
                play_round(&setup, &mut pos, [u, d], [0, 0]);
                rounds += 1;
            }
        }
        assert!(rounds > 1000, "{rounds} rounds");
    }
}
