//! Puzzles from a reviewed game: positions where one move alone keeps
//! the mover's advantage, with the line that settles it. What a game
//! plugs in is [`Puzzles`]: its finder at one position, given the
//! review's verdicts there. The words (themes, the margin, the rating
//! scale) are here, so that they mean the same in every game.

use super::{Forced, Label, Review, Spent, Verdict};
use crate::games::level::Level;
use crate::games::Game;
use crate::games::SearchLimits;

/// How much the solver's chance to win with the solution's move must beat
/// the second-best move's (0-100), unless the move alone keeps a forced
/// win: lichess's generator asks about as much.
pub const MARGIN: f64 = 30.0;

/// A second-best move at least this likely to win (0-100) wins anyway:
/// the position is no puzzle, even where the best alone wins by force.
/// A chance of 99 is about two tanks and a quarter ahead in Tank Battle.
pub const WINS_ANYWAY: f64 = 99.0;

/// Replies within this many chance points of the opponent's best are its
/// rivals: the solution stops before a reply that has one (the `good`
/// label's width, [`Label::BOUNDS`]).
pub const REPLY_EPSILON: f64 = Label::BOUNDS[1];

/// How many times the judge's budget in positions the finder's searches
/// get: an only move is verified deeper than the verdict that found it.
pub const VERIFY_TIMES: u64 = 5;

/// The most a finder's search gets, in the game's default judge budgets
/// ([`Review::JUDGE_NODES`]; Tank Battle: 2,000,000 positions, about a
/// second here): a judge above a fifth of it (Tank Battle from level 6)
/// is verified at this, not five times its own, so that no search meets
/// the AI's time cap, whose answers are not the same everywhere.
pub const VERIFY_MAX_JUDGES: u64 = 10;

/// A solver's chance to win beyond which no other move can be its only
/// defence, and below which the second-best move counts as lost
/// ([`Theme::Defence`]).
pub const DEFENDED: f64 = 75.0;
pub const LOST: f64 = 25.0;

/// The most moves of the solver a solution holds.
pub const SOLUTION_MOVES: usize = 5;

/// The rating of a puzzle no level solves: one step above level 8's.
pub const UNSOLVED_RATING: u32 = rating_of_level(Level::MAX + 1);

/// A puzzle's rating from the lowest level whose `ai-move` plays its
/// first move: 100 a level (level 1 is 100, level 8 is 800).
pub const fn rating_of_level(level: u8) -> u32 {
    level as u32 * 100
}

/// What a puzzle is about, read from the rules on its solution (written
/// by its [`Theme::name`], as puzzles list it).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Theme {
    /// A solver's move captures.
    Capture,
    /// A solver's tank enters the opponent's base.
    BaseEntry,
    /// The solver's commander reaches the opponent's commander start.
    CommanderStart,
    /// The position is a forced win for the solver.
    ForcedWin,
    /// The solution's move is the only one that does not lose.
    Defence,
    /// A capture answered by a capture on the same square.
    Exchange,
    /// A solver's tank locked in the opponent's base moves (or captures)
    /// within it.
    LockedIn,
    /// A solver's vehicle is ordered onto a support token (Tank Wars).
    Support,
    /// A solver's vehicle standing on a gunfire token is ordered off it
    /// (Tank Wars).
    Escape,
}

impl Theme {
    pub const ALL: [Theme; 9] = [
        Theme::Capture,
        Theme::BaseEntry,
        Theme::CommanderStart,
        Theme::ForcedWin,
        Theme::Defence,
        Theme::Exchange,
        Theme::LockedIn,
        Theme::Support,
        Theme::Escape,
    ];

    /// The stable name.
    pub const fn name(self) -> &'static str {
        match self {
            Theme::Capture => "capture",
            Theme::BaseEntry => "base_entry",
            Theme::CommanderStart => "commander_start",
            Theme::ForcedWin => "forced_win",
            Theme::Defence => "defence",
            Theme::Exchange => "exchange",
            Theme::LockedIn => "locked_in",
            Theme::Support => "support",
            Theme::Escape => "escape",
        }
    }
}

/// The move played where a puzzle starts, and its label in the review.
#[derive(Clone, Debug, PartialEq)]
pub struct Source<P> {
    pub played: P,
    pub label: Label,
}

/// One puzzle: the position before `ply`'s move (the finder's caller
/// holds it), whose mover is the solver.
#[derive(Clone, Debug, PartialEq)]
pub struct Puzzle<P> {
    /// A digest of the game's rules version, layout and position: the
    /// same on every server.
    pub id: String,
    pub ply: usize,
    /// The solver's index (0 moves first).
    pub player: usize,
    /// The solver's moves and the opponent's replies between them,
    /// the solver's first and last.
    pub solution: Vec<P>,
    /// In [`Theme::ALL`]'s order.
    pub themes: Vec<Theme>,
    /// The forced result the position is for the solver, if it is one.
    pub forced: Option<Forced>,
    /// The solver's chance to win with the first move, and with the
    /// second-best move (0-100), as the verifying search found them.
    pub chance: f64,
    pub second_chance: f64,
    /// [`rating_of_level`] of the lowest level that plays the first move.
    pub rating: u32,
    pub source: Source<P>,
}

/// Each player's label in the review for a step, by the player's index:
/// `None` for a player who did not move in it.
pub type Labels = [Option<Label>; 2];

/// The labels of a step's verdicts.
pub fn labels_of<P>(verdicts: &[Verdict<P>]) -> Labels {
    let mut labels = [None; 2];
    for verdict in verdicts {
        if let Some(label) = labels.get_mut(verdict.player) {
            *label = Some(verdict.label());
        }
    }
    labels
}

/// What a game's puzzle finder is given at one position: the step
/// played there and the one before, with their labels in the review.
pub struct Asked<'a, G: Game> {
    pub ply: usize,
    /// The step played here.
    pub step: &'a G::Step,
    /// Its labels in the review.
    pub labels: Labels,
    /// The step before, if there was one: its position, the step, and
    /// its labels.
    pub previous: Option<(&'a G::State, &'a G::Step, Labels)>,
    /// The judge's limits: the finder searches [`VERIFY_TIMES`] their
    /// positions, within [`VERIFY_MAX_JUDGES`] (and keeps their time and
    /// stop).
    pub limits: SearchLimits<'a>,
}

impl<G: Review> Asked<'_, G> {
    /// `player`'s label here, if the player moved.
    pub fn label(&self, player: usize) -> Option<Label> {
        self.labels.get(player).copied().flatten()
    }

    /// Whether the review saw something for `player` to find here: the
    /// player's move here, or a move of the step before, was a mistake or
    /// worse (an only move missed, or a chance given). A position that
    /// was won before the opponent's move, and stays won, holds nothing
    /// to find: every reasonable move wins it anyway.
    pub fn worth_a_look(&self, player: usize) -> bool {
        let bad = |label: &Option<Label>| label.is_some_and(|l| l >= Label::Mistake);
        self.labels.get(player).is_some_and(bad)
            || self
                .previous
                .is_some_and(|(_, _, labels)| labels.iter().any(bad))
    }

    /// The finder's search limits: [`VERIFY_TIMES`] the judge's
    /// positions, at most [`VERIFY_MAX_JUDGES`] default judges'.
    pub fn verifying(&self) -> SearchLimits<'_> {
        let most = G::JUDGE_NODES.saturating_mul(VERIFY_MAX_JUDGES);
        SearchLimits {
            max_nodes: self.limits.max_nodes.saturating_mul(VERIFY_TIMES).min(most),
            ..self.limits
        }
    }
}

/// A game whose reviewed games hold puzzles.
pub trait Puzzles: Review {
    /// The puzzles at `state` (the position before `asked.ply`'s step),
    /// one a player at most, in the players' order; what their searches
    /// visited added to `spent`.
    fn puzzles(
        state: &Self::State,
        asked: &Asked<'_, Self>,
        spent: &mut Spent,
    ) -> Vec<Puzzle<Self::Pick>>;
}

/// A puzzle's id: the first 16 bytes of the BLAKE3 digest of `text` (the
/// game's id, rules version, layout and position), in hex.
pub fn digest(text: &str) -> String {
    let hash = blake3::hash(text.as_bytes());
    hash.as_bytes()
        .iter()
        .take(16)
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Where puzzles are looked for along a game: after a puzzle, past the
/// plies its solution covers, so that one combination is one puzzle; at
/// most `max` of them.
#[derive(Clone, Copy, Debug)]
pub struct Finder {
    /// The first ply a puzzle may start at.
    next: usize,
    found: usize,
    max: usize,
}

impl Finder {
    pub fn new(max: usize) -> Finder {
        Finder {
            next: 0,
            found: 0,
            max,
        }
    }

    /// Whether a puzzle starting at `ply` would be kept.
    pub fn wants(&self, ply: usize) -> bool {
        self.found < self.max && ply >= self.next
    }

    /// Keeps what fits of the puzzles found at `ply` (`plies`: the plies
    /// a puzzle's solution covers), in their order.
    pub fn keep<P>(&mut self, ply: usize, found: Vec<P>, plies: impl Fn(&P) -> usize) -> Vec<P> {
        let room = self.max.saturating_sub(self.found);
        let kept: Vec<P> = found.into_iter().take(room).collect();
        for puzzle in &kept {
            self.next = self.next.max(ply + plies(puzzle).max(1));
            self.found += 1;
        }
        kept
    }
}

/// Every puzzle of a played game (`steps` from `start`, each legal), its
/// steps judged as a review judges them with `limits` and looked at in
/// order ([`Finder`]); with what the judge and the finder searched.
pub fn find_in_game<G: Puzzles>(
    start: &G::State,
    steps: &[G::Step],
    limits: SearchLimits<'_>,
    max: usize,
) -> (Vec<Puzzle<G::Pick>>, Spent)
where
    G::Step: Clone,
{
    let mut plies = Vec::with_capacity(steps.len());
    let mut state = start.clone();
    for step in steps {
        plies.push((state.clone(), step.clone()));
        if G::play(&mut state, step.clone()).is_err() {
            break;
        }
    }
    find_in_plies::<G>(&plies, limits, max)
}

/// [`find_in_game`] over a game's plies: each step with the state it was
/// played in (Tank Wars places a round's gunfire tokens in its state
/// before the orders).
pub fn find_in_plies<G: Puzzles>(
    plies: &[(G::State, G::Step)],
    limits: SearchLimits<'_>,
    max: usize,
) -> (Vec<Puzzle<G::Pick>>, Spent) {
    let mut judge = G::judge_for(plies.len());
    let mut finder = Finder::new(max);
    let mut found = Vec::new();
    let mut spent = Spent::default();
    let mut previous: Option<(&G::State, &G::Step, Labels)> = None;
    for (ply, (state, step)) in plies.iter().enumerate() {
        let verdicts = G::judge(&mut judge, state, step, limits, crate::games::Style::FULL);
        if verdicts.is_empty() {
            break;
        }
        let labels = labels_of(&verdicts);
        if finder.wants(ply) {
            let asked = Asked::<G> {
                ply,
                step,
                labels,
                previous,
                limits,
            };
            let puzzles = G::puzzles(state, &asked, &mut spent);
            found.extend(finder.keep(ply, puzzles, |p| p.solution.len()));
        }
        previous = Some((state, step, labels));
    }
    let judged = G::spent(&judge);
    spent.searches += judged.searches;
    spent.nodes = spent.nodes.saturating_add(judged.nodes);
    (found, spent)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rating_scale_is_the_levels() {
        assert_eq!(rating_of_level(1), 100);
        assert_eq!(rating_of_level(8), 800);
        assert_eq!(UNSOLVED_RATING, 900);
    }

    #[test]
    fn a_digest_is_stable_and_short() {
        let a = digest("tank-battle|1|x|y");
        assert_eq!(a.len(), 32);
        assert_eq!(a, digest("tank-battle|1|x|y"));
        assert_ne!(a, digest("tank-battle|1|x|z"));
        assert!(a.bytes().all(|b| b.is_ascii_hexdigit()));
    }

    #[test]
    fn theme_names_are_distinct() {
        let names: std::collections::BTreeSet<_> = Theme::ALL.iter().map(|t| t.name()).collect();
        assert_eq!(names.len(), Theme::ALL.len());
    }
}
