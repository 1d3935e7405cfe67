//! A fourth game, built by following docs/ARCHITECTURE.md's "Adding a
//! game" to prove it: one-pile Nim (take 1 to 3; whoever takes the last
//! wins). Compiled for tests only; `src/api/nim.rs` is its HTTP face.

use std::fmt;

use thiserror::Error;

use crate::games::review::{Review, Spent, Verdict};
use crate::games::{Game, SearchLimits, Style};

/// A side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    First,
    Second,
}

impl Player {
    /// The players' names, the first's first: how requests, answers and the
    /// catalogue name them (written here only).
    pub const NAMES: [&'static str; 2] = ["first", "second"];

    /// `"first"` or `"second"`.
    pub const fn name(self) -> &'static str {
        Player::NAMES[self as usize]
    }

    pub fn other(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The pile and whose turn it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    pub pile: u32,
    pub turn: Player,
}

/// Why a take is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum IllegalTake {
    #[error("the game is over")]
    GameOver,
    #[error("a player takes 1 to 3, and no more than the pile")]
    BadTake,
}

impl IllegalTake {
    pub fn code(self) -> &'static str {
        match self {
            IllegalTake::GameOver => "GAME_OVER",
            IllegalTake::BadTake => "BAD_TAKE",
        }
    }
}

/// The marker type of Nim's [`Game`] implementation.
#[derive(Clone, Copy, Debug)]
pub struct Nim;

impl Game for Nim {
    const ID: &'static str = "nim";
    const AI_VERSION: u32 = 1;

    type State = State;
    /// How many to take.
    type Step = u32;
    /// How many were taken.
    type Events = u32;
    type Illegal = IllegalTake;
    /// The winner.
    type Outcome = Player;
    /// The pile.
    type Score = u32;
    type Moves = Vec<u32>;
    type Question = ();
    /// How many to take.
    type Suggestion = u32;
    type Past = ();

    fn initial() -> State {
        State {
            pile: 10,
            turn: Player::First,
        }
    }

    fn outcome(state: &State) -> Option<Player> {
        (state.pile == 0).then(|| state.turn.other())
    }

    fn score(state: &State) -> u32 {
        state.pile
    }

    fn legal_moves(state: &State) -> Vec<u32> {
        (1..=3).filter(|&n| n <= state.pile).collect()
    }

    fn check(state: &State, take: &u32) -> Result<(), IllegalTake> {
        if Self::is_over(state) {
            Err(IllegalTake::GameOver)
        } else if (1..=3).contains(take) && *take <= state.pile {
            Ok(())
        } else {
            Err(IllegalTake::BadTake)
        }
    }

    fn play(state: &mut State, take: u32) -> Result<u32, IllegalTake> {
        Self::check(state, &take)?;
        state.pile -= take;
        state.turn = state.turn.other();
        Ok(take)
    }

    /// Leaves a multiple of 4 when it can (the winning strategy); a level
    /// below 8 takes 1 instead, as a beginner would.
    fn suggest(state: &State, _: &(), _: SearchLimits, _: u64, style: Style) -> Option<u32> {
        if Self::is_over(state) {
            return None;
        }
        let perfect = style.level.is_none_or(|l| l.get() == 8);
        Some(match state.pile % 4 {
            0 => 1,
            n if perfect => n,
            _ => 1,
        })
    }

    fn size(_: &State) -> usize {
        1
    }
}

/// Judged exactly: a pile that is a multiple of 4 is lost for the player to
/// move (−1), any other won (+1).
impl Review for Nim {
    type Pick = u32;
    type Judge = ();
    const JUDGE_NODES: u64 = 1;
    const JUDGE_MIN_NODES: u64 = 0;
    /// Values are ±1: a loss is at most 2.
    const LOSS_CAP: f64 = 2.0;
    const JUDGE_FLOOR_MS: u64 = 0;

    fn judge(
        _: &mut (),
        state: &State,
        take: &u32,
        _: SearchLimits<'_>,
        _: Style,
    ) -> Vec<Verdict<u32>> {
        let worth = |pile: u32| if pile.is_multiple_of(4) { -1.0 } else { 1.0 };
        let value = worth(state.pile);
        let value_played = -worth(state.pile.saturating_sub(*take));
        let best = Self::legal_moves(state)
            .into_iter()
            .filter(|n| -worth(state.pile - n) == value)
            .collect();
        let chance = |v: f64| 50.0 * (1.0 + v);
        let player = match state.turn {
            Player::First => 0,
            Player::Second => 1,
        };
        vec![Verdict::new(
            player,
            *take,
            best,
            (value, value_played),
            (chance(value), chance(value_played)),
            true,
        )]
    }

    /// Nim is judged by arithmetic: no search.
    fn spent(_: &()) -> Spent {
        Spent::default()
    }
}
