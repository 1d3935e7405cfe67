//! A game's review: every move judged against the best ([`Verdict`]), its
//! [`Label`] and accuracy, and each player's [`Summary`]. What an engine
//! plugs in is [`Review`]: its judge of one step. The scales are the
//! game's own (points, or expected results); a verdict also carries the
//! player's chance to win on 0-100, where the labels and the accuracy are
//! read, so they mean the same in every game.

pub mod puzzle;

use serde::{Deserialize, Serialize};

use crate::games::level::Level;
use crate::games::{Game, SearchLimits, Style};

/// What an engine's review judges: one step at a time, the judge carrying
/// what it learnt (the search of the position after a move is the search
/// of the position before the next).
pub trait Review: Game<Step: Clone + Send> {
    /// What a verdict names: a move, a pick, a player's orders.
    type Pick: Clone + PartialEq + Send + 'static;
    /// What the judge carries from one step to the next.
    type Judge: Default + Send;
    /// The judge's default budget, in the game's positions (its search's
    /// nodes): the same verdicts on any machine.
    const JUDGE_NODES: u64;
    /// The least budget the judge may be given, in positions a search: a
    /// review asked to judge with fewer (`max_nodes`) is refused, naming
    /// this floor, rather than given verdicts too shallow to mean
    /// anything (a hanging move `best` at 0 or 1 position).
    const JUDGE_MIN_NODES: u64;
    /// What a move's loss counts in a player's `average_loss` at most, on
    /// the game's scale: a forced result's score (a win's 1,000,000) would
    /// swamp every other move's loss.
    const LOSS_CAP: f64;
    /// The least time the judge needs for one position, milliseconds: a
    /// review given less than this for each of its positions (in a batch,
    /// whose searches share one budget) is refused before it starts
    /// rather than judged by searches too shallow to mean anything.
    const JUDGE_FLOOR_MS: u64;

    /// The verdicts of `step` (already checked legal) played in `state`:
    /// one a player who moved, in the players' order.
    fn judge(
        judge: &mut Self::Judge,
        state: &Self::State,
        step: &Self::Step,
        limits: SearchLimits<'_>,
        style: Style,
    ) -> Vec<Verdict<Self::Pick>>;

    /// The judge's budget in positions a search when the client names
    /// neither a budget nor a level, for a review of `positions`
    /// positions (its moves and one): `JUDGE_NODES` unless the game
    /// bounds what a long review searches.
    fn default_nodes(_positions: usize) -> u64 {
        Self::JUDGE_NODES
    }

    /// The judge for a review of `moves` steps.
    fn judge_for(_moves: usize) -> Self::Judge {
        Self::Judge::default()
    }

    /// What `judge` has searched so far (for the service's metrics).
    fn spent(judge: &Self::Judge) -> Spent;

    /// The forced result a value on the game's scale (to the player whose
    /// value it is; `exact`: the game's exact value) stands for, if it
    /// stands for one: only a judge that proves results finds them.
    fn forced(_value: f64, _exact: bool) -> Option<Forced> {
        None
    }
}

/// The judge's budget in positions a search at `level`: from a tenth of
/// the game's default budget ([`Review::JUDGE_NODES`]) at level 1 to ten
/// times it at level 8, each level about 1.93 times the one below it
/// (never under the game's floor). Without a level the judge searches
/// the default, between levels 4 and 5.
pub fn judge_nodes<G: Review>(level: Level) -> u64 {
    let steps = f64::from(level.get() - Level::MIN) / f64::from(Level::MAX - Level::MIN);
    let nodes = G::JUDGE_NODES as f64 * 10f64.powf(2.0 * steps - 1.0);
    (nodes.round() as u64).max(G::JUDGE_MIN_NODES)
}

/// A forced result: the player whose value it is wins (or loses) however
/// the other plays, the game ending within `plies` plies of the position
/// the value is about, where the judge counts them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Forced {
    pub win: bool,
    pub plies: Option<u32>,
}

/// What a judge searched: its searches, and the positions they visited
/// (Tank Wars: the rounds they simulated), as `ai-move`'s searches count
/// them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Spent {
    pub searches: u64,
    pub nodes: u64,
}

impl Spent {
    /// Counts one more search of `nodes` positions.
    pub fn add(&mut self, nodes: u64) {
        self.searches += 1;
        self.nodes = self.nodes.saturating_add(nodes);
    }
}

/// One player's move judged.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict<P> {
    /// The player's index (0 moves first or is listed first).
    pub player: usize,
    pub played: P,
    /// The judge's choice; in an exactly solved simultaneous game, the
    /// picks of the player's equilibrium strategy.
    pub best: Vec<P>,
    /// The opponent's strategy the judge measured the move against (an
    /// exactly solved simultaneous game only).
    pub against: Vec<(P, f64)>,
    /// What the position was worth to the player before the move.
    pub value: f64,
    /// What the move played keeps; never more than `value`.
    pub value_played: f64,
    /// The move's result against the opponent's best reply (an exactly
    /// solved simultaneous game only).
    pub worst_case: Option<f64>,
    /// The player's chance to win before the move, 0-100.
    pub chance: f64,
    /// The player's chance to win after the move played, 0-100; never
    /// more than `chance`.
    pub chance_played: f64,
    /// Whether the values are the game's exact values.
    pub exact: bool,
    /// The judge's principal variation from the position (its choice
    /// first), at most [`LINE_PLIES`]; empty where the judge has none.
    pub line: Vec<P>,
    /// The judge's principal variation after the move played (the
    /// opponent's reply first), at most [`LINE_PLIES`]; empty where the
    /// judge has none or the move ended the game.
    pub refutation: Vec<P>,
    /// Whether the judge searched the position and the one after the move
    /// again, deeper, because its first two searches disagreed.
    pub verified: bool,
}

/// The most moves a verdict's lines show.
pub const LINE_PLIES: usize = 8;

impl<P> Verdict<P> {
    /// A verdict with `value_played` and `chance_played` kept within
    /// `value` and `chance`: a search that finds more after the move than
    /// before it underrated the position, not the move.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        player: usize,
        played: P,
        best: Vec<P>,
        (value, value_played): (f64, f64),
        (chance, chance_played): (f64, f64),
        exact: bool,
    ) -> Verdict<P> {
        Verdict {
            player,
            played,
            best,
            against: Vec::new(),
            value: value + 0.0,
            value_played: value_played.min(value) + 0.0,
            worst_case: None,
            chance: chance.clamp(0.0, 100.0),
            chance_played: chance_played
                .clamp(0.0, 100.0)
                .min(chance.clamp(0.0, 100.0)),
            exact,
            line: Vec::new(),
            refutation: Vec::new(),
            verified: false,
        }
    }

    /// The same verdict, `verified` or not.
    pub fn verified(mut self, verified: bool) -> Verdict<P> {
        self.verified = verified;
        self
    }

    /// The same verdict with the judge's lines: from the position, and
    /// after the move played (each cut to [`LINE_PLIES`]).
    pub fn with_lines(mut self, mut line: Vec<P>, mut refutation: Vec<P>) -> Verdict<P> {
        line.truncate(LINE_PLIES);
        refutation.truncate(LINE_PLIES);
        self.line = line;
        self.refutation = refutation;
        self
    }

    /// `value − value_played`: never negative.
    pub fn loss(&self) -> f64 {
        (self.value - self.value_played).max(0.0) + 0.0
    }

    /// The loss on the 0-100 scale of the player's chance to win.
    pub fn win_chance_loss(&self) -> f64 {
        (self.chance - self.chance_played).max(0.0) + 0.0
    }

    pub fn label(&self) -> Label {
        Label::of_chances(self.chance, self.chance_played)
    }

    /// The move's accuracy, 0-100, as lichess defines it from the loss of
    /// the chance to win.
    pub fn accuracy(&self) -> f64 {
        accuracy(self.win_chance_loss())
    }
}

/// A move's accuracy from its loss of the chance to win (0-100): lichess's
/// `103.1668 · e^(−0.04354 · loss) − 3.1669`, within 0-100; a move that
/// loses nothing is 100 (the formula gives 99.9999 there).
pub fn accuracy(win_chance_loss: f64) -> f64 {
    if win_chance_loss <= 1e-9 {
        return 100.0;
    }
    (103.1668 * (-0.04354 * win_chance_loss).exp() - 3.1669).clamp(0.0, 100.0)
}

/// The player's chance to win (0-100) of `points` on a logistic curve
/// whose slope is `per_point`.
pub fn logistic_chance(points: f64, per_point: f64) -> f64 {
    100.0 / (1.0 + (-per_point * points).exp())
}

/// A move's label, by its loss of the chance to win (0-100); it travels
/// by its name (`inaccuracy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Label {
    /// No loss.
    Best,
    /// Less than 2.
    Excellent,
    /// Less than 5.
    Good,
    /// Less than 10.
    Inaccuracy,
    /// Less than 20.
    Mistake,
    /// 20 or more.
    Blunder,
}

impl Label {
    pub const ALL: [Label; 6] = [
        Label::Best,
        Label::Excellent,
        Label::Good,
        Label::Inaccuracy,
        Label::Mistake,
        Label::Blunder,
    ];

    /// Upper bounds of the chance lost (exclusive) of each label after
    /// `Best`, in order; `Best` is no loss at all (within 1e-9).
    pub const BOUNDS: [f64; 4] = [2.0, 5.0, 10.0, 20.0];

    /// A move's label from the player's chance to win before and after it
    /// (0-100): by the chance lost ([`Label::of`]), but a certain result
    /// is never given away lightly, however little the curve moves near
    /// its ends: a forced win given up (100 before, less after) is at
    /// least a mistake, and a forced loss walked into (more than 0
    /// before, 0 after) a blunder. Only a forced result is worth 100 or 0
    /// (a search's score of a won position stays below 100).
    pub fn of_chances(chance: f64, chance_played: f64) -> Label {
        const CERTAIN: f64 = 1e-9;
        let label = Label::of((chance - chance_played).max(0.0));
        if chance_played <= CERTAIN && chance > CERTAIN {
            return Label::Blunder;
        }
        if chance >= 100.0 - CERTAIN && chance_played < 100.0 - CERTAIN {
            return label.max(Label::Mistake);
        }
        label
    }

    pub fn of(win_chance_loss: f64) -> Label {
        if win_chance_loss <= 1e-9 {
            return Label::Best;
        }
        let [excellent, good, inaccuracy, mistake] = Label::BOUNDS;
        match win_chance_loss {
            l if l < excellent => Label::Excellent,
            l if l < good => Label::Good,
            l if l < inaccuracy => Label::Inaccuracy,
            l if l < mistake => Label::Mistake,
            _ => Label::Blunder,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Label::Best => "best",
            Label::Excellent => "excellent",
            Label::Good => "good",
            Label::Inaccuracy => "inaccuracy",
            Label::Mistake => "mistake",
            Label::Blunder => "blunder",
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// One player's review: its accuracy, the mean of its moves' losses, and
/// how many moves got each label.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    pub moves: usize,
    /// 0-100, as lichess sums a player's game up: the mean of the
    /// volatility-weighted mean and the harmonic mean of the moves'
    /// accuracies (100 for a player who made no move).
    pub accuracy: f64,
    pub average_loss: f64,
    /// Moves of each label, in [`Label::ALL`]'s order.
    pub labels: [usize; 6],
}

/// One judged move as a summary and a chart read it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Judged {
    /// The step's index in the game.
    pub ply: usize,
    pub player: usize,
    /// The player's chance to win before and after the move, 0-100.
    pub chance: f64,
    pub chance_played: f64,
}

/// Each of two players' chance to win at each step boundary (0 before the
/// first step, `steps` after the last): a player's own verdict where it
/// moved, else 100 less the mover's (the games are two-player and
/// zero-sum); a step nobody was judged at keeps the chances before it.
pub fn chances(moves: &[Judged], steps: usize) -> [Vec<f64>; 2] {
    let mut series = [vec![f64::NAN; steps + 1], vec![f64::NAN; steps + 1]];
    let mut set = |player: usize, at: usize, chance: f64, alone: bool| {
        if let Some(v) = series.get_mut(player).and_then(|s| s.get_mut(at)) {
            *v = chance;
        }
        if alone {
            if let Some(v) = series
                .get_mut(1 - player.min(1))
                .and_then(|s| s.get_mut(at))
            {
                *v = 100.0 - chance;
            }
        }
    };
    for (i, judged) in moves.iter().enumerate() {
        let alone = !moves
            .iter()
            .enumerate()
            .any(|(j, other)| j != i && other.ply == judged.ply);
        set(judged.player, judged.ply, judged.chance, alone);
        if judged.ply + 1 == steps {
            set(judged.player, steps, judged.chance_played, alone);
        }
    }
    for line in &mut series {
        let mut last = 50.0;
        for v in line.iter_mut() {
            if v.is_nan() {
                *v = last;
            }
            last = *v;
        }
    }
    series
}

/// The weight of each step's moves in a player's accuracy, as lichess
/// weighs them: the standard deviation (within 0.5-12) of the first
/// player's chances to win in a window of 2-8 steps (a tenth of the game)
/// around it, so that the moves where the game was decided count most and
/// those of a game long decided least.
fn volatility(first: &[f64]) -> Vec<f64> {
    let size = (first.len() / 10).clamp(2, 8).min(first.len().max(1));
    let head = first.get(..size).unwrap_or(first);
    let windows = std::iter::repeat_n(head, size.saturating_sub(2)).chain(first.windows(size));
    windows
        .map(|window| {
            let n = window.len().max(1) as f64;
            let mean = window.iter().sum::<f64>() / n;
            let variance = window.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n;
            variance.sqrt().clamp(0.5, 12.0)
        })
        .collect()
}

/// How far a player's chance to win must fall across one step (0-100)
/// for the step to be a turning point of kind [`MomentKind::Drop`].
pub const DROP: f64 = 20.0;

/// What makes a step a turning point; it travels by its name
/// (`lead_change`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MomentKind {
    /// The player's chance went from above 50 to below it.
    LeadChange,
    /// The player's chance fell by [`DROP`] or more.
    Drop,
}

impl MomentKind {
    pub fn name(self) -> &'static str {
        match self {
            MomentKind::LeadChange => "lead_change",
            MomentKind::Drop => "drop",
        }
    }
}

/// A turning point of a game: at step `ply`, `player`'s chance to win
/// went from `chance_before` to `chance_after` (its own view, 0-100).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Moment {
    pub ply: usize,
    pub player: usize,
    pub kind: MomentKind,
    pub chance_before: f64,
    pub chance_after: f64,
}

/// The turning points of a game's judged moves, in order of step, player
/// and kind: each move that lost its player the lead (above 50 before it,
/// below after) and each that lost [`DROP`] or more, each by its own
/// verdict (the chance before the move and what the move kept, from one
/// search), so that a turning point is always a move's loss, never the
/// difference between two positions' searches.
pub fn moments(moves: &[Judged]) -> Vec<Moment> {
    let mut found = Vec::new();
    let mut moves = moves.to_vec();
    moves.sort_by_key(|judged| (judged.ply, judged.player));
    for judged in moves {
        let (before, after) = (judged.chance, judged.chance_played);
        let moment = |kind| Moment {
            ply: judged.ply,
            player: judged.player,
            kind,
            chance_before: before,
            chance_after: after,
        };
        if before > 50.0 && after < 50.0 {
            found.push(moment(MomentKind::LeadChange));
        }
        if before - after >= DROP {
            found.push(moment(MomentKind::Drop));
        }
    }
    found
}

/// Adds up a game's verdicts into one [`Summary`] a player.
#[derive(Clone, Debug)]
pub struct Tally {
    players: usize,
    moves: Vec<(Judged, f64, f64, Label)>,
}

impl Tally {
    pub fn new(players: usize) -> Tally {
        Tally {
            players,
            moves: Vec::new(),
        }
    }

    /// Adds the verdict of a move at step `ply`, its loss counted at most
    /// `cap` in the average.
    pub fn add<P>(&mut self, ply: usize, verdict: &Verdict<P>, cap: f64) {
        let judged = Judged {
            ply,
            player: verdict.player,
            chance: verdict.chance,
            chance_played: verdict.chance_played,
        };
        self.add_judged(judged, verdict.loss(), cap);
    }

    /// Adds a move judged earlier (a kept verdict): its chances to win and
    /// its `loss` on the game's scale, counted at most `cap` in the
    /// average.
    pub fn add_judged(&mut self, judged: Judged, loss: f64, cap: f64) {
        let win_chance_loss = (judged.chance - judged.chance_played).max(0.0);
        self.moves.push((
            judged,
            accuracy(win_chance_loss),
            loss.min(cap),
            Label::of_chances(judged.chance, judged.chance_played),
        ));
    }

    /// The moves added, in order.
    pub fn judged(&self) -> Vec<Judged> {
        self.moves.iter().map(|(judged, ..)| *judged).collect()
    }

    /// Each player's chance to win at each step boundary, the first
    /// player's first: the curve a review shows (from 0, before the first
    /// step, to the last step judged).
    pub fn series(&self) -> [Vec<f64>; 2] {
        let steps = self.moves.last().map_or(0, |(j, ..)| j.ply + 1);
        chances(&self.judged(), steps)
    }

    /// Each player's summary, in the players' order.
    pub fn summaries(&self) -> Vec<Summary> {
        let steps = self.moves.last().map_or(0, |(j, ..)| j.ply + 1);
        let [first, _] = chances(&self.judged(), steps);
        let weights = volatility(&first);
        (0..self.players)
            .map(|player| {
                let own: Vec<_> = self
                    .moves
                    .iter()
                    .filter(|(j, ..)| j.player == player)
                    .collect();
                let mut summary = Summary {
                    moves: own.len(),
                    accuracy: 100.0,
                    ..Summary::default()
                };
                if own.is_empty() {
                    return summary;
                }
                let n = own.len() as f64;
                let (mut weighted, mut weight, mut inverse, mut loss) = (0.0, 0.0, 0.0, 0.0);
                for (judged, accuracy, lost, label) in own {
                    let w = weights.get(judged.ply).copied().unwrap_or(0.5);
                    weighted += w * accuracy;
                    weight += w;
                    // (An accuracy of 0 would make the harmonic mean 0.)
                    inverse += 1.0 / accuracy.max(1.0);
                    loss += lost;
                    if let Some(count) = summary.labels.get_mut(label.index()) {
                        *count += 1;
                    }
                }
                summary.accuracy =
                    ((weighted / weight + n / inverse) / 2.0).clamp(0.0, 100.0) + 0.0;
                summary.average_loss = loss / n + 0.0;
                summary
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_rise_with_the_loss() {
        let mut last = Label::Best;
        for tenth in 0..400 {
            let label = Label::of(f64::from(tenth) / 10.0);
            assert!(label >= last, "{label:?} after {last:?} at {tenth}");
            last = label;
        }
        assert_eq!(Label::of(0.0), Label::Best);
        assert_eq!(Label::of(1.9), Label::Excellent);
        assert_eq!(Label::of(2.0), Label::Good);
        assert_eq!(Label::of(9.99), Label::Inaccuracy);
        assert_eq!(Label::of(19.99), Label::Mistake);
        assert_eq!(Label::of(20.0), Label::Blunder);
    }

    /// Finding 1 of issue 52: a forced win given up or a forced loss
    /// walked into is never `best`, however close to 100 or 0 the chance
    /// after it stays.
    #[test]
    fn a_certain_result_given_away_is_at_least_a_mistake() {
        assert_eq!(Label::of_chances(100.0, 99.9), Label::Mistake);
        assert_eq!(Label::of_chances(100.0, 70.0), Label::Blunder);
        assert_eq!(Label::of_chances(100.0, 100.0), Label::Best);
        assert_eq!(Label::of_chances(0.1, 0.0), Label::Blunder);
        assert_eq!(Label::of_chances(0.0, 0.0), Label::Best);
        assert_eq!(Label::of_chances(60.0, 59.0), Label::Excellent);
        let v = Verdict::new(0, 'a', vec!['b'], (999_995.0, 1653.0), (100.0, 99.9), false);
        assert_eq!(v.label(), Label::Mistake);
    }

    /// Finding 2: a forced result's score counts at most the cap in the
    /// average loss.
    #[test]
    fn the_average_loss_is_bounded_by_the_cap() {
        let mut tally = Tally::new(2);
        let lost = Verdict::new(0, (), vec![], (999_995.0, 1653.0), (100.0, 99.9), false);
        tally.add(0, &lost, 1000.0);
        let kept = Verdict::new(0, (), vec![], (1653.0, 1653.0), (99.9, 99.9), false);
        tally.add(2, &kept, 1000.0);
        let first = &tally.summaries()[0];
        assert_eq!(first.average_loss, 500.0);
        assert_eq!(first.labels, [1, 0, 0, 0, 1, 0]);
    }

    #[test]
    fn accuracy_is_lichess_curve() {
        assert_eq!(accuracy(0.0), 100.0);
        let ten = 103.1668 * (-0.4354f64).exp() - 3.1669;
        assert!((accuracy(10.0) - ten).abs() < 1e-12);
        assert_eq!(accuracy(100.0), 0.0);
        assert!(accuracy(5.0) > accuracy(6.0));
    }

    #[test]
    fn a_verdict_never_gains() {
        let v = Verdict::new(0, 'a', vec!['b'], (1.0, 3.0), (60.0, 70.0), false);
        assert_eq!(v.loss(), 0.0);
        assert_eq!(v.value_played, 1.0);
        assert_eq!(v.win_chance_loss(), 0.0);
        assert_eq!(v.label(), Label::Best);
        let v = Verdict::new(1, 'a', vec!['b'], (1.0, -1.0), (60.0, 30.0), false);
        assert_eq!(v.loss(), 2.0);
        assert_eq!(v.win_chance_loss(), 30.0);
        assert_eq!(v.label(), Label::Blunder);
    }

    #[test]
    fn summaries_weigh_the_moves_that_decided_the_game() {
        let mut tally = Tally::new(2);
        // The first player: a best move, then one losing 10 of its
        // chance; the second player moves in between, losing nothing.
        tally.add(
            0,
            &Verdict::new(0, (), vec![], (0.0, 0.0), (50.0, 50.0), true),
            f64::INFINITY,
        );
        tally.add(
            1,
            &Verdict::new(1, (), vec![], (0.0, 0.0), (50.0, 50.0), true),
            f64::INFINITY,
        );
        tally.add(
            2,
            &Verdict::new(0, (), vec![], (1.0, 0.0), (50.0, 40.0), true),
            f64::INFINITY,
        );
        let [first, second]: [Summary; 2] = tally.summaries().try_into().unwrap();
        assert_eq!(first.moves, 2);
        assert_eq!(first.average_loss, 0.5);
        assert_eq!(first.labels, [1, 0, 0, 0, 1, 0]);
        // Four chances (50, 50, 50, 40): windows of 2 steps, the last
        // (50, 40) with a deviation of 5, the others the floor of 0.5.
        assert_eq!(volatility(&[50.0, 50.0, 50.0, 40.0]), [0.5, 0.5, 5.0]);
        let ten = accuracy(10.0);
        let weighted = (0.5 * 100.0 + 5.0 * ten) / 5.5;
        let harmonic = 2.0 / (1.0 / 100.0 + 1.0 / ten);
        assert!((first.accuracy - (weighted + harmonic) / 2.0).abs() < 1e-9);
        assert_eq!(second.moves, 1);
        assert_eq!(second.accuracy, 100.0);
        let nobody = Tally::new(2).summaries();
        assert_eq!(nobody.first().map(|s| s.accuracy), Some(100.0));
    }

    /// Turning points: a lead lost and a fall of 20 or more, each the
    /// moving player's, by its own verdict.
    #[test]
    fn moments_are_the_leads_lost_and_the_big_falls() {
        let judged = |ply, player, chance, chance_played| Judged {
            ply,
            player,
            chance,
            chance_played,
        };
        let moves = [
            judged(2, 1, 55.0, 45.0),
            judged(0, 0, 50.0, 50.0),
            judged(1, 1, 55.0, 30.0),
            judged(3, 0, 70.0, 48.0),
            judged(4, 1, 48.0, 47.0),
        ];
        let found = moments(&moves);
        let seen: Vec<(usize, usize, MomentKind)> =
            found.iter().map(|m| (m.ply, m.player, m.kind)).collect();
        assert_eq!(
            seen,
            [
                (1, 1, MomentKind::LeadChange),
                (1, 1, MomentKind::Drop),
                (2, 1, MomentKind::LeadChange),
                (3, 0, MomentKind::LeadChange),
                (3, 0, MomentKind::Drop),
            ]
        );
        assert_eq!(
            (found[4].chance_before, found[4].chance_after),
            (70.0, 48.0)
        );
        assert!(moments(&[]).is_empty());
    }

    #[test]
    fn chances_follow_each_player() {
        let judged = |ply, player, chance, chance_played| Judged {
            ply,
            player,
            chance,
            chance_played,
        };
        // Sequential: the other player's chance is the rest.
        let moves = [
            judged(0, 0, 50.0, 50.0),
            judged(1, 1, 50.0, 35.0),
            judged(2, 0, 65.0, 64.0),
        ];
        let [a, b] = chances(&moves, 3);
        assert_eq!(a, [50.0, 50.0, 65.0, 64.0]);
        assert_eq!(b, [50.0, 50.0, 35.0, 36.0]);
        // Simultaneous: each player's own.
        let moves = [
            judged(0, 0, 50.0, 50.0),
            judged(0, 1, 50.0, 14.0),
            judged(1, 0, 80.0, 65.0),
            judged(1, 1, 20.0, 20.0),
        ];
        let [u, d] = chances(&moves, 2);
        assert_eq!(u, [50.0, 80.0, 65.0]);
        assert_eq!(d, [50.0, 20.0, 20.0]);
    }
}
