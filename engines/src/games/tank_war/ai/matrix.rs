//! Two-player zero-sum matrix games: the row player maximises, the column
//! player minimises. A pure saddle point is found exactly; otherwise regret
//! matching+ with linear averaging approximates the equilibrium.

use crate::games::tank_war::solve::lp::Solution;

/// Probabilities below this are dropped from a strategy.
const NEGLIGIBLE: f64 = 1e-3;

/// Solves the `rows` x `cols` game whose payoffs are `m[i * cols + j]`.
pub fn solve(m: &[f64], rows: usize, cols: usize, iterations: usize) -> Solution {
    if rows == 0 || cols == 0 || m.len() != rows * cols {
        return Solution {
            rows: vec![1.0 / rows.max(1) as f64; rows],
            cols: vec![1.0 / cols.max(1) as f64; cols],
            value: 0.0,
        };
    }
    let at = |i: usize, j: usize| m.get(i * cols + j).copied().unwrap_or(0.0);
    if let Some((i, j)) = saddle_point(rows, cols, &at) {
        return Solution {
            rows: one_hot(rows, i),
            cols: one_hot(cols, j),
            value: at(i, j),
        };
    }
    let mut regret_r = vec![0.0; rows];
    let mut regret_c = vec![0.0; cols];
    let mut sum_r = vec![0.0; rows];
    let mut sum_c = vec![0.0; cols];
    let mut x = vec![0.0; rows];
    let mut y = vec![0.0; cols];
    // Each side's payoff of each pure strategy against the other's mix,
    // reused across iterations (this loop is most of a search's time).
    let mut ur = vec![0.0; rows];
    let mut uc = vec![0.0; cols];
    for t in 1..=iterations.max(1) {
        strategy_from(&regret_r, &mut x);
        strategy_from(&regret_c, &mut y);
        let weight = t as f64;
        // Row player's payoff of each row against y.
        for (u, row) in ur.iter_mut().zip(m.chunks_exact(cols)) {
            *u = row.iter().zip(&y).map(|(a, p)| a * p).sum();
        }
        let ev: f64 = ur.iter().zip(&x).map(|(u, p)| u * p).sum();
        for (r, u) in regret_r.iter_mut().zip(&ur) {
            *r = (*r + u - ev).max(0.0);
        }
        // Column player's loss of each column against the updated x.
        strategy_from(&regret_r, &mut x);
        for (j, u) in uc.iter_mut().enumerate() {
            let column = m.iter().skip(j).step_by(cols);
            *u = -column.zip(&x).map(|(a, p)| a * p).sum::<f64>();
        }
        let ev: f64 = uc.iter().zip(&y).map(|(u, p)| u * p).sum();
        for (r, u) in regret_c.iter_mut().zip(&uc) {
            *r = (*r + u - ev).max(0.0);
        }
        for (s, p) in sum_r.iter_mut().zip(&x) {
            *s += weight * p;
        }
        for (s, p) in sum_c.iter_mut().zip(&y) {
            *s += weight * p;
        }
    }
    let rows_strategy = clean(sum_r);
    let cols_strategy = clean(sum_c);
    let value = (0..rows)
        .map(|i| {
            (0..cols)
                .map(|j| rows_strategy[i] * at(i, j) * cols_strategy[j])
                .sum::<f64>()
        })
        .sum();
    Solution {
        rows: rows_strategy,
        cols: cols_strategy,
        value,
    }
}

fn one_hot(n: usize, i: usize) -> Vec<f64> {
    (0..n).map(|k| if k == i { 1.0 } else { 0.0 }).collect()
}

/// A cell that is the minimum of its row and the maximum of its column.
fn saddle_point(
    rows: usize,
    cols: usize,
    at: &dyn Fn(usize, usize) -> f64,
) -> Option<(usize, usize)> {
    let row_min: Vec<f64> = (0..rows)
        .map(|i| (0..cols).map(|j| at(i, j)).fold(f64::INFINITY, f64::min))
        .collect();
    let col_max: Vec<f64> = (0..cols)
        .map(|j| {
            (0..rows)
                .map(|i| at(i, j))
                .fold(f64::NEG_INFINITY, f64::max)
        })
        .collect();
    let maximin = row_min.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let minimax = col_max.iter().copied().fold(f64::INFINITY, f64::min);
    if maximin < minimax {
        return None;
    }
    let i = row_min.iter().position(|&v| v == maximin)?;
    let j = (0..cols).find(|&j| at(i, j) == maximin && col_max.get(j) == Some(&maximin))?;
    Some((i, j))
}

/// Positive regrets, normalised; uniform when none is positive.
fn strategy_from(regret: &[f64], out: &mut [f64]) {
    let total: f64 = regret.iter().map(|r| r.max(0.0)).sum();
    for (o, r) in out.iter_mut().zip(regret) {
        *o = if total > 0.0 {
            r.max(0.0) / total
        } else {
            1.0 / regret.len() as f64
        };
    }
}

/// Normalises, dropping negligible probabilities.
fn clean(weights: Vec<f64>) -> Vec<f64> {
    let total: f64 = weights.iter().sum();
    let mut p: Vec<f64> = weights
        .iter()
        .map(|w| if total > 0.0 { w / total } else { 0.0 })
        .collect();
    for v in &mut p {
        if *v < NEGLIGIBLE {
            *v = 0.0;
        }
    }
    let kept: f64 = p.iter().sum();
    if kept > 0.0 {
        for v in &mut p {
            *v /= kept;
        }
        p
    } else {
        vec![1.0 / weights.len().max(1) as f64; weights.len()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pure_saddle_point_is_exact() {
        // Row 1 dominates; column 0 is the column player's best reply.
        let s = solve(&[1.0, 5.0, 3.0, 4.0], 2, 2, 100);
        assert_eq!(s.rows, vec![0.0, 1.0]);
        assert_eq!(s.cols, vec![1.0, 0.0]);
        assert_eq!(s.value, 3.0);
    }

    #[test]
    fn matching_pennies_is_uniform() {
        let s = solve(&[1.0, -1.0, -1.0, 1.0], 2, 2, 2000);
        for p in s.rows.iter().chain(&s.cols) {
            assert!((p - 0.5).abs() < 0.02, "{s:?}");
        }
        assert!(s.value.abs() < 0.02);
    }

    #[test]
    fn rock_paper_scissors_is_uniform_and_sums_to_one() {
        let m = [0.0, -1.0, 1.0, 1.0, 0.0, -1.0, -1.0, 1.0, 0.0];
        let s = solve(&m, 3, 3, 4000);
        assert!((s.rows.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        for p in &s.rows {
            assert!((p - 1.0 / 3.0).abs() < 0.03, "{s:?}");
        }
    }

    #[test]
    fn mixed_game_value() {
        // Value 1/2 with x = (1/4, 3/4): [[2, -1], [0, 1]].
        let s = solve(&[2.0, -1.0, 0.0, 1.0], 2, 2, 4000);
        assert!((s.value - 0.5).abs() < 0.02, "{s:?}");
        assert!((s.rows[0] - 0.25).abs() < 0.03, "{s:?}");
    }
}
