//! One test per numbered rule of the round (issue 8), on constructed states.

use std::collections::BTreeMap;

use super::*;
use crate::games::grid::Cell;

fn cell(s: &str) -> Cell {
    Cell::parse(s).unwrap()
}

/// P2's last vehicle (1 armor) stands under gunfire in a corner: every
/// way out but `a2` crosses artillery. P1 (its vehicle `p1_armor` strong),
/// moving first, wins the game by parking on `a2` whatever P2 orders;
/// `support_cards` sets how far ahead P1 already is.
pub(crate) fn cornered(p1_armor: i64, support_cards: [u32; 2]) -> State {
    State::from_data(&StateData {
        cols: 8,
        rows: 8,
        first: Player::P1,
        vehicles: vec![
            vehicle("P1-1", Player::P1, "b2", p1_armor, 1),
            vehicle("P2-1", Player::P2, "a1", 1, 1),
        ],
        artillery: vec!["b1".into(), "a3".into()],
        support: Vec::new(),
        gunfire: vec!["a1".into()],
        support_cards,
        round: 3,
    })
    .unwrap()
}

fn vehicle(id: &str, owner: Player, square: &str, armor: i64, slot: i64) -> VehicleData {
    VehicleData {
        id: id.into(),
        owner,
        square: square.into(),
        armor,
        slot,
    }
}

fn state(
    vehicles: Vec<VehicleData>,
    artillery: &[&str],
    support: &[&str],
    gunfire: &[&str],
) -> State {
    State::from_data(&StateData {
        cols: 8,
        rows: 8,
        first: Player::P1,
        vehicles,
        artillery: artillery.iter().map(|s| s.to_string()).collect(),
        support: support.iter().map(|s| s.to_string()).collect(),
        gunfire: gunfire.iter().map(|s| s.to_string()).collect(),
        support_cards: [0, 0],
        round: 0,
    })
    .unwrap()
}

fn orders(list: &[(&str, Dir, u8)]) -> BTreeMap<String, Order> {
    list.iter()
        .map(|&(id, dir, dist)| (id.to_owned(), Order { dir, dist }))
        .collect()
}

fn moved(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Moved { vehicle, .. } | Event::Cancelled { vehicle, .. } => {
                Some(vehicle.clone())
            }
            _ => None,
        })
        .collect()
}

#[test]
fn rule_1_card_order_and_destroyed_vehicles_stay() {
    let mut s = state(
        vec![
            vehicle("A3", Player::P1, "a1", 3, 3),
            vehicle("A1", Player::P1, "b1", 3, 1),
            vehicle("B1", Player::P2, "c8", 3, 1),
            vehicle("B2", Player::P2, "d8", 1, 2),
        ],
        &["d7"],
        &[],
        &[],
    );
    s.first = Player::P2;
    let all = orders(&[
        ("A3", Dir::N, 1),
        ("A1", Dir::N, 1),
        ("B1", Dir::S, 1),
        ("B2", Dir::S, 1),
    ]);
    let events = resolve(&mut s, &all, 0);
    // P2 first in each slot; slot 3 has only A3. B2 dies on the artillery
    // of d7 during its own move (vehicles only die while moving or in the
    // gunfire after all moves, so none can die before its turn).
    assert_eq!(moved(&events), ["B1", "A1", "B2", "A3"]);
    assert!(!s.vehicles.iter().any(|v| v.id == "B2"));
}

#[test]
fn rule_2_cancelled_off_board_or_onto_a_vehicle_but_passing_is_fine() {
    let mut s = state(
        vec![
            vehicle("A1", Player::P1, "a1", 3, 1),
            vehicle("A2", Player::P1, "b1", 3, 2),
            vehicle("B1", Player::P2, "b2", 3, 1),
            vehicle("B2", Player::P2, "h8", 3, 2),
        ],
        &[],
        &[],
        &[],
    );
    let all = orders(&[
        ("A1", Dir::W, 1),
        ("A2", Dir::N, 1),
        ("B1", Dir::S, 1),
        ("B2", Dir::S, 3),
    ]);
    let events = resolve(&mut s, &all, 0);
    // A1 off the board; B1 onto A2 (b1, occupied at that moment); A2 onto
    // b2, which B1 still holds; B2 moves.
    assert!(events.contains(&Event::Cancelled {
        vehicle: "A1".into(),
        at: cell("a1"),
        to: None
    }));
    assert!(events.contains(&Event::Cancelled {
        vehicle: "B1".into(),
        at: cell("b2"),
        to: Some(cell("b1"))
    }));
    assert!(events.contains(&Event::Cancelled {
        vehicle: "A2".into(),
        at: cell("b1"),
        to: Some(cell("b2"))
    }));
    assert!(events.contains(&Event::Moved {
        vehicle: "B2".into(),
        from: cell("h8"),
        to: cell("h5")
    }));

    // Passing over another vehicle is allowed.
    let mut s = state(
        vec![
            vehicle("A1", Player::P1, "a1", 3, 1),
            vehicle("B1", Player::P2, "a2", 3, 1),
        ],
        &[],
        &[],
        &[],
    );
    let events = resolve(&mut s, &orders(&[("A1", Dir::N, 3), ("B1", Dir::E, 1)]), 0);
    assert!(events.contains(&Event::Moved {
        vehicle: "A1".into(),
        from: cell("a1"),
        to: cell("a4")
    }));
}

#[test]
fn rule_3_artillery_on_the_way_and_support_at_the_end() {
    let mut s = state(
        vec![
            vehicle("A1", Player::P1, "a1", 3, 1),
            vehicle("A2", Player::P1, "h1", 2, 2),
            vehicle("B1", Player::P2, "h8", 3, 1),
        ],
        &["a2", "a4", "h2", "h3"],
        &["a4", "h4"],
        &[],
    );
    let events = resolve(
        &mut s,
        &orders(&[("A1", Dir::N, 3), ("A2", Dir::N, 3), ("B1", Dir::W, 1)]),
        0,
    );
    // A1: a2 and a4 hit (3 -> 1), survives, takes the support on a4.
    let a1 = s.vehicles.iter().find(|v| v.id == "A1").unwrap();
    assert_eq!((a1.square, a1.armor), (cell("a4"), 1));
    assert!(events.contains(&Event::SupportTaken {
        vehicle: "A1".into(),
        square: cell("a4"),
        player: Player::P1
    }));
    // A2: h2 and h3 hit (2 -> 0): destroyed, the support on h4 stays.
    assert!(!s.vehicles.iter().any(|v| v.id == "A2"));
    assert!(events.contains(&Event::Destroyed {
        vehicle: "A2".into(),
        square: cell("h4")
    }));
    assert!(s.support.contains(&cell("h4")));
    assert!(s.artillery.is_empty());
    assert_eq!(s.support_cards, [1, 0]);
}

#[test]
fn rule_4_gunfire_hits_and_clears_tokens() {
    let mut s = state(
        vec![
            vehicle("A1", Player::P1, "a1", 1, 1),
            vehicle("B1", Player::P2, "h8", 3, 1),
        ],
        &["c3", "d4"],
        &["e5"],
        &["b1", "h8", "c3", "e5"],
    );
    let events = resolve(&mut s, &orders(&[("A1", Dir::E, 1), ("B1", Dir::S, 1)]), 0);
    // A1 moved onto b1 (gunfire): 1 -> 0, destroyed. B1 left h8: no hit.
    assert!(events.contains(&Event::GunfireHit {
        vehicle: "A1".into(),
        square: cell("b1")
    }));
    assert!(events.contains(&Event::Destroyed {
        vehicle: "A1".into(),
        square: cell("b1")
    }));
    assert!(!events
        .iter()
        .any(|e| matches!(e, Event::GunfireHit { vehicle, .. } if vehicle == "B1")));
    assert!(s.gunfire.is_empty());
    // Artillery on c3 and support on e5 went with the gunfire; d4 stays.
    assert_eq!(s.artillery, vec![cell("d4")]);
    assert!(!s.support.contains(&cell("e5")));
    assert_eq!(outcome(&s), Some(Some(Player::P2)));
}

#[test]
fn rule_5_supply_drop_is_seeded_and_column_fastest() {
    // SplitMix64's published first output for seed 0.
    assert_eq!(splitmix64(0), 0xE220_A839_7B1D_CDAF);
    let base = state(
        vec![
            vehicle("A1", Player::P1, "a1", 3, 1),
            vehicle("B1", Player::P2, "h8", 3, 1),
        ],
        &["b1"],
        &[],
        &[],
    );
    for seed in [0u64, 1, 2, 99] {
        let mut s = base.clone();
        let events = resolve(
            &mut s,
            &orders(&[("A1", Dir::N, 1), ("B1", Dir::S, 1)]),
            seed,
        );
        // After the moves: vehicles on a2 and h7, artillery on b1. Free
        // squares a1, c1, d1, … column fastest.
        let mut free = Vec::new();
        for row in 0..8u8 {
            for col in 0..8u8 {
                let c = Cell { col, row };
                if ![cell("a2"), cell("h7"), cell("b1")].contains(&c) {
                    free.push(c);
                }
            }
        }
        let expected = free[(splitmix64(seed) % free.len() as u64) as usize];
        assert_eq!(
            events.last(),
            Some(&Event::SupplyDrop { square: expected }),
            "seed {seed}"
        );
        assert_eq!(s.support, vec![expected]);
    }
}

#[test]
fn rule_6_round_and_end() {
    let mut s = State::initial();
    assert_eq!(outcome(&s), None);
    let all = orders(&[
        ("P1-1", Dir::N, 1),
        ("P1-2", Dir::N, 2),
        ("P1-3", Dir::N, 3),
        ("P2-1", Dir::S, 1),
        ("P2-2", Dir::S, 2),
        ("P2-3", Dir::S, 3),
    ]);
    resolve(&mut s, &all, 0);
    assert_eq!(s.round, 1);
    s.vehicles.clear();
    assert_eq!(outcome(&s), Some(None));
}

#[test]
fn order_codes() {
    let s = State::initial();
    let data = |dir: &str, dist: i64| OrderData {
        dir: dir.into(),
        dist,
    };
    let mut p1: BTreeMap<String, OrderData> = BTreeMap::new();
    p1.insert("P1-1".into(), data("N", 1));
    p1.insert("P1-2".into(), data("Q", 1));
    p1.insert("P1-3".into(), data("E", 4));
    p1.insert("P2-1".into(), data("S", 1));
    let errors = check_orders(&s, Player::P1, &p1).unwrap_err();
    let codes: Vec<(&str, &str)> = errors
        .iter()
        .map(|(id, e)| (id.as_str(), e.code()))
        .collect();
    assert!(codes.contains(&("P1-2", "BAD_DIRECTION")));
    assert!(codes.contains(&("P1-3", "BAD_DISTANCE")));
    assert!(codes.contains(&("P2-1", "NO_SUCH_VEHICLE")));
    let mut short = BTreeMap::new();
    short.insert("P1-1".to_owned(), data("N", 1));
    let errors = check_orders(&s, Player::P1, &short).unwrap_err();
    assert!(errors.iter().all(|(_, e)| *e == OrderError::MissingOrder) && errors.len() == 2);
    let mut over = s.clone();
    over.vehicles.retain(|v| v.owner == Player::P1);
    assert_eq!(
        check_orders(&over, Player::P1, &short).unwrap_err(),
        vec![(String::new(), OrderError::GameOver)]
    );
}

/// A change that makes a valid state invalid.
type Breaker = Box<dyn Fn(&mut StateData)>;

#[test]
fn invalid_states() {
    let good = || StateData {
        cols: 8,
        rows: 8,
        first: Player::P1,
        vehicles: vec![
            vehicle("A", Player::P1, "a1", 3, 1),
            vehicle("B", Player::P2, "b1", 3, 1),
        ],
        artillery: vec![],
        support: vec![],
        gunfire: vec![],
        support_cards: [0, 0],
        round: 0,
    };
    assert!(State::from_data(&good()).is_ok());
    let cases: Vec<Breaker> = vec![
        Box::new(|d| d.cols = 1),
        Box::new(|d| d.vehicles[1].square = "a1".into()),
        Box::new(|d| d.vehicles[1].id = "A".into()),
        Box::new(|d| d.vehicles[1].armor = 0),
        Box::new(|d| d.vehicles[1].slot = 4),
        Box::new(|d| d.vehicles.push(vehicle("C", Player::P1, "c1", 3, 1))),
        Box::new(|d| d.vehicles[0].square = "i1".into()),
        Box::new(|d| d.artillery = vec!["c3".into(), "c3".into()]),
        Box::new(|d| {
            for (i, sq) in ["c1", "d1", "e1"].iter().enumerate() {
                d.vehicles
                    .push(vehicle(&format!("X{i}"), Player::P2, sq, 1, i as i64 + 2));
            }
        }),
    ];
    for (i, break_it) in cases.iter().enumerate() {
        let mut d = good();
        break_it(&mut d);
        assert!(State::from_data(&d).is_err(), "case {i}");
    }
}

#[test]
fn directions_and_orders_are_named_as_parsed() {
    for dir in Dir::ALL {
        assert_eq!(Dir::parse(dir.name()), Some(dir));
    }
    assert_eq!(Dir::parse("n"), None);
    assert_eq!(Order::ALL.len(), 12);
    let board = crate::games::grid::Board { rows: 8, cols: 8 };
    let c1 = cell("c1");
    let north = Order {
        dir: Dir::N,
        dist: 3,
    };
    assert_eq!(north.destination(board, c1), Some(cell("c4")));
    assert_eq!(
        north.path(board, c1).map(|(p, n)| p[..n].to_vec()),
        Some(vec![cell("c2"), cell("c3"), cell("c4")])
    );
    assert_eq!(
        Order {
            dir: Dir::S,
            dist: 1
        }
        .destination(board, c1),
        None
    );
}

/// A refusal's text is its code: the rule's words are the catalogues'.
#[test]
fn a_refusal_says_its_code() {
    for error in OrderError::ALL {
        assert_eq!(error.to_string(), error.code());
    }
}
