//! `puzzles`, for a game whose engine finds them ([`Puzzles`]): the game
//! reviewed as `annotate` reviews it (the same checks, judge, cache and
//! slot), then each position where the review found a mistake (at the
//! move or just before it) handed to the engine's finder. What the
//! finder found at a position is kept in the cache under the position,
//! the steps and labels it was asked with and the judge's limits, so a
//! game asked again, or a review of it asked first, costs no search twice.
//! As one JSON answer, or streamed as NDJSON (a line a puzzle as it is
//! found, the summary last).

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use actix_web::web::Bytes;

use serde::de::DeserializeOwned;
use serde::Serialize;

use super::ai::key_text;
use super::annotate::{
    check_game, judge_game, judge_limits, record, review_deadline, too_long, Checked, Line,
};
use super::budget::SharedBudget;
use super::stream::spawn_lines;
use crate::api::game::GameApi;
use crate::api::services::{run_stoppable, Services};
use crate::api::transport::problem::RequestError;
use crate::cache::{AnswerCache, Key};
use crate::games::review::puzzle::{Asked, Finder, Puzzle, Puzzles};
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
const PUZZLE_VERSION: u32 = 1;

/// A game that serves `puzzles`: its engine finds them, its face writes
/// them.
pub trait PuzzleApi: GameApi + Puzzles {
    /// One puzzle as the answer writes it (and the cache keeps it).
    type PuzzleDto: Serialize + DeserializeOwned + Send + 'static;

    /// `puzzle`, found at `state`, as the answer writes it.
    fn encode_puzzle(state: &Self::State, puzzle: &Puzzle<Self::Pick>) -> Self::PuzzleDto;

    /// A kept puzzle read back for step `ply` of this game (the same
    /// position may come at another step of another game): its `ply` set;
    /// answers the plies its solution covers.
    fn place(puzzle: &mut Self::PuzzleDto, ply: usize) -> usize;
}

/// `max_puzzles` checked: 1 to [`MAX_PUZZLES`], [`DEFAULT_PUZZLES`] when
/// absent.
pub fn max_puzzles(asked: Option<u32>) -> Result<usize, RequestError> {
    let max = asked.unwrap_or(DEFAULT_PUZZLES);
    if !(1..=MAX_PUZZLES).contains(&max) {
        return Err(RequestError::bad_request(
            Text::new("request-max-puzzles")
                .with("value", max)
                .with("max", MAX_PUZZLES),
            Some("max_puzzles"),
        ));
    }
    Ok(max as usize)
}

/// The cache key of what the finder found at `state` before `step`: the
/// digest of everything it depends on (the step and its label, the step
/// before with its label, the judge's limits and style).
fn look_key<G: PuzzleApi>(
    (state, step, label): (&G::State, &G::Step, Label),
    previous: Option<(&G::State, &G::Step, Label)>,
    (limits, style): (&SearchLimits, &Style),
) -> Result<Key, RequestError> {
    let mut canonical = format!(
        "puzzles|p{PUZZLE_VERSION}|{}|{}",
        G::step_text(state, step)?,
        label.name()
    );
    if let Some((before, step, label)) = previous {
        canonical.push('|');
        canonical.push_str(&G::step_text(before, step)?);
        canonical.push('|');
        canonical.push_str(label.name());
    }
    Ok(Key::digest(
        key_text::<G>(&canonical, style, limits, 0).as_bytes(),
    ))
}

/// What the finder found at one position: from the cache, or looked for
/// afresh (kept unless the search was stopped, whose answer any server
/// would not write).
fn look<G: PuzzleApi>(
    state: &G::State,
    asked: &Asked<'_, G>,
    (style, cache): (&Style, &AnswerCache),
    spent: &mut Spent,
) -> Result<Option<G::PuzzleDto>, RequestError> {
    let key = look_key::<G>(
        (state, asked.step, asked.label),
        asked.previous,
        (&asked.limits, style),
    )?;
    if let Some(bytes) = cache.get(G::ID, key) {
        if let Ok(kept) = serde_json::from_slice::<Option<G::PuzzleDto>>(&bytes) {
            return Ok(kept);
        }
    }
    let started = Instant::now();
    let found = G::puzzle(state, asked, spent).map(|p| G::encode_puzzle(state, &p));
    // As a review's step: kept only when no search can have been stopped
    // by time (a search stops for time only after half of it) or by the
    // stop flag, so that what is kept is what any server would find.
    let timed_out = asked
        .limits
        .max_time
        .is_some_and(|time| started.elapsed() * 2 >= time);
    if !timed_out && !asked.limits.stop_requested() {
        let bytes = serde_json::to_vec(&found)
            .map_err(|e| RequestError::Internal(format!("writing a puzzle failed: {e}")))?;
        cache.insert(key, bytes.into());
    }
    Ok(found)
}

/// `puzzles`: the game reviewed, then looked at position by position; at
/// most `max` puzzles, in the game's order. In a batch (`shared`), on the
/// batch's budget.
pub async fn puzzles<G: PuzzleApi>(
    request: G::AnnotateRequest,
    max: usize,
    services: &Services,
    shared: Option<&SharedBudget>,
) -> Result<Vec<G::PuzzleDto>, RequestError> {
    let limits = services.limits;
    let (checked, judging) = check_game::<G>(request, &limits)?;
    let search = judge_limits::<G>(&judging, &limits, checked.plies.len() + 1)?;
    let started = Instant::now();
    let deadline = review_deadline(&checked, &limits, shared, started)?;
    let cache = services.cache.clone();
    let slots = services.slots_of(Operation::Puzzles);
    let (answer, stopped) = run_stoppable(slots, &limits, Some(deadline), move |stop| {
        let mut found = Vec::new();
        let (count, spent) = review_and_find::<G>(&checked, max, search, (stop, &cache), |p| {
            found.push(p);
            true
        });
        (count.map(|count| count.map(|_| found)), spent)
    })
    .await?;
    let (found, spent) = answer;
    let finished = found.as_ref().map(Option::is_some);
    record::<G, _>(services, &finished, deadline, spent);
    match found? {
        Some(found) if !stopped => Ok(found),
        _ => Err(match shared {
            Some(shared) => shared.share_spent(deadline.saturating_duration_since(started)),
            None => too_long(&limits),
        }),
    }
}

/// The finder over a reviewed game's `plies`, each with its review label,
/// handing each puzzle to `emit` as it is found (it answers whether to go
/// on); how many it found, `None` when `stop` was raised (or `emit`
/// declined) before the end.
fn find<G: PuzzleApi>(
    plies: &[(G::State, G::Step)],
    labels: &[Option<Label>],
    max: usize,
    (limits, style): (SearchLimits<'static>, Style),
    (stop, cache): (&AtomicBool, &AnswerCache),
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
    for (ply, ((state, step), label)) in plies.iter().zip(labels).enumerate() {
        let Some(label) = *label else {
            previous = None;
            continue;
        };
        if finder.wants(ply) {
            let asked = Asked::<G> {
                ply,
                step,
                label,
                previous,
                limits,
            };
            if let Some(mut puzzle) = look::<G>(state, &asked, (&style, cache), spent)? {
                finder.add(ply, G::place(&mut puzzle, ply));
                found += 1;
                if !emit(puzzle) {
                    return Ok(None);
                }
            }
        }
        if limits.stop_requested() {
            return Ok(None);
        }
        previous = Some((state, step, label));
    }
    Ok(Some(found))
}

/// Reviews `checked` and hands each puzzle found to `emit`: how many were
/// found (`None`: stopped short), and what the judge and the finder
/// searched.
fn review_and_find<G: PuzzleApi>(
    checked: &Checked<G>,
    max: usize,
    search: (SearchLimits<'static>, Style),
    (stop, cache): (&AtomicBool, &AnswerCache),
    emit: impl FnMut(G::PuzzleDto) -> bool,
) -> (Result<Option<usize>, RequestError>, Spent) {
    let mut labels = vec![None; checked.plies.len()];
    let (finished, mut spent) = judge_game::<G>(checked, search, (stop, cache), |line| {
        if let Line::Entry(entry) = line {
            if let Some(label) = labels.get_mut(entry.ply) {
                *label = Some(Label::of_chances(entry.win_chance, entry.win_chance_played));
            }
        }
        true
    });
    let found = match finished {
        Ok(true) => find::<G>(
            &checked.plies,
            &labels,
            max,
            search,
            (stop, cache),
            &mut spent,
            emit,
        ),
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
    Summary { count: usize },
    Problem(Box<crate::api::transport::problem::Problem>),
}

/// A line's bytes, its newline included.
fn line_bytes<P: Serialize>(line: &StreamLine<'_, P>) -> Option<Bytes> {
    let mut bytes = serde_json::to_vec(line).ok()?;
    bytes.push(b'\n');
    Some(Bytes::from(bytes))
}

/// `puzzles` streamed as NDJSON: the game is checked (and a slot taken)
/// before the answer starts, so refusals are ordinary problem answers;
/// then the review (no line), one line a puzzle as it is found, and the
/// summary last. A client that leaves stops the work; past the time cap,
/// a problem line ends it.
pub async fn puzzles_stream<G: PuzzleApi>(
    request: G::AnnotateRequest,
    max: usize,
    services: &Services,
    lang: Lang,
) -> Result<impl futures_util::Stream<Item = Result<Bytes, actix_web::Error>>, RequestError> {
    let limits = services.limits;
    let (checked, judging) = check_game::<G>(request, &limits)?;
    let search = judge_limits::<G>(&judging, &limits, checked.plies.len() + 1)?;
    let slot = services
        .slots_of(Operation::Puzzles)
        .take_within(&limits)
        .await?;
    let deadline = review_deadline(&checked, &limits, None, Instant::now())?;
    let cache = services.cache.clone();
    let recorder = services.clone();
    Ok(spawn_lines(slot, deadline, move |sink| {
        let (found, spent) =
            review_and_find::<G>(&checked, max, search, (sink.stop(), &cache), |puzzle| {
                line_bytes(&StreamLine::Puzzle(&puzzle)).is_some_and(|bytes| sink.send(bytes))
            });
        record::<G, _>(
            &recorder,
            &found.as_ref().map(Option::is_some),
            deadline,
            spent,
        );
        let problem = |error: RequestError| Box::new(error.problem_in(lang));
        let last: StreamLine<'_, G::PuzzleDto> = match found {
            Ok(Some(count)) => StreamLine::Summary { count },
            Ok(None) => StreamLine::Problem(problem(too_long(&limits))),
            Err(error) => StreamLine::Problem(problem(error)),
        };
        if let Some(bytes) = line_bytes(&last) {
            sink.last(bytes);
        }
    }))
}
