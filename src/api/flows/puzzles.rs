//! `puzzles`, for a game whose engine finds them ([`Puzzles`]): the game
//! reviewed as `annotate` reviews it (the same checks, judge, cache and
//! slot), then each position where the review found a mistake (at the
//! move or just before it) handed to the engine's finder. What the
//! finder found at a position is kept in the cache under the position,
//! the steps and labels it was asked with and the judge's limits, so a
//! game asked again, or a review of it asked first, costs no search twice.
//! As one JSON answer, or streamed as NDJSON (a line a puzzle as it is
//! found, the summary last).

use std::time::Instant;

use serde::de::DeserializeOwned;
use serde::Serialize;
use utoipa::openapi::schema::Schema;
use utoipa::openapi::RefOr;
use utoipa::{PartialSchema, ToSchema};

use super::ai::key_text;
use super::annotate::{
    judge_game, negotiate, run_review, stream_review, Format, Found, Line, Reviewing,
};
use super::budget::SharedBudget;
use crate::api::game::{game_schema, GameApi};
use crate::api::services::Services;
use crate::api::transport::json::{encode, respond};
use crate::api::transport::problem::HttpError;
use crate::api::transport::problem::RequestError;
use crate::cache::{AnswerCache, Key};
use crate::games::review::puzzle::{Asked, Finder, Labels, Puzzle, Puzzles};
use crate::games::review::{Label, Spent};
use crate::games::{SearchLimits, Style};
use crate::i18n::Lang;
use crate::operations::Operation;
use crate::text::Text;

/// The puzzles an answer holds when `max_puzzles` is absent, and the most
/// it may ask.
pub const DEFAULT_PUZZLES: u32 = 10;
pub const MAX_PUZZLES: u32 = 50;

/// The version of what the finder answers, part of its cache keys:
/// bumped whenever a puzzle's fields or the finder's rules change.
const PUZZLE_VERSION: u32 = 2;

/// A game that serves `puzzles`: its engine finds them, its face writes
/// them.
pub trait PuzzleApi: GameApi + Puzzles {
    /// One puzzle as the answer writes it (and the cache keeps it).
    type PuzzleDto: Serialize + DeserializeOwned + ToSchema + Send + 'static;
    /// The body `puzzles` takes: `annotate`'s and `max_puzzles`.
    type PuzzlesRequest: DeserializeOwned + ToSchema + Send + 'static;

    /// The review a body asks for, and its `max_puzzles`.
    fn split(request: Self::PuzzlesRequest) -> (Self::AnnotateRequest, Option<u32>);

    /// `puzzle`, found at `state`, as the answer writes it.
    fn encode_puzzle(state: &Self::State, puzzle: &Puzzle<Self::Pick>) -> Self::PuzzleDto;

    /// A kept puzzle read back for step `ply` of this game (the same
    /// position may come at another step of another game): its `ply` set.
    fn place(puzzle: &mut Self::PuzzleDto, ply: usize);

    /// The plies a puzzle's solution covers.
    fn plies(puzzle: &Self::PuzzleDto) -> usize;
}

/// The review a body asks for, and its `max_puzzles` checked: 1 to
/// [`MAX_PUZZLES`], [`DEFAULT_PUZZLES`] when absent.
fn asked<G: PuzzleApi>(
    request: G::PuzzlesRequest,
) -> Result<(G::AnnotateRequest, usize), RequestError> {
    let (review, asked) = G::split(request);
    let max = asked.unwrap_or(DEFAULT_PUZZLES);
    if !(1..=MAX_PUZZLES).contains(&max) {
        return Err(RequestError::bad_request(
            Text::new("request-max-puzzles")
                .with("value", max)
                .with("max", MAX_PUZZLES),
            Some("max_puzzles"),
        ));
    }
    Ok((review, max as usize))
}

/// The labels as a key writes them: each player's name, `-` for none.
fn labels_text(labels: &Labels) -> String {
    let names: Vec<&str> = labels
        .iter()
        .map(|label| label.map_or("-", Label::name))
        .collect();
    names.join(",")
}

/// What the finder found at one position: from the cache, or looked for
/// afresh (kept unless the search was stopped, whose answer any server
/// would not write).
fn look<G: PuzzleApi>(
    state: &G::State,
    asked: &Asked<'_, G>,
    (style, cache): (&Style, &AnswerCache),
    spent: &mut Spent,
) -> Result<Vec<G::PuzzleDto>, RequestError> {
    // The cache key: the digest of everything the finder's answer depends
    // on (the step and its labels, the step before with its labels, the
    // judge's limits and style).
    let (step, labels) = (G::step_text(state, asked.step)?, labels_text(&asked.labels));
    let mut canonical = format!("puzzles|p{PUZZLE_VERSION}|{step}|{labels}");
    if let Some((before, step, labels)) = asked.previous {
        canonical.push('|');
        canonical.push_str(&G::step_text(before, step)?);
        canonical.push('|');
        canonical.push_str(&labels_text(&labels));
    }
    let key = Key::digest(key_text::<G>(&canonical, style, &asked.limits, 0).as_bytes());
    let kept = cache.get(G::ID, key);
    if let Some(kept) = kept.and_then(|bytes| serde_json::from_slice(&bytes).ok()) {
        return Ok(kept);
    }
    let started = Instant::now();
    let found: Vec<G::PuzzleDto> = G::puzzles(state, asked, spent)
        .iter()
        .map(|p| G::encode_puzzle(state, p))
        .collect();
    // As a review's step: kept only when no search can have been stopped
    // short, so that what is kept is what any server would find.
    if !asked.limits.may_have_stopped(started) {
        let bytes = serde_json::to_vec(&found)
            .map_err(|e| RequestError::Internal(format!("writing a puzzle failed: {e}")))?;
        cache.insert(key, bytes.into());
    }
    Ok(found)
}

/// The finder over a reviewed game's `plies`, each with its review label,
/// handing each puzzle to `emit` as it is found (it answers whether to go
/// on); how many it found, `None` when `stop` was raised (or `emit`
/// declined) before the end.
fn find<G: PuzzleApi>(
    (checked, (limits, style), (stop, cache)): Reviewing<'_, G>,
    (labels, max): (&[Labels], usize),
    spent: &mut Spent,
    mut emit: impl FnMut(G::PuzzleDto) -> bool,
) -> Result<Option<usize>, RequestError> {
    let limits = SearchLimits {
        stop: Some(stop),
        ..limits
    };
    let mut finder = Finder::new(max);
    let mut found = 0;
    let mut previous = None;
    for (ply, ((state, step), &labels)) in checked.plies.iter().zip(labels).enumerate() {
        if labels.iter().all(Option::is_none) {
            previous = None;
            continue;
        }
        if finder.wants(ply) {
            let asked = Asked::<G> {
                ply,
                step,
                labels,
                previous,
                limits,
            };
            let mut puzzles = look::<G>(state, &asked, (&style, cache), spent)?;
            puzzles.iter_mut().for_each(|p| G::place(p, ply));
            for puzzle in finder.keep(ply, puzzles, G::plies) {
                found += 1;
                if !emit(puzzle) {
                    return Ok(None);
                }
            }
        }
        if limits.stop_requested() {
            return Ok(None);
        }
        previous = Some((state, step, labels));
    }
    Ok(Some(found))
}

/// Reviews `checked` and hands each puzzle found to `emit`: how many were
/// found (`None`: stopped short), and what the judge and the finder
/// searched.
fn review_and_find<G: PuzzleApi>(
    reviewing: Reviewing<'_, G>,
    max: usize,
    emit: impl FnMut(G::PuzzleDto) -> bool,
) -> Found<usize> {
    let mut labels: Vec<Labels> = vec![[None; 2]; reviewing.0.plies.len()];
    let (finished, mut spent) = judge_game::<G>(reviewing, |line| {
        if let Line::Entry(entry, player) = line {
            if let Some(label) = labels.get_mut(entry.ply).and_then(|l| l.get_mut(player)) {
                *label = Some(entry.label);
            }
        }
        true
    });
    let found = match finished {
        Ok(true) => find::<G>(reviewing, (&labels, max), &mut spent, emit),
        Ok(false) => Ok(None),
        Err(error) => Err(error),
    };
    (found, spent)
}

/// One line of streamed puzzles (NDJSON), told apart by `line`: a
/// puzzle as it is found, then the summary, or in its place the problem
/// that stopped the search short.
#[derive(Serialize)]
#[serde(tag = "line", rename_all = "snake_case")]
enum StreamLine<'a, P: Serialize> {
    Puzzle(&'a P),
    Summary(PuzzlesSummary),
    Problem(Box<crate::api::transport::problem::Problem>),
}

// ------------------------------------------------------------ answers ---

/// A game's puzzles, in the game's order (the document names it
/// `TankBattlePuzzlesResponse`, …).
#[derive(Serialize)]
#[serde(bound = "")]
pub struct PuzzlesResponse<G: PuzzleApi> {
    pub puzzles: Vec<G::PuzzleDto>,
}

/// `puzzles`, alone or as a batch's item (`shared`: the batch's budget):
/// the game reviewed, then looked at position by position; at most
/// `max_puzzles` puzzles, in the game's order.
pub async fn run<G: PuzzleApi>(
    request: G::PuzzlesRequest,
    services: &Services,
    shared: Option<&SharedBudget>,
) -> Result<PuzzlesResponse<G>, RequestError> {
    let (review, max) = asked::<G>(request)?;
    let puzzles = run_review(
        review,
        Operation::Puzzles,
        services,
        shared,
        move |reviewing| {
            let mut found = Vec::new();
            let (count, spent) = review_and_find::<G>(reviewing, max, |p| {
                found.push(p);
                true
            });
            (count.map(|count| count.map(|_| found)), spent)
        },
    )
    .await?;
    Ok(PuzzlesResponse { puzzles })
}

/// `puzzles`' route: one JSON answer, or the lines when `Accept` prefers
/// NDJSON.
pub async fn answer<G: PuzzleApi>(
    request: &actix_web::HttpRequest,
    body: G::PuzzlesRequest,
    services: &Services,
    lang: Lang,
) -> Result<actix_web::HttpResponse, HttpError> {
    if negotiate(request) == Format::Lines {
        return answer_lines::<G>(body, services, lang).await;
    }
    let answer = run::<G>(body, services, None).await?;
    respond(encode(&answer), &services.limits, &services.in_flight)
}

/// `puzzles.ndjson`'s route, and `puzzles` asked for NDJSON: the game is
/// checked (and a slot taken) before the answer starts, so refusals are
/// ordinary problem answers; then the review (no line), one line a puzzle
/// as it is found, and the summary last. A client that leaves stops the
/// work; past the time cap, a problem line ends it.
pub async fn answer_lines<G: PuzzleApi>(
    body: G::PuzzlesRequest,
    services: &Services,
    lang: Lang,
) -> Result<actix_web::HttpResponse, HttpError> {
    let (review, max) = asked::<G>(body)?;
    let lines = stream_review(
        review,
        Operation::Puzzles,
        (services, lang),
        move |reviewing, sink| {
            review_and_find::<G>(reviewing, max, |puzzle| {
                sink.send(&StreamLine::Puzzle(&puzzle))
            })
        },
        |end| {
            Some(match end {
                Ok(count) => StreamLine::<G::PuzzleDto>::Summary(PuzzlesSummary { count }),
                Err(problem) => StreamLine::Problem(problem),
            })
        },
    )
    .await?;
    Ok(actix_web::HttpResponse::Ok()
        .content_type("application/x-ndjson")
        .streaming(lines))
}

/// A game's puzzles, in the game's order.
// [`PuzzlesResponse`]'s shape, its schema (and description) derived from
// its fields; the document's name is the game's, below.
#[derive(ToSchema)]
#[allow(dead_code)] // (its schema only)
struct ResponseShape<P: ToSchema> {
    puzzles: Vec<P>,
}

impl<G: PuzzleApi> PartialSchema for PuzzlesResponse<G> {
    fn schema() -> RefOr<Schema> {
        ResponseShape::<G::PuzzleDto>::schema()
    }
}

game_schema!(PuzzleApi, PuzzlesResponse: G::PuzzleDto);

/// The document's schema of streamed puzzles' lines: a puzzle, the
/// summary or a problem, each with its `line` (a discriminator every
/// generator reads; the document names them `TankBattlePuzzlesLinePuzzle`,
/// …, see `openapi::fixups`).
pub struct PuzzlesLine<G>(std::marker::PhantomData<G>);

/// The summary line of streamed puzzles.
#[derive(Serialize, ToSchema)]
struct PuzzlesSummary {
    /// How many puzzles the lines before it gave.
    count: usize,
}

impl<G: PuzzleApi> PartialSchema for PuzzlesLine<G> {
    fn schema() -> RefOr<Schema> {
        super::annotate_line::lines(
            "One line of streamed puzzles (`application/x-ndjson`: `puzzles.ndjson`, or \
`puzzles` with `Accept: application/x-ndjson`), told apart by `line`: a `puzzle` as it is found, \
then the `summary`, or a `problem` in its place when the search stops short.",
            [
                (
                    G::PuzzleDto::schema(),
                    "puzzle",
                    "A puzzle, as it is found.",
                ),
                (
                    PuzzlesSummary::schema(),
                    "summary",
                    "The last line: how many puzzles the lines before it gave.",
                ),
            ],
            "search",
        )
    }
}

game_schema!(PuzzleApi, PuzzlesLine: G::PuzzleDto);
