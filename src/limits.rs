//! The server's limits: what bounds the work one request can cause (its
//! caps, set from the command line; the slots work takes are
//! [`crate::slots`]), and what one AI search may spend after those caps
//! ([`Limits::search_limits`], the engines' [`SearchLimits`]).

use std::time::Duration;

use crate::error::RequestError;
use crate::games::tank_battle::EndPolicy;
pub use crate::games::SearchLimits;
use crate::text::Text;

/// Limits applied to every request; set from the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Largest accepted request body, in bytes.
    pub body_bytes: usize,
    /// Time a client has to send a request's whole body, milliseconds;
    /// then it gets 408 and its connection is closed.
    pub body_timeout_ms: u64,
    /// Largest answer the service writes, in bytes; a request whose answer
    /// would be larger gets `LIMIT_EXCEEDED` (before the work where the
    /// size can be foreseen).
    pub answer_max_bytes: usize,
    /// Most work one replay may simulate: the state's cells (squares,
    /// track squares, vehicles, tokens) times its steps.
    pub replay_max_work: u64,
    /// Deepest perft a request may ask for.
    pub perft_max_depth: u32,
    /// Most positions one perft request may expand (generate moves for).
    pub perft_max_nodes: u64,
    /// AI thinking time when a request sets no limit, milliseconds.
    pub ai_default_time_ms: u64,
    /// Longest AI thinking time a request may ask for, milliseconds.
    pub ai_max_time_ms: u64,
    /// Deepest AI search a request may ask for, plies.
    pub ai_max_depth: u32,
    /// Most nodes one AI search may visit.
    pub ai_max_nodes: u64,
    /// Live AI searches (`ai-move`) running at once: the live pool; a
    /// request waits at most `search_wait_ms` for a slot of its pool, then
    /// is refused with 503.
    pub max_concurrent_searches: usize,
    /// Long work (reviews, perft) running at once: the long pool, apart
    /// from the live one, so that a review never holds a slot a live move
    /// needs.
    pub max_concurrent_reviews: usize,
    pub search_wait_ms: u64,
    /// Most moves (Tank Battle) or rounds (Tank War) one replay may carry.
    pub replay_max_moves: usize,
    /// Most tanks in a Tank War state.
    pub tank_war_max_tanks: usize,
    /// Longest Tank War track, in squares.
    pub tank_war_max_track: usize,
    /// Most requests in one batch.
    pub batch_max_requests: usize,
    /// Most searches (`ai-move` and `perft` requests) in one batch.
    pub batch_max_searches: usize,
    /// Most moves (Tank Battle) or rounds one `annotate` judges.
    pub annotate_max_plies: usize,
    /// Longest time one `annotate` may take, milliseconds.
    pub annotate_max_time_ms: u64,
    /// The end policy of a Tank Battle request that names none (its
    /// `rules`): the rules as written unless the operator sets one.
    pub tank_battle_rules: EndPolicy,
}

impl Limits {
    pub const DEFAULT_BODY_BYTES: usize = 64 * 1024;
    pub const DEFAULT_BODY_TIMEOUT_MS: u64 = 5_000;
    pub const DEFAULT_ANSWER_MAX_BYTES: usize = 2 << 20;
    pub const DEFAULT_REPLAY_MAX_WORK: u64 = 1_000_000;
    /// Replays with less work than this run inline on the HTTP worker;
    /// larger ones on the blocking pool, in a work slot.
    pub const INLINE_REPLAY_WORK: u64 = 20_000;
    pub const DEFAULT_PERFT_MAX_DEPTH: u32 = 5;
    pub const DEFAULT_PERFT_MAX_NODES: u64 = 10_000_000;
    pub const DEFAULT_AI_TIME_MS: u64 = 200;
    pub const DEFAULT_AI_MAX_TIME_MS: u64 = 5_000;
    pub const DEFAULT_AI_MAX_DEPTH: u32 = 64;
    pub const DEFAULT_AI_MAX_NODES: u64 = 20_000_000;
    pub const DEFAULT_REPLAY_MAX_MOVES: usize = 4_096;
    pub const DEFAULT_SEARCH_WAIT_MS: u64 = 100;
    pub const DEFAULT_TANK_WAR_MAX_TANKS: usize = 128;
    pub const DEFAULT_TANK_WAR_MAX_TRACK: usize = 676;
    pub const DEFAULT_BATCH_MAX_REQUESTS: usize = 256;
    pub const DEFAULT_BATCH_MAX_SEARCHES: usize = 4;
    pub const DEFAULT_ANNOTATE_MAX_PLIES: usize = 400;
    pub const DEFAULT_ANNOTATE_MAX_TIME_MS: u64 = 30_000;
    /// The longest state a query parameter carries (`render.svg`'s
    /// `state`, JSON), in characters: the default Tank War state is 1,150
    /// (Tank Wars' 488), so this draws states about twice its size; larger
    /// ones are drawn from no query (the document says so).
    pub const QUERY_STATE_MAX_CHARS: usize = 2_048;
    /// The longest notation a query parameter carries (a TBN, a layout, a
    /// move, a square), in characters: the longest TBN is 154, a layout
    /// 131.
    pub const QUERY_NOTATION_MAX_CHARS: usize = 256;
    /// The most moves `render.svg` draws as arrows (its `arrows`): a
    /// review's longest line.
    pub const RENDER_MAX_ARROWS: usize = 8;
    /// The longest request line the document allows: `render.svg` of the
    /// game with the longest name, with a state of
    /// [`Limits::QUERY_STATE_MAX_CHARS`] characters, each of up to four
    /// UTF-8 bytes percent-encoded (12 bytes): 24,627 bytes.
    pub const LONGEST_REQUEST_LINE: usize = "GET /v1/cobi-tank-wars/render.svg?state= HTTP/1.1\r\n"
        .len()
        + 12 * Limits::QUERY_STATE_MAX_CHARS;
    /// One search per core by default.
    pub fn default_concurrent_searches() -> usize {
        std::thread::available_parallelism().map_or(2, |n| n.get())
    }

    /// One long job for every two cores by default (at least one).
    pub fn default_concurrent_reviews() -> usize {
        (Limits::default_concurrent_searches() / 2).max(1)
    }
}

// actix-http's head buffer holds the longest request line with room to
// spare for header fields.
const _: () =
    assert!(Limits::LONGEST_REQUEST_LINE + (16 << 10) <= crate::memory::HEAD_BUFFER_BYTES);

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            body_bytes: Limits::DEFAULT_BODY_BYTES,
            body_timeout_ms: Limits::DEFAULT_BODY_TIMEOUT_MS,
            answer_max_bytes: Limits::DEFAULT_ANSWER_MAX_BYTES,
            replay_max_work: Limits::DEFAULT_REPLAY_MAX_WORK,
            perft_max_depth: Limits::DEFAULT_PERFT_MAX_DEPTH,
            perft_max_nodes: Limits::DEFAULT_PERFT_MAX_NODES,
            ai_default_time_ms: Limits::DEFAULT_AI_TIME_MS,
            ai_max_time_ms: Limits::DEFAULT_AI_MAX_TIME_MS,
            ai_max_depth: Limits::DEFAULT_AI_MAX_DEPTH,
            ai_max_nodes: Limits::DEFAULT_AI_MAX_NODES,
            max_concurrent_searches: Limits::default_concurrent_searches(),
            max_concurrent_reviews: Limits::default_concurrent_reviews(),
            search_wait_ms: Limits::DEFAULT_SEARCH_WAIT_MS,
            replay_max_moves: Limits::DEFAULT_REPLAY_MAX_MOVES,
            tank_war_max_tanks: Limits::DEFAULT_TANK_WAR_MAX_TANKS,
            tank_war_max_track: Limits::DEFAULT_TANK_WAR_MAX_TRACK,
            batch_max_requests: Limits::DEFAULT_BATCH_MAX_REQUESTS,
            batch_max_searches: Limits::DEFAULT_BATCH_MAX_SEARCHES,
            annotate_max_plies: Limits::DEFAULT_ANNOTATE_MAX_PLIES,
            annotate_max_time_ms: Limits::DEFAULT_ANNOTATE_MAX_TIME_MS,
            tank_battle_rules: EndPolicy::AS_WRITTEN,
        }
    }
}

impl Limits {
    /// A query parameter's value `text` is within `max` characters (the
    /// document's `maxLength`); else 400 naming the parameter.
    pub fn check_query(text: &str, max: usize, field: &str) -> Result<(), RequestError> {
        let chars = text.chars().count();
        if chars > max {
            return Err(RequestError::bad_query(
                Text::new("request-query-too-long")
                    .with("param", field)
                    .with("count", chars)
                    .with("max", max),
                Some(field),
            ));
        }
        Ok(())
    }

    /// A review of `len` moves or rounds is within the limit.
    pub fn check_annotate(&self, len: usize, field: &str) -> Result<(), RequestError> {
        if len > self.annotate_max_plies {
            return Err(RequestError::limit_exceeded(
                Text::new("limit-review-steps")
                    .with("count", len)
                    .with("field", field)
                    .with("max", self.annotate_max_plies),
                field,
            ));
        }
        Ok(())
    }

    /// A replay of `len` moves or rounds is within the limit.
    pub fn check_replay(&self, len: usize, field: &str) -> Result<(), RequestError> {
        if len > self.replay_max_moves {
            return Err(RequestError::limit_exceeded(
                Text::new("limit-replay-steps")
                    .with("count", len)
                    .with("field", field)
                    .with("max", self.replay_max_moves),
                field,
            ));
        }
        Ok(())
    }
}

impl Limits {
    /// A replay of `steps` steps from a state of `cells` cells is within
    /// the work limit.
    pub fn check_replay_work(
        &self,
        cells: usize,
        steps: usize,
        field: &str,
    ) -> Result<u64, RequestError> {
        let work = (cells as u64).saturating_mul(steps as u64);
        if work > self.replay_max_work {
            return Err(RequestError::limit_exceeded(
                Text::new("limit-replay-work")
                    .with("steps", steps)
                    .with("cells", cells)
                    .with("work", work)
                    .with("max", self.replay_max_work),
                field,
            ));
        }
        Ok(work)
    }

    /// An answer of `bytes` bytes (`foreseen` before the work) is within
    /// the answer limit.
    pub fn check_answer(&self, bytes: usize, foreseen: bool) -> Result<(), RequestError> {
        if bytes > self.answer_max_bytes {
            return Err(RequestError::limit_exceeded(
                Text::new("limit-answer")
                    .with("foreseen", if foreseen { "yes" } else { "no" })
                    .with("bytes", bytes)
                    .with("max", self.answer_max_bytes),
                "",
            ));
        }
        Ok(())
    }
}

impl Limits {
    /// What one AI search may spend: the limits a request asks (any of
    /// them absent), each clamped to the server's cap. With no time asked,
    /// the search gets the default time, unless it asked for a depth or
    /// node limit: then that limit governs (so the answer is deterministic)
    /// and the time cap only guards. The stop flag is the caller's to set.
    pub fn search_limits(
        &self,
        time_ms: Option<u64>,
        depth: Option<u32>,
        nodes: Option<u64>,
    ) -> SearchLimits<'static> {
        let default_time = if depth.is_some() || nodes.is_some() {
            self.ai_max_time_ms
        } else {
            self.ai_default_time_ms.min(self.ai_max_time_ms)
        };
        let time_ms = time_ms
            .unwrap_or(default_time)
            .clamp(1, self.ai_max_time_ms.max(1));
        SearchLimits {
            max_time: Some(Duration::from_millis(time_ms)),
            max_depth: depth
                .unwrap_or(self.ai_max_depth)
                .clamp(1, self.ai_max_depth.max(1)),
            max_nodes: nodes
                .unwrap_or(self.ai_max_nodes)
                .clamp(1, self.ai_max_nodes.max(1)),
            stop: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_longest_request_line_counts_four_bytes_a_character() {
        assert_eq!(Limits::LONGEST_REQUEST_LINE, 24_627);
        assert!(Limits::check_query(&"é".repeat(256), 256, "position").is_ok());
        let refused = Limits::check_query(&"a".repeat(257), 256, "position").unwrap_err();
        assert_eq!(refused.code(), "BAD_REQUEST");
        assert!(
            matches!(refused, RequestError::BadQuery { field: Some(f), .. } if f == "position")
        );
    }

    #[test]
    fn search_limits_default_and_are_capped() {
        let limits = Limits::default();
        let figures =
            |l: SearchLimits| (l.max_time.map(|t| t.as_millis()), l.max_depth, l.max_nodes);
        assert_eq!(
            figures(limits.search_limits(None, None, None)),
            (Some(200), 64, 20_000_000)
        );
        assert_eq!(
            figures(limits.search_limits(None, Some(3), None)),
            (Some(5_000), 3, 20_000_000)
        );
        assert_eq!(
            figures(limits.search_limits(Some(999_999), Some(999), Some(u64::MAX))),
            (Some(5_000), 64, 20_000_000)
        );
        assert_eq!(
            figures(limits.search_limits(Some(0), Some(0), Some(0))),
            (Some(1), 1, 1)
        );
    }
}
