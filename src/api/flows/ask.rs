//! What an `ai-move` request asks and what its answer keeps, for every
//! game: the style (level, lines), the limits it asks ([`AskedLimits`],
//! turned once into what the engine searches with), the decoded request
//! ([`AiRequest`]) and the answer: [`Suggested`], a game's suggestion
//! with the bookkeeping the flow fills in.
//! A game's codec ([`crate::api::game::GameApi`]) decodes into these; the
//! flow ([`super::ai`]) searches with them.

use std::borrow::Cow;

use std::time::Duration;

use serde::{Deserialize, Serialize};
use utoipa::openapi::schema::Schema;
use utoipa::openapi::RefOr;
use utoipa::{PartialSchema, ToSchema};

use crate::api::transport::problem::RequestError;
use crate::games::{Game, Level, SearchLimits, Style};
use crate::limits::Limits;
use crate::text::Text;

/// The most best moves (lines) one `ai-move` may ask for with `multipv`.
pub const MAX_LINES: u32 = 16;

/// What an `annotate` request asks of the judge: the limits of each
/// position's search and a level. Without `max_nodes` the judge searches
/// each position to the game's fixed budget in positions, so the verdicts
/// are the same on any machine; the time asked bounds each search (the
/// server's AI cap when absent), the server's `annotate` cap the whole.
#[derive(Clone, Copy, Debug, Default)]
pub struct Judging {
    pub limits: Option<AskedLimits>,
    pub level: Option<u32>,
}

/// A game to review, decoded: its start, its steps and the judging asked.
pub type ToJudge<S, R> = (S, Vec<R>, Judging);

/// The style of an `ai-move` from its `level` and `multipv` fields: a
/// level 1 to 8 (full strength when absent) and 1 to [`MAX_LINES`] lines
/// (1 when absent).
pub fn style(level: Option<u32>, multipv: Option<u32>) -> Result<Style, RequestError> {
    let level = match level {
        None => None,
        Some(n) => Some(u8::try_from(n).ok().and_then(Level::new).ok_or_else(|| {
            RequestError::bad_request(Text::new("request-level").with("value", n), Some("level"))
        })?),
    };
    let lines = multipv.unwrap_or(1);
    if !(1..=MAX_LINES).contains(&lines) {
        return Err(RequestError::bad_request(
            Text::new("request-multipv")
                .with("max", MAX_LINES)
                .with("value", lines),
            Some("multipv"),
        ));
    }
    Ok(Style {
        level,
        lines: lines as usize,
    })
}

/// Limits of one AI search. Each is clamped to the server's cap; with none
/// given the search thinks for the default time (200 ms unless configured).
/// With `max_depth` or `max_nodes` (and no `max_time_ms`) the answer is a
/// deterministic function of the request.
#[derive(Clone, Copy, Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = AiLimits)]
pub struct AskedLimits {
    /// Thinking time, milliseconds (capped by the server, 5000 by default).
    #[schema(example = 200)]
    pub max_time_ms: Option<u64>,
    /// Deepest iteration, plies (capped by the server, 64 by default).
    #[schema(example = 4)]
    pub max_depth: Option<u32>,
    /// Most positions visited (capped by the server).
    #[schema(example = 100000)]
    pub max_nodes: Option<u64>,
}

impl AskedLimits {
    /// What the engine searches with, after the server's caps. A level
    /// brings its own budgets in depth and positions: unless a time is
    /// asked, it gets the server's time cap (which its budgets keep it far
    /// inside), so that its play does not depend on the machine's speed.
    pub fn search_limits(&self, caps: &Limits, style: &Style) -> SearchLimits<'static> {
        let time_ms = match (self.max_time_ms, style.level) {
            (None, Some(_)) => Some(caps.ai_max_time_ms),
            (asked, _) => asked,
        };
        caps.search_limits(time_ms, self.max_depth, self.max_nodes)
    }

    /// The time limit the request sets its search, if time governs it:
    /// the time it asks, or the server's default time when it asks no
    /// limit and no level. Any other time that stops a search (the
    /// server's cap lowering the time asked or guarding a search governed
    /// by depth, positions or a level; a batch's share) cuts it.
    pub fn own_time(&self, caps: &Limits, style: &Style) -> Option<Duration> {
        let ms = match self.max_time_ms {
            Some(ms) => ms,
            None if self.max_depth.is_none()
                && self.max_nodes.is_none()
                && style.level.is_none() =>
            {
                caps.ai_default_time_ms.min(caps.ai_max_time_ms)
            }
            None => return None,
        };
        Some(Duration::from_millis(ms.max(1)))
    }
}

/// An `ai-move` request, decoded: the state, what the AI is asked, the
/// limits the request asks, the seed and the style (level, lines).
pub struct AiRequest<G: Game> {
    pub state: G::State,
    pub question: G::Question,
    pub asked: AskedLimits,
    pub seed: u64,
    pub style: Style,
}

impl<G: Game> AiRequest<G> {
    /// The request to search `state` for `question` at full strength for
    /// one line; no limits asked is the server's defaults, no seed is 0.
    pub fn new(
        state: G::State,
        question: G::Question,
        asked: Option<AskedLimits>,
        seed: Option<u64>,
    ) -> AiRequest<G> {
        AiRequest {
            state,
            question,
            asked: asked.unwrap_or_default(),
            seed: seed.unwrap_or(0),
            style: Style::FULL,
        }
    }

    /// The same request, played at the `level` and reporting the
    /// `multipv` best moves the request asks for.
    pub fn styled(
        self,
        level: Option<u32>,
        multipv: Option<u32>,
    ) -> Result<AiRequest<G>, RequestError> {
        Ok(AiRequest {
            style: style(level, multipv)?,
            ..self
        })
    }
}

/// What a game's AI suggests, as [`Suggested`] answers it: the work its
/// search did (positions or simulated rounds), for the metrics, and
/// whether the suggestion shows its search ended within `limits`
/// (unknown, false, unless the game's says).
pub trait Work {
    fn work(&self) -> u64;

    fn ended_within(&self, _limits: &SearchLimits) -> bool {
        false
    }
}

/// An `ai-move` answer: the game's suggestion `T`, then the bookkeeping
/// the flow fills in. The document shows it as `T`'s schema (and name)
/// with the two fields added.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Suggested<T> {
    #[serde(flatten)]
    pub suggestion: T,
    /// Search time, milliseconds (of the original search when `cached`).
    pub time_ms: u64,
    /// Whether the answer came from the cache.
    pub cached: bool,
    /// Whether a limit the request did not set stopped the search: the
    /// server's caps or a batch's share of its time (never cached).
    pub cut: bool,
}

impl<T> Suggested<T> {
    /// The answer of a search just made: `time_ms` and `cached` are the
    /// flow's.
    pub fn new(suggestion: T) -> Suggested<T> {
        Suggested {
            suggestion,
            time_ms: 0,
            cached: false,
            cut: false,
        }
    }
}

/// The fields the flow adds to a suggestion, as the document shows them.
#[derive(ToSchema)]
#[allow(dead_code)] // (its schema only: `Suggested` writes them)
struct Bookkeeping {
    /// Search time, milliseconds (of the original search when `cached`).
    time_ms: u64,
    /// Whether the answer came from the cache.
    cached: bool,
    #[doc = "Whether a limit the request did not set stopped the search before the \
limits it set were reached: the server's time or node cap, or a batch's share of its time. A cut \
answer may differ from the same request's on a quieter server, and is never cached."]
    cut: bool,
}

impl<T: ToSchema> PartialSchema for Suggested<T> {
    fn schema() -> RefOr<Schema> {
        let mut schema = T::schema();
        if let (RefOr::T(Schema::Object(object)), RefOr::T(Schema::Object(added))) =
            (&mut schema, Bookkeeping::schema())
        {
            object.properties.extend(added.properties);
            object.required.extend(added.required);
        }
        schema
    }
}

impl<T: ToSchema> ToSchema for Suggested<T> {
    fn name() -> Cow<'static, str> {
        T::name()
    }

    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        T::schemas(schemas);
    }
}

/// An `ai-move` answer whose move the request asked to `play`: the answer
/// as ever, and `applied`, exactly what `apply` answers for the move (for
/// a simultaneous game, for the round it makes with the other player's
/// step the request gave). The document shows it as the answer's schema
/// (and name) with `applied` added, present only when asked.
#[derive(Debug, Serialize)]
pub struct Played<R, A> {
    #[serde(flatten)]
    pub answer: R,
    pub applied: A,
}

/// What `applied` says, in the document.
pub const APPLIED: &str = "Exactly what `apply` answers for the move (in a simultaneous game, for \
the round it makes with the other player's step the request gave), so a site plays the AI's turn \
in one call; absent unless the request asked to `play`.";

impl<R: ToSchema, A: ToSchema> PartialSchema for Played<R, A> {
    fn schema() -> RefOr<Schema> {
        let mut schema = R::schema();
        if let RefOr::T(Schema::Object(object)) = &mut schema {
            let applied = utoipa::openapi::schema::AllOfBuilder::new()
                .item(utoipa::openapi::Ref::from_schema_name(A::name()))
                .description(Some(APPLIED))
                .build();
            object
                .properties
                .insert("applied".to_owned(), RefOr::T(Schema::AllOf(applied)));
        }
        schema
    }
}

impl<R: ToSchema, A: ToSchema> ToSchema for Played<R, A> {
    fn name() -> Cow<'static, str> {
        R::name()
    }

    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        R::schemas(schemas);
        schemas.push((A::name().into_owned(), A::schema()));
        A::schemas(schemas);
    }
}

/// `ai-move` without `play`: none of the fields only `play` reads may be
/// given (`given`: each field's name and whether the request has it).
pub fn refuse_without_play(given: &[(&'static str, bool)]) -> Result<(), RequestError> {
    match given.iter().find(|(_, present)| *present) {
        Some(&(field, _)) => Err(RequestError::bad_request(
            Text::new("request-play-only").with("field", field),
            Some(field),
        )),
        None => Ok(()),
    }
}

/// `ai-move` with `play` in a simultaneous game, without the other
/// player's step in `field` (or with the AI's own, which it decides).
pub fn other_step_needed(field: &str, player: &str) -> RequestError {
    RequestError::bad_request(
        Text::new("request-play-other")
            .with("field", field)
            .with("player", player),
        Some(field),
    )
}
