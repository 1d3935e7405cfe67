//! Aiming our gunfire: at the squares where the enemy's vehicles stop
//! most often against the chosen orders.

use super::search::{cell_at, Search};
use super::GunfireTarget;
use crate::games::cobi_tank_wars::rules::Order;

impl Search<'_> {
    /// The squares where enemy vehicles stop most often against `own`,
    /// leaving out squares where own vehicles stop as often and squares
    /// that already hold gunfire.
    pub(super) fn aim(
        &mut self,
        own: &[Order],
        samples: &[Vec<Order>],
        tokens: usize,
    ) -> Vec<GunfireTarget> {
        if tokens == 0 || samples.is_empty() {
            return Vec::new();
        }
        let board = self.state.board;
        let squares = usize::from(board.cols) * usize::from(board.rows);
        let mut enemy_at = vec![0u32; squares];
        let mut own_at = vec![0u32; squares];
        for sample in samples {
            let next = self.play(own, sample, false);
            for v in &next.vehicles {
                let counts = if v.owner == self.player {
                    &mut own_at
                } else {
                    &mut enemy_at
                };
                let index =
                    usize::from(v.square.row) * usize::from(board.cols) + usize::from(v.square.col);
                if let Some(n) = counts.get_mut(index) {
                    *n += 1;
                }
            }
        }
        let mut targets: Vec<(usize, u32, u32)> = enemy_at
            .iter()
            .zip(&own_at)
            .enumerate()
            .filter(|(_, (e, o))| e > o)
            .map(|(i, (e, o))| (i, *e, *o))
            .filter(|(i, _, _)| {
                let cell = cell_at(board.cols, *i);
                !self.state.gunfire.contains(&cell)
            })
            .collect();
        targets.sort_by(|a, b| (b.1 - b.2).cmp(&(a.1 - a.2)).then(a.0.cmp(&b.0)));
        targets
            .into_iter()
            .take(tokens)
            .map(|(i, e, _)| GunfireTarget {
                square: cell_at(board.cols, i),
                probability: f64::from(e) / samples.len() as f64,
            })
            .collect()
    }
}
