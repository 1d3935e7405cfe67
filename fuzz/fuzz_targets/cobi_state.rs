//! Tank Wars states and orders built from arbitrary data: checking never
//! panics; rounds played from a valid state keep the invariants (the state
//! stays valid, no vehicle appears or gains armor, artillery only goes,
//! gunfire is spent, at most one support token is dropped, the round
//! counts up).
#![no_main]

use std::collections::BTreeMap;

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use tank_rules::games::cobi_tank_wars::{
    check_orders, outcome, resolve, OrderData, Player, State, StateData, VehicleData,
};

#[derive(Debug, Arbitrary)]
struct Input {
    rows: u8,
    cols: u8,
    p2_first: bool,
    vehicles: Vec<(bool, u8, u8, u8, i8, i8, Option<String>)>,
    tokens: [Vec<(u8, u8)>; 3],
    rounds: Vec<(Vec<(u8, u8, i8)>, Option<String>, u64)>,
}

fn square(col: u8, row: u8) -> String {
    format!("{}{}", (b'a' + col % 28) as char, row % 30)
}

/// The state as data again (what the API encodes).
fn data_of(state: &State) -> StateData {
    let squares = |cells: &[tank_rules::games::grid::Cell]| cells.iter().map(|c| c.to_string()).collect();
    StateData {
        cols: u32::from(state.board.cols),
        rows: u32::from(state.board.rows),
        first: state.first,
        vehicles: state
            .vehicles
            .iter()
            .map(|v| VehicleData {
                id: v.id.clone(),
                owner: v.owner,
                square: v.square.to_string(),
                armor: i64::from(v.armor),
                slot: i64::from(v.slot),
            })
            .collect(),
        artillery: squares(&state.artillery),
        support: squares(&state.support),
        gunfire: squares(&state.gunfire),
        support_cards: state.support_cards,
        round: state.round,
    }
}

fuzz_target!(|input: Input| {
    let token_list = |i: usize| input.tokens[i].iter().take(60).map(|(c, r)| square(*c, *r)).collect();
    let data = StateData {
        cols: u32::from(input.cols % 30),
        rows: u32::from(input.rows % 30),
        first: if input.p2_first { Player::P2 } else { Player::P1 },
        vehicles: input
            .vehicles
            .iter()
            .take(8)
            .map(|(p2, id, col, row, armor, slot, junk)| VehicleData {
                id: junk.clone().unwrap_or_else(|| format!("v{}", id % 8)),
                owner: if *p2 { Player::P2 } else { Player::P1 },
                square: square(*col, *row),
                armor: i64::from(*armor),
                slot: i64::from(*slot),
            })
            .collect(),
        artillery: token_list(0),
        support: token_list(1),
        gunfire: token_list(2),
        support_cards: [0, 0],
        round: 0,
    };
    let Ok(mut state) = State::from_data(&data) else { return };
    assert_eq!(State::from_data(&data_of(&state)).as_ref(), Ok(&state), "a valid state round-trips");
    for (orders, junk_dir, seed) in input.rounds.iter().take(20) {
        let dirs = ["N", "E", "S", "W"];
        let mut given: [BTreeMap<String, OrderData>; 2] = Default::default();
        for (v, (pick, dir, dist)) in state.vehicles.iter().zip(orders) {
            let dir = match junk_dir {
                Some(text) if pick % 17 == 0 => text.clone(),
                _ => dirs[usize::from(dir % 4)].to_owned(),
            };
            given[v.owner as usize].insert(v.id.clone(), OrderData { dir, dist: i64::from(*dist) });
        }
        let checked: Result<Vec<_>, _> = Player::ALL
            .iter()
            .map(|p| check_orders(&state, *p, &given[p.index()]))
            .collect();
        let Ok(checked) = checked else { return };
        if outcome(&state).is_some() {
            return;
        }
        let all = checked.into_iter().flatten().collect();
        let before = state.clone();
        resolve(&mut state, &all, *seed);
        assert_eq!(State::from_data(&data_of(&state)).as_ref(), Ok(&state), "the state stays valid");
        for v in &state.vehicles {
            let old = before.vehicles.iter().find(|o| o.id == v.id).expect("no vehicle appears");
            assert!(v.armor <= old.armor && v.armor >= 1);
        }
        assert!(state.artillery.iter().all(|a| before.artillery.contains(a)));
        assert!(state.gunfire.is_empty());
        assert!(state.support.len() <= before.support.len() + 1);
        assert_eq!(state.round, before.round + 1);
    }
});
