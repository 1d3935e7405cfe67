//! Tank Battle as a [`Game`]: a state is a position on its layout, a step
//! one move.

use super::ai;
use super::{IllegalMove, Layout, Move, MoveText, Outcome, Position, Score};
use crate::games::{Game, SearchLimits, Style};

/// A position together with the layout it was checked against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    pub layout: Layout,
    pub position: Position,
}

impl State {
    /// The start position of `layout`.
    pub fn initial(layout: Layout) -> State {
        State {
            position: Position::initial(&layout),
            layout,
        }
    }
}

/// The marker type of Tank Battle's [`Game`] implementation.
#[derive(Clone, Copy, Debug)]
pub struct TankBattle;

impl Game for TankBattle {
    const ID: &'static str = "tank-battle";
    const AI_VERSION: u32 = ai::ENGINE_VERSION;

    type State = State;
    /// A move as written, checked by `play`.
    type Step = MoveText;
    /// The move played, with what it captured.
    type Events = Move;
    type Illegal = IllegalMove;
    type Outcome = Outcome;
    type Score = Score;
    type Moves = Vec<Move>;
    /// The side to move is in the position.
    type Question = ();
    type Suggestion = ai::SearchResult;

    /// The standard layout's start position.
    fn initial() -> State {
        State::initial(Layout::STANDARD)
    }

    fn outcome(state: &State) -> Option<Outcome> {
        state.position.outcome(&state.layout)
    }

    fn is_over(state: &State) -> bool {
        state.position.is_finished(&state.layout)
    }

    fn score(state: &State) -> Score {
        state.position.score(&state.layout)
    }

    /// Sorted by `from` (file, then rank), then `to`.
    fn legal_moves(state: &State) -> Vec<Move> {
        state.position.legal_moves_file_major(&state.layout)
    }

    fn check(state: &State, step: &MoveText) -> Result<(), IllegalMove> {
        state.position.validate(&state.layout, *step).map(|_| ())
    }

    fn play(state: &mut State, step: MoveText) -> Result<Move, IllegalMove> {
        let (next, mv) = state.position.play(&state.layout, step)?;
        state.position = next;
        Ok(mv)
    }

    fn suggest(
        state: &State,
        _: &(),
        limits: SearchLimits,
        seed: u64,
        style: Style,
    ) -> Option<ai::SearchResult> {
        ai::search_with(&state.position, &state.layout, limits, seed, style)
    }

    fn size(_: &State) -> usize {
        super::square::SQUARES
    }
}
