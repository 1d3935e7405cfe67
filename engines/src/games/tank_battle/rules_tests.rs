//! Rule tests: constructed positions on the standard layout and on custom
//! layouts, with expectations worked out by hand from docs/TANK-BATTLE.md.
//!
//! Standard layout (docs/TANK-BATTLE.md), for reading the tests:
//!
//! ```text
//!          a b c d e f g h i j k
//! rank 11  B b b b b . . . . . .
//! rank 10  b b b b . . # . . . .
//! rank  9  b b b . . # . . . . .
//! rank  8  b b . # . . . . # . .
//! rank  7  . . . . ~ ~ ~ . . . .
//! rank  6  . # . . ~ ~ ~ . . # .
//! rank  5  . . . . ~ ~ ~ . . . .
//! rank  4  . . # . . . . # . w w
//! rank  3  . . . . . # . . w w w
//! rank  2  . . . . # . . w w w w
//! rank  1  . . . . . . w w w w W
//! ```

use super::perft::perft;
use super::*;

// ---------------------------------------------------------------------------
// Helpers: squares, layouts and positions written as lists of squares.
// ---------------------------------------------------------------------------

fn sq(text: &str) -> Square {
    text.parse()
        .unwrap_or_else(|e| panic!("bad square {text:?}: {e}"))
}

fn mv(text: &str) -> MoveText {
    text.parse()
        .unwrap_or_else(|e| panic!("bad move {text:?}: {e}"))
}

/// An 11x11 grid of characters, filled from `(squares, char)` groups where
/// `squares` is a space-separated list such as `"c9 d9 c8"`.
fn grid(groups: &[(&str, char)], blank: char) -> [[char; 11]; 11] {
    let mut cells = [[blank; 11]; 11];
    for (squares, c) in groups {
        for name in squares.split_whitespace() {
            let s = sq(name);
            let cell = &mut cells[s.rank() as usize][s.file() as usize];
            assert_eq!(*cell, blank, "{name} given twice");
            *cell = *c;
        }
    }
    cells
}

/// Layout notation for the given terrain (every other square open).
fn layout_text(groups: &[(&str, char)]) -> String {
    let cells = grid(groups, '.');
    (0..11)
        .rev()
        .map(|rank| cells[rank].iter().collect::<String>())
        .collect::<Vec<_>>()
        .join("/")
}

fn custom_layout(groups: &[(&str, char)]) -> Layout {
    let text = layout_text(groups);
    let layout = Layout::parse(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(layout.to_string(), text);
    layout
}

/// Canonical TBN for the given pieces (`T C t c`), side letter and ply.
fn tbn(groups: &[(&str, char)], side: char, ply: u64) -> String {
    let cells = grid(groups, '.');
    let mut ranks = Vec::new();
    for rank in (0..11).rev() {
        let mut text = String::new();
        let mut empty = 0;
        for &c in &cells[rank] {
            if c == '.' {
                empty += 1;
            } else {
                if empty > 0 {
                    text += &empty.to_string();
                    empty = 0;
                }
                text.push(c);
            }
        }
        if empty > 0 {
            text += &empty.to_string();
        }
        ranks.push(text);
    }
    format!("{} {side} {ply}", ranks.join("/"))
}

fn position(groups: &[(&str, char)], side: char, layout: &Layout) -> Position {
    let text = tbn(groups, side, 0);
    let pos = parse_position(&text, layout).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(pos.to_string(), text);
    pos
}

#[track_caller]
fn illegal(pos: &Position, layout: &Layout, text: &str, reason: Reason, square: Option<&str>) {
    let expected = IllegalMove {
        reason,
        square: square.map(sq),
    };
    assert_eq!(
        pos.validate(layout, mv(text)),
        Err(expected),
        "{text} in {pos}"
    );
    assert!(pos.play(layout, mv(text)).is_err(), "{text} in {pos}");
}

#[track_caller]
fn legal(pos: &Position, layout: &Layout, text: &str, canonical: &str) -> Move {
    let m = pos
        .validate(layout, mv(text))
        .unwrap_or_else(|e| panic!("{text} in {pos}: {e:?}"));
    assert_eq!(m.to_string(), canonical, "{text} in {pos}");
    assert!(
        pos.legal_moves(layout).contains(&m),
        "{canonical} validates but is not generated in {pos}"
    );
    m
}

/// The generated moves of the tank on `from`, sorted, in canonical form.
fn moves_from(pos: &Position, layout: &Layout, from: &str) -> Vec<String> {
    let mut out: Vec<String> = pos
        .legal_moves_from(layout, sq(from))
        .iter()
        .map(|m| m.to_string())
        .collect();
    out.sort();
    out
}

fn sorted(list: &[&str]) -> Vec<String> {
    let mut out: Vec<String> = list.iter().map(|s| s.to_string()).collect();
    out.sort();
    out
}

/// Custom layout X: a small black base (c9 d9 c8, start e9) bordered by
/// contaminated squares (d8 e8) and mines (c7 b9); more contamination at
/// f5 f6; White's base in the bottom-right corner.
///
/// ```text
///          a b c d e f g h i j k
/// rank 11  . . . . . . . . . . .
/// rank 10  . . . . . . . . . . .
/// rank  9  . # b b B . . . . . .
/// rank  8  . . b ~ ~ . . . . . .
/// rank  7  . . # . . . . . . . .
/// rank  6  . . . . . ~ . . . . .
/// rank  5  . . . . . ~ . . . . .
/// rank  2  . . . . . . . . . w w
/// rank  1  . . . . . . . . . w W
/// ```
fn layout_x() -> Layout {
    custom_layout(&[
        ("c9 d9 c8", 'b'),
        ("e9", 'B'),
        ("d8 e8 f5 f6", '~'),
        ("c7 b9", '#'),
        ("j2 k2 j1", 'w'),
        ("k1", 'W'),
    ])
}

/// Custom layout Y: an open board with a three-square black base in the
/// middle of rank 6 (e6, start f6, g6) and White's start on a1.
fn layout_y() -> Layout {
    custom_layout(&[("e6 g6", 'b'), ("f6", 'B'), ("a1", 'W')])
}

/// Custom layout Z: open board, mines boxing in the a1 corner.
fn layout_z() -> Layout {
    custom_layout(&[("a2 b2 b1", '#'), ("k1", 'W'), ("k11", 'B')])
}

// ---------------------------------------------------------------------------
// Helpers are themselves checked against hand-written notation.
// ---------------------------------------------------------------------------

#[test]
fn helpers_write_the_notation_of_the_spec() {
    assert_eq!(
        tbn(&[("k1", 'C'), ("a11", 'c')], 'b', 17),
        "c10/11/11/11/11/11/11/11/11/11/10C b 17"
    );
    let initial = tbn(
        &[
            ("a11", 'c'),
            ("b11 c11 d11 e11 a10 b10 c10 d10 a9 b9 c9 a8 b8", 't'),
            ("j4 k4 i3 j3 k3 h2 i2 j2 k2 g1 h1 i1 j1", 'T'),
            ("k1", 'C'),
        ],
        'w',
        0,
    );
    assert_eq!(
        initial,
        "ctttt6/tttt7/ttt8/tt9/11/11/11/9TT/8TTT/7TTTT/6TTTTC w 0"
    );
    assert_eq!(
        Position::initial(&Layout::STANDARD).to_string(),
        initial,
        "the standard start position"
    );
    assert_eq!(
        layout_text(&[
            ("a11", 'B'),
            ("b11 c11 d11 e11 a10 b10 c10 d10 a9 b9 c9 a8 b8", 'b'),
            ("j4 k4 i3 j3 k3 h2 i2 j2 k2 g1 h1 i1 j1", 'w'),
            ("k1", 'W'),
            ("g10 f9 d8 i8 b6 j6 c4 h4 f3 e2", '#'),
            ("e7 f7 g7 e6 f6 g6 e5 f5 g5", '~'),
        ]),
        "Bbbbb....../bbbb..#..../bbb..#...../bb.#....#../....~~~..../.#..~~~..#./....~~~..../..#....#.ww/.....#..www/....#..wwww/......wwwwW",
        "the standard layout"
    );
}

#[test]
fn layouts_of_the_tests_have_the_intended_terrain() {
    let x = layout_x();
    assert_eq!(x.terrain(sq("d9")), Terrain::Base(Side::Black));
    assert_eq!(x.terrain(sq("d8")), Terrain::Contaminated);
    assert_eq!(x.terrain(sq("c7")), Terrain::Mine);
    assert_eq!(x.terrain(sq("j1")), Terrain::Base(Side::White));
    assert_eq!(x.terrain(sq("a1")), Terrain::Open);
    assert_eq!(x.commander_start(Side::Black), sq("e9"));
    assert_eq!(x.commander_start(Side::White), sq("k1"));
    assert_eq!(x.base(Side::Black).count(), 4);
    assert_eq!(x.base(Side::White).count(), 4);
    assert_eq!(x.mines().count(), 2);
    assert_eq!(x.contaminated().count(), 4);
    let y = layout_y();
    assert_eq!(y.base(Side::White).count(), 1);
    assert_eq!(y.commander_start(Side::White), sq("a1"));
    assert_eq!(y.base(Side::Black).count(), 3);
    // A custom layout's initial position: a commander on each start and a
    // normal tank on every other base square.
    assert_eq!(
        Position::initial(&y).to_string(),
        "11/11/11/11/11/4tct4/11/11/11/11/C10 w 0"
    );
}

#[test]
fn invalid_positions_are_rejected() {
    let layout = Layout::STANDARD;
    let invalid = |groups: &[(&str, char)]| parse_position(&tbn(groups, 'w', 0), &layout);
    assert_eq!(
        invalid(&[("c4", 'T'), ("a1", 't')]),
        Err(PositionParseError::Invalid(PositionError::TankOnMine(sq(
            "c4"
        ))))
    );
    assert_eq!(
        invalid(&[("j6", 'C'), ("a1", 't')]),
        Err(PositionParseError::Invalid(PositionError::TankOnMine(sq(
            "j6"
        ))))
    );
    assert_eq!(
        invalid(&[("f6", 't'), ("a1", 'T')]),
        Err(PositionParseError::Invalid(
            PositionError::TankOnContaminated(sq("f6"))
        ))
    );
    assert_eq!(
        invalid(&[("a1 b1", 'C'), ("a5", 't')]),
        Err(PositionParseError::Invalid(
            PositionError::SeveralCommanders(Side::White)
        ))
    );
    assert_eq!(
        invalid(&[("a1", 'T'), ("a5 b5", 'c')]),
        Err(PositionParseError::Invalid(
            PositionError::SeveralCommanders(Side::Black)
        ))
    );
    // Commanders may stand on contaminated squares.
    assert!(invalid(&[("e5", 'C'), ("g7", 'c')]).is_ok());
    // A position valid on one layout may be invalid on another.
    let text = tbn(&[("c7", 'T'), ("a1", 't')], 'w', 0);
    assert!(parse_position(&text, &layout).is_ok());
    assert!(matches!(
        parse_position(&text, &layout_x()),
        Err(PositionParseError::Invalid(PositionError::TankOnMine(s))) if s == sq("c7")
    ));
    assert!(matches!(
        parse_position("11/11/11 w 0", &layout),
        Err(PositionParseError::Parse(_))
    ));
}

// ---------------------------------------------------------------------------
// docs/TANK-BATTLE.md, the reasons: every reason code, with the square where it fails.
// ---------------------------------------------------------------------------

#[test]
fn reason_game_over_comes_first() {
    let layout = Layout::STANDARD;
    // White's only tank stands in Black's base: the game is over.
    let pos = position(&[("b10", 'T'), ("a3 k8", 't')], 'w', &layout);
    assert!(pos.is_finished(&layout));
    // A move that would otherwise be legal (inside the base).
    illegal(&pos, &layout, "b10-c10", Reason::GameOver, None);
    // Before NO_TANK_AT_FROM, NOT_YOUR_TANK and NOT_A_LINE.
    illegal(&pos, &layout, "e4-e5", Reason::GameOver, None);
    illegal(&pos, &layout, "a3-a4", Reason::GameOver, None);
    illegal(&pos, &layout, "b10-c3", Reason::GameOver, None);
    // Same with Black to move.
    let pos = position(&[("b10", 'T'), ("a3 k8", 't')], 'b', &layout);
    illegal(&pos, &layout, "a3-a4", Reason::GameOver, None);
}

#[test]
fn reasons_of_the_from_square_and_the_line() {
    let layout = Layout::STANDARD;
    let pos = Position::initial(&layout);
    illegal(&pos, &layout, "e5-e6", Reason::NoTankAtFrom, Some("e5"));
    // NO_TANK_AT_FROM before NOT_A_LINE.
    illegal(&pos, &layout, "a1-b3", Reason::NoTankAtFrom, Some("a1"));
    illegal(&pos, &layout, "f6-f6", Reason::NoTankAtFrom, Some("f6"));
    // White to move, Black's commander and a black tank.
    illegal(&pos, &layout, "a11-a10", Reason::NotYourTank, Some("a11"));
    illegal(&pos, &layout, "b8-c7", Reason::NotYourTank, Some("b8"));
    // NOT_YOUR_TANK before NOT_A_LINE.
    illegal(&pos, &layout, "b8-d9", Reason::NotYourTank, Some("b8"));
    // Not on one rank, file or diagonal; or the same square.
    illegal(&pos, &layout, "j4-h5", Reason::NotALine, None);
    illegal(&pos, &layout, "j4-j4", Reason::NotALine, None);
    illegal(&pos, &layout, "k1-a2", Reason::NotALine, None);
    // NOT_A_LINE is decided before anything on the path: k4-g6 (4 files,
    // 2 ranks) is no line even though k4 is White's own tank.
    illegal(&pos, &layout, "k4-g6", Reason::NotALine, None);

    // Black to move: now White's tanks are not Black's.
    let pos = parse_position(
        "ctttt6/tttt7/ttt8/tt9/11/11/11/9TT/8TTT/7TTTT/6TTTTC b 0",
        &layout,
    )
    .unwrap();
    illegal(&pos, &layout, "k1-k2", Reason::NotYourTank, Some("k1"));
    illegal(&pos, &layout, "k6-k7", Reason::NoTankAtFrom, Some("k6"));
    legal(&pos, &layout, "b8-b7", "b8-b7");
}

#[test]
fn reasons_own_tank_and_blocked_path_in_the_initial_position() {
    let layout = Layout::STANDARD;
    let pos = Position::initial(&layout);
    illegal(&pos, &layout, "k1-k2", Reason::OwnTankAtTo, Some("k2"));
    illegal(&pos, &layout, "k1-j2", Reason::OwnTankAtTo, Some("j2"));
    illegal(&pos, &layout, "k1-k5", Reason::PathBlocked, Some("k2"));
    illegal(&pos, &layout, "k1-h4", Reason::PathBlocked, Some("j2"));
    illegal(&pos, &layout, "k1-a1", Reason::PathBlocked, Some("j1"));
    legal(&pos, &layout, "j4-j5", "j4-j5");
    legal(&pos, &layout, "J4J5", "j4-j5");
    legal(&pos, &layout, "j4xj5", "j4-j5");
    // Mines seen from the initial position: j4-j6 enters the mine j6, j4-j8
    // would pass it; h2-h5 passes h3 and meets the mine h4. g1-e3 passes f2
    // and enters e3, both open: legal.
    illegal(&pos, &layout, "j4-j6", Reason::Mine, Some("j6"));
    illegal(&pos, &layout, "j4-j8", Reason::Mine, Some("j6"));
    illegal(&pos, &layout, "h2-h5", Reason::Mine, Some("h4"));
    legal(&pos, &layout, "g1-e3", "g1-e3");
}

#[test]
fn reason_mine_and_blocked_path_follow_the_walk() {
    let layout = Layout::STANDARD;
    // File c: own tank c7, black tank c6, own tank c5, mine c4, own tank c3.
    let pos = position(&[("c7 c5 c3 k6", 'T'), ("c6 a5", 't')], 'w', &layout);
    // Entering and passing a mine.
    illegal(&pos, &layout, "c5-c4", Reason::Mine, Some("c4"));
    illegal(&pos, &layout, "c3-c4", Reason::Mine, Some("c4"));
    illegal(&pos, &layout, "c3-c6", Reason::Mine, Some("c4"));
    // The mine comes before the own tank at the destination.
    illegal(&pos, &layout, "c5-c3", Reason::Mine, Some("c4"));
    // The mine comes before a blocked square further on.
    illegal(&pos, &layout, "c5-c2", Reason::Mine, Some("c4"));
    illegal(&pos, &layout, "c5-c1", Reason::Mine, Some("c4"));
    // A blocked square comes before a mine further on.
    illegal(&pos, &layout, "c7-c5", Reason::PathBlocked, Some("c6"));
    illegal(&pos, &layout, "c7-c4", Reason::PathBlocked, Some("c6"));
    illegal(&pos, &layout, "c7-c1", Reason::PathBlocked, Some("c6"));
    // c3 south: c2, c1 are open.
    legal(&pos, &layout, "c3-c1", "c3-c1");
    // Captures on both sides of the black tank.
    legal(&pos, &layout, "c7xc6", "c7xc6");
    legal(&pos, &layout, "c5-c6", "c5xc6");
    // Other mines: diagonals and ranks.
    illegal(&pos, &layout, "c5-a7", Reason::Mine, Some("b6"));
    illegal(&pos, &layout, "c5-b6", Reason::Mine, Some("b6"));
    illegal(&pos, &layout, "c7-a5", Reason::Mine, Some("b6"));
    illegal(&pos, &layout, "k6-a6", Reason::Mine, Some("j6"));
    illegal(&pos, &layout, "c3-h3", Reason::Mine, Some("f3"));
    legal(&pos, &layout, "c3-e3", "c3-e3");
}

#[test]
fn reason_contaminated_for_normal_tanks() {
    let layout = Layout::STANDARD;
    // Black's commander on the contaminated f6; a white normal tank on d6,
    // h5 and d4.
    let pos = position(
        &[("d6 h5 d4", 'T'), ("a1", 'C'), ("f6", 'c'), ("a9", 't')],
        'w',
        &layout,
    );
    illegal(&pos, &layout, "d6-e6", Reason::Contaminated, Some("e6"));
    illegal(&pos, &layout, "d6-h6", Reason::Contaminated, Some("e6"));
    illegal(&pos, &layout, "d6-g9", Reason::Contaminated, Some("e7"));
    illegal(&pos, &layout, "d6-e5", Reason::Contaminated, Some("e5"));
    illegal(&pos, &layout, "h5-g5", Reason::Contaminated, Some("g5"));
    illegal(&pos, &layout, "h5-a5", Reason::Contaminated, Some("g5"));
    illegal(&pos, &layout, "h5-f7", Reason::Contaminated, Some("g6"));
    // A normal tank "capturing" the commander on a contaminated square gets
    // CONTAMINATED at the first contaminated square of its path.
    illegal(&pos, &layout, "d4-f6", Reason::Contaminated, Some("e5"));
    illegal(&pos, &layout, "h5-f5", Reason::Contaminated, Some("g5"));
    // On the occupied contaminated square itself, CONTAMINATED comes before
    // PATH_BLOCKED.
    let pos2 = position(&[("e4 k6", 'T'), ("e5", 'c'), ("a9", 't')], 'w', &layout);
    illegal(&pos2, &layout, "e4-e5", Reason::Contaminated, Some("e5"));
    illegal(&pos2, &layout, "e4-e8", Reason::Contaminated, Some("e5"));
    // Around the area is fine.
    legal(&pos, &layout, "d6-d7", "d6-d7");
    legal(&pos, &layout, "h5-h7", "h5-h7");
    legal(&pos, &layout, "d4-g4", "d4-g4");
    // Hand count of d6: north d7 (d8 mine); south d5 (d4 own); west c6 (b6
    // mine); east e6 and NE e7 contaminated; NW c7, b8 (Black's base, empty),
    // a9 (a black tank: capture); SE e5 contaminated; SW c5, b4, a3.
    assert_eq!(
        moves_from(&pos, &layout, "d6"),
        sorted(&["d6-d7", "d6-d5", "d6-c6", "d6-c7", "d6-b8", "d6xa9", "d6-c5", "d6-b4", "d6-a3"])
    );
    // The commander on f6 cannot be captured by anything.
    assert!(pos.legal_moves(&layout).iter().all(|m| m.to != sq("f6")));
}

#[test]
fn commanders_pass_and_enter_contaminated_squares() {
    let layout = Layout::STANDARD;
    let pos = position(
        &[("h7", 'C'), ("k6", 'T'), ("e6", 'c'), ("a3", 't')],
        'w',
        &layout,
    );
    // Enter, and pass three contaminated squares.
    legal(&pos, &layout, "h7-g7", "h7-g7");
    legal(&pos, &layout, "h7-e7", "h7-e7");
    legal(&pos, &layout, "h7-a7", "h7-a7");
    legal(&pos, &layout, "h7-b1", "h7-b1");
    // Capture on a contaminated square is not allowed.
    let pos = position(
        &[("h6", 'C'), ("k8", 'T'), ("e6", 'c'), ("a3", 't')],
        'w',
        &layout,
    );
    legal(&pos, &layout, "h6-f6", "h6-f6");
    illegal(
        &pos,
        &layout,
        "h6-e6",
        Reason::CaptureInContaminated,
        Some("e6"),
    );
    illegal(
        &pos,
        &layout,
        "h6xe6",
        Reason::CaptureInContaminated,
        Some("e6"),
    );
    // Passing an occupied contaminated square is a blocked path.
    illegal(&pos, &layout, "h6-d6", Reason::PathBlocked, Some("e6"));
    // The black commander on e6 cannot be captured at all.
    assert!(pos.legal_moves(&layout).iter().all(|m| m.to != sq("e6")));

    // A commander passing the contaminated area then meets the mine j6.
    let pos = position(&[("d6", 'C'), ("a1", 'T'), ("a3", 't')], 'w', &layout);
    legal(&pos, &layout, "d6-i6", "d6-i6");
    illegal(&pos, &layout, "d6-j6", Reason::Mine, Some("j6"));
    illegal(&pos, &layout, "d6-k6", Reason::Mine, Some("j6"));

    // A commander standing in the contaminated area moves out of it.
    let pos = position(&[("a1", 'T'), ("f6", 'c'), ("a3", 't')], 'b', &layout);
    legal(&pos, &layout, "f6-f8", "f6-f8");
    legal(&pos, &layout, "f6-f4", "f6-f4");
    illegal(&pos, &layout, "f6-f2", Reason::Mine, Some("f3"));
    illegal(&pos, &layout, "f6-d8", Reason::Mine, Some("d8"));
    // f6 towards a1: e5 (contaminated), d4, c3, b2, and a1 holds White's
    // tank on an open square: a capture.
    let m = legal(&pos, &layout, "f6a1", "f6xa1");
    assert_eq!(m.capture, Some(Role::Tank));
}

#[test]
fn reason_capture_in_contaminated_on_a_custom_layout() {
    let layout = layout_x();
    // White's commander d7, Black's commander on the contaminated e8.
    let pos = position(
        &[("d7", 'C'), ("a1 e6", 'T'), ("e8", 'c'), ("g3", 't')],
        'w',
        &layout,
    );
    illegal(
        &pos,
        &layout,
        "d7-e8",
        Reason::CaptureInContaminated,
        Some("e8"),
    );
    illegal(&pos, &layout, "d7-f9", Reason::PathBlocked, Some("e8"));
    // A normal tank gets CONTAMINATED on the same square.
    illegal(&pos, &layout, "e6-e8", Reason::Contaminated, Some("e8"));
    // The commander enters d8 (contaminated) and passes it into Black's
    // base, through the base and out again: it is not standing in the base,
    // so it is not locked.
    legal(&pos, &layout, "d7-d8", "d7-d8");
    legal(&pos, &layout, "d7-d9", "d7-d9");
    legal(&pos, &layout, "d7-d11", "d7-d11");
    // A normal tank on a1: the diagonal meets f6 (contaminated) after e5.
    legal(&pos, &layout, "a1-e5", "a1-e5");
    illegal(&pos, &layout, "a1-f6", Reason::Contaminated, Some("f6"));
    illegal(&pos, &layout, "a1-k11", Reason::Contaminated, Some("f6"));
    assert!(pos.legal_moves(&layout).iter().all(|m| m.to != sq("e8")));
}

// ---------------------------------------------------------------------------
// Rule 6: locked in the enemy base.
// ---------------------------------------------------------------------------

#[test]
fn tank_in_enemy_base_moves_and_captures_only_inside_it() {
    let layout = Layout::STANDARD;
    let pos = position(&[("b10 k6", 'T'), ("c11 a3", 't')], 'w', &layout);
    assert!(!pos.is_finished(&layout));
    // Worked out by hand from the diagram: west a10; east c10 d10 (e10 is
    // outside); north b11; south b9 b8 (b7 outside); NE c11 (capture); NW
    // a11; SE c9 (d8 is a mine); SW a9.
    assert_eq!(
        moves_from(&pos, &layout, "b10"),
        sorted(&[
            "b10-a10", "b10-c10", "b10-d10", "b10-b11", "b10-b9", "b10-b8", "b10xc11", "b10-a11",
            "b10-c9", "b10-a9"
        ])
    );
    let m = legal(&pos, &layout, "b10-c11", "b10xc11");
    assert_eq!(m.capture, Some(Role::Tank));
    illegal(
        &pos,
        &layout,
        "b10-e10",
        Reason::LockedInEnemyBase,
        Some("e10"),
    );
    illegal(
        &pos,
        &layout,
        "b10-k10",
        Reason::LockedInEnemyBase,
        Some("e10"),
    );
    illegal(
        &pos,
        &layout,
        "b10-b7",
        Reason::LockedInEnemyBase,
        Some("b7"),
    );
    illegal(
        &pos,
        &layout,
        "b10-b1",
        Reason::LockedInEnemyBase,
        Some("b7"),
    );
    // Leaving the base onto a mine: MINE is checked first at that square.
    illegal(&pos, &layout, "b10-d8", Reason::Mine, Some("d8"));
    illegal(&pos, &layout, "b10-e7", Reason::Mine, Some("d8"));

    // Black's tank c11 stands in its OWN base: not locked.
    let pos_b = position(&[("b10 k6", 'T'), ("c11 a3", 't')], 'b', &layout);
    legal(&pos_b, &layout, "c11-c5", "c11-c5");
    legal(&pos_b, &layout, "c11-f8", "c11-f8");
    legal(&pos_b, &layout, "c11-b10", "c11xb10");
    illegal(&pos_b, &layout, "c11-c4", Reason::Mine, Some("c4"));
    // Black's c11 down file c: c10, c9 (base), c8, c7, c6, c5 (open), c4
    // mine. West b11, a11; east d11, e11 (base), f11 .. k11 (open). NW none
    // (rank 11). SW b10 (capture). SE d10, e9, f8, g7 (contaminated).
    assert_eq!(
        moves_from(&pos_b, &layout, "c11"),
        sorted(&[
            "c11-c10", "c11-c9", "c11-c8", "c11-c7", "c11-c6", "c11-c5", "c11-b11", "c11-a11",
            "c11-d11", "c11-e11", "c11-f11", "c11-g11", "c11-h11", "c11-i11", "c11-j11", "c11-k11",
            "c11xb10", "c11-d10", "c11-e9", "c11-f8"
        ])
    );
}

#[test]
fn locked_before_blocked_and_capture_outside_the_base() {
    let layout = Layout::STANDARD;
    let pos = position(&[("a8 k6", 'T'), ("a7 h9", 't')], 'w', &layout);
    // a7 holds an enemy tank outside the base: no capture out of the base.
    illegal(
        &pos,
        &layout,
        "a8xa7",
        Reason::LockedInEnemyBase,
        Some("a7"),
    );
    // An occupied square outside the base on the path: LOCKED before
    // PATH_BLOCKED.
    illegal(
        &pos,
        &layout,
        "a8-a6",
        Reason::LockedInEnemyBase,
        Some("a7"),
    );
    illegal(
        &pos,
        &layout,
        "a8-c8",
        Reason::LockedInEnemyBase,
        Some("c8"),
    );
    illegal(
        &pos,
        &layout,
        "a8-c6",
        Reason::LockedInEnemyBase,
        Some("b7"),
    );
    assert_eq!(
        moves_from(&pos, &layout, "a8"),
        sorted(&["a8-a9", "a8-a10", "a8-a11", "a8-b8", "a8-b9", "a8-c10", "a8-d11"])
    );
    // Walking inside the base first, then out: the first outside square.
    let pos = position(&[("a10 k6", 'T'), ("a3", 't')], 'w', &layout);
    illegal(
        &pos,
        &layout,
        "a10-h10",
        Reason::LockedInEnemyBase,
        Some("e10"),
    );
    illegal(
        &pos,
        &layout,
        "a10-g10",
        Reason::LockedInEnemyBase,
        Some("e10"),
    );
    legal(&pos, &layout, "a10-d10", "a10-d10");
    illegal(
        &pos,
        &layout,
        "a10-d7",
        Reason::LockedInEnemyBase,
        Some("c8"),
    );
    // c9 (in the base) to d8: a mine outside the base: MINE first.
    let pos = position(&[("c9 k6", 'T'), ("a3", 't')], 'w', &layout);
    illegal(&pos, &layout, "c9-d8", Reason::Mine, Some("d8"));
    illegal(&pos, &layout, "c9-e7", Reason::Mine, Some("d8"));
    illegal(
        &pos,
        &layout,
        "c9-d9",
        Reason::LockedInEnemyBase,
        Some("d9"),
    );
}

#[test]
fn commander_in_enemy_base_is_locked_too() {
    let layout = Layout::STANDARD;
    let pos = position(
        &[("c9", 'C'), ("k6", 'T'), ("b9 d10 a3", 't')],
        'w',
        &layout,
    );
    // West b9 (capture); east d9 outside; north c10 c11; south c8 outside;
    // NE d10 (capture); NW b10 a11; SE d8 mine; SW b8 (a7 outside).
    assert_eq!(
        moves_from(&pos, &layout, "c9"),
        sorted(&["c9xb9", "c9-c10", "c9-c11", "c9xd10", "c9-b10", "c9-a11", "c9-b8"])
    );
    illegal(
        &pos,
        &layout,
        "c9-c8",
        Reason::LockedInEnemyBase,
        Some("c8"),
    );
    illegal(
        &pos,
        &layout,
        "c9-c5",
        Reason::LockedInEnemyBase,
        Some("c8"),
    );
    illegal(
        &pos,
        &layout,
        "c9-e9",
        Reason::LockedInEnemyBase,
        Some("d9"),
    );
    illegal(
        &pos,
        &layout,
        "c9-a7",
        Reason::LockedInEnemyBase,
        Some("a7"),
    );
    illegal(&pos, &layout, "c9-d8", Reason::Mine, Some("d8"));
    let m = legal(&pos, &layout, "c9-d10", "c9xd10");
    assert_eq!(m.capture, Some(Role::Tank));

    // Black's commander in White's base.
    let pos = position(&[("a1 k6", 'T'), ("i2", 'c'), ("a5", 't')], 'b', &layout);
    illegal(
        &pos,
        &layout,
        "i2-g2",
        Reason::LockedInEnemyBase,
        Some("g2"),
    );
    illegal(
        &pos,
        &layout,
        "i2-i4",
        Reason::LockedInEnemyBase,
        Some("i4"),
    );
    illegal(
        &pos,
        &layout,
        "i2-f5",
        Reason::LockedInEnemyBase,
        Some("h3"),
    );
    legal(&pos, &layout, "i2-k4", "i2-k4");
    legal(&pos, &layout, "i2-h1", "i2-h1");
    illegal(&pos, &layout, "i2-g1", Reason::NotALine, None);
    // North i3 (i4 outside); south i1; west h2 (g2 outside); east j2 k2;
    // NE j3 k4; NW h3 outside; SE j1; SW h1.
    assert_eq!(
        moves_from(&pos, &layout, "i2"),
        sorted(&["i2-i3", "i2-i1", "i2-h2", "i2-j2", "i2-k2", "i2-j3", "i2-k4", "i2-j1", "i2-h1"])
    );
}

#[test]
fn locking_on_a_custom_layout_with_contaminated_and_mined_borders() {
    let layout = layout_x();
    let pos = position(&[("d9 c8 a1", 'T'), ("g3", 't'), ("f6", 'c')], 'w', &layout);
    assert!(!pos.is_finished(&layout));
    // A contaminated square outside the base: CONTAMINATED comes before
    // LOCKED_IN_ENEMY_BASE for a normal tank.
    illegal(&pos, &layout, "d9-d8", Reason::Contaminated, Some("d8"));
    illegal(&pos, &layout, "d9-e8", Reason::Contaminated, Some("e8"));
    illegal(&pos, &layout, "c8-d8", Reason::Contaminated, Some("d8"));
    illegal(&pos, &layout, "c8-e8", Reason::Contaminated, Some("d8"));
    // A mine outside the base: MINE first.
    illegal(&pos, &layout, "c8-c7", Reason::Mine, Some("c7"));
    illegal(&pos, &layout, "c8-c5", Reason::Mine, Some("c7"));
    illegal(&pos, &layout, "c8-b9", Reason::Mine, Some("b9"));
    illegal(&pos, &layout, "d9-b9", Reason::Mine, Some("b9"));
    illegal(&pos, &layout, "d9-a9", Reason::Mine, Some("b9"));
    // Open squares outside the base.
    illegal(
        &pos,
        &layout,
        "d9-d10",
        Reason::LockedInEnemyBase,
        Some("d10"),
    );
    illegal(
        &pos,
        &layout,
        "d9-d11",
        Reason::LockedInEnemyBase,
        Some("d10"),
    );
    illegal(
        &pos,
        &layout,
        "d9-g9",
        Reason::LockedInEnemyBase,
        Some("f9"),
    );
    illegal(
        &pos,
        &layout,
        "c8-c10",
        Reason::LockedInEnemyBase,
        Some("c10"),
    );
    illegal(
        &pos,
        &layout,
        "c8-a8",
        Reason::LockedInEnemyBase,
        Some("b8"),
    );
    // Own tanks.
    illegal(&pos, &layout, "d9-c8", Reason::OwnTankAtTo, Some("c8"));
    illegal(&pos, &layout, "d9-b7", Reason::PathBlocked, Some("c8"));
    assert_eq!(moves_from(&pos, &layout, "d9"), sorted(&["d9-c9", "d9-e9"]));
    assert_eq!(moves_from(&pos, &layout, "c8"), sorted(&["c8-c9"]));
    // a1 is open on this layout: 10 north, 10 east (into White's own base),
    // 4 on the diagonal up to f6 (contaminated).
    assert_eq!(moves_from(&pos, &layout, "a1").len(), 24);
    assert_eq!(pos.legal_moves(&layout).len(), 27);

    // A commander is not stopped by contamination but is locked.
    let pos = position(
        &[("d9", 'C'), ("c8 a1", 'T'), ("g3", 't'), ("f6", 'c')],
        'w',
        &layout,
    );
    illegal(
        &pos,
        &layout,
        "d9-d8",
        Reason::LockedInEnemyBase,
        Some("d8"),
    );
    illegal(
        &pos,
        &layout,
        "d9-e8",
        Reason::LockedInEnemyBase,
        Some("e8"),
    );
    illegal(&pos, &layout, "d9-b9", Reason::Mine, Some("b9"));
    assert_eq!(moves_from(&pos, &layout, "d9"), sorted(&["d9-c9", "d9-e9"]));
}

#[test]
fn passing_through_the_enemy_base_does_not_lock() {
    let layout = layout_y();
    let pos = position(&[("a6 a1", 'T'), ("k10", 't'), ("f11", 'c')], 'w', &layout);
    // a6 along rank 6 through Black's base e6 f6 g6 and out again.
    legal(&pos, &layout, "a6-k6", "a6-k6");
    legal(&pos, &layout, "a6-h6", "a6-h6");
    // a1 is White's own base (its commander start): not locked.
    legal(&pos, &layout, "a1-a5", "a1-a5");
    legal(&pos, &layout, "a1-k11", "a1-k11");
    legal(&pos, &layout, "a1-k1", "a1-k1");
    // Enter the base; now the tank is locked.
    let (pos, _) = pos.play(&layout, mv("a6-f6")).unwrap();
    let (pos, _) = pos.play(&layout, mv("k10-k9")).unwrap();
    assert_eq!(pos.turn(), Side::White);
    assert_eq!(moves_from(&pos, &layout, "f6"), sorted(&["f6-e6", "f6-g6"]));
    illegal(
        &pos,
        &layout,
        "f6-f7",
        Reason::LockedInEnemyBase,
        Some("f7"),
    );
    illegal(
        &pos,
        &layout,
        "f6-k6",
        Reason::LockedInEnemyBase,
        Some("h6"),
    );
    illegal(
        &pos,
        &layout,
        "f6-d6",
        Reason::LockedInEnemyBase,
        Some("d6"),
    );
    illegal(
        &pos,
        &layout,
        "f6-c3",
        Reason::LockedInEnemyBase,
        Some("e5"),
    );
    // White's other tank is still outside, so the game goes on.
    assert!(!pos.is_finished(&layout));
}

// ---------------------------------------------------------------------------
// Rule 4: captures.
// ---------------------------------------------------------------------------

#[test]
fn captures_remove_the_enemy_tank() {
    let layout = Layout::STANDARD;
    let pos = position(
        &[("d4 a1", 'T'), ("k7", 'C'), ("d7 a3", 't'), ("k9", 'c')],
        'w',
        &layout,
    );
    let m = legal(&pos, &layout, "d4-d7", "d4xd7");
    assert_eq!(
        m,
        Move {
            from: sq("d4"),
            to: sq("d7"),
            capture: Some(Role::Tank)
        }
    );
    legal(&pos, &layout, "D4D7", "d4xd7");
    legal(&pos, &layout, "a1xa3", "a1xa3");
    let quiet = legal(&pos, &layout, "d4xd5", "d4-d5");
    assert_eq!(quiet.capture, None);
    assert!(!quiet.is_capture());
    // Commander capture.
    let m = legal(&pos, &layout, "k7-k9", "k7xk9");
    assert_eq!(m.capture, Some(Role::Commander));
    // Capture only at the destination: passing an enemy tank is blocked.
    illegal(&pos, &layout, "d4-d8", Reason::PathBlocked, Some("d7"));
    illegal(&pos, &layout, "k7-k10", Reason::PathBlocked, Some("k9"));

    let (after, played) = pos.play(&layout, mv("k7k9")).unwrap();
    assert_eq!(played.to_string(), "k7xk9");
    assert_eq!(
        after.to_string(),
        tbn(&[("d4 a1", 'T'), ("k9", 'C'), ("d7 a3", 't')], 'b', 1)
    );
    assert_eq!(
        after.to_string(),
        "11/11/10C/11/3t7/11/11/3T7/t10/11/T10 b 1"
    );
    assert_eq!(
        after.piece_at(sq("k9")),
        Some(Piece {
            side: Side::White,
            role: Role::Commander
        })
    );
    assert_eq!(after.piece_at(sq("k7")), None);
    assert_eq!(after.tanks(Side::Black).count(), 2);
    assert_eq!(after.tanks(Side::White).count(), 3);
    assert_eq!(after.commanders(), Bitboard::from_square(sq("k9")));
    assert!((after.tanks(Side::Black) & after.commanders()).is_empty());

    let (after, _) = pos.play(&layout, mv("d4-d7")).unwrap();
    assert_eq!(
        after.piece_at(sq("d7")),
        Some(Piece {
            side: Side::White,
            role: Role::Tank
        })
    );
    assert_eq!(after.tanks(Side::Black).count(), 2);
    assert_eq!(after.commanders().count(), 2);
    assert_eq!(
        after.to_string(),
        "11/11/10c/11/3T6C/11/11/11/t10/11/T10 b 1"
    );

    // Black captures White's commander.
    let pos = position(
        &[("k7", 'C'), ("a1", 'T'), ("k9", 'c'), ("d7", 't')],
        'b',
        &layout,
    );
    let (after, m) = pos.play(&layout, mv("k9-k7")).unwrap();
    assert_eq!(m.to_string(), "k9xk7");
    assert_eq!(m.capture, Some(Role::Commander));
    assert_eq!(after.commanders(), Bitboard::from_square(sq("k7")));
    assert_eq!(after.tanks(Side::White), Bitboard::from_square(sq("a1")));
    assert_eq!(after.turn(), Side::White);
}

#[test]
fn captures_inside_a_custom_base() {
    let layout = layout_y();
    // White tank locked on e6 captures Black's commander on f6, then g6.
    let pos = position(
        &[("e6 a1", 'T'), ("f6", 'c'), ("g6 k11", 't')],
        'w',
        &layout,
    );
    let m = legal(&pos, &layout, "e6-f6", "e6xf6");
    assert_eq!(m.capture, Some(Role::Commander));
    illegal(&pos, &layout, "e6-g6", Reason::PathBlocked, Some("f6"));
    let (pos, _) = pos.play(&layout, mv("e6xf6")).unwrap();
    let (pos, _) = pos.play(&layout, mv("k11-k10")).unwrap();
    legal(&pos, &layout, "f6-g6", "f6xg6");
    illegal(
        &pos,
        &layout,
        "f6-k11",
        Reason::LockedInEnemyBase,
        Some("g7"),
    );
}

// ---------------------------------------------------------------------------
// Rule 7: end of the game.
// ---------------------------------------------------------------------------

#[test]
fn game_ends_when_the_last_outside_tank_enters_the_enemy_base() {
    let layout = Layout::STANDARD;
    let pos = position(&[("b10 c7", 'T'), ("a3 k8", 't')], 'w', &layout);
    assert!(!pos.is_finished(&layout));
    assert_eq!(pos.outcome(&layout), None);
    let (after, m) = pos.play(&layout, mv("c7-b8")).unwrap();
    assert_eq!(m.to_string(), "c7-b8");
    assert_eq!(
        after.to_string(),
        tbn(&[("b10 b8", 'T'), ("a3 k8", 't')], 'b', 1)
    );
    assert!(after.is_finished(&layout));
    // White: two normal tanks in Black's base, 2 + 2; Black: two tanks on
    // the field, 1 + 1.
    let score = after.score(&layout);
    assert_eq!(
        score.white,
        SideScore {
            commander_on_start: 0,
            commander_in_base: 0,
            tanks_in_base: 4,
            tanks_on_field: 0
        }
    );
    assert_eq!(
        score.black,
        SideScore {
            commander_on_start: 0,
            commander_in_base: 0,
            tanks_in_base: 0,
            tanks_on_field: 2
        }
    );
    assert_eq!(after.outcome(&layout), Some(Outcome::Winner(Side::White)));
    assert!(after.legal_moves(&layout).is_empty());
    assert_eq!(after.count_legal_moves(&layout), 0);
    assert!(after.legal_moves_from(&layout, sq("a3")).is_empty());
    illegal(&after, &layout, "a3-a4", Reason::GameOver, None);
    illegal(&after, &layout, "k8-k9", Reason::GameOver, None);
    assert_eq!(perft(&after, &layout, 0), 1);
    assert_eq!(perft(&after, &layout, 1), 0);
    assert_eq!(perft(&after, &layout, 2), 0);

    // The same for Black, entering White's base with a capture.
    let pos = position(&[("a1 b1", 'T'), ("j1", 'c'), ("g1", 't')], 'b', &layout);
    // g1 and j1 are both in White's base: Black is home, game over.
    assert!(pos.is_finished(&layout));
    let pos = position(&[("a1 h1", 'T'), ("j1", 'c'), ("f1", 't')], 'b', &layout);
    assert!(!pos.is_finished(&layout));
    let (after, m) = pos.play(&layout, mv("f1-h1")).unwrap();
    assert_eq!(m.to_string(), "f1xh1");
    assert!(after.is_finished(&layout));
    // Black: commander in White's base (not on k1) 2, tank in base 2;
    // White: one tank on the field.
    assert_eq!(after.score(&layout).black.total(), 4);
    assert_eq!(after.score(&layout).white.total(), 1);
    assert_eq!(after.outcome(&layout), Some(Outcome::Winner(Side::Black)));
}

#[test]
fn a_side_without_tanks_counts_as_home() {
    let layout = Layout::STANDARD;
    let pos = position(&[("a5", 'T'), ("a3", 't')], 'w', &layout);
    assert!(!pos.is_finished(&layout));
    let (after, m) = pos.play(&layout, mv("a5-a3")).unwrap();
    assert_eq!(m.to_string(), "a5xa3");
    assert!(after.tanks(Side::Black).is_empty());
    assert!(after.is_finished(&layout));
    assert_eq!(after.outcome(&layout), Some(Outcome::Winner(Side::White)));
    assert!(after.legal_moves(&layout).is_empty());

    // Given directly: Black has no tanks, White to move still finished.
    let pos = position(&[("a5", 'T')], 'w', &layout);
    assert!(pos.is_finished(&layout));
    assert!(pos.legal_moves(&layout).is_empty());
    illegal(&pos, &layout, "a5-a6", Reason::GameOver, None);
    // No tanks at all: finished, a 0-0 draw.
    let empty = parse_position("11/11/11/11/11/11/11/11/11/11/11 w 0", &layout).unwrap();
    assert!(empty.is_finished(&layout));
    assert_eq!(empty.outcome(&layout), Some(Outcome::Draw));
    assert_eq!(empty.score(&layout), Score::default());
}

#[test]
fn side_to_move_without_a_legal_move_ends_the_game() {
    let layout = layout_z();
    // White's only tank on a1 is boxed in by the mines a2 b2 b1.
    let pos = position(&[("a1", 'T'), ("f6", 't')], 'w', &layout);
    assert!(pos.is_finished(&layout));
    assert!(pos.legal_moves(&layout).is_empty());
    assert_eq!(pos.count_legal_moves(&layout), 0);
    illegal(&pos, &layout, "a1-a2", Reason::GameOver, None);
    illegal(&pos, &layout, "f6-f7", Reason::GameOver, None);
    // One tank each on the field: 1-1, a draw.
    assert_eq!(pos.outcome(&layout), Some(Outcome::Draw));
    assert_eq!(pos.outcome(&layout).and_then(Outcome::winner), None);
    assert_eq!(perft(&pos, &layout, 0), 1);
    assert_eq!(perft(&pos, &layout, 1), 0);
    assert_eq!(perft(&pos, &layout, 3), 0);

    // With Black to move the game goes on: only the side to move matters.
    let pos = position(&[("a1", 'T'), ("f6", 't')], 'b', &layout);
    assert!(!pos.is_finished(&layout));
    assert_eq!(pos.outcome(&layout), None);
    // f6 on an open board: 5 + 5 + 5 + 5 along rank and file, 5 + 5 + 5 on
    // three diagonals, 3 towards a1 (b2 is a mine): 38.
    assert_eq!(pos.legal_moves(&layout).len(), 38);
    illegal(&pos, &layout, "f6-b2", Reason::Mine, Some("b2"));
    illegal(&pos, &layout, "f6-a1", Reason::Mine, Some("b2"));
    // After any black move White is stuck again.
    let (after, _) = pos.play(&layout, mv("f6-f7")).unwrap();
    assert!(after.is_finished(&layout));
    assert_eq!(after.outcome(&layout), Some(Outcome::Draw));
}

#[test]
fn blocked_side_with_captures_available_is_not_finished() {
    let layout = Layout::STANDARD;
    // White's tank boxed in by its own commander and enemy tanks it may
    // capture: not finished.
    let pos = position(
        &[("a1", 'T'), ("b1", 'C'), ("a2 b2", 't'), ("c1 c2", 't')],
        'w',
        &layout,
    );
    assert!(!pos.is_finished(&layout));
    assert!(pos.legal_moves(&layout).iter().all(|m| m.is_capture()));
    assert_eq!(
        pos.legal_moves(&layout)
            .iter()
            .map(|m| m.to_string())
            .collect::<std::collections::BTreeSet<_>>(),
        ["a1xa2", "a1xb2", "b1xb2", "b1xa2", "b1xc1", "b1xc2"]
            .iter()
            .map(|s| s.to_string())
            .collect()
    );
}

// ---------------------------------------------------------------------------
// Rule 8: the score.
// ---------------------------------------------------------------------------

#[test]
fn scoring_example_of_the_rules() {
    let layout = Layout::STANDARD;
    // White: commander in Black's base (b10, not on a11), two tanks on the
    // field. Black: commander on White's commander start k1, two tanks in
    // White's base.
    let pos = position(
        &[("b10", 'C'), ("d5 h5", 'T'), ("k1", 'c'), ("j1 k2", 't')],
        'w',
        &layout,
    );
    let score = pos.score(&layout);
    assert_eq!(
        score.white,
        SideScore {
            commander_on_start: 0,
            commander_in_base: 2,
            tanks_in_base: 0,
            tanks_on_field: 2
        }
    );
    assert_eq!(
        score.black,
        SideScore {
            commander_on_start: 3,
            commander_in_base: 0,
            tanks_in_base: 4,
            tanks_on_field: 0
        }
    );
    assert_eq!(score.white.total(), 4);
    assert_eq!(score.black.total(), 7);
    assert_eq!(score.side(Side::White), &score.white);
    assert_eq!(score.side(Side::Black), &score.black);
    // Every black tank stands in White's base: the game is over.
    assert!(pos.is_finished(&layout));
    assert_eq!(pos.outcome(&layout), Some(Outcome::Winner(Side::Black)));
    assert_eq!(
        pos.outcome(&layout).and_then(Outcome::winner),
        Some(Side::Black)
    );
}

#[test]
fn score_sources() {
    let layout = Layout::STANDARD;
    // The initial position: every tank is in its own base, which is not the
    // opponent's: 14 tanks on the field each.
    let pos = Position::initial(&layout);
    let score = pos.score(&layout);
    let fourteen = SideScore {
        tanks_on_field: 14,
        ..SideScore::default()
    };
    assert_eq!(score.white, fourteen);
    assert_eq!(score.black, fourteen);
    assert_eq!(pos.outcome(&layout), None);

    // White's commander on Black's start (a11): 3; a commander outside the
    // enemy base counts as a tank on the field; a commander on the
    // contaminated square too.
    let pos = position(
        &[
            ("a11", 'C'),
            ("b11 c9 j1 e4", 'T'),
            ("f6", 'c'),
            ("k2 k3 a1", 't'),
        ],
        'w',
        &layout,
    );
    let score = pos.score(&layout);
    assert_eq!(
        score.white,
        SideScore {
            commander_on_start: 3,
            commander_in_base: 0,
            tanks_in_base: 4,
            tanks_on_field: 2
        }
    );
    assert_eq!(
        score.black,
        SideScore {
            commander_on_start: 0,
            commander_in_base: 0,
            tanks_in_base: 4,
            tanks_on_field: 2
        }
    );
    assert!(!pos.is_finished(&layout));
    assert_eq!(pos.outcome(&layout), None);

    // Custom layout X: White's commander on e9 (Black's start).
    let layout = layout_x();
    let pos = position(
        &[("e9", 'C'), ("c9", 'T'), ("k1", 'c'), ("j2", 't')],
        'w',
        &layout,
    );
    let score = pos.score(&layout);
    assert_eq!(
        score.white,
        SideScore {
            commander_on_start: 3,
            tanks_in_base: 2,
            ..SideScore::default()
        }
    );
    assert_eq!(score.black, score.white);
    assert!(pos.is_finished(&layout));
    assert_eq!(pos.outcome(&layout), Some(Outcome::Draw));
}

#[test]
fn equal_scores_are_a_draw() {
    let layout = Layout::STANDARD;
    // White's only tank is home (2); Black has two tanks on the field (2).
    let pos = position(&[("b10", 'T'), ("a3 k8", 't')], 'b', &layout);
    assert!(pos.is_finished(&layout));
    assert_eq!(pos.score(&layout).white.total(), 2);
    assert_eq!(pos.score(&layout).black.total(), 2);
    assert_eq!(pos.outcome(&layout), Some(Outcome::Draw));
    // One more black tank and Black wins.
    let pos = position(&[("b10", 'T'), ("a3 k8 k9", 't')], 'b', &layout);
    assert_eq!(pos.outcome(&layout), Some(Outcome::Winner(Side::Black)));
    // Commander home on the start (3) against three field tanks (3).
    let pos = position(&[("a11", 'C'), ("a3 k8 k9", 't')], 'w', &layout);
    assert_eq!(pos.outcome(&layout), Some(Outcome::Draw));
    // Commander home elsewhere (2) loses to the same three.
    let pos = position(&[("b11", 'C'), ("a3 k8 k9", 't')], 'w', &layout);
    assert_eq!(pos.outcome(&layout), Some(Outcome::Winner(Side::Black)));
}

// ---------------------------------------------------------------------------
// Applying moves.
// ---------------------------------------------------------------------------

#[test]
fn play_flips_the_side_counts_the_ply_and_writes_canonical_tbn() {
    let layout = Layout::STANDARD;
    let pos = Position::initial(&layout);
    let (pos, m) = pos.play(&layout, mv("J4J5")).unwrap();
    assert_eq!(m.to_string(), "j4-j5");
    assert_eq!(pos.turn(), Side::Black);
    assert_eq!(pos.ply(), 1);
    assert_eq!(
        pos.to_string(),
        "ctttt6/tttt7/ttt8/tt9/11/11/9T1/10T/8TTT/7TTTT/6TTTTC b 1"
    );
    let (pos, m) = pos.play(&layout, mv("b8b7")).unwrap();
    assert_eq!(m.to_string(), "b8-b7");
    assert_eq!(pos.turn(), Side::White);
    assert_eq!(pos.ply(), 2);
    assert_eq!(
        pos.to_string(),
        "ctttt6/tttt7/ttt8/t10/1t9/11/9T1/10T/8TTT/7TTTT/6TTTTC w 2"
    );
    // An illegal move leaves nothing played.
    assert_eq!(
        pos.play(&layout, mv("b7-b6")).unwrap_err(),
        IllegalMove {
            reason: Reason::NotYourTank,
            square: Some(sq("b7"))
        }
    );

    // Extra whitespace in the input; the output is canonical, and the ply
    // carries on from the given number.
    let pos = parse_position("  c10/11/11/11/11/11/11/11/11/11/7T2C   w  41 ", &layout).unwrap();
    assert_eq!(pos.to_string(), "c10/11/11/11/11/11/11/11/11/11/7T2C w 41");
    let (after, _) = pos.play(&layout, mv("h1-h3")).unwrap();
    assert_eq!(
        after.to_string(),
        "c10/11/11/11/11/11/11/11/7T3/11/10C b 42"
    );
    assert_eq!(parse_position(&after.to_string(), &layout), Ok(after));
    // play_unchecked gives the same position.
    let mut same = pos;
    same.play_unchecked(pos.validate(&layout, mv("h1-h3")).unwrap());
    assert_eq!(same, after);
}

#[test]
fn a_short_game_replays_move_by_move() {
    let layout = Layout::STANDARD;
    let mut pos = Position::initial(&layout);
    let moves = [
        ("j4-i5", "j4-i5"),
        ("b8-c7", "b8-c7"),
        ("i5-i7", "i5-i7"),
        ("c7-c6", "c7-c6"),
        ("i7-c7", "i7-c7"), // h7 is open, g7 contaminated
    ];
    for (i, (text, canonical)) in moves.iter().enumerate().take(4) {
        let (next, m) = pos.play(&layout, mv(text)).unwrap();
        assert_eq!(&m.to_string(), canonical);
        assert_eq!(next.ply(), i as u64 + 1);
        pos = next;
    }
    illegal(&pos, &layout, moves[4].0, Reason::Contaminated, Some("g7"));
    assert_eq!(
        pos.to_string(),
        "ctttt6/tttt7/ttt8/t10/8T2/2t8/11/10T/8TTT/7TTTT/6TTTTC w 4"
    );
}

/// `occupied` is exactly the squares holding a piece, of either side,
/// before and after a capture (it was untested: BENCHMARKS, "Mutation
/// testing").
#[test]
fn occupied_is_every_square_holding_a_piece() {
    let layout = Layout::STANDARD;
    let check = |pos: &Position| {
        for square in Square::all() {
            assert_eq!(
                pos.occupied().contains(square),
                pos.piece_at(square).is_some(),
                "{square} in {pos}"
            );
        }
    };
    let start = Position::initial(&layout);
    assert_eq!(start.occupied().count(), 28);
    check(&start);
    let mut pos: Position = "c9T/11/11/11/8t2/11/2t8/11/11/11/t6T2T w 50"
        .parse::<Setup>()
        .ok()
        .and_then(|setup| Position::from_setup(setup, &layout).ok())
        .expect("a valid position");
    check(&pos);
    let (next, played) = pos.play(&layout, mv("h1xa1")).expect("a legal capture");
    assert!(played.is_capture());
    pos = next;
    assert_eq!(pos.occupied().count(), 6);
    check(&pos);
}
