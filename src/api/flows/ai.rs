//! `ai-move`, for every game: the request's style (level, lines) and the
//! limits it asks, turned once into what the engine searches with
//! ([`SearchLimits`]); the cache key, built here only; the answer from a
//! cache tier (its bytes, served as they are), or a search in a search
//! slot, then cached.

use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::api::game::{GameApi, UnfitAnswer};
use crate::api::services::{run_stoppable, Services};
use crate::api::transport::problem::RequestError;
use crate::cache::{Key, Lookup};
use crate::games::{SearchLimits, Style};
use crate::operations::Operation;

use super::ask::{AiRequest, Played, Suggested, Work};
use super::budget::SharedBudget;

/// An `ai-move` answer: a search's, or the bytes a cache tier keeps, which
/// are the answer as served from the cache (`"cached": true`) and go out
/// as they are; or either with its move played (`play`).
pub enum AiMove<R, A> {
    Searched(R),
    Cached(Arc<[u8]>),
    Played(Box<Played<R, A>>),
}

impl<R: Serialize, A: Serialize> AiMove<R, A> {
    /// The answer as JSON text.
    pub fn into_json(self) -> serde_json::Result<Vec<u8>> {
        match self {
            AiMove::Searched(answer) => crate::api::transport::json::encode(&answer),
            AiMove::Cached(bytes) => Ok(bytes.to_vec()),
            AiMove::Played(played) => crate::api::transport::json::encode(&played),
        }
    }

    /// The answer as JSON text (a batch's result).
    pub fn into_written(self) -> Result<super::items::Written, RequestError> {
        match self {
            AiMove::Searched(answer) => serde_json::value::to_raw_value(&answer),
            AiMove::Played(played) => serde_json::value::to_raw_value(&played),
            AiMove::Cached(bytes) => std::str::from_utf8(&bytes)
                .map_err(serde::de::Error::custom)
                .and_then(|text| serde_json::value::RawValue::from_string(text.to_owned())),
        }
        .map_err(|e| RequestError::Internal(format!("writing the answer failed: {e}")))
    }
}

/// How the cache keeps answers; part of every key, so that a tier shared
/// with servers that keep them otherwise never serves theirs.
const CACHE_FORMAT: u32 = 3;

/// The text a cache key digests:
/// `<game>|v<version>|<canonical>|level <l>|lines <n>|<ms> ms|depth <d>|nodes <n>|seed <s>|f<format>`,
/// written piece by piece (one is written for every `ai-move`, most of
/// them answered from the cache).
pub(super) fn key_text<G: GameApi>(
    canonical: &str,
    style: &Style,
    search: &SearchLimits,
    seed: u64,
) -> String {
    let mut text = String::with_capacity(canonical.len() + 128);
    let mut number = itoa::Buffer::new();
    let time_ms = search.max_time.map_or(0, |t| t.as_millis());
    let level = style.level.map_or(0, |level| level.get());
    text.push_str(G::ID);
    text.push_str("|v");
    text.push_str(number.format(G::AI_VERSION));
    text.push('|');
    text.push_str(canonical);
    text.push_str("|level ");
    text.push_str(number.format(level));
    text.push_str("|lines ");
    text.push_str(number.format(style.lines));
    text.push('|');
    text.push_str(number.format(time_ms));
    text.push_str(" ms|depth ");
    text.push_str(number.format(search.max_depth));
    text.push_str("|nodes ");
    text.push_str(number.format(search.max_nodes));
    text.push_str("|seed ");
    text.push_str(number.format(seed));
    text.push_str("|f");
    text.push_str(number.format(CACHE_FORMAT));
    text
}

/// `ai-move`: the answer from the cache, or a search run on the blocking
/// pool in a search slot and then cached. The search stops when the
/// client goes away, or when a batch's `shared` budget runs out; an answer
/// cut short by either, or by a cap the request did not set, says so
/// (`cut`) and is not cached. With `play`, the answer's move is then
/// played as `apply` plays it, and its answer added.
pub async fn ai_move<G: GameApi>(
    request: G::AiMoveRequest,
    services: &Services,
    shared: Option<&SharedBudget>,
) -> Result<AiMove<Suggested<G::AiSuggestion>, G::ApplyResponse>, RequestError> {
    let with = G::play_with(&request)?;
    let decoded = G::decode_ai(request, &services.limits)?;
    let Some(with) = with else {
        return search::<G>(decoded, services, shared).await;
    };
    // The answer's move played in the state as `apply` plays it, with what
    // the request gave beside it (`with`); refused as `apply` refuses a
    // step (the other player's, in a simultaneous game).
    let (mut state, question) = (decoded.state.clone(), decoded.question.clone());
    let answer = match search::<G>(decoded, services, shared).await? {
        AiMove::Searched(answer) => answer,
        // The cache keeps what this server wrote (the shared tier's values
        // are checked before they are served).
        AiMove::Cached(bytes) => serde_json::from_slice(&bytes)
            .map_err(|e| RequestError::Internal(format!("a cached answer does not read: {e}")))?,
        AiMove::Played(played) => return Ok(AiMove::Played(played)),
    };
    let step = G::played_step(&mut state, &question, &answer, with)?;
    let events = G::play(&mut state, step).map_err(|e| G::refusal(e, None))?;
    let applied = G::encode_apply(&state, events);
    Ok(AiMove::Played(Box::new(Played { answer, applied })))
}

/// The AI's answer to a decoded request: from a cache tier, or searched
/// and then cached.
async fn search<G: GameApi>(
    request: AiRequest<G>,
    services: &Services,
    shared: Option<&SharedBudget>,
) -> Result<AiMove<Suggested<G::AiSuggestion>, G::ApplyResponse>, RequestError> {
    let caps = &services.limits;
    let AiRequest {
        state,
        question,
        asked,
        seed,
        style,
    } = request;
    if G::is_over(&state) {
        return Err(G::game_over(&question).into());
    }
    let search = asked.search_limits(caps, &style);
    // The cache key: the digest of everything the answer depends on (the
    // game and its engine's version, the state and question, the style,
    // the limits after the caps, the seed), as [`key_text`] writes it.
    let canonical = G::canonical(&state, &question)?;
    let key = Key::digest(key_text::<G>(&canonical, &style, &search, seed).as_bytes());
    // The in-process tier first (which holds only what this server
    // wrote), then the shared one, whose values are served only when
    // [`shared_answer`] takes them (then they are kept in-process too).
    if let Some(bytes) = services.cache.get(G::ID, key) {
        return Ok(AiMove::Cached(bytes));
    }
    if let Some(shared) = &services.shared {
        let check = |bytes: &[u8]| shared_answer::<G>(bytes, &state, &question);
        if let Lookup::Hit(bytes) = shared.get(G::ID, key, check).await {
            services.cache.insert(key, bytes.clone());
            return Ok(AiMove::Cached(bytes));
        }
    }
    let asked_time = search.max_time.unwrap_or(Duration::MAX);
    let started = Instant::now();
    let units = Operation::AiMove.price(caps).units;
    let deadline = shared
        .map(|shared| shared.next_search(started, units))
        .transpose()?;
    let time = match deadline {
        // Whole milliseconds, as the limits are asked.
        Some(deadline) => asked_time.min(Duration::from_millis(
            deadline.saturating_duration_since(started).as_millis() as u64,
        )),
        None => asked_time,
    };
    let search = SearchLimits {
        max_time: Some(time),
        ..search
    };
    let asked_question = question.clone();
    let ((answer, ran), stopped) = run_stoppable(
        services.slots_of(Operation::AiMove),
        caps,
        deadline,
        move |stop| {
            let search = SearchLimits {
                stop: Some(stop),
                ..search
            };
            let began = Instant::now();
            let found = G::suggest(&state, &asked_question, search, seed, style)
                .map(|found| G::encode_ai(&state, found));
            (found, began.elapsed())
        },
    )
    .await?;
    let mut answer = answer.ok_or_else(|| RequestError::from(G::game_over(&question)))?;
    let elapsed = started.elapsed();
    answer.time_ms = elapsed.as_millis() as u64;
    services
        .metrics
        .ai_search(G::ID, answer.suggestion.work(), elapsed.as_secs_f64());
    // An answer is cached when it is the one the request would get on any
    // server: not stopped, and not cut by a time or a cap the request did
    // not set. A search that ran less than half its time was not stopped
    // by it: each engine stops early only past half its time (between
    // iterations) or at a limit (see `Game::suggest`).
    let timed_out = ran * 2 >= time && !answer.suggestion.ended_within(&search);
    let capped = asked.max_nodes.is_some_and(|n| n > search.max_nodes)
        && answer.suggestion.work() >= search.max_nodes;
    let cut = stopped || (timed_out && asked.own_time(caps, &style) != Some(time)) || capped;
    answer.cut = cut;
    if !cut {
        let mut kept = answer.clone();
        kept.cached = true;
        if let Ok(encoded) = serde_json::to_vec(&kept) {
            let encoded: Arc<[u8]> = Arc::from(encoded);
            if let Some(shared) = &services.shared {
                shared.put(key, encoded.clone());
            }
            services.cache.insert(key, encoded);
        }
    }
    Ok(AiMove::Searched(answer))
}

/// Why a value of the shared tier is not served.
#[derive(Debug, thiserror::Error)]
enum SharedRejection {
    #[error("not this game's answer: {0}")]
    Undecodable(#[from] serde_json::Error),
    /// It decodes, but is not byte for byte what this server writes: a
    /// field added, left out, reordered, re-spelled, not `cached` or `cut`.
    #[error("not an answer as this server writes it")]
    NotAsWritten,
    #[error("not legal for the request: {0}")]
    Unfit(#[from] UnfitAnswer),
}

/// Takes a value of the shared tier for `question` in `state` when it is
/// exactly an answer as this server stores it (decoded as the game's
/// answer and written again, the same bytes, `cached` set and not `cut`:
/// no unknown or missing field) and every move it names is legal there
/// ([`GameApi::check_ai_answer`]).
fn shared_answer<G: GameApi>(
    bytes: &[u8],
    state: &G::State,
    question: &G::Question,
) -> Result<(), SharedRejection> {
    let mut answer = serde_json::from_slice::<Suggested<G::AiSuggestion>>(bytes)?;
    (answer.cached, answer.cut) = (true, false);
    if serde_json::to_vec(&answer)? != bytes {
        return Err(SharedRejection::NotAsWritten);
    }
    G::check_ai_answer(state, question, &answer)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::flows::ask::AskedLimits;
    use crate::games::tank_battle::TankBattle;
    use crate::games::{Game, Level};
    use crate::limits::Limits;

    /// A shared value is taken only when it is exactly an answer as this
    /// server stores it, legal for the request (Nim: a pile of 2, so a take
    /// of 3 is not).
    #[test]
    fn a_shared_value_is_served_only_when_it_is_a_legal_answer_as_written() {
        use crate::games::nim::{Nim, Player, State};
        let state = State {
            pile: 2,
            turn: Player::First,
        };
        let answer = |text: &str| shared_answer::<Nim>(text.as_bytes(), &state, &());
        assert!(answer(r#"{"take":2,"time_ms":3,"cached":true,"cut":false}"#).is_ok());
        for (text, why) in [
            (
                r#"{"take":2,"time_ms":3,"cached":false,"cut":false}"#,
                "not cached",
            ),
            (
                r#"{"take":2,"time_ms":3,"cached":true,"cut":false,"x":1}"#,
                "a field added",
            ),
            (
                r#"{"take":2,"cached":true,"time_ms":3,"cut":false}"#,
                "fields reordered",
            ),
            (
                r#"{"take": 2,"time_ms":3,"cached":true,"cut":false}"#,
                "spaced",
            ),
            (r#"{"take":2,"time_ms":3,"cached":true}"#, "a field missing"),
            (
                r#"{"take":2,"time_ms":3,"cached":true,"cut":true}"#,
                "a cut answer",
            ),
            (
                r#"{"take":3,"time_ms":3,"cached":true,"cut":false}"#,
                "an illegal take",
            ),
            (
                r#"{"take":4294967298,"time_ms":3,"cached":true,"cut":false}"#,
                "a take past u32",
            ),
            ("hello", "not JSON"),
        ] {
            assert!(answer(text).is_err(), "{why}: {text}");
        }
        assert!(matches!(
            answer(r#"{"take":3,"time_ms":3,"cached":true,"cut":false}"#),
            Err(SharedRejection::Unfit(_))
        ));
    }

    /// The keys stay what they were (a shared tier keeps answers under
    /// them): the text is the one `format!` wrote before.
    #[test]
    fn the_key_text_is_the_one_the_shared_tier_knows() {
        let caps = Limits::default();
        for (level, lines, time, depth, seed) in [
            (None, 1, None, None, 0),
            (Level::new(5), 3, Some(250), Some(7), u64::MAX),
        ] {
            let style = Style { level, lines };
            let asked = AskedLimits {
                max_time_ms: time,
                max_depth: depth,
                max_nodes: None,
            };
            let search = asked.search_limits(&caps, &style);
            let canonical = "standard|ctttt6/tttt7/ttt8/tt9/11/11/11/9TT/8TTT/7TTTT/6TTTTC w 0";
            let time_ms = search.max_time.map_or(0, |t| t.as_millis());
            let level = style.level.map_or(0, |level| level.get());
            let expected = format!(
                "{}|v{}|{canonical}|level {level}|lines {}|{time_ms} ms|depth {}|nodes {}|seed {seed}|f{CACHE_FORMAT}",
                TankBattle::ID,
                TankBattle::AI_VERSION,
                style.lines,
                search.max_depth,
                search.max_nodes,
            );
            assert_eq!(
                key_text::<TankBattle>(canonical, &style, &search, seed),
                expected
            );
        }
    }
}
