//! Perft: the number of leaf positions of the legal-move tree, for testing
//! move generators against each other.
//!
//! perft(0) = 1; a finished position has perft 0 at any depth above 0;
//! otherwise perft(d) is the sum of perft(d - 1) over the children. Under
//! an end policy's ply limit, a position at the limit is finished.

use std::sync::atomic::{AtomicBool, Ordering};

use thiserror::Error;

use super::layout::Layout;
use super::moves::Move;
use super::position::Position;

/// The search would expand more positions than its budget allows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("perft would generate moves for more than {budget} positions")]
pub struct BudgetExceeded {
    pub budget: u64,
}

/// What bounds a count: positions whose moves may be generated, and a
/// flag another thread may raise to stop it (then the count fails as if
/// the budget ran out; the caller knows which by looking at the flag).
struct Budget<'a> {
    left: u64,
    stop: Option<&'a AtomicBool>,
}

impl Budget<'_> {
    /// Spends one unit; `None` when the budget is spent or the flag raised
    /// (looked at every 4096 units).
    fn spend(&mut self) -> Option<()> {
        self.left = self.left.checked_sub(1)?;
        let stop_now =
            self.left.is_multiple_of(4096) && self.stop.is_some_and(|f| f.load(Ordering::Relaxed));
        (!stop_now).then_some(())
    }
}

/// perft(`depth`) of `pos`.
pub fn perft(pos: &Position, layout: &Layout, depth: u32) -> u64 {
    let mut unlimited = Budget {
        left: u64::MAX,
        stop: None,
    };
    walk(pos, layout, depth, &mut unlimited, u64::MAX).unwrap_or(0)
}

/// perft of each legal move's child at `depth - 1`, in generation order,
/// generating moves for at most `budget` positions in all (the root
/// included).
pub fn divide(
    pos: &Position,
    layout: &Layout,
    depth: u32,
    budget: u64,
) -> Result<Vec<(Move, u64)>, BudgetExceeded> {
    divide_until(pos, layout, depth, budget, None, None)
}

/// [`divide`], which also fails when `stop` is raised, counting a position
/// at `max_plies` (an end policy's ply limit) as finished.
pub fn divide_until(
    pos: &Position,
    layout: &Layout,
    depth: u32,
    budget: u64,
    stop: Option<&AtomicBool>,
    max_plies: Option<u64>,
) -> Result<Vec<(Move, u64)>, BudgetExceeded> {
    let exceeded = BudgetExceeded { budget };
    let limit = max_plies.unwrap_or(u64::MAX);
    if depth == 0 || pos.ply() >= limit {
        return Ok(Vec::new());
    }
    let mut left = Budget {
        left: budget.checked_sub(1).ok_or(exceeded)?,
        stop,
    };
    pos.legal_moves(layout)
        .into_iter()
        .map(|mv| {
            let mut child = *pos;
            child.play_unchecked(mv);
            walk(&child, layout, depth - 1, &mut left, limit)
                .map(|n| (mv, n))
                .ok_or(exceeded)
        })
        .collect()
}

/// perft(`depth`), generating moves for at most `budget` positions.
pub fn perft_budgeted(
    pos: &Position,
    layout: &Layout,
    depth: u32,
    budget: u64,
) -> Result<u64, BudgetExceeded> {
    perft_until(pos, layout, depth, budget, None, None)
}

/// [`perft_budgeted`], which also fails when `stop` is raised, counting a
/// position at `max_plies` (an end policy's ply limit) as finished.
pub fn perft_until(
    pos: &Position,
    layout: &Layout,
    depth: u32,
    budget: u64,
    stop: Option<&AtomicBool>,
    max_plies: Option<u64>,
) -> Result<u64, BudgetExceeded> {
    let mut left = Budget { left: budget, stop };
    let limit = max_plies.unwrap_or(u64::MAX);
    walk(pos, layout, depth, &mut left, limit).ok_or(BudgetExceeded { budget })
}

/// Depth-first count with bulk counting at depth 1. Each position whose
/// moves are generated (every one above depth 0) costs one unit of
/// `budget`; `None` when the budget runs out. A position at ply `limit`
/// is finished.
fn walk(
    pos: &Position,
    layout: &Layout,
    depth: u32,
    budget: &mut Budget<'_>,
    limit: u64,
) -> Option<u64> {
    if depth == 0 {
        return Some(1);
    }
    if pos.ply() >= limit {
        return Some(0);
    }
    budget.spend()?;
    match depth {
        1 => Some(pos.count_legal_moves(layout)),
        _ => {
            let mut moves = Vec::with_capacity(64);
            pos.legal_moves_into(layout, &mut moves);
            let mut nodes = 0;
            for mv in moves {
                let mut child = *pos;
                child.play_unchecked(mv);
                nodes += walk(&child, layout, depth - 1, budget, limit)?;
            }
            Some(nodes)
        }
    }
}
