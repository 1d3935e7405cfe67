//! A game's review: every move judged against the best ([`Verdict`]), its
//! [`Label`] and accuracy, and each player's [`Summary`]. What an engine
//! plugs in is [`Review`]: its judge of one step. The scales are the
//! game's own (points, or expected results); a verdict also carries the
//! player's chance to win on 0-100, where the labels and the accuracy are
//! read, so they mean the same in every game.

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

    /// The verdicts of `step` (already checked legal) played in `state`:
    /// one a player who moved, in the players' order.
    fn judge(
        judge: &mut Self::Judge,
        state: &Self::State,
        step: &Self::Step,
        limits: SearchLimits<'_>,
        style: Style,
    ) -> Vec<Verdict<Self::Pick>>;
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
}

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
        }
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
        Label::of(self.win_chance_loss())
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

/// A move's label, by its loss of the chance to win (0-100).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
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

/// One player's review: the mean of its moves' accuracies and losses, and
/// how many moves got each label.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    pub moves: usize,
    /// 0-100; 100 for a player who made no move.
    pub accuracy: f64,
    pub average_loss: f64,
    /// Moves of each label, in [`Label::ALL`]'s order.
    pub labels: [usize; 6],
}

/// Adds up verdicts into one [`Summary`] a player.
#[derive(Clone, Debug)]
pub struct Tally {
    players: Vec<(usize, f64, f64, [usize; 6])>,
}

impl Tally {
    pub fn new(players: usize) -> Tally {
        Tally {
            players: vec![(0, 0.0, 0.0, [0; 6]); players],
        }
    }

    pub fn add<P>(&mut self, verdict: &Verdict<P>) {
        if let Some((moves, accuracy, loss, labels)) = self.players.get_mut(verdict.player) {
            *moves += 1;
            *accuracy += verdict.accuracy();
            *loss += verdict.loss();
            if let Some(count) = labels.get_mut(verdict.label().index()) {
                *count += 1;
            }
        }
    }

    /// Each player's summary, in the players' order.
    pub fn summaries(&self) -> Vec<Summary> {
        self.players
            .iter()
            .map(|&(moves, accuracy, loss, labels)| {
                let mean = |sum: f64, none: f64| {
                    if moves == 0 {
                        none
                    } else {
                        sum / moves as f64 + 0.0
                    }
                };
                Summary {
                    moves,
                    accuracy: mean(accuracy, 100.0),
                    average_loss: mean(loss, 0.0),
                    labels,
                }
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
    fn summaries_average_each_player() {
        let mut tally = Tally::new(2);
        tally.add(&Verdict::new(0, (), vec![], (0.0, 0.0), (50.0, 50.0), true));
        tally.add(&Verdict::new(0, (), vec![], (1.0, 0.0), (50.0, 40.0), true));
        let [first, second]: [Summary; 2] = tally.summaries().try_into().unwrap();
        assert_eq!(first.moves, 2);
        assert!((first.accuracy - (100.0 + accuracy(10.0)) / 2.0).abs() < 1e-3);
        assert_eq!(first.average_loss, 0.5);
        assert_eq!(first.labels, [1, 0, 0, 0, 1, 0]);
        assert_eq!(
            second,
            Summary {
                accuracy: 100.0,
                ..Summary::default()
            }
        );
    }
}
