//! Engine tests: the rules' illustration, each rule on constructed states,
//! clocks, and the validation codes.

use super::*;

fn cell(text: &str) -> Cell {
    Cell::parse(text).unwrap()
}

fn id(setup: &Setup, pos: &Position, player: Player, name: &str) -> usize {
    setup.find(pos, player, name).unwrap()
}

fn round(setup: &Setup, pos: &mut Position, u: &str, d: &str) -> Vec<Event> {
    let picks = [
        check_pick(setup, pos, Player::U, u).unwrap(),
        check_pick(setup, pos, Player::D, d).unwrap(),
    ];
    play_round(setup, pos, picks, [0, 0])
}

fn destroyed(setup: &Setup, events: &[Event]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Destroyed { tank, by, .. } => {
                let name = |id: &usize| {
                    let t = &setup.tanks[*id];
                    format!("{}{}", t.owner, t.name)
                };
                Some(format!(
                    "{} by {}",
                    name(tank),
                    by.iter().map(name).collect::<Vec<_>>().join("+")
                ))
            }
            _ => None,
        })
        .collect()
}

#[test]
fn the_rules_illustration_replays_exactly() {
    let (setup, mut pos) = default_state();
    let mut fire = Vec::new();
    for (u, d) in ILLUSTRATION {
        let events = round(&setup, &mut pos, u, d);
        fire.push(destroyed(&setup, &events));
    }
    assert_eq!(fire[0], Vec::<String>::new());
    assert_eq!(fire[1], Vec::<String>::new());
    assert_eq!(fire[2], Vec::<String>::new());
    assert_eq!(fire[3], vec!["ULA by DRB"]);
    assert_eq!(fire[4], vec!["ULC by DRC", "DRB by ULC", "DRC by ULC"]);
    assert_eq!(pos.round, 5);
    assert_eq!(surviving(&setup, &pos, Player::U), 4);
    assert_eq!(surviving(&setup, &pos, Player::D), 4);
    // D's RB entered U's d4: it stays D's after RB is destroyed. U only
    // ever moved inside its own rows.
    assert_eq!(pos.territory[setup.board.index(cell("d4"))], Player::D);
    assert_eq!(territory(&pos, Player::U), 17);
    assert_eq!(territory(&pos, Player::D), 19);
}

#[test]
fn validation_codes() {
    let (setup, mut pos) = default_state();
    assert_eq!(
        check_pick(&setup, &pos, Player::U, "XX"),
        Err(PickError::NoSuchTank)
    );
    // Names are per player: D has no tank "la".
    assert_eq!(
        check_pick(&setup, &pos, Player::D, "la"),
        Err(PickError::NoSuchTank)
    );
    // U's RC on a6 and D's LC on a1 share the a-file: walk them together.
    for _ in 0..2 {
        round(&setup, &mut pos, "RC", "LC");
    }
    // RC at a4, LC at a3: each one's next square is the other's.
    assert_eq!(
        check_pick(&setup, &pos, Player::U, "RC"),
        Err(PickError::SquareOccupied)
    );
    assert_eq!(
        check_pick(&setup, &pos, Player::D, "LC"),
        Err(PickError::SquareOccupied)
    );
    assert_eq!(PickError::SquareOccupied.code(), "SQUARE_OCCUPIED");

    // A tank at the end of its track.
    let mut data = setup.to_data(&pos);
    let la = data
        .tanks
        .iter_mut()
        .find(|t| t.owner == Player::U && t.name == "LA")
        .unwrap();
    la.track.truncate(1);
    let (short, short_pos) = Setup::from_data(&data).unwrap();
    assert_eq!(
        check_pick(&short, &short_pos, Player::U, "LA"),
        Err(PickError::EndOfTrack)
    );

    // A finished game accepts no pick.
    let mut over = pos.clone();
    over.clock_ms = [0, 5];
    assert_eq!(
        check_pick(&setup, &over, Player::D, "RB"),
        Err(PickError::GameOver)
    );
    assert!(pickable(&setup, &over, Player::D).is_empty());
}

/// A 1x5 corridor: U's C tank starting at e1 moving left, D's C tank
/// starting at a1 moving right; D owns a1-b1, U owns c1-e1.
fn corridor(u_at: usize, d_at: usize) -> (Setup, Position) {
    let data = StateData {
        rows: 1,
        cols: 5,
        territory: vec!["DDUUU".to_owned()],
        tanks: vec![
            TankData {
                owner: Player::U,
                name: "C".to_owned(),
                kind: TankType::C,
                track: ["e1", "d1", "c1", "b1", "a1"].map(String::from).to_vec(),
                at: u_at,
            },
            TankData {
                owner: Player::D,
                name: "C".to_owned(),
                kind: TankType::C,
                track: ["a1", "b1", "c1", "d1", "e1"].map(String::from).to_vec(),
                at: d_at,
            },
        ],
        round: 0,
        clock_ms: [INITIAL_CLOCK_MS; 2],
    };
    Setup::from_data(&data).unwrap()
}

#[test]
fn contested_square_goes_to_its_owner() {
    // U at d1, D at b1: both want c1, which U owns.
    let (setup, mut pos) = corridor(1, 1);
    let events = round(&setup, &mut pos, "C", "C");
    let u = id(&setup, &pos, Player::U, "C");
    let d = id(&setup, &pos, Player::D, "C");
    assert_eq!(
        events[0],
        Event::Moved {
            tank: u,
            from: cell("d1"),
            to: cell("c1")
        }
    );
    assert_eq!(
        events[1],
        Event::Blocked {
            tank: d,
            from: cell("b1"),
            to: cell("c1")
        }
    );
    // C tanks fire two squares away; c1 and b1 are one apart: no hits.
    assert_eq!(events.len(), 2);
    assert_eq!(pos.at, vec![2, 1]);
}

#[test]
fn territory_changes_hands_only_when_an_enemy_enters() {
    let (setup, mut pos) = corridor(0, 0);
    // U: e1 -> d1; D: a1 -> b1 (its own square).
    round(&setup, &mut pos, "C", "C");
    assert_eq!(territory(&pos, Player::U), 3);
    // Both C tanks now two apart (b1, d1): both destroyed at once.
    assert_eq!(surviving(&setup, &pos, Player::U), 0);
    assert_eq!(surviving(&setup, &pos, Player::D), 0);
    // Nobody can move: the game is over. Tanks are level (0-0); U owns
    // c1-e1 (3), D a1-b1 (2): U wins on territory.
    let end = outcome(&setup, &pos).unwrap();
    assert_eq!(
        end,
        Outcome {
            winner: Some(Player::U),
            reason: EndReason::NoMoves
        }
    );
}

#[test]
fn firing_patterns() {
    use TankType::*;
    // A 5x5 board, a D target in the middle (c3) and one U shooter of each
    // type at every square; who hits c3?
    for (kind, hits) in [
        (A, vec!["b2", "b4", "d2", "d4"]),
        (B, vec!["b3", "c2", "c4", "d3"]),
        (C, vec!["a3", "c1", "c5", "e3"]),
    ] {
        let mut hitting = Vec::new();
        for col in 0..5u8 {
            for row in 0..5u8 {
                let at = Cell { col, row };
                if at == cell("c3") {
                    continue;
                }
                let data = StateData {
                    rows: 5,
                    cols: 5,
                    territory: vec!["UUUUU".to_owned(); 5],
                    tanks: vec![
                        TankData {
                            owner: Player::U,
                            name: "S".into(),
                            kind,
                            track: vec![at.to_string()],
                            at: 0,
                        },
                        TankData {
                            owner: Player::D,
                            name: "T".into(),
                            kind: A,
                            track: vec!["c3".into()],
                            at: 0,
                        },
                        // Movers so that a round can be played.
                        TankData {
                            owner: Player::U,
                            name: "M".into(),
                            kind: A,
                            track: vec!["a5".into(), "a4".into()],
                            at: 0,
                        },
                        TankData {
                            owner: Player::D,
                            name: "M".into(),
                            kind: A,
                            track: vec!["e1".into(), "e2".into()],
                            at: 0,
                        },
                    ],
                    round: 0,
                    clock_ms: [INITIAL_CLOCK_MS; 2],
                };
                // Skip shooters on a mover's square or in its way.
                let Ok((setup, mut pos)) = Setup::from_data(&data) else {
                    continue;
                };
                let picks = [
                    check_pick(&setup, &pos, Player::U, "M"),
                    check_pick(&setup, &pos, Player::D, "M"),
                ];
                let [Ok(u), Ok(d)] = picks else { continue };
                let events = play_round(&setup, &mut pos, [u, d], [0, 0]);
                // Tank 0 is the shooter, tank 1 the target.
                if events
                    .iter()
                    .any(|e| matches!(e, Event::Destroyed { tank: 1, by, .. } if by.contains(&0)))
                {
                    hitting.push(at.to_string());
                }
            }
        }
        hitting.sort();
        assert_eq!(hitting, hits, "{kind:?}");
    }
}

#[test]
fn clocks_run_out() {
    let (setup, pos) = default_state();
    let picks = [
        id(&setup, &pos, Player::U, "LA"),
        id(&setup, &pos, Player::D, "RC"),
    ];
    // Spending time is charged to the clock.
    let mut p = pos.clone();
    let events = play_round(&setup, &mut p, picks, [1_000, 2_500]);
    assert_eq!(p.clock_ms, [119_000, 117_500]);
    assert!(events.iter().any(|e| matches!(e, Event::Moved { .. })));
    // U's clock hits exactly 0: U loses, and the moves are not executed.
    let mut p = pos.clone();
    let events = play_round(&setup, &mut p, picks, [120_000, 10]);
    assert_eq!(events, vec![Event::Timeout { player: Player::U }]);
    assert_eq!(p.at, pos.at);
    assert_eq!(p.round, 0);
    assert_eq!(
        outcome(&setup, &p),
        Some(Outcome {
            winner: Some(Player::D),
            reason: EndReason::Time
        })
    );
    // Both at once: a draw.
    let mut p = pos.clone();
    let events = play_round(&setup, &mut p, picks, [u64::MAX, 200_000]);
    assert_eq!(events.len(), 2);
    assert_eq!(
        outcome(&setup, &p),
        Some(Outcome {
            winner: None,
            reason: EndReason::Time
        })
    );
}

#[test]
fn invalid_states() {
    let (setup, pos) = default_state();
    let base = setup.to_data(&pos);
    let mut cases: Vec<(StateData, &str)> = Vec::new();
    let mut d = base.clone();
    d.tanks[1].at = 0;
    d.tanks[1].track = d.tanks[0].track.clone();
    cases.push((d, "two tanks stand on a6"));
    let mut d = base.clone();
    d.tanks[1].name = d.tanks[0].name.clone();
    cases.push((d, "two tanks named"));
    let mut d = base.clone();
    d.tanks[0].track.push("a0".into());
    cases.push((d, "leaves the board"));
    let mut d = base.clone();
    d.tanks[0].track.push("g1".into());
    cases.push((d, "leaves the board"));
    let mut d = base.clone();
    d.tanks[0].track = vec!["a6".into(), "b5".into()];
    cases.push((d, "not orthogonal neighbours"));
    let mut d = base.clone();
    d.tanks[0].at = 6;
    cases.push((d, "index 6 of a track of 6"));
    let mut d = base.clone();
    d.territory[0] = "UUUUU".into();
    cases.push((d, "territory"));
    let mut d = base;
    d.rows = 0;
    cases.push((d, "1 to 26 rows"));
    for (data, expected) in cases {
        let err = Setup::from_data(&data).unwrap_err();
        assert!(err.to_string().contains(expected), "{err} vs {expected}");
    }
}

#[test]
fn state_data_round_trips() {
    let (setup, mut pos) = default_state();
    round(&setup, &mut pos, "LA", "RC");
    let data = setup.to_data(&pos);
    let (setup2, pos2) = Setup::from_data(&data).unwrap();
    assert_eq!(setup2.to_data(&pos2).tanks.len(), 12);
    assert_eq!(setup2, setup);
    assert_eq!(pos2, pos);

    // The same state written as inline small strings has the same texts,
    // and is read back from borrowed texts to the same state.
    let inline = setup.to_data_as::<compact_str::CompactString>(&pos);
    assert_eq!(inline.territory, data.territory);
    for (a, b) in inline.tanks.iter().zip(&data.tanks) {
        assert_eq!(a.name, b.name);
        assert_eq!(a.track, b.track);
    }
    let borrowed = StateData {
        rows: inline.rows,
        cols: inline.cols,
        territory: inline.territory.iter().map(|row| row.as_str()).collect(),
        tanks: inline
            .tanks
            .iter()
            .map(|t| TankData {
                owner: t.owner,
                name: t.name.as_str(),
                kind: t.kind,
                track: t.track.iter().map(|square| square.as_str()).collect(),
                at: t.at,
            })
            .collect(),
        round: inline.round,
        clock_ms: inline.clock_ms,
    };
    assert_eq!(Setup::from_data(&borrowed).unwrap(), (setup, pos));
}

/// A refusal's text is its code: the rule's words are the catalogues'.
#[test]
fn a_refusal_says_its_code() {
    for error in PickError::ALL {
        assert_eq!(error.to_string(), error.code());
    }
}
