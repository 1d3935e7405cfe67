use std::collections::BTreeMap;

use super::*;
use crate::games::cobi_tank_wars::{OrderData, Round};
use crate::games::review::puzzle::find_in_game;
use crate::games::review::Review;

/// The cornered P2 ([`crate::games::cobi_tank_wars::tests::cornered`]):
/// P1's vehicle 1 armor strong, `support_cards` how far ahead P1 is.
fn cornered(support_cards: [u32; 2]) -> State {
    crate::games::cobi_tank_wars::tests::cornered(1, support_cards)
}

fn round(p1: (&str, i64), p2: (&str, i64)) -> Round {
    let order = |(dir, dist): (&str, i64)| OrderData {
        dir: dir.into(),
        dist,
    };
    Round {
        orders: [
            BTreeMap::from([("P1-1".to_owned(), order(p1))]),
            BTreeMap::from([("P2-1".to_owned(), order(p2))]),
        ],
        seed: 0,
    }
}

fn puzzles(start: &State, rounds: &[Round]) -> Vec<Puzzle<Orders>> {
    let limits = SearchLimits {
        max_nodes: CobiTankWars::JUDGE_NODES,
        max_depth: u32::MAX,
        ..SearchLimits::default()
    };
    let (found, spent) = find_in_game::<CobiTankWars>(start, rounds, limits, 10);
    assert!(spent.nodes > 0);
    for puzzle in &found {
        let [orders] = puzzle.solution.as_slice() else {
            panic!("a solution is one round's orders: {puzzle:?}");
        };
        let player = Player::ALL[puzzle.player];
        let given = orders
            .iter()
            .map(|(id, o)| {
                let data = OrderData {
                    dir: o.dir.name().into(),
                    dist: i64::from(o.dist),
                };
                (id.clone(), data)
            })
            .collect();
        assert!(check_orders(start, player, &given).is_ok(), "{puzzle:?}");
        assert_eq!(puzzle.id, puzzle_id(start, player));
    }
    found
}

use crate::games::cobi_tank_wars::check_orders;

/// The win P1 missed (`N 1` in place of `W 1`) is its puzzle: `W 1`,
/// which wins whatever P2 orders.
#[test]
fn a_missed_win_is_a_puzzle() {
    let start = cornered([0, 0]);
    let found = puzzles(&start, &[round(("N", 1), ("N", 1))]);
    let p1: Vec<_> = found.iter().filter(|p| p.player == 0).collect();
    let [puzzle] = p1.as_slice() else {
        panic!("one puzzle for P1: {found:?}");
    };
    let winning = Order {
        dir: crate::games::cobi_tank_wars::Dir::W,
        dist: 1,
    };
    assert_eq!(puzzle.solution, vec![vec![("P1-1".to_owned(), winning)]]);
    assert!(puzzle.themes.contains(&Theme::ForcedWin), "{puzzle:?}");
    assert_eq!(
        puzzle.forced,
        Some(Forced {
            win: true,
            plies: Some(1)
        })
    );
    assert_eq!(puzzle.chance, 100.0);
    assert!(puzzle.second_chance < WINS_ANYWAY);
    assert_eq!(puzzle.ply, 0);
    assert!(puzzle.source.label >= crate::games::review::Label::Mistake);
    assert!((100..=900).contains(&puzzle.rating));
}

/// Far ahead (twelve support cards), P1 wins anyway: the same miss is no
/// puzzle.
#[test]
fn a_position_won_anyway_has_none() {
    let start = cornered([12, 0]);
    let found = puzzles(&start, &[round(("N", 1), ("N", 1))]);
    assert!(found.iter().all(|p| p.player != 0), "{found:?}");
}

/// Orders the review finds no fault in hold nothing to find.
#[test]
fn a_round_without_faults_has_none() {
    let start = cornered([0, 0]);
    let found = puzzles(&start, &[round(("W", 1), ("N", 1))]);
    assert!(found.iter().all(|p| p.player != 0), "{found:?}");
}

#[test]
fn the_same_game_gives_the_same_puzzles() {
    let start = cornered([0, 0]);
    let rounds = [round(("N", 1), ("N", 1))];
    assert_eq!(puzzles(&start, &rounds), puzzles(&start, &rounds));
}

/// A vehicle's order is a key where every other order of it loses the
/// margin; the others' orders are free; a choice another order betters
/// holds none.
#[test]
fn only_the_orders_that_matter_are_keys() {
    let order = |dir, dist| Order { dir, dist };
    use crate::games::cobi_tank_wars::Dir;
    let deviations = |chance, others: Vec<Option<f64>>| Deviations {
        orders: vec![
            ("P1-1".to_owned(), order(Dir::W, 1)),
            ("P1-2".to_owned(), order(Dir::N, 2)),
            ("P1-3".to_owned(), order(Dir::E, 3)),
        ],
        chance,
        others,
    };
    let (keys, second) =
        only_orders(&deviations(80.0, vec![Some(45.0), Some(79.0), None])).unwrap();
    assert_eq!(keys, vec![("P1-1".to_owned(), order(Dir::W, 1))]);
    assert_eq!(second, 45.0);
    assert_eq!(
        only_orders(&deviations(80.0, vec![Some(51.0), Some(79.0), None])),
        None,
        "29 points is under the margin"
    );
    assert_eq!(
        only_orders(&deviations(80.0, vec![Some(40.0), Some(86.0), None])),
        None,
        "another order of P1-2 betters the choice"
    );
    let won = only_orders(&deviations(100.0, vec![Some(98.0), Some(99.5), Some(60.0)])).unwrap();
    assert_eq!(won.0.len(), 2, "{won:?}");
    assert_eq!(won.1, 98.0);
}
