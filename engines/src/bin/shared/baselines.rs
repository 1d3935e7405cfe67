//! Baseline players the AI harnesses measure against (shared by
//! `selfplay` and `ladder`).

#![allow(dead_code)] // each harness uses some of them

use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;
use tank_rules_engines::games::tank_battle::{Layout, Move, Position};
use tank_rules_engines::games::tank_war::{self as war, Player, Position as WarPosition, Setup};
use tank_rules_engines::games::SearchLimits;

/// Tank Battle: the move that maximises own score minus the opponent's
/// after it, ties broken at random.
pub fn greedy(pos: &Position, layout: &Layout, rng: &mut ChaCha8Rng) -> Option<Move> {
    let moves = pos.legal_moves(layout);
    let us = pos.turn();
    let value = |mv: &Move| {
        let mut child = *pos;
        child.play_unchecked(*mv);
        let score = child.score(layout);
        score.side(us).total() as i64 - score.side(!us).total() as i64
    };
    choose_best(&moves, value, rng)
}

/// The Tank War: the pick that destroys the most enemy tanks this round,
/// summed over the opponent's picks, ties broken at random.
pub fn destroyer(
    setup: &Setup,
    pos: &WarPosition,
    player: Player,
    rng: &mut ChaCha8Rng,
) -> Option<usize> {
    let choices = war::pickable(setup, pos, player);
    let theirs = war::pickable(setup, pos, player.other());
    let kills = |mine: usize| -> usize {
        theirs
            .iter()
            .map(|&other| {
                let mut next = pos.clone();
                let pair = if player == Player::U {
                    [mine, other]
                } else {
                    [other, mine]
                };
                war::play_round(setup, &mut next, pair, [0, 0]);
                war::surviving(setup, pos, player.other())
                    - war::surviving(setup, &next, player.other())
            })
            .sum()
    };
    choose_best(&choices, |&c| kills(c), rng)
}

/// One of the `items` of highest `value`, ties broken at random.
fn choose_best<T: Copy, V: Ord + Copy>(
    items: &[T],
    value: impl Fn(&T) -> V,
    rng: &mut ChaCha8Rng,
) -> Option<T> {
    let values: Vec<V> = items.iter().map(value).collect();
    let best = values.iter().copied().max()?;
    let top: Vec<T> = items
        .iter()
        .zip(&values)
        .filter(|(_, v)| **v == best)
        .map(|(item, _)| *item)
        .collect();
    top.choose(rng).copied()
}

/// Tank Wars: the AI's own sampling model at a small budget: one halving
/// round, every joint order measured against 4 sampled enemy orders, the
/// best taken (limits in the generic form: depth = halving rounds).
pub fn sampler_limits() -> SearchLimits<'static> {
    SearchLimits {
        max_time: None,
        max_depth: 1,
        max_nodes: u64::MAX,
        stop: None,
    }
}
