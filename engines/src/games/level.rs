//! How an AI is asked to play: at full strength or at one of eight levels,
//! and how many of its best moves to report (analysis).
//!
//! A level is a fixed recipe each engine documents: search budgets in
//! depth and positions (never time, so a level plays the same on any
//! machine) and a deliberate imperfection, a choice among the best moves
//! weighted by their values at a temperature. Level 8 is full strength at
//! a small budget; level 1 loses to a greedy player most of the time.

use std::fmt;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A playing level, 1 (beginner) to 8 (full strength at a small budget).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u8);

impl Level {
    pub const MIN: u8 = 1;
    pub const MAX: u8 = 8;

    /// The level `n`, if it is one (1 to 8).
    pub const fn new(n: u8) -> Option<Level> {
        if n >= Self::MIN && n <= Self::MAX {
            Some(Level(n))
        } else {
            None
        }
    }

    /// Every level, weakest first.
    pub fn all() -> impl Iterator<Item = Level> {
        (Self::MIN..=Self::MAX).map(Level)
    }

    pub const fn get(self) -> u8 {
        self.0
    }

    /// 0 for level 1 to 7 for level 8: an index into a recipe table.
    pub const fn index(self) -> usize {
        (self.0 - Self::MIN) as usize
    }

    /// This level's entry of a table of eight recipes, weakest first.
    pub fn pick<T: Copy>(self, table: &[T; 8]) -> T {
        let [.., strongest] = *table;
        table.get(self.index()).copied().unwrap_or(strongest)
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// What a search is asked besides its limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Style {
    /// `None`: full strength within the limits.
    pub level: Option<Level>,
    /// How many of the best moves to report with their values (1: just
    /// the best; analysis asks for more).
    pub lines: usize,
}

impl Default for Style {
    fn default() -> Style {
        Style::FULL
    }
}

impl Style {
    /// Full strength, the best move only.
    pub const FULL: Style = Style {
        level: None,
        lines: 1,
    };

    /// Playing at `level`, the best move only.
    pub const fn at(level: Level) -> Style {
        Style {
            level: Some(level),
            lines: 1,
        }
    }
}

/// The seeded generator a level draws its imperfection from: its own
/// stream, apart from the one a search breaks ties with.
pub fn level_rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed ^ 0x6c65_7665_6c5f_7267)
}

/// Draws an index from `values` (higher is better) with probabilities
/// proportional to `exp((value - best) / temperature)`: at temperature 0
/// (or below) the first best; `None` when `values` is empty.
pub fn choose_by_temperature(
    values: &[f64],
    temperature: f64,
    rng: &mut ChaCha8Rng,
) -> Option<usize> {
    let best = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if temperature.is_nan() || temperature <= 0.0 || !best.is_finite() {
        return values.iter().position(|&v| v == best);
    }
    let weights: Vec<f64> = values
        .iter()
        .map(|&v| ((v - best) / temperature).exp())
        .collect();
    let total: f64 = weights.iter().sum();
    let mut target = rng.random::<f64>() * total;
    for (i, w) in weights.iter().enumerate() {
        if target < *w {
            return Some(i);
        }
        target -= w;
    }
    values.iter().position(|&v| v == best)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_one_to_eight() {
        assert!(Level::new(0).is_none());
        assert!(Level::new(9).is_none());
        let all: Vec<u8> = Level::all().map(Level::get).collect();
        assert_eq!(all, (1..=8).collect::<Vec<_>>());
        assert_eq!(Level::new(8).map(Level::index), Some(7));
    }

    #[test]
    fn zero_temperature_takes_the_first_best() {
        let mut rng = level_rng(1);
        assert_eq!(
            choose_by_temperature(&[1.0, 3.0, 3.0], 0.0, &mut rng),
            Some(1)
        );
        assert_eq!(choose_by_temperature(&[], 5.0, &mut rng), None);
    }

    #[test]
    fn temperature_spreads_the_choice_by_value() {
        let mut rng = level_rng(7);
        let mut counts = [0usize; 3];
        for _ in 0..3000 {
            if let Some(i) = choose_by_temperature(&[0.0, -1.0, -50.0], 1.0, &mut rng) {
                counts[i] += 1;
            }
        }
        // e^0 : e^-1 : e^-50 is about 73% : 27% : 0%.
        assert!((2000..2400).contains(&counts[0]), "{counts:?}");
        assert!((600..1000).contains(&counts[1]), "{counts:?}");
        assert_eq!(counts[2], 0);
    }

    #[test]
    fn the_same_seed_draws_the_same() {
        let draw = |seed| {
            let mut rng = level_rng(seed);
            (0..20)
                .filter_map(|_| choose_by_temperature(&[0.0, 0.0, 0.0, 0.0], 1.0, &mut rng))
                .collect::<Vec<_>>()
        };
        assert_eq!(draw(3), draw(3));
        assert_ne!(draw(3), draw(4));
    }
}
