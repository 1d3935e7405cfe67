//! Every operation a game serves, written once: its path under
//! `/v1/{game}` (which is also its name in a batch), its method, whether a
//! batch runs it, what it costs and the pool of slots its work runs in.
//! The routes, `batch`, fair use, the metrics and the document all read an
//! operation from here ([`Operation`]); nothing else names one.
//!
//! **Prices.** A client's quotas are counted in two units: requests, and
//! search units. One search unit is one search at the server's AI time cap
//! (`--ai-max-time-ms`): `ai-move` and `perft` cost one; a review
//! (`annotate`) costs its time cap over the AI time cap, rounded up
//! (`--annotate-max-time-ms` ÷ `--ai-max-time-ms`, 6 at the default
//! flags), so a client pays for the slot time it may hold; a `batch` costs
//! the sum of its items, a `compare` the sum of its claims' operations.
//! Every other operation costs one request.
//!
//! **Pools.** Work that runs off the HTTP workers takes a slot of its
//! operation's pool, waiting `--search-wait-ms` at most: *live* play
//! (`ai-move`), *long* work (`annotate`, `perft`), and large replays
//! (*work*). Pools are apart, so a review never holds a slot a live move
//! needs.

use crate::fair_use::Class;
use crate::limits::Limits;

/// An operation of a game, under `/v1/{game}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operation {
    Initial,
    LegalMoves,
    Validate,
    Apply,
    Score,
    Replay,
    AiMove,
    Annotate,
    AnnotateLines,
    AnnotateChart,
    Puzzles,
    PuzzlesLines,
    Perft,
    Batch,
    Compare,
    Render,
}

/// An operation's HTTP method.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    Get,
    Post,
}

/// What an operation costs, before the server's limits give it a figure
/// ([`Operation::price`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cost {
    /// One request.
    Request,
    /// One search unit.
    Search,
    /// A review: ⌈`--annotate-max-time-ms` ÷ `--ai-max-time-ms`⌉ search
    /// units.
    Review,
    /// The sum of its items' prices; one request at the door.
    Items,
}

/// The pools of slots that work off the HTTP workers runs in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pool {
    /// Live play: `ai-move` (`--max-concurrent-searches`).
    Live,
    /// Long work: reviews and perft (`--max-concurrent-reviews`).
    Long,
    /// Large replays, whatever their game (one a core).
    Work,
}

impl Pool {
    pub const ALL: [Pool; 3] = [Pool::Live, Pool::Long, Pool::Work];

    /// Its name in the metrics and the document.
    pub const fn name(self) -> &'static str {
        match self {
            Pool::Live => "live",
            Pool::Long => "long",
            Pool::Work => "work",
        }
    }
}

/// One operation's entry: everything the service says of it.
struct Entry {
    /// Its path segment and its name in a batch (`ai-move`).
    name: &'static str,
    /// `/` and its name.
    path: &'static str,
    method: Method,
    /// Whether a batch runs it.
    batched: bool,
    /// Whether every game serves it (else a game names it among its own:
    /// `GameApi::EXTRA_OPS`).
    every_game: bool,
    cost: Cost,
    /// The pool its work runs in; `None` when it runs on the HTTP worker.
    pool: Option<Pool>,
}

/// A request's price: how many units of which quota.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Price {
    pub class: Class,
    pub units: u32,
}

impl Price {
    /// One request.
    pub const REQUEST: Price = Price {
        class: Class::Cheap,
        units: 1,
    };
}

impl Operation {
    /// Every operation, in the order the document's batch lists them.
    pub const ALL: [Operation; 16] = [
        Operation::Initial,
        Operation::LegalMoves,
        Operation::Validate,
        Operation::Apply,
        Operation::Score,
        Operation::Replay,
        Operation::Perft,
        Operation::AiMove,
        Operation::Annotate,
        Operation::AnnotateLines,
        Operation::AnnotateChart,
        Operation::Puzzles,
        Operation::PuzzlesLines,
        Operation::Batch,
        Operation::Compare,
        Operation::Render,
    ];

    /// The table: one entry an operation.
    const fn entry(self) -> Entry {
        use Cost::*;
        use Method::*;
        // name, path, method, batched, every game, cost, pool
        let (name, path, method, batched, every_game, cost, pool) = match self {
            Operation::Initial => ("initial", "/initial", Get, false, true, Request, None),
            Operation::LegalMoves => (
                "legal-moves",
                "/legal-moves",
                Post,
                true,
                true,
                Request,
                None,
            ),
            Operation::Validate => ("validate", "/validate", Post, true, true, Request, None),
            Operation::Apply => ("apply", "/apply", Post, true, true, Request, None),
            Operation::Score => ("score", "/score", Post, true, true, Request, None),
            Operation::Replay => (
                "replay",
                "/replay",
                Post,
                true,
                true,
                Request,
                Some(Pool::Work),
            ),
            Operation::Perft => (
                "perft",
                "/perft",
                Post,
                true,
                false,
                Search,
                Some(Pool::Long),
            ),
            Operation::AiMove => (
                "ai-move",
                "/ai-move",
                Post,
                true,
                true,
                Search,
                Some(Pool::Live),
            ),
            Operation::Annotate => (
                "annotate",
                "/annotate",
                Post,
                true,
                true,
                Review,
                Some(Pool::Long),
            ),
            // The review in one format, for a client that reads one media
            // type an operation (generated clients do).
            Operation::AnnotateLines => (
                "annotate.ndjson",
                "/annotate.ndjson",
                Post,
                false,
                true,
                Review,
                Some(Pool::Long),
            ),
            Operation::AnnotateChart => (
                "annotate.svg",
                "/annotate.svg",
                Post,
                false,
                true,
                Review,
                Some(Pool::Long),
            ),
            // A review and the finder over it, in the review's time cap.
            Operation::Puzzles => (
                "puzzles",
                "/puzzles",
                Post,
                true,
                false,
                Review,
                Some(Pool::Long),
            ),
            // The puzzles in one format, NDJSON (as `annotate.ndjson`).
            Operation::PuzzlesLines => (
                "puzzles.ndjson",
                "/puzzles.ndjson",
                Post,
                false,
                false,
                Review,
                Some(Pool::Long),
            ),
            Operation::Batch => ("batch", "/batch", Post, false, true, Items, None),
            Operation::Compare => ("compare", "/compare", Post, true, true, Items, None),
            Operation::Render => ("render.svg", "/render.svg", Get, false, true, Request, None),
        };
        Entry {
            name,
            path,
            method,
            batched,
            every_game,
            cost,
            pool,
        }
    }

    /// Its path segment under `/v1/{game}`, and its name in a batch.
    pub const fn name(self) -> &'static str {
        self.entry().name
    }

    /// Its path under `/v1/{game}`: `/` and its name.
    pub const fn path(self) -> &'static str {
        self.entry().path
    }

    pub const fn method(self) -> Method {
        self.entry().method
    }

    /// Whether a batch runs it.
    pub const fn batched(self) -> bool {
        self.entry().batched
    }

    /// Whether every game serves it (else a game names it among its own).
    pub const fn of_every_game(self) -> bool {
        self.entry().every_game
    }

    pub const fn cost(self) -> Cost {
        self.entry().cost
    }

    /// The pool its work runs in (a replay's only when it is large).
    pub const fn pool(self) -> Option<Pool> {
        self.entry().pool
    }

    /// Whether a `compare` may claim its answer: a batched operation of
    /// the rules (not the AI's `ai-move`, `annotate` and `puzzles`, not
    /// `compare`).
    pub const fn claimable(self) -> bool {
        self.batched()
            && !matches!(
                self,
                Operation::AiMove | Operation::Annotate | Operation::Puzzles | Operation::Compare
            )
    }

    /// Whether it is a search: it runs in a pool of search slots (live or
    /// long), and a batch holds a bounded number of them
    /// (`--batch-max-searches`).
    pub const fn is_search(self) -> bool {
        matches!(self.entry().pool, Some(Pool::Live | Pool::Long))
    }

    /// The operations a batch of a game runs, in [`Operation::ALL`]'s
    /// order: those of every game and the game's own (`own`) that a batch
    /// runs.
    pub fn batched_of(own: &[Operation]) -> Vec<Operation> {
        Operation::ALL
            .into_iter()
            .filter(|op| op.batched() && (op.of_every_game() || own.contains(op)))
            .collect()
    }

    /// What one request of it costs under `limits` at the door (a batch:
    /// its one request; its items are priced when it is read).
    pub fn price(self, limits: &Limits) -> Price {
        match self.cost() {
            Cost::Request | Cost::Items => Price::REQUEST,
            Cost::Search => Price {
                class: Class::Search,
                units: 1,
            },
            Cost::Review => Price {
                class: Class::Search,
                units: review_units(limits),
            },
        }
    }

    /// What the document says it costs and where it runs: the rule, and
    /// its figure at the default flags.
    pub fn price_text(self) -> String {
        let defaults = Limits::default();
        let cost = match self.cost() {
            Cost::Request => "one request".to_owned(),
            Cost::Search => "one search unit (one search at the AI time cap, `--ai-max-time-ms`) \
and no request"
                .to_owned(),
            Cost::Review => format!(
                "⌈`--annotate-max-time-ms` ÷ `--ai-max-time-ms`⌉ search units ({} at the default \
flags: a unit is one search at the AI time cap, and a review may search for its whole time cap) \
and no request",
                review_units(&defaults)
            ),
            Cost::Items => "one request for each item that is not a search (at least one; each \
claim of a `compare` an item), and each search item's search units (`ai-move` and `perft` one, \
`annotate` and `puzzles` their review's); a price over the client's whole quota a minute is refused (400 \
`LIMIT_EXCEEDED`)"
                .to_owned(),
        };
        let runs = match self.pool() {
            None => "on the HTTP workers".to_owned(),
            Some(Pool::Work) => "on the HTTP workers when small; a large one in a slot of the \
`work` pool"
                .to_owned(),
            Some(pool) => format!("in a slot of the `{}` pool", pool.name()),
        };
        format!("**Price**: {cost}. Runs {runs}.")
    }
}

/// A review's price in search units: its time cap over the AI time cap,
/// rounded up (at least one).
pub fn review_units(limits: &Limits) -> u32 {
    let units = limits
        .annotate_max_time_ms
        .div_ceil(limits.ai_max_time_ms.max(1))
        .max(1);
    u32::try_from(units).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_path_is_its_name_under_a_slash_and_names_are_unique() {
        for op in Operation::ALL {
            assert_eq!(op.path(), format!("/{}", op.name()), "{op:?}");
            let same = Operation::ALL.iter().filter(|o| o.name() == op.name());
            assert_eq!(same.count(), 1, "{op:?}");
        }
        let names = |ops: Vec<Operation>| ops.into_iter().map(Operation::name).collect::<Vec<_>>();
        assert_eq!(
            names(Operation::batched_of(&[])),
            [
                "legal-moves",
                "validate",
                "apply",
                "score",
                "replay",
                "ai-move",
                "annotate",
                "compare"
            ]
        );
        assert_eq!(
            names(Operation::batched_of(&[
                Operation::Perft,
                Operation::Initial
            ])),
            [
                "legal-moves",
                "validate",
                "apply",
                "score",
                "replay",
                "perft",
                "ai-move",
                "annotate",
                "compare"
            ]
        );
    }

    #[test]
    fn searches_are_the_live_and_long_operations() {
        let searches: Vec<_> = Operation::ALL
            .into_iter()
            .filter(|op| op.is_search())
            .collect();
        assert_eq!(
            searches,
            [
                Operation::Perft,
                Operation::AiMove,
                Operation::Annotate,
                Operation::AnnotateLines,
                Operation::AnnotateChart,
                Operation::Puzzles,
                Operation::PuzzlesLines
            ]
        );
        assert_eq!(Operation::AiMove.pool(), Some(Pool::Live));
        assert_eq!(Operation::Puzzles.pool(), Some(Pool::Long));
        assert_eq!(Operation::Puzzles.cost(), Cost::Review);
        assert_eq!(Operation::Annotate.pool(), Some(Pool::Long));
    }

    #[test]
    fn a_review_costs_its_time_cap_in_searches_at_the_ai_cap() {
        let defaults = Limits::default();
        assert_eq!(review_units(&defaults), 6);
        let price = Operation::Annotate.price(&defaults);
        assert_eq!((price.class, price.units), (Class::Search, 6));
        let odd = Limits {
            annotate_max_time_ms: 10_001,
            ai_max_time_ms: 5_000,
            ..defaults
        };
        assert_eq!(review_units(&odd), 3);
        let zero = Limits {
            annotate_max_time_ms: 0,
            ai_max_time_ms: 0,
            ..defaults
        };
        assert_eq!(review_units(&zero), 1);
        assert_eq!(Operation::AiMove.price(&defaults).units, 1);
        assert_eq!(Operation::Batch.price(&defaults), Price::REQUEST);
        assert_eq!(Operation::Validate.price(&defaults), Price::REQUEST);
    }
}
