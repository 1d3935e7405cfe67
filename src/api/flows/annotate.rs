//! `annotate`, for every game: a played game reviewed, each move judged by
//! the game's [`Review`] judge (exactly in a solved game, by its search
//! elsewhere), each player summed up. The whole game is checked first (the
//! first illegal step is a 422 with its `ply`, as in `replay`), then judged
//! in a search slot off the HTTP workers within the judge's limits and the
//! server's total time cap; as one JSON answer, or streamed as NDJSON (one
//! line an entry as soon as it is judged, the summary last), stopped when
//! the client leaves. Its answer's types are in [`super::annotation`].

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use actix_web::web::Bytes;
use serde::Serialize;

use super::ai::key_text;
pub use super::annotate_line::{AnnotateLine, StreamLine};
pub use super::annotation::{
    AnnotateResponse, AnnotateSummary, Annotation, MomentEntry, PlayerReview, Unjudged,
};
use super::ask::{style, Judging};
use super::budget::SharedBudget;
use super::stream::{spawn_lines, Sink};
use crate::api::game::GameApi;
use crate::api::services::{run_stoppable, Services};
use crate::api::transport::problem::{Problem, RequestError};
use crate::cache::{AnswerCache, Key};
use crate::games::review::{self, Judged, Label, Review, Spent, Tally};
use crate::games::{SearchLimits, Style};
use crate::i18n::Lang;
use crate::limits::Limits;
use crate::operations::Operation;
use crate::render::{review_chart, ChartEntry};
use crate::text::Text;

/// A game checked step by step: the state before each step, and the step.
pub(super) struct Checked<G: GameApi> {
    pub(super) plies: Vec<(G::State, G::Step)>,
    last: G::State,
    /// The decisions the steps record that the review does not judge.
    unjudged: Vec<Unjudged>,
}

/// The whole game played without judging: the first illegal step is the
/// answer, with its `ply`; then the judge's limits ([`judge_limits`]).
pub(super) fn check_game<G: GameApi>(
    request: G::AnnotateRequest,
    limits: &Limits,
) -> Result<(Checked<G>, (SearchLimits<'static>, Style)), RequestError> {
    let (mut state, steps, judging) = G::decode_annotate(request, limits)?;
    limits.check_annotate(steps.len(), G::REPLAY_STEPS)?;
    limits.check_replay_work(G::size(&state), steps.len(), G::REPLAY_STEPS)?;
    let mut plies = Vec::with_capacity(steps.len());
    let mut unjudged = Vec::new();
    let mut past = G::Past::default();
    G::remember(&mut past, &mut state);
    for (ply, step) in steps.into_iter().enumerate() {
        unjudged.extend(
            G::unjudged(&step)
                .iter()
                .map(|&decision| Unjudged { ply, decision }),
        );
        let step = G::replay_step(&mut state, step, ply, limits)?;
        G::check(&state, &step).map_err(|e| G::refusal(e, Some(ply)))?;
        plies.push((state.clone(), step.clone()));
        G::play(&mut state, step).map_err(|e| G::refusal(e, Some(ply)))?;
        G::remember(&mut past, &mut state);
    }
    let search = judge_limits::<G>(&judging, limits, plies.len() + 1)?;
    let checked = Checked {
        plies,
        last: state,
        unjudged,
    };
    Ok((checked, search))
}

/// The judge's search limits: what was asked within the server's caps,
/// the level's budget in positions when a level and no `max_nodes` is
/// asked, the game's budget for a review of `positions` positions when
/// neither is ([`Review::default_nodes`]), each search given
/// the server's AI time cap unless a time is asked. A budget under the
/// judge's floor (positions, or time a position) is refused, naming the
/// floor: its verdicts would mean nothing.
fn judge_limits<G: Review>(
    judging: &Judging,
    caps: &Limits,
    positions: usize,
) -> Result<(SearchLimits<'static>, Style), RequestError> {
    // A level is the judge's budget ([`review::judge_nodes`]); the judge
    // itself always plays at full strength.
    let level = style(judging.level, None)?.level;
    let style = Style::FULL;
    let asked = judging.limits.unwrap_or_default();
    if let Some(nodes) = asked.max_nodes.filter(|n| *n < G::JUDGE_MIN_NODES) {
        return Err(RequestError::bad_request(
            Text::new("request-judge-nodes")
                .with("value", nodes)
                .with("min", G::JUDGE_MIN_NODES),
            Some("limits.max_nodes"),
        ));
    }
    if let Some(ms) = asked.max_time_ms.filter(|ms| *ms < G::JUDGE_FLOOR_MS) {
        return Err(RequestError::bad_request(
            Text::new("request-judge-time")
                .with("value", ms)
                .with("min", G::JUDGE_FLOOR_MS),
            Some("limits.max_time_ms"),
        ));
    }
    let nodes = asked
        .max_nodes
        .or(level.map(review::judge_nodes::<G>))
        .or(Some(G::default_nodes(positions)));
    let time = asked.max_time_ms.or(Some(caps.ai_max_time_ms));
    Ok((caps.search_limits(time, asked.max_depth, nodes), style))
}

/// One line of a review as it is judged.
pub(super) enum Line<G: GameApi> {
    /// An entry, and the index of the player who moved.
    Entry(Box<Annotation>, usize),
    Summary(AnnotateSummary<G>),
}

/// The version of what a review's entries say, part of their cache keys:
/// bumped whenever a verdict's numbers or fields change for the same
/// judge (2: forced results, the chance kept within 0.1-99.9, one Tank War
/// equilibrium, the lines; 3: a settled game's entries kept as the judge
/// wrote them, refutation included, and settled when answered; The Tank
/// War's mixed equilibria in one order; 4: a forced result's plies counted
/// from the position judged, `forced`, verifications; 7: Tank Battle's
/// positions valued at the deepest even depth their search finished; 8:
/// its searches stop at the even depths they can finish, its judge of
/// 200,000 positions verifying at 5x within a share of positions; 9: a
/// move's loss read within its position's search, the move played valued
/// there, no settling; 10: a forced win pushed past the horizon kept,
/// doubts verified only where the larger budget reads further, the share
/// the whole review's; 11: faults verified from a larger share,
/// inaccuracies from their own).
const REVIEW_VERSION: u32 = 11;

/// A step judged afresh: its entries, kept in the cache when they are
/// the ones any server would write — no search of the step may have been
/// stopped short ([`SearchLimits::may_have_stopped`]); else each says it
/// was `cut`.
fn judge_step<G: GameApi>(
    judge: &mut G::Judge,
    (ply, state, step): (usize, &G::State, &G::Step),
    (limits, style): (SearchLimits, Style),
    (cache, key): (&AnswerCache, Key),
) -> Result<Vec<(Annotation, usize)>, RequestError> {
    let started = Instant::now();
    let verdicts = G::judge(judge, state, step, limits, style);
    let mut entries = verdicts
        .iter()
        .map(|verdict| Ok((Annotation::new::<G>(ply, state, verdict)?, verdict.player)))
        .collect::<Result<Vec<_>, serde_json::Error>>()
        .map_err(|e| RequestError::Internal(format!("writing a verdict failed: {e}")))?;
    if limits.may_have_stopped(started) {
        entries.iter_mut().for_each(|(entry, _)| entry.cut = true);
    } else {
        let written: Vec<&Annotation> = entries.iter().map(|(entry, _)| entry).collect();
        if let Ok(bytes) = serde_json::to_vec(&written) {
            cache.insert(key, bytes.into());
        }
    }
    Ok(entries)
}

/// Judges every step in order, handing each entry to `emit` as soon as it
/// is judged (it answers whether to go on), then the summary. A step
/// whose entries the cache keeps is not judged again. Stops when `stop`
/// is raised (the client left, the time cap passed); answers whether it
/// finished, and what the judge searched.
pub(super) fn judge_game<G: GameApi>(
    reviewing: Reviewing<'_, G>,
    emit: impl FnMut(Line<G>) -> bool,
) -> (Result<bool, RequestError>, Spent) {
    let mut judge = G::judge_for(reviewing.0.plies.len());
    let finished = judge_steps::<G>(&mut judge, reviewing, emit);
    (finished, G::spent(&judge))
}

/// [`judge_game`]'s steps, with `judge`.
fn judge_steps<G: GameApi>(
    judge: &mut G::Judge,
    (checked, (limits, style), (stop, cache)): Reviewing<'_, G>,
    mut emit: impl FnMut(Line<G>) -> bool,
) -> Result<bool, RequestError> {
    let limits = SearchLimits {
        stop: Some(stop),
        ..limits
    };
    let mut tally = Tally::new(G::PLAYERS);
    let mut verifications = 0;
    let mut answer = |(entry, player): (Annotation, usize)| {
        let judged = Judged {
            ply: entry.ply,
            player,
            chance: entry.win_chance,
            chance_played: entry.win_chance_played,
        };
        tally.add_judged(judged, entry.loss, G::LOSS_CAP);
        verifications += usize::from(entry.verified);
        emit(Line::Entry(Box::new(entry), player))
    };
    for (ply, (state, step)) in checked.plies.iter().enumerate() {
        if stop.load(Ordering::Relaxed) {
            return Ok(false);
        }
        // The cache key of the step's entries: the digest of everything
        // its verdicts depend on (the game and its engine's version, the
        // state and the step, the judge's limits and style), written as
        // `ai-move`'s keys are.
        let canonical = format!("annotate|r{REVIEW_VERSION}|{}", G::step_text(state, step)?);
        let key = Key::digest(key_text::<G>(&canonical, &style, &limits, 0).as_bytes());
        // The entries this server kept, read back for step `ply`, when
        // they read as this game's entries.
        let kept = cache.get(G::ID, key);
        let kept = kept.and_then(|bytes| serde_json::from_slice::<Vec<Annotation>>(&bytes).ok());
        let kept = kept.and_then(|entries| entries.into_iter().map(|e| e.kept::<G>(ply)).collect());
        let entries = match kept {
            Some(entries) => entries,
            None => judge_step::<G>(judge, (ply, state, step), (limits, style), (cache, key))?,
        };
        if !entries.into_iter().all(&mut answer) {
            return Ok(false);
        }
    }
    if stop.load(Ordering::Relaxed) {
        return Ok(false);
    }
    let players = tally
        .summaries()
        .iter()
        .enumerate()
        .map(|(i, summary)| PlayerReview::new(G::player_name(i).to_owned(), summary))
        .collect();
    let moments = review::moments(&tally.judged())
        .iter()
        .map(|moment| MomentEntry::new(moment, G::player_name(moment.player)))
        .collect();
    let [curve, _] = tally.series();
    Ok(emit(Line::Summary(AnnotateSummary {
        players,
        curve,
        moments,
        verifications,
        unjudged: checked.unjudged.clone(),
        final_state: G::encode_score(&checked.last),
    })))
}

/// A review the server's time cap stopped: 503, to be retried (the
/// verdicts it found are kept in the cache).
pub(super) fn too_long(limits: &Limits) -> RequestError {
    RequestError::ReviewUnfinished {
        cap_ms: limits.annotate_max_time_ms,
    }
}

/// Counts a review of `G` that ended as `found` says (stopped short: cut
/// when its `deadline` has passed, else its client left) and what its
/// judge searched.
fn record<G: GameApi, T>(
    services: &Services,
    found: &Result<Option<T>, RequestError>,
    deadline: Instant,
    spent: Spent,
) {
    let result = match found {
        Ok(Some(_)) => "finished",
        Ok(None) if Instant::now() >= deadline => "cut",
        Ok(None) => "left",
        Err(_) => "failed",
    };
    services
        .metrics
        .review(G::ID, result, spent.searches, spent.nodes);
}

/// When a review of `checked` starting `now` must be done: its time cap,
/// and in a batch (`shared`) its share of the batch's budget, refused up
/// front when that share cannot give each of its positions the judge's
/// floor ([`Review::JUDGE_FLOOR_MS`]).
pub(super) fn review_deadline<G: GameApi>(
    checked: &Checked<G>,
    limits: &Limits,
    shared: Option<&SharedBudget>,
    now: Instant,
) -> Result<Instant, RequestError> {
    let capped = now + Duration::from_millis(limits.annotate_max_time_ms);
    let Some(shared) = shared else {
        return Ok(capped);
    };
    let share = shared.next_search(now, Operation::Annotate.price(limits).units)?;
    let positions = u32::try_from(checked.plies.len() + 1).unwrap_or(u32::MAX);
    let needed = Duration::from_millis(G::JUDGE_FLOOR_MS) * positions;
    let given = share.saturating_duration_since(now);
    if given < needed {
        return Err(shared.too_little(needed, given));
    }
    Ok(share.min(capped))
}

/// A review's format, by name: `json`, `ndjson` or `svg`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
#[schema(as = AnnotateFormat)]
pub enum Format {
    /// One JSON answer (the default).
    Json,
    /// NDJSON: one line an entry as it is judged, the summary last.
    #[serde(rename = "ndjson")]
    Lines,
    /// The SVG chart of each player's chance to win.
    #[serde(rename = "svg")]
    Chart,
}

/// `annotate`'s query: the format asked by name, for a client that
/// cannot set `Accept` (a generated client calls an operation with its
/// parameters; OpenAPI leaves `Accept` out of them).
#[derive(Debug, Default, serde::Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct AnnotateQuery {
    /// `json` (one answer), `ndjson` (a line an entry as it is judged, then
    /// the summary: each line an `AnnotateLine`) or `svg` (the chart); it
    /// wins over `Accept`, which decides when it is absent (JSON when
    /// neither names a format).
    pub format: Option<Format>,
}

/// The format asked: `format` when the query names one, else the one
/// `Accept` prefers ([`negotiate`]).
pub fn format_of(query: &AnnotateQuery, request: &actix_web::HttpRequest) -> Format {
    query.format.unwrap_or_else(|| negotiate(request))
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
/// (to its last judged step), mistakes and blunders marked, its words in
/// the language of the request being served.
pub fn chart<G: GameApi>(review: &AnnotateResponse<G>, lang: Lang) -> String {
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
            label: Label::of_chances(entry.win_chance, entry.win_chance_played),
        })
        .collect();
    review_chart(
        lang,
        G::ID,
        [G::player_name(0), G::player_name(1)],
        &entries,
        steps,
    )
}

/// What a review's work is given: the checked game, the judge's limits,
/// and the stop flag and cache its searches run with.
pub(super) type Reviewing<'a, G> = (
    &'a Checked<G>,
    (SearchLimits<'static>, Style),
    (&'a AtomicBool, &'a AnswerCache),
);

/// A review's work answered: what it found (`None`: stopped short) and
/// what its searches spent.
pub(super) type Found<T> = (Result<Option<T>, RequestError>, Spent);

/// A review as one answer, the work of `op` (`annotate`, `puzzles`): the
/// game checked, the judge's limits and the review's deadline, then
/// `work` in a slot of `op`'s pool, off the HTTP workers; stopped short,
/// it is refused (in a batch, `shared`, as its share of the batch's
/// budget spent).
pub(super) async fn run_review<G: GameApi, T: Send + 'static>(
    request: G::AnnotateRequest,
    op: Operation,
    services: &Services,
    shared: Option<&SharedBudget>,
    work: impl FnOnce(Reviewing<'_, G>) -> Found<T> + Send + 'static,
) -> Result<T, RequestError> {
    let limits = services.limits;
    let (checked, search) = check_game::<G>(request, &limits)?;
    let started = Instant::now();
    let deadline = review_deadline(&checked, &limits, shared, started)?;
    let cache = services.cache.clone();
    let slots = services.slots_of(op);
    let ((found, spent), stopped) = run_stoppable(slots, &limits, Some(deadline), move |stop| {
        work((&checked, search, (stop, &cache)))
    })
    .await?;
    record::<G, _>(services, &found, deadline, spent);
    match found? {
        Some(found) if !stopped => Ok(found),
        _ => Err(match shared {
            Some(shared) => shared.share_spent(deadline.saturating_duration_since(started)),
            None => too_long(&limits),
        }),
    }
}

/// A review streamed as NDJSON, the work of `op`: the game checked, the
/// judge's limits, a slot of `op`'s pool taken and the review's deadline,
/// all before the answer begins (so that a refusal is an ordinary problem
/// answer); then `work` on the blocking pool, writing its lines, and the
/// line `last` writes of how it ended: what it found, or the problem that
/// stopped it (in `lang`; past the time cap when it stopped short).
pub(super) async fn stream_review<G: GameApi, T, L: Serialize>(
    request: G::AnnotateRequest,
    op: Operation,
    (services, lang): (&Services, Lang),
    work: impl FnOnce(Reviewing<'_, G>, &Sink) -> Found<T> + Send + 'static,
    last: impl FnOnce(Result<T, Box<Problem>>) -> Option<L> + Send + 'static,
) -> Result<impl futures_util::Stream<Item = Result<Bytes, actix_web::Error>>, RequestError> {
    let limits = services.limits;
    let (checked, search) = check_game::<G>(request, &limits)?;
    let slot = services.slots_of(op).take_within(&limits).await?;
    let deadline = review_deadline(&checked, &limits, None, Instant::now())?;
    let cache = services.cache.clone();
    let recorder = services.clone();
    // The lines are written on the blocking pool (a last problem in the
    // request's language).
    Ok(spawn_lines(slot, deadline, move |sink| {
        let (found, spent) = work((&checked, search, (&sink.stop, &cache)), sink);
        record::<G, _>(&recorder, &found, deadline, spent);
        let end = found.and_then(|found| found.ok_or_else(|| too_long(&limits)));
        // The last line waits for room as the others do: a slow reader
        // still gets the summary (or, past the time cap, the problem when
        // there is room for it).
        if let Some(line) = last(end.map_err(|error| Box::new(error.problem_in(lang)))) {
            sink.send(&line);
        }
    }))
}

/// `annotate` as one answer; in a batch (`shared`), on the batch's budget.
pub async fn annotate<G: GameApi>(
    request: G::AnnotateRequest,
    services: &Services,
    shared: Option<&SharedBudget>,
) -> Result<AnnotateResponse<G>, RequestError> {
    run_review(
        request,
        Operation::Annotate,
        services,
        shared,
        gathered::<G>,
    )
    .await
}

/// A review's entries and summary gathered into its one answer.
fn gathered<G: GameApi>(reviewing: Reviewing<'_, G>) -> Found<AnnotateResponse<G>> {
    let mut plies = Vec::new();
    let mut summary = None;
    let (finished, spent) = judge_game::<G>(reviewing, |line| {
        match line {
            Line::Entry(entry, _) => plies.push(*entry),
            Line::Summary(last) => summary = Some(last),
        }
        true
    });
    let answer = summary.map(|summary| summary.with_plies(plies));
    (finished.map(|finished| answer.filter(|_| finished)), spent)
}

/// `annotate` streamed as NDJSON: the game is checked (and a slot taken)
/// before the answer starts, so refusals are ordinary problem answers;
/// then one line an entry as it is judged and the summary last. A client
/// that leaves drops the stream, which raises the judge's stop flag; a
/// review past the time cap ends with a problem line (when the client
/// reads it).
pub async fn annotate_stream<G: GameApi>(
    request: G::AnnotateRequest,
    services: &Services,
    lang: Lang,
) -> Result<impl futures_util::Stream<Item = Result<Bytes, actix_web::Error>>, RequestError> {
    stream_review(
        request,
        Operation::Annotate,
        (services, lang),
        |reviewing, sink| {
            let (finished, spent) = judge_game::<G>(reviewing, |line| match line {
                Line::Entry(entry, _) => sink.send(&StreamLine::<G>::Entry(&entry)),
                Line::Summary(summary) => sink.send(&StreamLine::Summary(&summary)),
            });
            (finished.map(|finished| finished.then_some(())), spent)
        },
        |end| end.err().map(StreamLine::<G>::Problem),
    )
    .await
}
