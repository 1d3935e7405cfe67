//! The enemy model: the sensible player's orders, the enemy who answers
//! it, and where a sensible aimer's gunfire is expected.

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use super::levels::{AIM_NOISE, MODEL_TEMPERATURE};
use super::search::{cell_at, options, product, Search};
use crate::games::cobi_tank_wars::rules::Order;
use crate::games::cobi_tank_wars::state::{State, Vehicle};
use crate::games::level::choose_by_temperature;
use crate::games::SearchLimits;

impl Search<'_> {
    /// `count` joint orders of `vehicles` drawn from the sensible player.
    pub(super) fn sensible_samples(
        &self,
        vehicles: &[&Vehicle],
        count: usize,
        rng: &mut ChaCha8Rng,
    ) -> Vec<Vec<Order>> {
        (0..count)
            .map(|_| {
                vehicles
                    .iter()
                    .map(|v| sample_order(self.state, v, rng))
                    .collect()
            })
            .collect()
    }

    /// Where the enemy fires if it aims as a sensible aimer: at the square
    /// where our vehicles, played by the sensible player, stop most often
    /// (and its own, also sensible, less often), with the aimer's doubt of
    /// [`AIM_NOISE`]. Each square's chance, row by row; they sum to 1 (or
    /// all are 0 when no square is worth a shot).
    pub(super) fn threat(&mut self, count: usize, rng: &mut ChaCha8Rng) -> Vec<f64> {
        let left = self.limits.max_nodes.saturating_sub(self.simulations) / 4;
        let count = count.min(usize::try_from(left).unwrap_or(usize::MAX));
        if count == 0 {
            return Vec::new();
        }
        let squares = usize::from(self.state.board.cols) * usize::from(self.state.board.rows);
        let mut ours = vec![0u32; squares];
        let mut theirs = vec![0u32; squares];
        let own = self.sensible_samples(&self.own, count, rng);
        let enemy = self.sensible_samples(&self.enemy, count, rng);
        for (mine, other) in own.iter().zip(&enemy) {
            let next = self.play(mine, other, false);
            for v in &next.vehicles {
                let counts = if v.owner == self.player {
                    &mut ours
                } else {
                    &mut theirs
                };
                if let Some(n) = counts.get_mut(self.square_index(v.square)) {
                    *n += 1;
                }
            }
        }
        let noise = AIM_NOISE * count as f64;
        let margin: Vec<f64> = ours
            .iter()
            .zip(&theirs)
            .enumerate()
            .map(|(i, (o, t))| {
                let fired = self
                    .state
                    .gunfire
                    .contains(&cell_at(self.state.board.cols, i));
                if o > t && !fired {
                    f64::from(o - t)
                } else {
                    f64::NEG_INFINITY
                }
            })
            .collect();
        let top = margin.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        if !top.is_finite() {
            return vec![0.0; squares];
        }
        let weights: Vec<f64> = margin.iter().map(|m| ((m - top) / noise).exp()).collect();
        let total: f64 = weights.iter().sum();
        weights.iter().map(|w| w / total).collect()
    }

    /// `count` enemy samples from a model of an enemy who answers the
    /// sensible player: the enemy's joint orders measured against sensible
    /// samples of ours with this search's budgets (dodging our sensible
    /// gunfire when `dodge`), a third of what is left of the simulations
    /// spent on it; each sample is one of those orders drawn by its mean
    /// at [`MODEL_TEMPERATURE`] with chance [`MODEL_SHARE`](super::levels::MODEL_SHARE), otherwise a
    /// sensible sample.
    pub(super) fn modelled_enemy(
        &mut self,
        count: usize,
        share: f64,
        dodge: usize,
        rng: &mut ChaCha8Rng,
    ) -> Vec<Vec<Order>> {
        let left = self.limits.max_nodes.saturating_sub(self.simulations);
        let mut mirror = Search::new(
            self.state,
            self.player.other(),
            SearchLimits {
                max_nodes: left / 3,
                max_time: self.limits.max_time.map(|t| t / 3),
                ..self.limits
            },
            self.start,
        );
        if dodge > 0 {
            mirror.threat = mirror.threat(dodge, rng);
        }
        let ours = mirror.sensible_samples(&mirror.enemy, count, rng);
        let options: Vec<Vec<Order>> = mirror.own.iter().map(|v| options(self.state, v)).collect();
        let candidates = product(&options);
        let halving = mirror.halve(&candidates, &ours);
        self.simulations += mirror.simulations;
        let ranking = halving.ranking();
        let means: Vec<f64> = ranking.iter().map(|t| t.mean()).collect();
        let temperature = MODEL_TEMPERATURE;
        (0..count)
            .map(|_| {
                let modelled = rng.random::<f64>() < share;
                let pick = if modelled {
                    choose_by_temperature(&means, temperature, rng)
                        .and_then(|i| ranking.get(i))
                        .and_then(|t| candidates.get(t.candidate))
                } else {
                    None
                };
                match pick {
                    Some(orders) => orders.clone(),
                    None => self
                        .enemy
                        .iter()
                        .map(|v| sample_order(self.state, v, rng))
                        .collect(),
                }
            })
            .collect()
    }
}

/// An enemy order drawn from the model of a sensible player: every option
/// weighs 1, less for each known artillery token on its path, for known
/// gunfire or another vehicle at its destination, more for a support token
/// there.
pub(super) fn sample_order(state: &State, vehicle: &Vehicle, rng: &mut ChaCha8Rng) -> Order {
    let choices = options(state, vehicle);
    let weights: Vec<f64> = choices
        .iter()
        .map(|order| {
            let Some((path, len)) = order.path(state.board, vehicle.square) else {
                return 1.0; // staying put
            };
            let entered = path.get(..len).unwrap_or_default();
            let mut weight = 1.0;
            for square in entered {
                if state.artillery.contains(square) {
                    weight *= 0.3;
                }
            }
            if let Some(to) = entered.last() {
                if state.support.contains(to) {
                    weight *= 3.0;
                }
                if state.gunfire.contains(to) {
                    weight *= 0.5;
                }
                if state.vehicles.iter().any(|v| v.square == *to) {
                    weight *= 0.5;
                }
            }
            weight
        })
        .collect();
    let total: f64 = weights.iter().sum();
    let mut r = rng.random::<f64>() * total;
    for (order, weight) in choices.iter().zip(&weights) {
        if r < *weight {
            return *order;
        }
        r -= weight;
    }
    choices.last().copied().unwrap_or(Order::ALL[0])
}
