//! Tank War states built from arbitrary data: checking never panics; a
//! valid state round-trips through its data, and rounds played from it keep
//! the invariants (no tank appears, territory covers the board, the game
//! ends).
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use tank_rules::games::tank_war::{
    check_pick, outcome, pickable, play_round, surviving, territory, Player, Setup, StateData,
    TankData, TankType,
};

#[derive(Debug, Arbitrary)]
struct Input {
    rows: u8,
    cols: u8,
    territory: Vec<String>,
    tanks: Vec<(bool, u8, u8, Vec<(u8, u8)>, Option<String>, u8)>,
    clocks: (i64, i64),
    picks: Vec<(u8, u8, u64, u64)>,
}

fuzz_target!(|input: Input| {
    let tanks = input
        .tanks
        .iter()
        .take(40)
        .enumerate()
        .map(|(i, (u, kind, name, track, junk, at))| TankData {
            owner: if *u { Player::U } else { Player::D },
            name: format!("T{}", name % 8 + (i as u8 % 2)),
            kind: [TankType::A, TankType::B, TankType::C][usize::from(kind % 3)],
            track: track
                .iter()
                .take(40)
                .map(|(c, r)| format!("{}{}", (b'a' + c % 28) as char, r % 30))
                .chain(junk.clone())
                .collect(),
            at: usize::from(*at),
        })
        .collect();
    let data = StateData {
        rows: u32::from(input.rows % 30),
        cols: u32::from(input.cols % 30),
        territory: input.territory.clone(),
        tanks,
        round: 0,
        clock_ms: [input.clocks.0, input.clocks.1],
    };
    let Ok((setup, mut pos)) = Setup::from_data(&data) else { return };
    let (again, again_pos) = Setup::from_data(&setup.to_data(&pos)).expect("a valid state round-trips");
    assert_eq!((&again, &again_pos), (&setup, &pos));
    let squares = setup.board.len();
    for (u, d, eu, ed) in &input.picks {
        if outcome(&setup, &pos).is_some() {
            assert!(pickable(&setup, &pos, Player::U).is_empty());
            return;
        }
        let counts = Player::ALL.map(|p| surviving(&setup, &pos, p));
        let ids = Player::ALL.map(|p| pickable(&setup, &pos, p));
        let pick = |list: &Vec<usize>, i: &u8| list.get(usize::from(*i) % list.len().max(1)).copied();
        let (Some(iu), Some(id)) = (pick(&ids[0], u), pick(&ids[1], d)) else { return };
        for (player, tank) in [(Player::U, iu), (Player::D, id)] {
            let name = &setup.tanks[tank].name;
            assert_eq!(check_pick(&setup, &pos, player, name), Ok(tank));
        }
        play_round(&setup, &mut pos, [iu, id], [eu % 200_000, ed % 200_000]);
        assert_eq!(territory(&pos, Player::U) + territory(&pos, Player::D), squares);
        for p in Player::ALL {
            assert!(surviving(&setup, &pos, p) <= counts[p.index()]);
        }
    }
});
