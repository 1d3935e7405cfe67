//! `annotate`'s answer: each move judged ([`Annotation`]), each player's
//! review ([`PlayerReview`]), the whole ([`AnnotateResponse`]). Their
//! schemas are derived once for every game and named after each game by
//! [`ForGame`](crate::api::game::ForGame).

use std::borrow::Cow;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::forced::ForcedResults;
use crate::api::game::{GameApi, Pick, Score};
use crate::games::review::{Label, Moment, MomentKind, Summary, Verdict};

/// A move's label, by the chance to win it lost (0-100): `best` none,
/// `excellent` under 2, `good` under 5, `inaccuracy` under 10, `mistake`
/// under 20, `blunder` 20 or more; but a forced win given up
/// (`win_chance` 100, less after) is at least a `mistake`, and a forced
/// loss walked into (`win_chance_played` 0, more before) a `blunder`. Only
/// a forced result is worth a chance of 100 or 0.
// The document's schema of the engine's `Label`, which answers write as it
// is (the catalogue's unit test and the contract test hold them together).
#[derive(Clone, Copy, Debug, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[schema(as = AnnotationLabel)]
pub enum LabelName {
    Best,
    Excellent,
    Good,
    Inaccuracy,
    Mistake,
    Blunder,
}

/// What makes a move a turning point: by its own verdict, it took the
/// player's chance from above 50 to below it (`lead_change`), or lost 20
/// or more of it (`drop`).
// The document's schema of the engine's `MomentKind`, which answers write as it
// is (the catalogue's unit test and the contract test hold them together).
#[derive(Clone, Copy, Debug, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = AnnotationMomentKind)]
pub enum MomentKindName {
    LeadChange,
    Drop,
}

/// A turning point of the game: at step `ply`, `player`'s move took its
/// own chance to win (0-100) from `chance_before` to `chance_after` (the
/// entry's `win_chance` and `win_chance_played`).
#[derive(Clone, Debug, Deserialize, Serialize, ToSchema)]
#[schema(as = AnnotationMoment)]
pub struct MomentEntry {
    /// The step's index in the game.
    pub ply: usize,
    /// The player whose chance moved, as the game names players.
    #[schema(example = "white")]
    pub player: String,
    #[schema(value_type = MomentKindName)]
    pub kind: MomentKind,
    pub chance_before: f64,
    pub chance_after: f64,
}

impl MomentEntry {
    pub(super) fn new(moment: &Moment, player: &str) -> MomentEntry {
        MomentEntry {
            ply: moment.ply,
            player: player.to_owned(),
            kind: moment.kind,
            chance_before: moment.chance_before,
            chance_after: moment.chance_after,
        }
    }
}

/// A decision a step records that the review does not judge (Tank Wars:
/// `gunfire`, a round's gunfire tokens, recorded without their owner; the
/// round's orders are judged with them on the board).
#[derive(Clone, Debug, Serialize, ToSchema)]
#[schema(as = AnnotationUnjudged)]
pub struct Unjudged {
    /// The step's index in the game.
    pub ply: usize,
    /// What was decided and not judged.
    #[schema(example = "gunfire")]
    pub decision: &'static str,
}

/// How many of a player's moves got each label.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, ToSchema)]
#[schema(as = AnnotationLabelCounts)]
pub struct LabelCounts {
    pub best: usize,
    pub excellent: usize,
    pub good: usize,
    pub inaccuracy: usize,
    pub mistake: usize,
    pub blunder: usize,
}

/// One player's review.
#[derive(Clone, Debug, Deserialize, Serialize, ToSchema)]
#[schema(as = AnnotationPlayer)]
pub struct PlayerReview {
    /// The player, as the game names players.
    #[schema(example = "white")]
    pub player: String,
    /// Moves (or picks, or orders) judged.
    pub moves: usize,
    /// The player's accuracy, 0-100, as lichess sums a game up: the mean
    /// of two means of the moves' accuracies, one weighted by how much the
    /// game swung around each move (the standard deviation, within 0.5-12,
    /// of the first player's chances to win over a window of a tenth of the
    /// game, 2-8 steps), one harmonic (each accuracy at least 1 there). A
    /// move's accuracy is lichess's `103.1668 · e^(−0.04354 ·
    /// win_chance_loss) − 3.1669` within 0-100, and 100 for a move that
    /// loses nothing; a player with no move, 100.
    #[schema(example = 87.5)]
    pub accuracy: f64,
    /// The mean of the player's moves' `loss`, on the game's scale, each
    /// counted at most the game's cap (a forced result's score would swamp
    /// the rest): Tank Battle 1,000 centipoints (ten tanks), The Tank War
    /// 1,000 points of a searched value (an exact loss is at most 2), Tank
    /// Wars 100 points (a won game).
    pub average_loss: f64,
    pub labels: LabelCounts,
}

impl PlayerReview {
    pub(super) fn new(player: String, summary: &Summary) -> PlayerReview {
        let [best, excellent, good, inaccuracy, mistake, blunder] = summary.labels;
        PlayerReview {
            player,
            moves: summary.moves,
            accuracy: summary.accuracy,
            average_loss: summary.average_loss,
            labels: LabelCounts {
                best,
                excellent,
                good,
                inaccuracy,
                mistake,
                blunder,
            },
        }
    }
}

/// A pick of the opponent's strategy the judge measured a move against.
#[derive(Clone, Debug, Deserialize, Serialize, ToSchema)]
#[schema(bound = "")]
pub struct Against<P> {
    #[serde(rename = "move")]
    #[schema(value_type = Pick)]
    pub pick: P,
    /// The pick's probability.
    pub probability: f64,
}

/// One player's move judged: what the position was worth to the player
/// before it (`value`, on the game's scale: the expected result, +1 a
/// win, 0 a draw, −1 a loss, where `exact`; the search's points
/// elsewhere), what the move played keeps (`value_played`, never more
/// than `value`), `loss` = `value` − `value_played`, and the same on the
/// 0-100 scale of the player's chance to win (`win_chance` before,
/// `win_chance_played` after, `win_chance_loss` = their difference;
/// exact: 50 × (1 + expected result)).
// Its picks are the game's pick DTOs written as JSON, so that the entries
// of a step, kept in the answer cache, are read back as they were written
// (see `Annotation::kept`). The document's is game G's (`ForGame`).
#[derive(Deserialize, Serialize, ToSchema)]
pub struct Annotation {
    /// The step's index in the game (both players' entries of a round
    /// share it).
    pub ply: usize,
    /// The player who moved.
    #[schema(value_type = String)]
    pub player: Cow<'static, str>,
    #[schema(value_type = Pick)]
    pub played: Value,
    /// The judge's choice; in The Tank War where exact, the picks of the
    /// player's equilibrium strategy.
    #[schema(value_type = Vec<Pick>)]
    pub best: Vec<Value>,
    /// Where the game is solved and simultaneous (The Tank War): the
    /// opponent's equilibrium strategy the move was measured against;
    /// absent elsewhere.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(inline, nullable = false)]
    pub against: Option<Vec<Against<Value>>>,
    /// What the position was worth to the player before the move.
    pub value: f64,
    /// What the move played keeps (against `against` where given).
    pub value_played: f64,
    /// Where `against` is given: the move's result against the opponent's
    /// best reply; absent elsewhere.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub worst_case: Option<f64>,
    /// `value` − `value_played`, never negative.
    pub loss: f64,
    /// The player's chance to win before the move, 0-100.
    pub win_chance: f64,
    /// The player's chance to win after the move played, 0-100.
    pub win_chance_played: f64,
    /// `win_chance` − `win_chance_played`: what the labels and the
    /// accuracy read.
    pub win_chance_loss: f64,
    /// The move's accuracy, 0-100 (lichess's formula).
    pub accuracy: f64,
    #[schema(value_type = LabelName)]
    pub label: Label,
    /// Whether the values are the game's exact values.
    pub exact: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub forced: Option<ForcedResults>,
    /// Whether a limit the review did not set (the server's time cap on a
    /// search, or the review's own time) cut one of the judge's searches
    /// of this step before the judge's budget was reached: the verdict
    /// may differ from the same review's on a quieter server, and is not
    /// cached.
    #[serde(default)]
    #[schema(required = true)]
    pub cut: bool,
    /// Tank Battle: `true` where either depth the judge read found a
    /// fault (an inaccuracy or worse, a forced result found or lost) and
    /// the position was judged again with 10 times the budget, at most
    /// 2,000,000 positions, because that budget reads further
    /// (the verifications of mistakes and blunders search at most twice as
    /// many positions as the judge's own searches may, and 200 budgets a
    /// review; those of inaccuracies as many again); absent elsewhere.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub verified: bool,
    /// Tank Battle: the judge's principal variation from the position, its
    /// choice first, at most 8 moves; absent where the judge has no line.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schema(value_type = Vec<Pick>, max_items = 8)]
    pub best_line: Vec<Value>,
    /// Tank Battle, for an inaccuracy or worse: the judge's principal
    /// variation after the move played (the reply first), at most 8
    /// moves; absent elsewhere and where the move ended the game.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schema(value_type = Vec<Pick>, max_items = 8)]
    pub refutation: Vec<Value>,
}

impl Annotation {
    /// Game `G`'s verdict of step `ply`, its picks in the game's notation.
    pub(super) fn new<G: GameApi>(
        ply: usize,
        state: &G::State,
        verdict: &Verdict<G::Pick>,
    ) -> Result<Annotation, serde_json::Error> {
        let pick = |pick: &G::Pick| serde_json::to_value(G::encode_pick(state, pick));
        let picks = |picks: &[G::Pick]| picks.iter().map(pick).collect::<Result<Vec<_>, _>>();
        let against = verdict.against.iter().map(|(p, probability)| {
            Ok(Against {
                pick: pick(p)?,
                probability: *probability,
            })
        });
        // Only an exactly solved simultaneous game measures against a strategy.
        let against = (!verdict.against.is_empty()).then(|| against.collect());
        let refuted = verdict.label() >= Label::Inaccuracy;
        Ok(Annotation {
            ply,
            player: Cow::Borrowed(G::player_name(verdict.player)),
            played: pick(&verdict.played)?,
            best: picks(&verdict.best)?,
            against: against.transpose()?,
            value: verdict.value,
            value_played: verdict.value_played,
            worst_case: verdict.worst_case,
            loss: verdict.loss(),
            win_chance: verdict.chance,
            win_chance_played: verdict.chance_played,
            win_chance_loss: verdict.win_chance_loss(),
            accuracy: verdict.accuracy(),
            label: verdict.label(),
            exact: verdict.exact,
            forced: ForcedResults::of::<G>(
                verdict.player,
                verdict.value,
                verdict.value_played,
                verdict.exact,
            ),
            cut: false,
            verified: verdict.verified,
            best_line: picks(&verdict.line)?,
            refutation: picks(if refuted { &verdict.refutation } else { &[] })?,
        })
    }

    /// An entry kept for a step, read back for step `ply` (the same
    /// position may come at another step of another game): its `ply`
    /// set, and `None` unless it is one of this game's entries whose
    /// numbers agree with each other as the judge writes them.
    pub fn kept<G: GameApi>(mut self, ply: usize) -> Option<(Annotation, usize)> {
        let player = (0..G::PLAYERS).find(|&i| G::player_name(i) == self.player)?;
        let (chance, played) = (self.win_chance, self.win_chance_played);
        let agrees = self.loss >= 0.0
            && (0.0..=100.0).contains(&chance)
            && (0.0..=chance).contains(&played)
            && (self.win_chance_loss - (chance - played)).abs() < 1e-9;
        self.ply = ply;
        agrees.then_some((self, player))
    }
}

/// Each player's review and how the game stands after its last step: the
/// last line of a streamed review.
#[derive(Serialize)]
#[serde(bound(serialize = ""))]
pub struct AnnotateSummary<G: GameApi> {
    pub players: Vec<PlayerReview>,
    /// The first player's chance to win before the first step and after
    /// each (in the simultaneous games, after each round).
    pub curve: Vec<f64>,
    /// The turning points, in order.
    pub moments: Vec<MomentEntry>,
    /// How many entries were verified.
    pub verifications: usize,
    /// What the steps decided that the review does not judge.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unjudged: Vec<Unjudged>,
    #[serde(rename = "final")]
    pub final_state: G::ScoreResponse,
}

impl<G: GameApi> AnnotateSummary<G> {
    /// The one answer of a review: its entries, then this summary.
    pub fn with_plies(self, plies: Vec<Annotation>) -> AnnotateResponse<G> {
        AnnotateResponse {
            plies,
            players: self.players,
            curve: self.curve,
            moments: self.moments,
            verifications: self.verifications,
            unjudged: self.unjudged,
            final_state: self.final_state,
        }
    }
}

/// A game reviewed. From `annotate.ndjson`, or with `format=ndjson` (or
/// `Accept: application/x-ndjson`), the same, streamed (`AnnotateLine`):
/// one line an entry of `plies` as it is judged (`"line": "entry"`), then
/// a line with `players`, `curve`, `moments`, `verifications`,
/// `unjudged` and `final` (`"line": "summary"`; or, past the server's
/// time cap, the problem, `"line": "problem"`).
// The document's is game G's (`ForGame`).
#[derive(Serialize, ToSchema)]
#[serde(bound(serialize = ""))]
#[schema(bound = "")]
pub struct AnnotateResponse<G: GameApi> {
    /// One entry a move (one a player a round in the simultaneous games),
    /// in order.
    pub plies: Vec<Annotation>,
    pub players: Vec<PlayerReview>,
    /// The first player's chance to win (0-100) before the first step and
    /// after each (in the simultaneous games, after each round): the
    /// curve the chart draws.
    pub curve: Vec<f64>,
    /// The game's turning points, in order of step: each move that lost
    /// its player the lead (its `win_chance` above 50, its
    /// `win_chance_played` below) and each that lost 20 chance points or
    /// more.
    pub moments: Vec<MomentEntry>,
    /// How many entries are `verified` (Tank Battle; 0 elsewhere): the
    /// judge searches a position again with 10 times its budget (at most
    /// 2,000,000 positions) where either depth it read finds a fault (an
    /// inaccuracy or worse, a forced result found or lost) and the larger
    /// budget reads further, while the review's shares last (mistakes and
    /// blunders 200 budgets, inaccuracies 200 more).
    pub verifications: usize,
    /// The decisions the steps record that the review does not judge, in
    /// order of step; absent when there are none. Tank Wars: `gunfire`, a
    /// round's gunfire tokens (recorded without their owner; the round's
    /// orders are judged with them on the board).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[schema(required = false)]
    pub unjudged: Vec<Unjudged>,
    #[serde(rename = "final")]
    #[schema(value_type = Score)]
    pub final_state: G::ScoreResponse,
}

#[cfg(test)]
mod tests {
    use utoipa::ToSchema;

    use super::{AnnotateResponse, Annotation};
    use crate::api::game::PER_GAME;
    use crate::games::tank_battle::TankBattle;

    /// The schemas `ForGame` names after each game are these types'.
    #[test]
    fn the_per_game_schemas_are_the_reviews() {
        let names = [Annotation::name(), AnnotateResponse::<TankBattle>::name()];
        assert_eq!(PER_GAME, names.map(|name| name.into_owned()));
    }
}
