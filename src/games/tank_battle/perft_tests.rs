//! Perft tables: known node counts as test data, checked against both the
//! bitboard generator and a generator built from the reference validator.

use super::perft::{divide, perft, perft_budgeted, BudgetExceeded};
use super::{parse_position, Layout, MoveText, Position, Square};

/// (layout, position, counts for depth 1, 2, ...).
const TABLE: &[(&str, &str, &[u64])] = &[("standard", super::INITIAL_TBN, &[45, 2025, 108097])];

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

fn reference_perft(pos: &Position, layout: &Layout, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    for from in Square::all() {
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
