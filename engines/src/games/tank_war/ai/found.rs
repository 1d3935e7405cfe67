//! What the root's matrix game came to ([`Found`]), from the search or
//! exactly from the solver.

use crate::games::tank_war::solve::{self as exact, lp::Solution};
use crate::games::tank_war::state::{Position, Setup};

/// What the root's matrix game came to: its solution and payoffs (U's
/// view), the depth and positions behind them, and whether exact.
pub(super) struct Found {
    pub solution: Solution,
    pub matrix: Vec<f64>,
    pub depth: u32,
    pub nodes: u64,
    pub exact: bool,
}

impl Found {
    pub fn exact(
        setup: &Setup,
        pos: &Position,
        picks: &[Vec<usize>; 2],
        matrix: Vec<f64>,
        nodes: u64,
    ) -> Found {
        // Nine decimals: what the table's f32 values and the simplex's
        // rounding leave beyond them is noise (a start worth -2e-16).
        let snap = |v: f64| (v * 1e9).round() / 1e9 + 0.0;
        let matrix: Vec<f64> = matrix.into_iter().map(snap).collect();
        let mut solution = exact::lp::solve(&matrix, picks[0].len(), picks[1].len());
        solution.value = snap(solution.value);
        Found {
            solution,
            matrix,
            depth: exact::rounds_left(setup, pos),
            nodes,
            exact: true,
        }
    }
}
