//! The Tank War as a [`Game`]: a state is a setup and a position, a step
//! one round of both players' picks and the time they spent on them.

use thiserror::Error;

use super::rules::{
    charge_clocks, check_pick, outcome, pickable, resolve_round, surviving, territory, Event,
    Outcome, PickError,
};
use super::state::{Player, Position, Setup};
use super::{ai, default_state};
use crate::games::review::{Forced, Review, Spent, Verdict};
use crate::games::{Game, SearchLimits, Style};

/// A whole state: what never changes and what rounds change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub setup: Setup,
    pub position: Position,
}

impl State {
    /// The default setup (docs/TANK-WAR.md, State).
    pub fn initial() -> State {
        let (setup, position) = default_state();
        State { setup, position }
    }
}

/// One round: each player's pick by tank name (U's first) and the time
/// each spent deciding, charged to the clocks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Round {
    pub picks: [String; 2],
    pub elapsed_ms: [u64; 2],
}

/// A refused pick and whose it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("{player}: {error}")]
pub struct IllegalPick {
    pub player: Player,
    pub error: PickError,
}

/// Living tanks and owned squares per player (U's first): what decides a
/// finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Score {
    pub surviving: [usize; 2],
    pub territory: [usize; 2],
}

/// The marker type of The Tank War's [`Game`] implementation.
#[derive(Clone, Copy, Debug)]
pub struct TankWar;

impl TankWar {
    /// The round's picks as tank ids, in the order the rules check them: a
    /// finished game takes no round, then U's pick, then D's.
    fn checked_picks(state: &State, round: &Round) -> Result<[usize; 2], IllegalPick> {
        let State { setup, position } = state;
        if outcome(setup, position).is_some() {
            return Err(IllegalPick {
                player: Player::U,
                error: PickError::GameOver,
            });
        }
        let mut ids = [0; 2];
        for ((id, player), name) in ids.iter_mut().zip(Player::ALL).zip(&round.picks) {
            *id = check_pick(setup, position, player, name)
                .map_err(|error| IllegalPick { player, error })?;
        }
        Ok(ids)
    }
}

impl Game for TankWar {
    const ID: &'static str = "tank-war";
    const AI_VERSION: u32 = ai::AI_VERSION;

    type State = State;
    type Step = Round;
    type Events = Vec<Event>;
    type Illegal = IllegalPick;
    type Outcome = Outcome;
    type Score = Score;
    /// The ids of the tanks each player may pick (U's first).
    type Moves = [Vec<usize>; 2];
    /// The player to pick for.
    type Question = Player;
    type Suggestion = ai::SearchResult;
    type Past = ();

    fn initial() -> State {
        State::initial()
    }

    fn outcome(state: &State) -> Option<Outcome> {
        outcome(&state.setup, &state.position)
    }

    fn score(state: &State) -> Score {
        let per_player = |f: &dyn Fn(Player) -> usize| Player::ALL.map(f);
        Score {
            surviving: per_player(&|p| surviving(&state.setup, &state.position, p)),
            territory: per_player(&|p| territory(&state.position, p)),
        }
    }

    fn legal_moves(state: &State) -> [Vec<usize>; 2] {
        Player::ALL.map(|p| pickable(&state.setup, &state.position, p))
    }

    /// What [`Game::play`] answers, on a copy: the order of rule 7 (a
    /// round whose clocks run out is legal whatever its picks) is written
    /// once, there. A state is a few tanks and two clocks.
    fn check(state: &State, round: &Round) -> Result<(), IllegalPick> {
        Self::play(&mut state.clone(), round.clone()).map(|_| ())
    }

    /// Rule 7 first: the clocks are charged and a timeout ends the game
    /// without playing the picks; then both picks are checked (U's first)
    /// and the round resolved.
    fn play(state: &mut State, round: Round) -> Result<Vec<Event>, IllegalPick> {
        let mut charged = state.position.clone();
        if outcome(&state.setup, &state.position).is_none() {
            let timeouts = charge_clocks(&mut charged, round.elapsed_ms);
            if !timeouts.is_empty() {
                state.position = charged;
                return Ok(timeouts);
            }
        }
        let ids = Self::checked_picks(state, &round)?;
        state.position = charged;
        Ok(resolve_round(&state.setup, &mut state.position, ids))
    }

    fn suggest(
        state: &State,
        player: &Player,
        limits: SearchLimits,
        seed: u64,
        style: Style,
    ) -> Option<ai::SearchResult> {
        ai::search_with(&state.setup, &state.position, *player, limits, seed, style)
    }

    fn size(state: &State) -> usize {
        let tracks: usize = state.setup.tanks.iter().map(|t| t.track.len()).sum();
        state.setup.board.len() + tracks
    }
}

/// A round judged exactly wherever the game is solved (the default setup:
/// always), each player's pick against the opponent's equilibrium
/// strategy. A round that ends the game on the clocks is not judged.
impl Review for TankWar {
    /// A tank id of the setup.
    type Pick = usize;
    type Judge = Spent;
    const JUDGE_NODES: u64 = super::solve::MAX_POSITIONS;
    /// None: the default setup is judged from its solved table whatever
    /// the budget.
    const JUDGE_MIN_NODES: u64 = 0;
    /// Ten tanks' worth of a searched value (a tank is 100, a won game
    /// 10,000); an exact value's loss is at most 2.
    const LOSS_CAP: f64 = 1_000.0;
    /// Judged exactly from the solved table: a round takes well under a
    /// millisecond (a whole default game's review, p99 30 ms).
    const JUDGE_FLOOR_MS: u64 = 1;

    fn judge(
        spent: &mut Spent,
        state: &State,
        round: &Round,
        limits: SearchLimits<'_>,
        style: Style,
    ) -> Vec<Verdict<usize>> {
        let mut charged = state.position.clone();
        if !charge_clocks(&mut charged, round.elapsed_ms).is_empty() {
            return Vec::new();
        }
        let Ok(picked) = Self::checked_picks(state, round) else {
            return Vec::new();
        };
        let Some((verdicts, nodes)) =
            ai::judge_round(&state.setup, &state.position, picked, limits, style)
        else {
            return Vec::new();
        };
        spent.add(nodes);
        Vec::from(verdicts)
    }

    /// An exact value of a whole win or loss (+1 or -1: every outcome
    /// the equilibrium allows); the solved table does not count plies.
    fn forced(value: f64, exact: bool) -> Option<Forced> {
        (exact && value.abs() >= 1.0 - 1e-9).then_some(Forced {
            win: value > 0.0,
            plies: None,
        })
    }

    fn spent(judge: &Spent) -> Spent {
        *judge
    }
}
