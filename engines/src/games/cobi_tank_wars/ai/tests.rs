//! The AI's tests: its choices, its determinism and its budgets.

use super::levels::MODEL_SHARE;
use super::*;
use crate::games::cobi_tank_wars::{StateData, VehicleData};
use crate::games::level::Level;

fn limits() -> SearchLimits<'static> {
    SearchLimits {
        max_time: None,
        max_depth: 64,
        max_nodes: 1_000_000,
        stop: None,
    }
}

fn state(
    vehicles: &[(&str, Player, &str, i64, i64)],
    artillery: &[&str],
    support: &[&str],
) -> State {
    let data = StateData {
        cols: 8,
        rows: 8,
        first: Player::P1,
        vehicles: vehicles
            .iter()
            .map(|&(id, owner, square, armor, slot)| VehicleData {
                id: id.into(),
                owner,
                square: square.into(),
                armor,
                slot,
            })
            .collect(),
        artillery: artillery.iter().map(|s| s.to_string()).collect(),
        support: support.iter().map(|s| s.to_string()).collect(),
        gunfire: Vec::new(),
        support_cards: [0, 0],
        round: 0,
    };
    State::from_data(&data).unwrap()
}

#[test]
fn one_order_per_vehicle_in_card_order() {
    let s = State::initial();
    let answer = suggest(&s, Player::P2, 1, limits(), 3).unwrap();
    let ids: Vec<&str> = answer.orders.iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(ids, ["P2-1", "P2-2", "P2-3"]);
    assert_eq!(answer.gunfire.len(), 1);
    assert!(answer.simulations > 0);
}

#[test]
fn takes_support_and_avoids_artillery() {
    // P1's only vehicle has 1 armor: north runs over the artillery on
    // d3, west over c2 on the way to the support on b2; east reaches
    // the support on f2 unharmed. (Level 3, which does not expect
    // gunfire: full strength would also weigh the likeliest shot on f2
    // against the vehicle's last armor point, see the dodging test.)
    let s = state(
        &[("a", Player::P1, "d2", 1, 1), ("z", Player::P2, "h8", 3, 1)],
        &["d3", "c2"],
        &["b2", "f2"],
    );
    let style = Style::at(Level::new(3).unwrap());
    let answer = suggest_with(&s, Player::P1, 0, limits(), 0, style).unwrap();
    let (_, order) = &answer.orders[0];
    let to = order.destination(s.board, Cell::parse("d2").unwrap());
    assert_eq!(to, Cell::parse("f2"));
    assert!(answer.value > 0.0, "value {}", answer.value);
}

#[test]
fn aims_gunfire_where_the_enemy_must_stop() {
    // P2's vehicle in the corner a1 has few ways out; P1 is far away.
    let s = state(
        &[("a", Player::P1, "h8", 3, 1), ("z", Player::P2, "a1", 3, 1)],
        &[],
        &["a2"],
    );
    let answer = suggest(&s, Player::P1, 2, limits(), 5).unwrap();
    assert_eq!(answer.gunfire.len(), 2);
    assert_eq!(answer.gunfire[0].square, Cell::parse("a2").unwrap());
    assert!(answer.gunfire[0].probability >= answer.gunfire[1].probability);
}

#[test]
fn deterministic_under_a_simulation_limit() {
    let s = State::initial();
    let l = SearchLimits {
        max_time: None,
        max_depth: 64,
        max_nodes: 2_000,
        stop: None,
    };
    let a = suggest(&s, Player::P1, 2, l, 9).unwrap();
    let b = suggest(&s, Player::P1, 2, l, 9).unwrap();
    assert_eq!(a.orders, b.orders);
    assert_eq!(a.gunfire, b.gunfire);
    assert!(a.simulations <= 2_000);
}

#[test]
fn the_threat_is_where_a_sensible_player_stops_most_often() {
    // P1's lone vehicle on d4 with a support token on d5: the sensible
    // player goes there three times as often as anywhere else.
    let s = state(
        &[("a", Player::P1, "d4", 3, 1), ("z", Player::P2, "h8", 3, 1)],
        &[],
        &["d5"],
    );
    let mut search = Search::new(&s, Player::P1, limits(), Instant::now());
    let threat = search.threat(64, &mut ChaCha8Rng::seed_from_u64(1));
    assert!((threat.iter().sum::<f64>() - 1.0).abs() < 1e-9);
    let d5 = search.square_index(Cell::parse("d5").unwrap());
    let top = threat.iter().copied().fold(0.0, f64::max);
    assert_eq!(threat[d5], top, "{threat:?}");
    // Far more than a uniform aimer's 1 in 13.
    assert!(top > 0.2, "{top}");
    assert_eq!(search.simulations, 64);
}

#[test]
fn dodges_the_expected_gunfire_where_a_lower_level_does_not() {
    // The same, with the vehicle at its last armor point: the support
    // card is not worth the likeliest shot of the game. Level 3 does
    // not expect gunfire and takes it.
    let s = state(
        &[("a", Player::P1, "d4", 1, 1), ("z", Player::P2, "h8", 3, 1)],
        &[],
        &["d5"],
    );
    let to = |answer: &Suggestion| {
        let (_, order) = &answer.orders[0];
        order.destination(s.board, Cell::parse("d4").unwrap())
    };
    let d5 = Cell::parse("d5");
    let full = suggest(&s, Player::P1, 0, limits(), 2).unwrap();
    assert_ne!(to(&full), d5);
    let style = Style::at(Level::new(3).unwrap());
    let level3 = suggest_with(&s, Player::P1, 0, limits(), 2, style).unwrap();
    assert_eq!(to(&level3), d5);
}

#[test]
fn the_modelled_enemy_takes_what_is_good_for_it() {
    // P2's vehicle on e5 can take the support on e6 unharmed; the
    // sensible player does so about one time in five, the modelled
    // enemy most of the time.
    let s = state(
        &[("a", Player::P1, "a1", 3, 1), ("z", Player::P2, "e5", 3, 1)],
        &[],
        &["e6"],
    );
    let mut search = Search::new(&s, Player::P1, limits(), Instant::now());
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let e6 = Cell::parse("e6");
    let share = |samples: &[Vec<Order>]| {
        let from = Cell::parse("e5").unwrap();
        let hits = samples
            .iter()
            .filter(|o| o[0].destination(s.board, from) == e6)
            .count();
        hits as f64 / samples.len() as f64
    };
    let modelled = search.modelled_enemy(200, MODEL_SHARE, 64, &mut rng);
    let sensible = search.sensible_samples(&search.enemy, 200, &mut rng);
    assert!(share(&modelled) > 0.6, "{}", share(&modelled));
    assert!(share(&sensible) < 0.35, "{}", share(&sensible));
}

#[test]
fn every_level_keeps_to_its_budget_and_repeats() {
    let s = State::initial();
    for level in Level::all() {
        let style = Style::at(level);
        let a = suggest_with(&s, Player::P2, 1, limits(), 5, style).unwrap();
        let b = suggest_with(&s, Player::P2, 1, limits(), 5, style).unwrap();
        assert_eq!(
            a,
            Suggestion {
                elapsed: a.elapsed,
                ..b
            }
        );
        assert!(a.simulations <= recipe(level).simulations, "level {level}");
    }
}

#[test]
fn nothing_to_suggest_when_the_game_is_over() {
    let s = state(&[("a", Player::P1, "h8", 3, 1)], &[], &[]);
    assert!(suggest(&s, Player::P1, 1, limits(), 0).is_none());
}
