//! Perft tables: known node counts as test data, checked against both the
//! bitboard generator and a generator built from the reference validator.

use super::perft::{divide, perft, perft_budgeted, BudgetExceeded};
use super::{parse_position, Layout, MoveText, Position, Square};

/// Custom layout X: a small black base (c9 d9 c8, start e9) bordered by
/// contaminated squares (d8 e8) and mines (c7 b9), more contamination on
/// f5 f6, White's base in the k1 corner.
const LAYOUT_X: &str = ".........../.........../.#bbB....../..b~~....../..#......../.....~...../.....~...../.........../.........../.........ww/.........wW";
/// Custom layout Y: open board, a three-square black base in the middle of
/// rank 6 (e6, start f6, g6), White's one-square base on a1.
const LAYOUT_Y: &str = ".........../.........../.........../.........../.........../....bBb..../.........../.........../.........../.........../W..........";
/// Custom layout Z: open board, mines boxing in the a1 corner.
const LAYOUT_Z: &str = "..........B/.........../.........../.........../.........../.........../.........../.........../.........../##........./.#........W";
/// Custom layout C: a contaminated band across ranks 5..7 (with a mine in
/// it), two-square bases in opposite corners.
const LAYOUT_C: &str = ".........bB/.........../....#....../.........../~~~~~~~~~~~/~~~~~#~~~~~/~~~~~~~~~~~/.........../......#..../.........../Ww.........";

/// (layout, position, counts for depth 1, 2, ...).
///
/// Depth-1 figures of the constructed positions were counted by hand from
/// the diagrams (see the comments); deeper figures come from
/// `reference_perft` (the square-by-square validator), which
/// `table_agrees_with_the_reference_walk` re-checks.
const TABLE: &[(&str, &str, &[u64])] = &[
    ("standard", super::INITIAL_TBN, &[45, 2025, 108097, 5761981]),
    // Standard layout. White: tank b10 locked in Black's base (10 moves),
    // commander h7 beside the contaminated area (26), tank k6 (16).
    // Black: tank j2 locked in White's base, commander on the contaminated
    // e6, tank a3.
    (
        "standard",
        "11/1T9/11/11/7C3/4c5T/11/11/t10/9t1/11 w 0",
        &[52, 2977, 145247],
    ),
    // Layout X. White: tanks d9 and c8 locked in Black's base between
    // mines and contaminated squares (2 + 1 moves), tank a1 (24).
    // Black: commander on the contaminated f6, tank g3.
    (
        LAYOUT_X,
        "11/11/3T7/2T8/11/5c5/11/11/6t4/11/T10 w 0",
        &[27, 1900, 48340],
    ),
    // Finished: both white tanks in Black's base (after c7-b8).
    (
        "standard",
        "11/1T9/11/1T8t/11/11/11/11/t10/11/11 b 1",
        &[0, 0, 0],
    ),
    // Layout Z, Black to move: f6 has 38 moves; White's a1 is boxed in by
    // mines, so every child is finished.
    (
        LAYOUT_Z,
        "11/11/11/11/11/5t5/11/11/11/11/T10 b 0",
        &[38, 0, 0],
    ),
    // The same with White to move: finished at once.
    (
        LAYOUT_Z,
        "11/11/11/11/11/5t5/11/11/11/11/T10 w 0",
        &[0, 0, 0],
    ),
    // Layout Y: tanks may pass Black's base on rank 6 and get locked in it.
    // White: a6 29 (10 east through the base, 5 NE up to the capture on
    // f11), a1 24 (a1 is White's own base).
    (
        LAYOUT_Y,
        "5c5/10t/11/11/11/T10/11/11/11/11/T10 w 0",
        &[53, 3105, 173765],
    ),
    // Layout C: commanders crossing the contaminated band, normal tanks
    // stopped by it. White: commander c4 34, tank e3 14, tank a1 16.
    (
        LAYOUT_C,
        "10t/11/9t1/7c3/11/11/11/2C8/4T6/11/T10 w 0",
        &[64, 3621, 210341],
    ),
];

/// Every from-to pair the reference validator accepts.
fn reference_moves(pos: &Position, layout: &Layout) -> Vec<String> {
    let mut out = Vec::new();
    for from in Square::all() {
        for to in Square::all() {
            if let Ok(mv) = pos.validate(layout, MoveText { from, to }) {
                out.push(mv.to_string());
            }
        }
    }
    out
}

/// perft from the reference validator: every from-to pair `play` accepts.
/// From squares without a tank of the side to move are skipped for speed;
/// `reference_moves` (used at the root of every table position) checks
/// that the validator refuses all of them.
fn reference_perft(pos: &Position, layout: &Layout, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    for from in Square::all() {
        if pos.piece_at(from).map(|p| p.side) != Some(pos.turn()) {
            continue;
        }
        for to in Square::all() {
            if let Ok((child, _)) = pos.play(layout, MoveText { from, to }) {
                nodes += reference_perft(&child, layout, depth - 1);
            }
        }
    }
    nodes
}

#[test]
fn perft_table() {
    for (layout, tbn, counts) in TABLE {
        let layout = Layout::parse(layout).unwrap();
        let pos = parse_position(tbn, &layout).unwrap();
        assert_eq!(perft(&pos, &layout, 0), 1);
        for (depth, &expected) in (1..).zip(counts.iter()) {
            assert_eq!(perft(&pos, &layout, depth), expected, "{tbn} depth {depth}");
        }
    }
}

#[test]
fn generator_agrees_with_reference_walk_in_initial_position() {
    let layout = Layout::STANDARD;
    let pos = Position::initial(&layout);
    let mut generated: Vec<String> = pos
        .legal_moves(&layout)
        .iter()
        .map(|m| m.to_string())
        .collect();
    generated.sort();
    let mut reference = reference_moves(&pos, &layout);
    reference.sort();
    assert_eq!(generated, reference);
    assert_eq!(reference_perft(&pos, &layout, 2), 2025);
}

#[test]
fn divide_sums_to_perft_and_budget_is_enforced() {
    let layout = Layout::STANDARD;
    let pos = Position::initial(&layout);
    let parts = divide(&pos, &layout, 3, u64::MAX).unwrap();
    assert_eq!(parts.len(), 45);
    assert_eq!(parts.iter().map(|(_, n)| n).sum::<u64>(), 108097);
    // Moves are generated for 1 + 45 + 2025 positions.
    assert_eq!(perft_budgeted(&pos, &layout, 3, 2071), Ok(108097));
    assert_eq!(
        perft_budgeted(&pos, &layout, 3, 2070),
        Err(BudgetExceeded { budget: 2070 })
    );
    assert_eq!(divide(&pos, &layout, 3, 2071).map(|p| p.len()), Ok(45));
    assert!(divide(&pos, &layout, 3, 2070).is_err());
}

#[test]
fn table_agrees_with_the_reference_walk() {
    for (layout, tbn, counts) in TABLE {
        let layout = Layout::parse(layout).unwrap();
        let pos = parse_position(tbn, &layout).unwrap();
        // At the root: the whole 121x121 board through the validator.
        let mut generated: Vec<String> = pos
            .legal_moves(&layout)
            .iter()
            .map(|m| m.to_string())
            .collect();
        generated.sort();
        let mut reference = reference_moves(&pos, &layout);
        reference.sort();
        assert_eq!(generated, reference, "{tbn}");
        // Deeper, with the reference walk.
        for depth in 0..=3 {
            let expected = reference_perft(&pos, &layout, depth);
            assert_eq!(perft(&pos, &layout, depth), expected, "{tbn} depth {depth}");
            if depth > 0 {
                if let Some(&listed) = counts.get(depth as usize - 1) {
                    assert_eq!(listed, expected, "{tbn} depth {depth}: table vs reference");
                }
            }
        }
    }
}

/// (layout, position, moves of each tank of the side to move).
type HandCount = (&'static str, &'static str, &'static [(&'static str, usize)]);

/// The depth-1 figures of the constructed positions, tank by tank, as
/// counted by hand from the layout diagrams.
#[test]
fn hand_counted_moves_per_tank() {
    let cases: &[HandCount] = &[
        (
            "standard",
            "11/1T9/11/11/7C3/4c5T/11/11/t10/9t1/11 w 0",
            &[("b10", 10), ("h7", 26), ("k6", 16)],
        ),
        (
            LAYOUT_X,
            "11/11/3T7/2T8/11/5c5/11/11/6t4/11/T10 w 0",
            &[("d9", 2), ("c8", 1), ("a1", 24)],
        ),
        (
            LAYOUT_Z,
            "11/11/11/11/11/5t5/11/11/11/11/T10 b 0",
            &[("f6", 38)],
        ),
        (
            LAYOUT_Y,
            "5c5/10t/11/11/11/T10/11/11/11/11/T10 w 0",
            &[("a6", 29), ("a1", 24)],
        ),
        (
            LAYOUT_C,
            "10t/11/9t1/7c3/11/11/11/2C8/4T6/11/T10 w 0",
            &[("c4", 34), ("e3", 14), ("a1", 16)],
        ),
    ];
    for (layout, tbn, tanks) in cases {
        let layout = Layout::parse(layout).unwrap();
        let pos = parse_position(tbn, &layout).unwrap();
        for (from, expected) in *tanks {
            let from: Square = from.parse().unwrap();
            assert_eq!(
                pos.legal_moves_from(&layout, from).len(),
                *expected,
                "{tbn} from {from}"
            );
        }
        let total: usize = tanks.iter().map(|(_, n)| n).sum();
        assert_eq!(pos.legal_moves(&layout).len(), total, "{tbn}");
    }
}
