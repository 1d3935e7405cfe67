//! `puzzles`, for a game whose engine finds them ([`Puzzles`]): the game
//! reviewed as `annotate` reviews it (the same checks, judge, cache and
//! slot), then each position where the review found a mistake (at the
//! move or just before it) handed to the engine's finder. What the
//! finder found at a position is kept in the cache under the position,
//! the steps and labels it was asked with and the judge's limits, so a
//! game asked again, or a review of it asked first, costs no search twice.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use serde::de::DeserializeOwned;
use serde::Serialize;

use super::ai::key_text;
use super::annotate::{
    check_game, judge_game, judge_limits, record, review_deadline, too_long, Line,
};
use super::budget::SharedBudget;
use crate::api::game::GameApi;
use crate::api::services::{run_stoppable, Services};
use crate::api::transport::problem::RequestError;
use crate::cache::{AnswerCache, Key};
use crate::games::review::puzzle::{Asked, Finder, Puzzle, Puzzles};
use crate::games::review::{Label, Spent};
use crate::games::{SearchLimits, Style};
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
    let (search, style) = judge_limits::<G>(&judging, &limits, checked.plies.len() + 1)?;
    let started = Instant::now();
    let deadline = review_deadline(&checked, &limits, shared, started)?;
    let cache = services.cache.clone();
    let slots = services.slots_of(Operation::Puzzles);
    let (answer, stopped) = run_stoppable(slots, &limits, Some(deadline), move |stop| {
        let mut labels = vec![None; checked.plies.len()];
        let (finished, mut spent) =
            judge_game::<G>(&checked, (search, style), (stop, &cache), |line| {
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
                (search, style),
                (stop, &cache),
                &mut spent,
            ),
            Ok(false) => Ok(None),
            Err(error) => Err(error),
        };
        (found, spent)
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

/// The finder over a reviewed game's `plies`, each with its review label;
/// `None` when `stop` was raised before the end.
fn find<G: PuzzleApi>(
    plies: &[(G::State, G::Step)],
    labels: &[Option<Label>],
    max: usize,
    (limits, style): (SearchLimits<'static>, Style),
    (stop, cache): (&AtomicBool, &AnswerCache),
    spent: &mut Spent,
) -> Result<Option<Vec<G::PuzzleDto>>, RequestError> {
    let limits = SearchLimits {
        stop: Some(stop),
        ..limits
    };
    let mut finder = Finder::new(max);
    let mut found = Vec::new();
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
                found.push(puzzle);
            }
        }
        if limits.stop_requested() {
            return Ok(None);
        }
        previous = Some((state, step, label));
    }
    Ok(Some(found))
}
