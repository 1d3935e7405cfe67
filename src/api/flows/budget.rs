//! The search time a batch's searches share ([`SharedBudget`]): the
//! server's AI time cap, counted from the start of the batch, each search
//! given its share of what is left by its price (a review, priced at
//! several searches, gets as many shares), and every search after the
//! budget is spent refused.

use std::cell::Cell;
use std::time::{Duration, Instant};

use crate::error::RequestError;
use crate::text::Text;

/// The search time a batch's searches share: the server's AI time cap from
/// the start of the batch, each search given its share of what is left by
/// its price in search units.
pub struct SharedBudget {
    cap: Duration,
    deadline: Instant,
    /// Search units of the searches not yet run.
    units_left: Cell<u64>,
}

impl SharedBudget {
    /// The budget of a batch starting `now`, its searches `units` search
    /// units in all, sharing `cap`.
    pub fn new(cap: Duration, units: u64, now: Instant) -> SharedBudget {
        SharedBudget {
            cap,
            deadline: now + cap,
            units_left: Cell::new(units),
        }
    }

    /// When the next search, `units` search units and starting `now`,
    /// must be done: its share of the time left by its units among the
    /// units left; `LIMIT_EXCEEDED` naming the budget when it is spent.
    pub fn next_search(&self, now: Instant, units: u32) -> Result<Instant, RequestError> {
        let left = self.deadline.saturating_duration_since(now);
        // Whole milliseconds, as limits are asked.
        if left.as_millis() == 0 {
            return Err(self.spent());
        }
        let units = u64::from(units.max(1));
        let all = self.units_left.get().max(units);
        self.units_left.set(all - units);
        let share = left.mul_f64(units as f64 / all as f64);
        Ok(now + share)
    }

    /// The refusal of a search once the budget is spent, or of one that
    /// needs more of it than is left: `LIMIT_EXCEEDED` naming the budget.
    pub fn spent(&self) -> RequestError {
        self.exceeded(Text::new("limit-budget-spent"))
    }

    /// The problem of a review cut at the end of its `share` of the budget
    /// (of the batch starting it at `started`): `LIMIT_EXCEEDED` naming
    /// the budget.
    pub fn share_spent(&self, share: Duration) -> RequestError {
        self.exceeded(Text::new("limit-budget-share").with("share", millis(share)))
    }

    /// The refusal of a review that needs `needed` of the budget and is
    /// given only `share`: `LIMIT_EXCEEDED` naming the budget.
    pub fn too_little(&self, needed: Duration, share: Duration) -> RequestError {
        let text = Text::new("limit-budget-too-little").with("needed", millis(needed));
        self.exceeded(text.with("share", millis(share)))
    }

    /// `LIMIT_EXCEEDED`: `text`, naming the budget's cap.
    fn exceeded(&self, text: Text) -> RequestError {
        RequestError::limit_exceeded(text.with("cap", millis(self.cap)), "")
    }
}

/// Whole milliseconds, as a text's number.
fn millis(time: Duration) -> u64 {
    u64::try_from(time.as_millis()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn searches_share_what_is_left_by_their_units_and_then_are_refused() {
        let start = Instant::now();
        let budget = SharedBudget::new(Duration::from_millis(6_000), 8, start);
        // A search of one unit among eight: an eighth.
        let first = budget.next_search(start, 1);
        assert_eq!(first.ok(), Some(start + Duration::from_millis(750)));
        // A review of six units among the seven left, a second later.
        let later = start + Duration::from_millis(1_000);
        let review = budget.next_search(later, 6);
        assert_eq!(
            review.ok(),
            Some(later + Duration::from_secs_f64(5.0 * 6.0 / 7.0))
        );
        // The last unit: all that is left.
        let last = start + Duration::from_millis(5_500);
        assert_eq!(
            budget.next_search(last, 1).ok(),
            Some(start + Duration::from_millis(6_000))
        );
        // Past the deadline, every search is refused, naming the budget.
        let after = start + Duration::from_millis(6_000);
        let refused = budget.next_search(after, 1);
        assert!(
            matches!(&refused, Err(error @ RequestError::LimitExceeded { .. }) if error.to_string().contains("6000 ms")),
            "{refused:?}"
        );
    }
}
