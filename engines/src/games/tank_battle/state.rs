//! A game in progress: a position on the layout it was checked against,
//! under the end policy it is played by.

use super::end::{EndPolicy, EndReason, Past};
use super::error::{IllegalMove, Reason};
use super::{Layout, Move, MoveText, Position};

/// A position together with the layout it was checked against and the end
/// policy it is played under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    pub layout: Layout,
    pub position: Position,
    pub policy: EndPolicy,
    /// Set when the policy's repetition rule ended the game (only a
    /// request that carries the game's moves can tell).
    pub repeated: bool,
}

impl State {
    /// `position` on `layout` under the rules as written.
    pub fn new(layout: Layout, position: Position) -> State {
        State {
            layout,
            position,
            policy: EndPolicy::AS_WRITTEN,
            repeated: false,
        }
    }

    /// The start position of `layout`.
    pub fn initial(layout: Layout) -> State {
        State::new(layout, Position::initial(&layout))
    }

    /// The same state under `policy`.
    pub fn under(self, policy: EndPolicy) -> State {
        State { policy, ..self }
    }

    /// Why the game is over, `None` while it goes on.
    pub fn end_reason(&self) -> Option<EndReason> {
        match self.position.end_reason(&self.layout, &self.policy) {
            Some(reason) => Some(reason),
            None if self.repeated => Some(EndReason::Repetition),
            None => None,
        }
    }

    /// Whether the policy (not rule 7) ended the game.
    pub(super) fn policy_ended(&self) -> bool {
        self.repeated || self.policy.at_ply_limit(&self.position)
    }

    /// The move `text` as a legal move here, or the first rule it breaks:
    /// a game the policy ended is over before any other rule.
    pub fn validate(&self, text: MoveText) -> Result<Move, IllegalMove> {
        if self.policy_ended() {
            return Err(IllegalMove::new(Reason::GameOver, None));
        }
        self.position.validate(&self.layout, text)
    }

    /// Counts the position as standing once more in `past`; the game is
    /// over when the repetition rule says so.
    pub fn remember(&mut self, past: &mut Past) {
        if past.stands(&self.position, &self.policy) {
            self.repeated = true;
        }
    }
}
