//! Tank Battle as a [`Game`]: a state is a position on its layout under
//! an end policy ([`State`]), a step one move.

use super::ai;
use super::end::Past;
use super::state::State;
use super::{IllegalMove, Layout, Move, MoveText, Outcome, Score};
use crate::games::{Game, SearchLimits, Style};

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
    /// How often each position has stood, for the repetition rule.
    type Past = Past;

    /// The standard layout's start position.
    fn initial() -> State {
        State::initial(Layout::STANDARD)
    }

    fn remember(past: &mut Past, state: &mut State) {
        state.remember(past);
    }

    fn outcome(state: &State) -> Option<Outcome> {
        state.end_reason()?;
        Some(state.position.decided(&state.layout))
    }

    fn is_over(state: &State) -> bool {
        state.end_reason().is_some()
    }

    fn score(state: &State) -> Score {
        state.position.score(&state.layout)
    }

    /// Sorted by `from` (file, then rank), then `to`; none when the
    /// policy ended the game.
    fn legal_moves(state: &State) -> Vec<Move> {
        if state.policy_ended() {
            return Vec::new();
        }
        state.position.legal_moves_file_major(&state.layout)
    }

    fn check(state: &State, step: &MoveText) -> Result<(), IllegalMove> {
        state.validate(*step).map(|_| ())
    }

    fn play(state: &mut State, step: MoveText) -> Result<Move, IllegalMove> {
        let mv = state.validate(step)?;
        state.position.play_unchecked(mv);
        Ok(mv)
    }

    fn suggest(
        state: &State,
        _: &(),
        limits: SearchLimits,
        seed: u64,
        style: Style,
    ) -> Option<ai::SearchResult> {
        ai::search_with(state, limits, seed, style)
    }

    fn size(_: &State) -> usize {
        super::square::SQUARES
    }
}
