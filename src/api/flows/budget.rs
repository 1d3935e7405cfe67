//! The search time a batch's searches share ([`SharedBudget`]): the
//! server's AI time cap, counted from the start of the batch's first
//! search, each search getting at most an equal share of what is left.

use std::time::{Duration, Instant};

/// The search time a batch's searches share: the server's AI time cap,
/// counted from the start of its first search, each search getting at
/// most an equal share of what is left.
pub struct SharedBudget {
    cap: Duration,
    deadline: std::cell::Cell<Option<Instant>>,
    searches_left: std::cell::Cell<usize>,
}

impl SharedBudget {
    /// The budget of a batch of `searches` searches.
    pub fn new(cap: Duration, searches: usize) -> SharedBudget {
        SharedBudget {
            cap,
            deadline: std::cell::Cell::new(None),
            searches_left: std::cell::Cell::new(searches.max(1)),
        }
    }

    /// When the batch's searches must all be done, fixed by the first one
    /// to ask (at `now`).
    pub fn deadline(&self, now: Instant) -> Instant {
        let deadline = self.deadline.get().unwrap_or(now + self.cap);
        self.deadline.set(Some(deadline));
        deadline
    }

    /// When the next search (starting `now`) must be done: an equal share
    /// of the time left among the searches left.
    pub fn next_search(&self, now: Instant) -> Instant {
        let left = self.deadline(now).saturating_duration_since(now);
        let searches = self.searches_left.get().max(1);
        self.searches_left.set(searches - 1);
        now + left / searches as u32
    }
}
