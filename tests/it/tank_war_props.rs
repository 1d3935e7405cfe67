//! Property tests of The Tank War over random boards, tracks and playouts.

use proptest::prelude::*;
use tank_rules::games::tank_war::{
    check_pick, default_state, outcome, pickable, play_round, surviving, territory, Event,
    PickError, Player, Position, Setup, StateData, TankData, TankType, INITIAL_CLOCK_MS,
};

/// A random walk of orthogonal steps on a `rows` x `cols` board.
fn track(rows: u8, cols: u8, start: (u8, u8), steps: &[u8]) -> Vec<String> {
    let (mut c, mut r) = start;
    let mut out = vec![format!("{}{}", (b'a' + c) as char, r + 1)];
    for &s in steps {
        let (dc, dr): (i8, i8) = [(1, 0), (-1, 0), (0, 1), (0, -1)][usize::from(s % 4)];
        let (nc, nr) = (c as i8 + dc, r as i8 + dr);
        if nc < 0 || nr < 0 || nc >= cols as i8 || nr >= rows as i8 {
            continue;
        }
        (c, r) = (nc as u8, nr as u8);
        out.push(format!("{}{}", (b'a' + c) as char, r + 1));
    }
    out
}

prop_compose! {
    fn random_state()(rows in 2u8..=7, cols in 2u8..=7)
        (tanks in prop::collection::vec((any::<bool>(), 0u8..3, 0u8..7, 0u8..7, prop::collection::vec(any::<u8>(), 0..8), any::<prop::sample::Index>()), 2..12),
         owners in prop::collection::vec(any::<bool>(), (rows as usize) * (cols as usize)),
         rows in Just(rows), cols in Just(cols))
        -> Option<(Setup, Position)>
    {
        let territory = (0..rows as usize)
            .map(|r| (0..cols as usize).map(|c| if owners[r * cols as usize + c] { 'U' } else { 'D' }).collect())
            .collect();
        let tanks = tanks
            .into_iter()
            .enumerate()
            .map(|(i, (u, kind, c, r, steps, at))| {
                let track = track(rows, cols, (c % cols, r % rows), &steps);
                TankData {
                    owner: if u { Player::U } else { Player::D },
                    name: format!("T{i}"),
                    kind: [TankType::A, TankType::B, TankType::C][usize::from(kind)],
                    at: at.index(track.len()),
                    track,
                }
            })
            .collect();
        let data = StateData { rows: rows.into(), cols: cols.into(), territory, tanks, round: 0, clock_ms: [INITIAL_CLOCK_MS; 2] };
        // Random placements may share squares: those states are invalid.
        Setup::from_data(&data).ok()
    }
}

fn playout(
    setup: &Setup,
    mut pos: Position,
    choices: &[prop::sample::Index],
) -> Result<(), TestCaseError> {
    let squares = setup.board.len();
    let mut i = 0;
    let limit: usize = setup.tanks.iter().map(|t| t.track.len()).sum::<usize>() + 1;
    for _round in 0..=limit {
        let before = pos.clone();
        let counts = Player::ALL.map(|p| surviving(setup, &pos, p));
        prop_assert_eq!(
            territory(&pos, Player::U) + territory(&pos, Player::D),
            squares
        );
        // State data round trips.
        let (s2, p2) = Setup::from_data(&setup.to_data(&pos))
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(s2.to_data(&p2).tanks.len(), counts[0] + counts[1]);
        if let Some(_end) = outcome(setup, &pos) {
            // A finished state accepts no move.
            for (id, tank) in setup.tanks.iter().enumerate() {
                if pos.alive[id] {
                    prop_assert_eq!(
                        check_pick(setup, &pos, tank.owner, &tank.name),
                        Err(PickError::GameOver)
                    );
                }
            }
            prop_assert!(
                pickable(setup, &pos, Player::U).is_empty()
                    && pickable(setup, &pos, Player::D).is_empty()
            );
            return Ok(());
        }
        let mut picks = [0; 2];
        for player in Player::ALL {
            let legal = pickable(setup, &pos, player);
            prop_assert!(!legal.is_empty());
            // Legal picks validate; every other living tank of the player does not.
            for (id, tank) in setup.tanks.iter().enumerate() {
                if tank.owner != player || !pos.alive[id] {
                    continue;
                }
                let checked = check_pick(setup, &pos, player, &tank.name);
                prop_assert_eq!(checked.is_ok(), legal.contains(&id));
                if let Err(e) = checked {
                    prop_assert!(matches!(
                        e,
                        PickError::EndOfTrack | PickError::SquareOccupied
                    ));
                }
            }
            let pick = choices.get(i).map_or(0, |c| c.index(legal.len()));
            i += 1;
            picks[player.index()] = legal[pick];
        }
        let events = play_round(setup, &mut pos, picks, [0, 0]);
        prop_assert_eq!(pos.round, before.round + 1);
        for e in &events {
            if let Event::Destroyed { tank, by, .. } = e {
                for shooter in by {
                    prop_assert_ne!(setup.tanks[*tank].owner, setup.tanks[*shooter].owner);
                }
            }
        }
        for p in Player::ALL {
            prop_assert!(
                surviving(setup, &pos, p) <= counts[p.index()],
                "tank count grew"
            );
        }
        // Exactly the moved tanks advanced, by one square.
        for (id, (&a, &b)) in before.at.iter().zip(&pos.at).enumerate() {
            let moved = events
                .iter()
                .any(|e| matches!(e, Event::Moved { tank, .. } if *tank == id));
            prop_assert_eq!(b, a + usize::from(moved));
        }
    }
    Err(TestCaseError::fail("the game did not end"))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn random_playouts_on_the_default_setup(choices in prop::collection::vec(any::<prop::sample::Index>(), 80)) {
        let (setup, pos) = default_state();
        playout(&setup, pos, &choices)?;
    }

    #[test]
    fn random_playouts_on_random_boards(
        (setup, pos) in random_state().prop_filter_map("tanks share a square", |s| s),
        choices in prop::collection::vec(any::<prop::sample::Index>(), 200),
    ) {
        playout(&setup, pos, &choices)?;
    }

    #[test]
    fn rearranged_default_tanks(perm in Just((0..12usize).collect::<Vec<_>>()).prop_shuffle(), choices in prop::collection::vec(any::<prop::sample::Index>(), 80)) {
        // The default tanks with their names and types shuffled among the
        // start squares of the same side.
        let (setup, pos) = default_state();
        let mut data = setup.to_data(&pos);
        let original = data.tanks.clone();
        for (slot, &from) in perm.iter().enumerate() {
            let src = &original[from];
            if src.owner == original[slot].owner {
                data.tanks[slot].kind = src.kind;
            }
        }
        let (setup, pos) = Setup::from_data(&data).map_err(|e| TestCaseError::fail(e.to_string()))?;
        playout(&setup, pos, &choices)?;
    }
}
