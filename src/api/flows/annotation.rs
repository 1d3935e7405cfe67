//! `annotate`'s answer: each move judged ([`Annotation`]), each player's
//! review ([`PlayerReview`]), the whole ([`AnnotateResponse`]), generic
//! over the game, with their schemas written under the game's name
//! (utoipa would name a generic type after its parameters).

use std::borrow::Cow;
use std::marker::PhantomData;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, Schema, Type};
use utoipa::openapi::{Ref, RefOr};
use utoipa::{PartialSchema, ToSchema};

use super::forced::{ForcedResult, ForcedResults};
use crate::api::game::game_schema;
use crate::api::game::GameApi;
use crate::games::review::{Judged, Label, Moment, MomentKind, Summary, Verdict};

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
#[derive(Clone, Debug, Deserialize, Serialize)]
pub struct Against<P> {
    #[serde(rename = "move")]
    pub pick: P,
    pub probability: f64,
}

/// One player's move judged. Its picks are the game's pick DTOs written
/// as JSON, so that the entries of a step, kept in the answer cache, are
/// read back as they were written (see [`Annotation::kept`]).
#[derive(Deserialize, Serialize)]
#[serde(bound = "")]
pub struct Annotation<G: GameApi> {
    /// The step's index in the game (both players' entries of a round
    /// share it).
    pub ply: usize,
    pub player: Cow<'static, str>,
    pub played: Value,
    pub best: Vec<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub against: Option<Vec<Against<Value>>>,
    pub value: f64,
    pub value_played: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub worst_case: Option<f64>,
    pub loss: f64,
    pub win_chance: f64,
    pub win_chance_played: f64,
    pub win_chance_loss: f64,
    pub accuracy: f64,
    pub label: Label,
    pub exact: bool,
    /// Where the position or the move played has a forced result.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forced: Option<ForcedResults>,
    /// Whether a limit the review did not set (the server's time cap on a
    /// search, the stop flag) cut one of the judge's searches of the step.
    #[serde(default)]
    pub cut: bool,
    /// Whether the verdict was verified (Tank Battle; absent when not).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub verified: bool,
    /// The judge's line from the position (Tank Battle).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub best_line: Vec<Value>,
    /// For an inaccuracy or worse: the judge's line after the move played
    /// (Tank Battle).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub refutation: Vec<Value>,
    #[serde(skip)]
    game: PhantomData<fn() -> G>,
}

impl<G: GameApi> Annotation<G> {
    pub(super) fn new(
        ply: usize,
        state: &G::State,
        verdict: &Verdict<G::Pick>,
    ) -> Result<Annotation<G>, serde_json::Error> {
        let pick = |pick: &G::Pick| serde_json::to_value(G::encode_pick(state, pick));
        let exact_simultaneous = !verdict.against.is_empty();
        Ok(Annotation {
            ply,
            player: Cow::Borrowed(G::player_name(verdict.player)),
            played: pick(&verdict.played)?,
            best: verdict.best.iter().map(pick).collect::<Result<_, _>>()?,
            against: if exact_simultaneous {
                let strategy = verdict.against.iter().map(|(p, probability)| {
                    Ok(Against {
                        pick: pick(p)?,
                        probability: *probability,
                    })
                });
                Some(strategy.collect::<Result<_, serde_json::Error>>()?)
            } else {
                None
            },
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
            best_line: verdict.line.iter().map(pick).collect::<Result<_, _>>()?,
            refutation: if verdict.label() >= Label::Inaccuracy {
                verdict
                    .refutation
                    .iter()
                    .map(pick)
                    .collect::<Result<_, _>>()?
            } else {
                Vec::new()
            },
            game: PhantomData,
        })
    }

    /// The index of the player who moved, as the game names players.
    pub fn player_index(&self) -> Option<usize> {
        (0..G::PLAYERS).find(|&i| G::player_name(i) == self.player)
    }

    /// The entry as a summary and a chart read it.
    pub fn judged(&self, player: usize) -> Judged {
        Judged {
            ply: self.ply,
            player,
            chance: self.win_chance,
            chance_played: self.win_chance_played,
        }
    }

    /// An entry kept for a step, read back for step `ply` (the same
    /// position may come at another step of another game): its `ply`
    /// set, and `None` unless it is one of this game's entries whose
    /// numbers agree with each other as the judge writes them.
    pub fn kept(mut self, ply: usize) -> Option<(Annotation<G>, usize)> {
        let player = self.player_index()?;
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

/// A game reviewed.
#[derive(Serialize)]
#[serde(bound(serialize = ""))]
pub struct AnnotateResponse<G: GameApi> {
    /// One entry a move (one a player a round in the simultaneous games),
    /// in order.
    pub plies: Vec<Annotation<G>>,
    pub players: Vec<PlayerReview>,
    pub curve: Vec<f64>,
    pub moments: Vec<MomentEntry>,
    pub verifications: usize,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unjudged: Vec<Unjudged>,
    #[serde(rename = "final")]
    pub final_state: G::ScoreResponse,
}

fn number(description: &str) -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::Number)
        .description(Some(description))
}

impl<G: GameApi> PartialSchema for Annotation<G> {
    fn schema() -> RefOr<Schema> {
        let pick = || Ref::from_schema_name(G::PickDto::name());
        let against = ObjectBuilder::new()
            .property("move", pick())
            .required("move")
            .property("probability", number("The pick's probability."))
            .required("probability");
        let mut object = ObjectBuilder::new()
            .description(Some(
                "One player's move judged: what the position was worth to the player before it \
(`value`, on the game's scale: the expected result, +1 a win, 0 a draw, −1 a loss, where \
`exact`; the search's points elsewhere), what the move played keeps (`value_played`, never more \
than `value`), `loss` = `value` − `value_played`, and the same on the 0-100 scale of the \
player's chance to win (`win_chance` before, `win_chance_played` after, `win_chance_loss` = \
their difference; exact: 50 × (1 + expected result)).",
            ))
            .property(
                "ply",
                ObjectBuilder::new()
                    .schema_type(Type::Integer)
                    .minimum(Some(0.0))
                    .description(Some("The step's index in the game (both players' entries of a round share it).")),
            )
            .property("player", ObjectBuilder::new().schema_type(Type::String).description(Some("The player who moved.")))
            .property("played", pick())
            .property(
                "best",
                ArrayBuilder::new()
                    .items(pick())
                    .description(Some("The judge's choice; in The Tank War where exact, the picks of the player's equilibrium strategy.")),
            )
            .property(
                "against",
                ArrayBuilder::new().items(against).description(Some(
                    "Where the game is solved and simultaneous (The Tank War): the opponent's \
equilibrium strategy the move was measured against; absent elsewhere.",
                )),
            )
            .property("value", number("What the position was worth to the player before the move."))
            .property("value_played", number("What the move played keeps (against `against` where given)."))
            .property("worst_case", number("Where `against` is given: the move's result against the opponent's best reply; absent elsewhere."))
            .property("loss", number("`value` − `value_played`, never negative."))
            .property("win_chance", number("The player's chance to win before the move, 0-100."))
            .property("win_chance_played", number("The player's chance to win after the move played, 0-100."))
            .property("win_chance_loss", number("`win_chance` − `win_chance_played`: what the labels and the accuracy read."))
            .property("accuracy", number("The move's accuracy, 0-100 (lichess's formula)."))
            .property("label", Ref::from_schema_name(LabelName::name()))
            .property("exact", ObjectBuilder::new().schema_type(Type::Boolean).description(Some("Whether the values are the game's exact values.")))
            .property("forced", Ref::from_schema_name(ForcedResults::name()))
            .property("cut", ObjectBuilder::new().schema_type(Type::Boolean).description(Some(
                "Whether a limit the review did not set (the server's time cap on a search, or \
the review's own time) cut one of the judge's searches of this step before the judge's budget \
was reached: the verdict may differ from the same review's on a quieter server, and is not \
cached.",
            )))
            .property(
                "verified",
                ObjectBuilder::new().schema_type(Type::Boolean).description(Some(
                    "Tank Battle: `true` where either depth the judge read found a fault (an \
inaccuracy or worse, a forced result found or lost) and the position was judged again with 10 \
times the budget, at most 2,000,000 positions, because that budget reads further \
(verifications search at most as many positions as the judge's own searches may, and 40 \
budgets a review); absent elsewhere.",
                )),
            )
            .property(
                "best_line",
                ArrayBuilder::new().items(pick()).max_items(Some(8)).description(Some(
                    "Tank Battle: the judge's principal variation from the position, its choice \
first, at most 8 moves; absent where the judge has no line.",
                )),
            )
            .property(
                "refutation",
                ArrayBuilder::new().items(pick()).max_items(Some(8)).description(Some(
                    "Tank Battle, for an inaccuracy or worse: the judge's principal variation \
after the move played (the reply first), at most 8 moves; absent elsewhere and where the move \
ended the game.",
                )),
            );
        for field in [
            "ply",
            "player",
            "played",
            "best",
            "value",
            "value_played",
            "loss",
            "win_chance",
            "win_chance_played",
            "win_chance_loss",
            "accuracy",
            "label",
            "exact",
            "cut",
        ] {
            object = object.required(field);
        }
        object.into()
    }
}

game_schema!(GameApi, Annotation: G::PickDto, LabelName, ForcedResults, ForcedResult);

impl<G: GameApi> PartialSchema for AnnotateResponse<G> {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .description(Some(
                "A game reviewed. From `annotate.ndjson`, or with `format=ndjson` (or `Accept: \
application/x-ndjson`), the \
same, streamed (`AnnotateLine`): one line an entry of `plies` as it is judged (`\"line\": \"entry\"`), \
then a line with `players`, `curve`, `moments`, `verifications`, `unjudged` and `final` \
(`\"line\": \"summary\"`; or, past the server's time cap, the problem, `\"line\": \"problem\"`).",
            ))
            .property(
                "plies",
                ArrayBuilder::new().items(Ref::from_schema_name(Annotation::<G>::name())),
            )
            .required("plies")
            .property(
                "players",
                ArrayBuilder::new().items(Ref::from_schema_name(PlayerReview::name())),
            )
            .required("players")
            .property(
                "curve",
                ArrayBuilder::new()
                    .items(number("A chance to win, 0-100."))
                    .description(Some(
                        "The first player's chance to win (0-100) before the first step and after \
each (in the simultaneous games, after each round): the curve the chart draws.",
                    )),
            )
            .required("curve")
            .property(
                "moments",
                ArrayBuilder::new()
                    .items(Ref::from_schema_name(MomentEntry::name()))
                    .description(Some(
                        "The game's turning points, in order of step: each move that lost its player the \
lead (its `win_chance` above 50, its `win_chance_played` below) and each that lost 20 chance \
points or more.",
                    )),
            )
            .required("moments")
            .property(
                "verifications",
                ObjectBuilder::new()
                    .schema_type(Type::Integer)
                    .minimum(Some(0.0))
                    .description(Some(
                        "How many entries are `verified` (Tank Battle; 0 elsewhere): the judge \
searches a position again with 10 times its budget (at most 2,000,000 positions) where either \
depth it read finds a fault (an inaccuracy or worse, a forced result found or lost) and the \
larger budget reads further, while the review's share lasts (40 budgets).",
                    )),
            )
            .required("verifications")
            .property(
                "unjudged",
                ArrayBuilder::new()
                    .items(Ref::from_schema_name(Unjudged::name()))
                    .description(Some(
                        "The decisions the steps record that the review does not judge, in \
order of step; absent when there are none. Tank Wars: `gunfire`, a round's gunfire tokens \
(recorded without their owner; the round's orders are judged with them on the board).",
                    )),
            )
            .property("final", Ref::from_schema_name(G::ScoreResponse::name()))
            .required("final")
            .into()
    }
}

game_schema!(GameApi, AnnotateResponse: Annotation<G>, PlayerReview, MomentEntry, Unjudged, G::ScoreResponse);
