//! `annotate`, for every game: a played game reviewed, each move judged by
//! the game's [`Review`] judge (exactly in a solved game, by its search
//! elsewhere), each player summed up. The whole game is checked first (the
//! first illegal step is a 422 with its `ply`, as in `replay`), then judged
//! in a search slot off the HTTP workers within the judge's limits and the
//! server's total time cap; as one JSON answer, or streamed as NDJSON (one
//! line an entry as soon as it is judged, the summary last), stopped when
//! the client leaves.

use std::borrow::Cow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use actix_web::web::Bytes;
use serde::{Deserialize, Serialize};
use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, Schema, Type};
use utoipa::openapi::{Ref, RefOr};
use utoipa::{PartialSchema, ToSchema};

use super::ask::{style, Judging};
use crate::api::game::GameApi;
use crate::api::services::{run_stoppable, RaiseOnDrop, Services};
use crate::api::transport::problem::ApiError;
use crate::error::RequestError;
use crate::games::review::{Label, Review, Summary, Tally, Verdict};
use crate::games::{SearchLimits, Style};
use crate::limits::Limits;
use crate::render::{review_chart, ChartEntry};

/// A move's label, by the chance to win it lost (0-100): `best` none,
/// `excellent` under 2, `good` under 5, `inaccuracy` under 10, `mistake`
/// under 20, `blunder` 20 or more.
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

impl From<Label> for LabelName {
    fn from(label: Label) -> LabelName {
        match label {
            Label::Best => LabelName::Best,
            Label::Excellent => LabelName::Excellent,
            Label::Good => LabelName::Good,
            Label::Inaccuracy => LabelName::Inaccuracy,
            Label::Mistake => LabelName::Mistake,
            Label::Blunder => LabelName::Blunder,
        }
    }
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
    /// The mean of the player's moves' `loss`, on the game's scale.
    pub average_loss: f64,
    pub labels: LabelCounts,
}

impl PlayerReview {
    fn new(player: String, summary: &Summary) -> PlayerReview {
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
#[derive(Clone, Debug, Serialize)]
pub struct Against<P> {
    #[serde(rename = "move")]
    pub pick: P,
    pub probability: f64,
}

/// One player's move judged.
#[derive(Serialize)]
#[serde(bound(serialize = ""))]
pub struct Annotation<G: GameApi> {
    /// The step's index in the game (both players' entries of a round
    /// share it).
    pub ply: usize,
    pub player: &'static str,
    pub played: G::PickDto,
    pub best: Vec<G::PickDto>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub against: Option<Vec<Against<G::PickDto>>>,
    pub value: f64,
    pub value_played: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub worst_case: Option<f64>,
    pub loss: f64,
    pub win_chance: f64,
    pub win_chance_played: f64,
    pub win_chance_loss: f64,
    pub accuracy: f64,
    pub label: LabelName,
    pub exact: bool,
}

impl<G: GameApi> Annotation<G> {
    fn new(ply: usize, state: &G::State, verdict: &Verdict<G::Pick>) -> Annotation<G> {
        let exact_simultaneous = !verdict.against.is_empty();
        Annotation {
            ply,
            player: G::player_name(verdict.player),
            played: G::encode_pick(state, &verdict.played),
            best: verdict
                .best
                .iter()
                .map(|pick| G::encode_pick(state, pick))
                .collect(),
            against: exact_simultaneous.then(|| {
                verdict
                    .against
                    .iter()
                    .map(|(pick, probability)| Against {
                        pick: G::encode_pick(state, pick),
                        probability: *probability,
                    })
                    .collect()
            }),
            value: verdict.value,
            value_played: verdict.value_played,
            worst_case: verdict.worst_case,
            loss: verdict.loss(),
            win_chance: verdict.chance,
            win_chance_played: verdict.chance_played,
            win_chance_loss: verdict.win_chance_loss(),
            accuracy: verdict.accuracy(),
            label: verdict.label().into(),
            exact: verdict.exact,
        }
    }
}

/// Each player's review and how the game stands after its last step: the
/// last line of a streamed review.
#[derive(Serialize)]
#[serde(bound(serialize = ""))]
pub struct AnnotateSummary<G: GameApi> {
    pub players: Vec<PlayerReview>,
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
    #[serde(rename = "final")]
    pub final_state: G::ScoreResponse,
}

/// A game checked step by step: the state before each step, and the step.
struct Checked<G: GameApi> {
    plies: Vec<(G::State, G::Step)>,
    last: G::State,
}

/// The whole game played without judging: the first illegal step is the
/// answer, with its `ply`.
fn check_game<G: GameApi>(
    request: G::AnnotateRequest,
    limits: &Limits,
) -> Result<(Checked<G>, Judging), ApiError> {
    let (mut state, steps, judging) = G::decode_annotate(request, limits)?;
    limits.check_annotate(steps.len(), G::REPLAY_STEPS)?;
    limits.check_replay_work(G::size(&state), steps.len(), G::REPLAY_STEPS)?;
    let mut plies = Vec::with_capacity(steps.len());
    for (ply, step) in steps.into_iter().enumerate() {
        let step = G::replay_step(&mut state, step, ply, limits)?;
        G::check(&state, &step).map_err(|e| G::refusal(e, Some(ply)))?;
        let before = state.clone();
        let played = step.clone();
        G::play(&mut state, step).map_err(|e| G::refusal(e, Some(ply)))?;
        plies.push((before, played));
    }
    Ok((Checked { plies, last: state }, judging))
}

/// The judge's search limits: what was asked within the server's caps,
/// the game's budget in positions when none is asked, each search given
/// the server's AI time cap unless a time is asked.
fn judge_limits<G: Review>(
    judging: &Judging,
    caps: &Limits,
) -> Result<(SearchLimits<'static>, Style), ApiError> {
    let style = style(judging.level, None)?;
    let asked = judging.limits.unwrap_or_default();
    let nodes = asked.max_nodes.or(Some(G::JUDGE_NODES));
    let time = asked.max_time_ms.or(Some(caps.ai_max_time_ms));
    Ok((caps.search_limits(time, asked.max_depth, nodes), style))
}

/// One line of a review as it is judged.
enum Line<G: GameApi> {
    Entry(Annotation<G>),
    Summary(AnnotateSummary<G>),
}

/// Judges every step in order, handing each entry to `emit` as soon as it
/// is judged (it answers whether to go on), then the summary. Stops when
/// `stop` is raised (the client left, the time cap passed); answers
/// whether it finished.
fn judge_game<G: GameApi>(
    checked: Checked<G>,
    (limits, style): (SearchLimits<'static>, Style),
    stop: &AtomicBool,
    mut emit: impl FnMut(Line<G>) -> bool,
) -> bool {
    let limits = SearchLimits {
        stop: Some(stop),
        ..limits
    };
    let mut judge = G::Judge::default();
    let mut tally = Tally::new(G::PLAYERS);
    for (ply, (state, step)) in checked.plies.iter().enumerate() {
        if stop.load(Ordering::Relaxed) {
            return false;
        }
        for verdict in G::judge(&mut judge, state, step, limits, style) {
            tally.add(ply, &verdict);
            if !emit(Line::Entry(Annotation::new(ply, state, &verdict))) {
                return false;
            }
        }
    }
    if stop.load(Ordering::Relaxed) {
        return false;
    }
    let players = tally
        .summaries()
        .iter()
        .enumerate()
        .map(|(i, summary)| PlayerReview::new(G::player_name(i).to_owned(), summary))
        .collect();
    emit(Line::Summary(AnnotateSummary {
        players,
        final_state: G::encode_score(&checked.last),
    }))
}

/// What took the review too long.
fn too_long(limits: &Limits) -> ApiError {
    RequestError::limit_exceeded(
        format!(
            "the review took longer than this server's cap ({} ms)",
            limits.annotate_max_time_ms
        ),
        "",
    )
}

/// How a review is answered, from the request's `Accept`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// One JSON answer (the default).
    Json,
    /// NDJSON: one line an entry as it is judged, the summary last.
    Lines,
    /// The SVG chart of each player's chance to win.
    Chart,
}

/// The format `Accept` prefers: the highest `q` among the media types a
/// review is written in (the first on a tie); JSON when none is named.
pub fn negotiate(request: &actix_web::HttpRequest) -> Format {
    let mut best = (Format::Json, 0.0f32);
    let items = request
        .headers()
        .get_all(actix_web::http::header::ACCEPT)
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','));
    for item in items {
        let mut parts = item.split(';');
        let media = parts.next().unwrap_or("").trim().to_ascii_lowercase();
        let q = parts
            .filter_map(|p| p.trim().strip_prefix("q="))
            .find_map(|q| q.trim().parse::<f32>().ok())
            .unwrap_or(1.0);
        let format = match media.as_str() {
            "application/json" | "application/*" | "*/*" => Format::Json,
            "application/x-ndjson" => Format::Lines,
            "image/svg+xml" | "image/*" => Format::Chart,
            _ => continue,
        };
        if q > best.1 {
            best = (format, q);
        }
    }
    best.0
}

/// The chart of a review: each player's chance to win across the game
/// (to its last judged step), mistakes and blunders marked.
pub fn chart<G: GameApi>(review: &AnnotateResponse<G>) -> String {
    let steps = review.plies.last().map_or(0, |entry| entry.ply + 1);
    let entries: Vec<ChartEntry> = review
        .plies
        .iter()
        .map(|entry| ChartEntry {
            ply: entry.ply,
            player: usize::from(entry.player != G::player_name(0)),
            played: serde_json::to_string(&entry.played).unwrap_or_default(),
            chance: entry.win_chance,
            chance_played: entry.win_chance_played,
            label: Label::of(entry.win_chance_loss),
        })
        .collect();
    let title = format!("{} — each player's chance to win", G::ID);
    review_chart(
        &title,
        [G::player_name(0), G::player_name(1)],
        &entries,
        steps,
    )
}

/// `annotate` as one answer.
pub async fn annotate<G: GameApi>(
    request: G::AnnotateRequest,
    services: &Services,
) -> Result<AnnotateResponse<G>, ApiError> {
    let limits = services.limits;
    let (checked, judging) = check_game::<G>(request, &limits)?;
    let search = judge_limits::<G>(&judging, &limits)?;
    let deadline = Instant::now() + Duration::from_millis(limits.annotate_max_time_ms);
    let (answer, stopped) =
        run_stoppable(&services.searches, &limits, Some(deadline), move |stop| {
            let mut plies = Vec::new();
            let mut summary = None;
            let finished = judge_game::<G>(checked, search, stop, |line| {
                match line {
                    Line::Entry(entry) => plies.push(entry),
                    Line::Summary(last) => summary = Some(last),
                }
                true
            });
            (finished, plies, summary)
        })
        .await?;
    match answer {
        (
            true,
            plies,
            Some(AnnotateSummary {
                players,
                final_state,
            }),
        ) if !stopped => Ok(AnnotateResponse {
            plies,
            players,
            final_state,
        }),
        _ => Err(too_long(&limits)),
    }
}

/// `annotate` streamed as NDJSON: the game is checked (and a slot taken)
/// before the answer starts, so refusals are ordinary problem answers;
/// then one line an entry as it is judged and the summary last. A client
/// that leaves drops the stream, which raises the judge's stop flag; a
/// review past the time cap ends with a problem line.
pub async fn annotate_stream<G: GameApi>(
    request: G::AnnotateRequest,
    services: &Services,
) -> Result<impl futures_util::Stream<Item = Result<Bytes, actix_web::Error>>, ApiError> {
    let limits = services.limits;
    let (checked, judging) = check_game::<G>(request, &limits)?;
    let search = judge_limits::<G>(&judging, &limits)?;
    let slot = services.searches.take_within(&limits).await?;
    let stop = Arc::new(AtomicBool::new(false));
    let (lines, receiver) = tokio::sync::mpsc::channel::<Bytes>(16);
    let flag = stop.clone();
    let deadline = Instant::now() + Duration::from_millis(limits.annotate_max_time_ms);
    let timer = stop.clone();
    actix_web::rt::spawn(async move {
        tokio::time::sleep_until(deadline.into()).await;
        timer.store(true, Ordering::Relaxed);
    });
    actix_web::rt::task::spawn_blocking(move || {
        let _slot = slot;
        let send = |bytes: Vec<u8>| lines.blocking_send(Bytes::from(bytes)).is_ok();
        let finished = judge_game::<G>(checked, search, &flag, |line| {
            let written = match line {
                Line::Entry(entry) => serde_json::to_vec(&entry),
                Line::Summary(summary) => serde_json::to_vec(&summary),
            };
            match written {
                Ok(mut bytes) => {
                    bytes.push(b'\n');
                    send(bytes)
                }
                Err(_) => false,
            }
        });
        if !finished && !lines.is_closed() {
            let problem = too_long(&limits).problem();
            if let Ok(mut bytes) = serde_json::to_vec(&problem) {
                bytes.push(b'\n');
                send(bytes);
            }
        }
    });
    Ok(Lines {
        receiver,
        _stop: RaiseOnDrop(stop),
    })
}

/// The lines of a streamed review; dropping it (the client left) stops
/// the judge.
struct Lines {
    receiver: tokio::sync::mpsc::Receiver<Bytes>,
    _stop: RaiseOnDrop,
}

impl futures_util::Stream for Lines {
    type Item = Result<Bytes, actix_web::Error>;

    fn poll_next(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Self::Item>> {
        self.receiver.poll_recv(cx).map(|line| line.map(Ok))
    }
}

/// The document's name of a game's schema.
fn named<G: GameApi>(what: &str) -> Cow<'static, str> {
    Cow::Owned(format!("{}{what}", G::SCHEMA_PREFIX))
}

fn number(description: &str) -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::Number)
        .description(Some(description))
}

impl<G: GameApi> PartialSchema for Annotation<G>
where
    G::PickDto: ToSchema,
{
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
            .property("exact", ObjectBuilder::new().schema_type(Type::Boolean).description(Some("Whether the values are the game's exact values.")));
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
        ] {
            object = object.required(field);
        }
        object.into()
    }
}

impl<G: GameApi> ToSchema for Annotation<G>
where
    G::PickDto: ToSchema,
{
    fn name() -> Cow<'static, str> {
        named::<G>("Annotation")
    }

    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        schemas.push((G::PickDto::name().into_owned(), G::PickDto::schema()));
        G::PickDto::schemas(schemas);
        schemas.push((LabelName::name().into_owned(), LabelName::schema()));
    }
}

impl<G: GameApi> PartialSchema for AnnotateResponse<G>
where
    G::PickDto: ToSchema,
    G::ScoreResponse: ToSchema,
{
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .description(Some(
                "A game reviewed. With `Accept: application/x-ndjson` the same, streamed: one \
line an entry of `plies` as it is judged, then a line with `players` and `final` (or, past the \
server's time cap, a problem document).",
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
            .property("final", Ref::from_schema_name(G::ScoreResponse::name()))
            .required("final")
            .into()
    }
}

impl<G: GameApi> ToSchema for AnnotateResponse<G>
where
    G::PickDto: ToSchema,
    G::ScoreResponse: ToSchema,
{
    fn name() -> Cow<'static, str> {
        named::<G>("AnnotateResponse")
    }

    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        schemas.push((
            Annotation::<G>::name().into_owned(),
            Annotation::<G>::schema(),
        ));
        Annotation::<G>::schemas(schemas);
        schemas.push((PlayerReview::name().into_owned(), PlayerReview::schema()));
        PlayerReview::schemas(schemas);
        schemas.push((
            G::ScoreResponse::name().into_owned(),
            G::ScoreResponse::schema(),
        ));
        G::ScoreResponse::schemas(schemas);
    }
}
