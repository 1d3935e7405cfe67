//! Zero-sum matrix games solved exactly (to floating-point rounding) as a
//! linear programme: the row player maximises, the column player
//! minimises. A pure saddle point is found directly; otherwise the simplex
//! method (Bland's rule, so it cannot cycle) on the column player's
//! programme, whose final tableau also holds the row player's strategy.

/// An equilibrium: each side's mixed strategy and the value to the row
/// player.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    pub rows: Vec<f64>,
    pub cols: Vec<f64>,
    pub value: f64,
}

/// Pivots smaller than this are taken for zero.
const EPSILON: f64 = 1e-12;

/// The value of the `rows` x `cols` game whose payoffs are
/// `m[i * cols + j]`, without the strategies.
pub fn value(m: &[f64], rows: usize, cols: usize) -> f64 {
    match saddle_point(m, rows, cols) {
        Some(v) => v,
        None => solve(m, rows, cols).value,
    }
}

/// The maximin of pure strategies when it equals the minimax (a pure
/// saddle point), else `None`.
fn saddle_point(m: &[f64], rows: usize, cols: usize) -> Option<f64> {
    if rows == 0 || cols == 0 || m.len() != rows * cols {
        return None;
    }
    let maximin = m
        .chunks_exact(cols)
        .map(|row| row.iter().copied().fold(f64::INFINITY, f64::min))
        .fold(f64::NEG_INFINITY, f64::max);
    let minimax = (0..cols)
        .map(|j| {
            m.iter()
                .skip(j)
                .step_by(cols)
                .copied()
                .fold(f64::NEG_INFINITY, f64::max)
        })
        .fold(f64::INFINITY, f64::min);
    (maximin >= minimax).then_some(maximin)
}

/// An equilibrium of the game whose payoffs are `m[i * cols + j]`: both
/// strategies and the value to the row player. An empty or malformed
/// matrix gives uniform strategies and value 0.
pub fn solve(m: &[f64], rows: usize, cols: usize) -> Solution {
    if rows == 0 || cols == 0 || m.len() != rows * cols {
        return Solution {
            rows: vec![1.0 / rows.max(1) as f64; rows],
            cols: vec![1.0 / cols.max(1) as f64; cols],
            value: 0.0,
        };
    }
    // Shift every payoff to at least 1, so the value is positive and the
    // column player's programme, maximise Σw subject to Bw ≤ 1, w ≥ 0, is
    // bounded with the origin feasible. Then value = 1/Σw − shift,
    // y = w/Σw, and x is the slacks' reduced costs over Σw.
    let low = m.iter().copied().fold(f64::INFINITY, f64::min);
    let shift = 1.0 - low;
    // Tableau: `rows` constraint rows over `cols` + `rows` variables and
    // the right-hand side; then the objective row.
    let width = cols + rows + 1;
    let mut t = vec![0.0; (rows + 1) * width];
    for i in 0..rows {
        for j in 0..cols {
            t[i * width + j] = m[i * cols + j] + shift;
        }
        t[i * width + cols + i] = 1.0;
        t[i * width + width - 1] = 1.0;
    }
    let objective = rows * width;
    for j in 0..cols {
        t[objective + j] = -1.0;
    }
    let mut basis: Vec<usize> = (cols..cols + rows).collect();
    // Bland's rule: the lowest-indexed improving column enters, ties in
    // the ratio test go to the lowest-indexed basic variable. Each basis
    // is visited once, so the loop ends; the cap only guards rounding.
    for _ in 0..10_000 {
        let Some(enter) = (0..width - 1).find(|&j| t[objective + j] < -EPSILON) else {
            break;
        };
        let mut leave: Option<(usize, f64)> = None;
        for i in 0..rows {
            let a = t[i * width + enter];
            if a > EPSILON {
                let ratio = t[i * width + width - 1] / a;
                let better = match leave {
                    None => true,
                    Some((l, best)) => {
                        ratio < best - EPSILON || (ratio <= best + EPSILON && basis[i] < basis[l])
                    }
                };
                if better {
                    leave = Some((i, ratio));
                }
            }
        }
        // Unbounded cannot happen with positive payoffs; stop safely.
        let Some((row, _)) = leave else {
            break;
        };
        pivot(&mut t, width, row, enter);
        basis[row] = enter;
    }
    let total = t[objective + width - 1];
    let mut y = vec![0.0; cols];
    for (i, &b) in basis.iter().enumerate() {
        if b < cols {
            y[b] = t[i * width + width - 1];
        }
    }
    let x: Vec<f64> = (0..rows).map(|i| t[objective + cols + i]).collect();
    Solution {
        rows: normalised(x),
        cols: normalised(y),
        value: 1.0 / total - shift,
    }
}

fn pivot(t: &mut [f64], width: usize, row: usize, col: usize) {
    let p = t[row * width + col];
    for v in &mut t[row * width..(row + 1) * width] {
        *v /= p;
    }
    let pivot_row: Vec<f64> = t[row * width..(row + 1) * width].to_vec();
    for (r, chunk) in t.chunks_exact_mut(width).enumerate() {
        let factor = chunk[col];
        if r != row && factor != 0.0 {
            for (v, p) in chunk.iter_mut().zip(&pivot_row) {
                *v -= factor * p;
            }
        }
    }
}

/// Clamps rounding below zero and rescales to a sum of 1.
fn normalised(mut p: Vec<f64>) -> Vec<f64> {
    for v in &mut p {
        if *v < EPSILON {
            *v = 0.0;
        }
    }
    let total: f64 = p.iter().sum();
    if total > 0.0 {
        for v in &mut p {
            *v /= total;
        }
    } else {
        let n = p.len().max(1) as f64;
        p.iter_mut().for_each(|v| *v = 1.0 / n);
    }
    p
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// What the row strategy guarantees and what the column strategy
    /// concedes at most: equal to the value at an equilibrium.
    fn guarantees(m: &[f64], cols: usize, s: &Solution) -> (f64, f64) {
        let floor = (0..cols)
            .map(|j| {
                (0..s.rows.len())
                    .map(|i| s.rows[i] * m[i * cols + j])
                    .sum::<f64>()
            })
            .fold(f64::INFINITY, f64::min);
        let ceiling = m
            .chunks_exact(cols)
            .map(|row| row.iter().zip(&s.cols).map(|(a, q)| a * q).sum::<f64>())
            .fold(f64::NEG_INFINITY, f64::max);
        (floor, ceiling)
    }

    fn assert_equilibrium(m: &[f64], rows: usize, cols: usize, value: f64) -> Solution {
        let s = solve(m, rows, cols);
        assert!((s.value - value).abs() < 1e-9, "{s:?}");
        let (floor, ceiling) = guarantees(m, cols, &s);
        assert!(
            (floor - value).abs() < 1e-9 && (ceiling - value).abs() < 1e-9,
            "{s:?}"
        );
        assert!((s.rows.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        assert!((s.cols.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        assert!((super::value(m, rows, cols) - value).abs() < 1e-9);
        s
    }

    #[test]
    fn matching_pennies() {
        let s = assert_equilibrium(&[1.0, -1.0, -1.0, 1.0], 2, 2, 0.0);
        assert!((s.rows[0] - 0.5).abs() < 1e-12 && (s.cols[0] - 0.5).abs() < 1e-12);
    }

    #[test]
    fn rock_paper_scissors() {
        let m = [0.0, -1.0, 1.0, 1.0, 0.0, -1.0, -1.0, 1.0, 0.0];
        let s = assert_equilibrium(&m, 3, 3, 0.0);
        for p in s.rows.iter().chain(&s.cols) {
            assert!((p - 1.0 / 3.0).abs() < 1e-12, "{s:?}");
        }
    }

    #[test]
    fn a_dominated_row_is_never_played() {
        // Row 2 is worse than row 0 against every column; the rest is
        // [[2, -1], [0, 1]] with value 1/2 at x = (1/4, 3/4).
        let m = [2.0, -1.0, 0.0, 1.0, 1.0, -2.0];
        let s = assert_equilibrium(&m, 3, 2, 0.5);
        assert_eq!(s.rows[2], 0.0);
        assert!((s.rows[0] - 0.25).abs() < 1e-12, "{s:?}");
        assert!((s.cols[0] - 0.5).abs() < 1e-12, "{s:?}");
    }

    #[test]
    fn a_saddle_point_and_a_single_row() {
        assert_equilibrium(&[1.0, 5.0, 3.0, 4.0], 2, 2, 3.0);
        let s = assert_equilibrium(&[0.5, -0.25, 1.0], 1, 3, -0.25);
        assert_eq!(s.cols, vec![0.0, 1.0, 0.0]);
    }

    proptest! {
        /// On any game the strategies found guarantee the value found, to
        /// both sides.
        #[test]
        fn any_game_is_solved(
            (rows, cols, m) in (1usize..8, 1usize..8).prop_flat_map(|(r, c)| {
                (Just(r), Just(c), proptest::collection::vec(-4i8..=4, r * c))
            })
        ) {
            let m: Vec<f64> = m.into_iter().map(|v| f64::from(v) / 4.0).collect();
            let s = solve(&m, rows, cols);
            let (floor, ceiling) = guarantees(&m, cols, &s);
            prop_assert!((floor - s.value).abs() < 1e-9, "{:?}", s);
            prop_assert!((ceiling - s.value).abs() < 1e-9, "{:?}", s);
            prop_assert!((value(&m, rows, cols) - s.value).abs() < 1e-9);
        }
    }
}
