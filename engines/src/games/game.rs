//! The one trait every engine implements, as shakmaty's `Position` serves
//! every chess variant: the vocabulary a game needs (its state, player,
//! step, events, refusal and AI types) and the operations every game has.
//! The HTTP layer is written once against it; an engine knows nothing of
//! HTTP.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::level::Style;

/// The limits of one AI search after the server's caps. Each engine reads
/// them in its own units: plies or rounds for the depth, positions or
/// simulated rounds for the nodes.
#[derive(Clone, Copy, Debug, Default)]
pub struct SearchLimits<'a> {
    pub max_time: Option<Duration>,
    pub max_depth: u32,
    pub max_nodes: u64,
    /// Raised by another thread to stop the search at once (its client
    /// went away, its batch ran out of time); looked at as often as the
    /// clock. A stopped search answers what it has.
    pub stop: Option<&'a AtomicBool>,
}

impl SearchLimits<'_> {
    /// The same limits, lowered to at most `depth` and `nodes` (a level's
    /// budgets).
    pub fn within(self, depth: u32, nodes: u64) -> Self {
        SearchLimits {
            max_depth: self.max_depth.min(depth),
            max_nodes: self.max_nodes.min(nodes),
            ..self
        }
    }

    /// Whether the stop flag is raised.
    pub fn stop_requested(&self) -> bool {
        self.stop.is_some_and(|flag| flag.load(Ordering::Relaxed))
    }

    /// Whether a search within these limits begun at `started` may have
    /// been stopped short, so that another server might answer otherwise:
    /// a search stops for time only after half its time, or when the stop
    /// flag is raised.
    pub fn may_have_stopped(&self, started: Instant) -> bool {
        let timed_out = self
            .max_time
            .is_some_and(|time| started.elapsed() * 2 >= time);
        timed_out || self.stop_requested()
    }
}

/// A game's rules and AI.
pub trait Game: Sized + 'static {
    /// The game's id: the path segment of its routes, its tag in the
    /// OpenAPI document, its label in caches and metrics.
    const ID: &'static str;
    /// Bumped whenever the AI answers differently; part of every cache key,
    /// so a new engine never serves an older engine's answer.
    const AI_VERSION: u32;

    /// Everything the rules need to know about a game in progress.
    type State: Clone + Send + Sync + 'static;
    /// What one turn takes: one move, or every player's picks or orders at
    /// once in a simultaneous game. Unchecked: [`Game::play`] checks it.
    type Step;
    /// What a step did, in order.
    type Events;
    /// Why a rule refuses a step (never a notation error: those are the
    /// codecs' business).
    type Illegal: std::error::Error;
    /// The result of a finished game.
    type Outcome;
    /// How the game stands at any time.
    type Score;
    /// The legal moves (or picks, or orders) of a state.
    type Moves;
    /// What the AI is asked besides the state: nothing (the side to move
    /// is in the state), or the player to decide for and its options.
    type Question: Clone + fmt::Debug + Send + Sync + 'static;
    /// The AI's answer.
    type Suggestion: Send + 'static;

    /// What a game remembers of the states it passed through, for a rule
    /// that looks back (Tank Battle's repetition rule): `()` for a game
    /// whose rules never do. Only a request that carries a game's steps
    /// (a replay, a review) keeps one.
    type Past: Default + Send;

    /// The default start of a game.
    fn initial() -> Self::State;

    /// Counts `state`, just reached (a game's start, or the state after a
    /// step), in `past`: a rule that looks back may end the game there.
    fn remember(_past: &mut Self::Past, _state: &mut Self::State) {}

    /// The result when the game is over, `None` while it goes on.
    fn outcome(state: &Self::State) -> Option<Self::Outcome>;

    /// Whether the game is over: no step can be played, no AI asked.
    fn is_over(state: &Self::State) -> bool {
        Self::outcome(state).is_some()
    }

    /// The score (the game's own measure of who is ahead).
    fn score(state: &Self::State) -> Self::Score;

    /// Every legal move of the state.
    fn legal_moves(state: &Self::State) -> Self::Moves;

    /// Whether the step is legal, without playing it.
    fn check(state: &Self::State, step: &Self::Step) -> Result<(), Self::Illegal>;

    /// Plays one checked step; a refused step leaves `state` as it was.
    fn play(state: &mut Self::State, step: Self::Step) -> Result<Self::Events, Self::Illegal>;

    /// The AI's answer within `limits` as `style` asks (full strength or
    /// a level; how many best moves to report), deterministic for a
    /// `seed` when no time limit binds; `None` when the game is over.
    ///
    /// A search stops before its time is up only at a depth or node
    /// limit, when the stop flag is raised, when searching deeper would
    /// find nothing new (every line played to the end of the game), or,
    /// between iterations, once more than half its time is spent (the next
    /// iteration would not finish). The HTTP layer relies on it: an answer
    /// that ended before half of a shortened time was not cut by it, so it
    /// may be cached.
    fn suggest(
        state: &Self::State,
        question: &Self::Question,
        limits: SearchLimits<'_>,
        seed: u64,
        style: Style,
    ) -> Option<Self::Suggestion>;

    /// The size of a state in cells (squares, track squares): what playing
    /// or writing it costs, for the server's work budgets.
    fn size(state: &Self::State) -> usize;
}
