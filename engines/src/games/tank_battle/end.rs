//! An end policy: what ends a game besides rule 7 (docs/TANK-BATTLE.md, "Ending a game"). The rules as
//! written end a game only when every tank of one side stands in the
//! other's base or the side to move cannot move, so two careful players
//! can shuffle forever; a site that hosts games needs them to end. A
//! policy adds a ply limit and a repetition rule; at either, the game is
//! finished and the rule-8 score decides, as at rule 7. The empty policy
//! is the rules as written.

use std::collections::HashMap;

use serde::Serialize;

use super::bitboard::Bitboard;
use super::layout::Layout;
use super::position::Position;
use super::side::Side;

/// What ends a game besides rule 7. The default ends nothing more: the
/// rules as written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct EndPolicy {
    /// The game is finished once this many moves have been played (the
    /// position's ply counter reaches it).
    pub max_plies: Option<u64>,
    /// The game is finished when one position (the tanks and the side to
    /// move) stands for this many times in the moves a request carries.
    pub repetition: Option<u32>,
}

impl EndPolicy {
    /// The largest ply limit a policy may set: far past any game played
    /// (random games end within 1,000 plies), and well inside every
    /// client's integers.
    pub const MAX_PLIES: u64 = 1_000_000;
    /// The most times a repetition rule may let a position stand.
    pub const MAX_REPETITION: u32 = 100;

    /// The rules as written: nothing ends a game but rule 7.
    pub const AS_WRITTEN: EndPolicy = EndPolicy {
        max_plies: None,
        repetition: None,
    };

    /// Whether the ply limit has been reached in `position`.
    pub fn at_ply_limit(&self, position: &Position) -> bool {
        self.max_plies.is_some_and(|max| position.ply() >= max)
    }
}

/// Why a game ended, as the stable code its answers name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// Rule 7: every remaining tank of one side stands in the other's base.
    AllInBase,
    /// Rule 7: the side to move has no legal move.
    NoMove,
    /// The policy's repetition rule.
    Repetition,
    /// The policy's ply limit.
    PlyLimit,
}

impl EndReason {
    /// Every reason, in the order they are looked for: the rules as
    /// written first.
    pub const ALL: [EndReason; 4] = [
        EndReason::AllInBase,
        EndReason::NoMove,
        EndReason::Repetition,
        EndReason::PlyLimit,
    ];

    /// The stable code.
    pub const fn code(self) -> &'static str {
        match self {
            EndReason::AllInBase => "all_in_base",
            EndReason::NoMove => "no_move",
            EndReason::Repetition => "repetition",
            EndReason::PlyLimit => "ply_limit",
        }
    }
}

impl Position {
    /// Why the game is over in this position under `policy` (the
    /// repetition rule aside: it needs the game's moves, see [`Past`]),
    /// `None` while it goes on.
    pub fn end_reason(&self, layout: &Layout, policy: &EndPolicy) -> Option<EndReason> {
        if self.a_side_is_home(layout) {
            Some(EndReason::AllInBase)
        } else if !self.can_move(layout) {
            Some(EndReason::NoMove)
        } else if policy.at_ply_limit(self) {
            Some(EndReason::PlyLimit)
        } else {
            None
        }
    }
}

/// What a game's moves remember for its repetition rule: how often each
/// position has stood.
#[derive(Clone, Debug, Default)]
pub struct Past {
    seen: HashMap<(Bitboard, Bitboard, Bitboard, Side), u32>,
}

impl Past {
    /// Counts `position` as standing once more; whether it now has stood
    /// as often as `policy`'s repetition rule allows.
    pub fn stands(&mut self, position: &Position, policy: &EndPolicy) -> bool {
        let Some(times) = policy.repetition else {
            return false;
        };
        let key = (
            position.tanks(Side::White),
            position.tanks(Side::Black),
            position.commanders(),
            position.turn(),
        );
        let count = self.seen.entry(key).or_insert(0);
        *count = count.saturating_add(1);
        *count >= times
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Layout, MoveText, Outcome, Side, State, TankBattle};
    use super::*;
    use crate::games::Game;

    fn play(state: &mut State, past: &mut Past, text: &str) {
        let Ok(step) = text.parse::<MoveText>() else {
            panic!("{text} is notation")
        };
        if let Err(illegal) = TankBattle::play(state, step) {
            panic!("{text}: {illegal}");
        }
        TankBattle::remember(past, state);
    }

    const SHUFFLE: [&str; 4] = ["k4-k5", "a8-a7", "k5-k4", "a7-a8"];

    #[test]
    fn the_rules_as_written_never_end_a_shuffle() {
        let mut state = State::initial(Layout::STANDARD);
        let mut past = Past::default();
        TankBattle::remember(&mut past, &mut state);
        for text in SHUFFLE.iter().cycle().take(40) {
            play(&mut state, &mut past, text);
        }
        assert_eq!(state.end_reason(), None);
        assert_eq!(TankBattle::outcome(&state), None);
    }

    #[test]
    fn the_ply_limit_ends_the_game_and_the_score_decides() {
        let policy = EndPolicy {
            max_plies: Some(6),
            repetition: None,
        };
        let mut state = State::initial(Layout::STANDARD).under(policy);
        let mut past = Past::default();
        for text in SHUFFLE.iter().cycle().take(6) {
            assert_eq!(state.end_reason(), None);
            play(&mut state, &mut past, text);
        }
        assert_eq!(state.end_reason(), Some(EndReason::PlyLimit));
        assert_eq!(TankBattle::outcome(&state), Some(Outcome::Draw));
        assert!(TankBattle::legal_moves(&state).is_empty());
        let Ok(next) = "j4-j5".parse::<MoveText>() else {
            panic!("notation")
        };
        assert!(TankBattle::check(&state, &next).is_err());
        // The search sees a finished game: nothing to suggest.
        let limits = crate::games::SearchLimits {
            max_depth: 2,
            max_nodes: 10_000,
            ..Default::default()
        };
        assert!(super::super::ai::search(&state, limits, 0).is_none());
    }

    #[test]
    fn a_position_standing_the_third_time_ends_the_game() {
        let policy = EndPolicy {
            max_plies: None,
            repetition: Some(3),
        };
        let mut state = State::initial(Layout::STANDARD).under(policy);
        let mut past = Past::default();
        TankBattle::remember(&mut past, &mut state);
        for (i, text) in SHUFFLE.iter().cycle().take(8).enumerate() {
            assert_eq!(state.end_reason(), None, "before move {i}");
            play(&mut state, &mut past, text);
        }
        assert_eq!(state.end_reason(), Some(EndReason::Repetition));
        assert_eq!(state.position.turn(), Side::White);
        assert_eq!(TankBattle::outcome(&state), Some(Outcome::Draw));
    }

    #[test]
    fn rule_seven_comes_before_the_policy() {
        // The rules' scoring example is over by rule 7; a ply limit
        // reached there too does not change why.
        let layout = Layout::STANDARD;
        let Ok(position) = super::super::parse_position(super::super::SCORING_EXAMPLE_TBN, &layout)
        else {
            panic!("the scoring example parses")
        };
        let written = position.end_reason(&layout, &EndPolicy::AS_WRITTEN);
        assert!(written.is_some());
        let limited = EndPolicy {
            max_plies: Some(1),
            repetition: None,
        };
        assert_eq!(position.end_reason(&layout, &limited), written);
    }

    #[test]
    fn codes_are_stable() {
        let codes: Vec<&str> = EndReason::ALL.iter().map(|r| r.code()).collect();
        assert_eq!(codes, ["all_in_base", "no_move", "repetition", "ply_limit"]);
    }
}
