//! Everything a request can fail with, for every game: one typed error,
//! with its stable machine code and title. Its variants are what a request
//! is refused for, from the rules to the transport: notations, invariants,
//! rules, limits, quotas and keys, busy slots, and the transport's refusals
//! (wrong method, body too slow, too large or not JSON, and the statuses
//! other layers answer, kept as their numbers). No HTTP library type is
//! used here: the HTTP layer maps it once to statuses, headers and an RFC
//! 9457 problem document (`api::transport::problem`); the shared pieces
//! (limits, quotas, caches) and the per-game codecs only build it.

use thiserror::Error;

use crate::i18n::{self, Lang};
use crate::text::Text;

/// A notation's text that does not parse (400): which notation, so the
/// problem's `code` (and with it its `title`) says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotationKind {
    /// `BAD_POSITION`, `BAD_LAYOUT`, `BAD_MOVE_NOTATION`, …
    pub code: &'static str,
}

/// A well-formed request that a rule refuses (422): an illegal move, pick
/// or order, or any of them in a finished game (`GAME_OVER`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The rule's stable code, e.g. `PATH_BLOCKED`, `END_OF_TRACK`.
    pub code: &'static str,
    /// What went wrong in this request.
    pub detail: String,
    /// The request field at fault (`move`, `moves`, `orders`, `moves[3]`).
    pub field: String,
    /// In a simultaneous game: the player whose move was refused.
    pub player: Option<String>,
    /// Where the move failed, when the rule names a square.
    pub square: Option<String>,
    /// In Tank Wars: the vehicle whose order was refused.
    pub vehicle: Option<String>,
    /// In a replay: the 0-based index of the refused step.
    pub ply: Option<usize>,
}

impl Refusal {
    /// A refusal of `field` by the rule `code`, with no player, square or
    /// ply.
    pub fn new(code: &'static str, detail: String, field: &str) -> Refusal {
        Refusal {
            code,
            detail,
            field: field.to_owned(),
            player: None,
            square: None,
            vehicle: None,
            ply: None,
        }
    }

    /// The same refusal naming the player whose move it is.
    pub fn by(self, player: Option<impl ToString>) -> Refusal {
        Refusal {
            player: player.map(|p| p.to_string()),
            ..self
        }
    }

    /// The same refusal naming the square where the move failed.
    pub fn at_square(self, square: Option<impl ToString>) -> Refusal {
        Refusal {
            square: square.map(|s| s.to_string()),
            ..self
        }
    }

    /// The same refusal naming the vehicle whose order it is.
    pub fn for_vehicle(self, vehicle: Option<String>) -> Refusal {
        Refusal { vehicle, ..self }
    }

    /// The same refusal at step `ply` of a replay.
    pub fn at_ply(self, ply: Option<usize>) -> Refusal {
        Refusal { ply, ..self }
    }
}

/// How much of an unknown path a 404 quotes back.
pub const QUOTED_PATH_CHARS: usize = 200;

/// Everything a request can fail with.
#[derive(Debug, Error)]
pub enum RequestError {
    /// The body (or a query) is not JSON of the expected shape.
    #[error("{detail}")]
    BadRequest {
        detail: String,
        field: Option<String>,
    },
    /// A JSON document (a body, a query parameter, a batch's request)
    /// that is not of the operation's shape: the fault as serde_json
    /// classifies it, a text of the catalogues (`json-…`) with where it is
    /// and what came, so that every language says as much.
    #[error("{}", i18n::write(Lang::En, text))]
    Json { text: Text, field: Option<String> },
    /// A query string the operation does not take.
    #[error("{detail}")]
    BadQuery {
        detail: String,
        field: Option<String>,
    },
    /// Text that does not follow a notation: its fault as a text of the
    /// catalogues (`notation-…`, with the facts it names).
    #[error("{}", i18n::write(Lang::En, text))]
    Notation {
        kind: NotationKind,
        text: Text,
        field: String,
        ply: Option<usize>,
    },
    /// A well-formed position or state that breaks an invariant: which,
    /// as a text of the catalogues (`invalid-<game>-…` with the facts that
    /// say where).
    #[error("{}", i18n::write(Lang::En, text))]
    InvalidPosition { text: Text, field: String },
    /// A well-formed move that a rule refuses (422).
    #[error("{}", .0.detail)]
    Refused(Box<Refusal>),
    /// The request asks for more work (or a larger answer) than the
    /// server allows.
    /// What it asks for and the limit, as a text of the catalogues (a
    /// `limit-…` message with its numbers), so that every language says
    /// both.
    #[error("{}", i18n::write(Lang::En, text))]
    LimitExceeded { text: Text, field: Option<String> },
    /// The client stopped sending its body before the deadline (408; the
    /// connection is closed).
    #[error("the request body did not arrive within {secs} s")]
    BodyTimeout { secs: f64 },
    /// API keys are configured and the request has none, or an unknown one
    /// (401).
    #[error("{detail}")]
    Unauthorized { detail: String },
    /// The client is over a quota (429): the policy it broke (its name,
    /// `class`, and its quota a minute), what the request costs in it, and
    /// when to retry (when the quota holds the price again).
    #[error("over the quota of {quota} {class} a minute (this request costs {price}); retry in {retry_after_secs} s")]
    TooManyRequests {
        class: &'static str,
        quota: u32,
        price: u32,
        retry_after_secs: u64,
    },
    /// The request costs more than the client's whole quota a minute, so
    /// no wait would let it through (400 `LIMIT_EXCEEDED`): the policy
    /// and the price.
    #[error("this request costs {price} {class}, more than the whole quota of {quota} {class} a minute; it can never pass under this policy")]
    Unaffordable {
        class: &'static str,
        quota: u32,
        price: u32,
    },
    /// Every slot for expensive work is taken (503, with Retry-After).
    #[error("the server is busy with other searches; retry in {retry_after_secs} s")]
    Busy { retry_after_secs: u64 },
    #[error("the body is larger than the limit of {limit} bytes")]
    PayloadTooLarge { limit: usize },
    /// An `Expect` the server cannot meet (417): anything but
    /// `100-continue`.
    #[error("{detail}")]
    ExpectationFailed { detail: String },
    #[error("the body must be JSON, sent with `Content-Type: application/json`")]
    UnsupportedMediaType,
    /// A body sent compressed (`Content-Encoding` other than `identity`).
    #[error("the body must be sent as is: `Content-Encoding` {0:?} is not accepted")]
    UnsupportedEncoding(String),
    #[error("no such resource: {path}")]
    NotFound { path: String },
    #[error("{method} is not allowed here; allowed: {allow}")]
    MethodNotAllowed { method: String, allow: String },
    /// An error answer another layer made (the router, Swagger UI, CORS),
    /// by its status: the same status as a problem document.
    #[error("{detail}")]
    Status { status: u16, detail: String },
    /// A failure of the server itself; never caused by input.
    #[error("internal error: {0}")]
    Internal(String),
}

impl RequestError {
    pub fn bad_request(detail: impl Into<String>, field: Option<String>) -> RequestError {
        RequestError::BadRequest {
            detail: detail.into(),
            field,
        }
    }

    pub fn invalid_position(text: Text, field: &str) -> RequestError {
        RequestError::InvalidPosition {
            text,
            field: field.to_owned(),
        }
    }

    /// No resource at `path`, quoted to at most [`QUOTED_PATH_CHARS`]
    /// characters (then `…`): a refusal is never larger than what it
    /// refuses needs.
    pub fn not_found(path: &str) -> RequestError {
        let path = match path.char_indices().nth(QUOTED_PATH_CHARS) {
            Some((end, _)) => format!("{}…", &path[..end]),
            None => path.to_owned(),
        };
        RequestError::NotFound { path }
    }

    pub fn limit_exceeded(text: Text, field: &str) -> RequestError {
        RequestError::LimitExceeded {
            text,
            field: (!field.is_empty()).then(|| field.to_owned()),
        }
    }

    /// The stable machine code.
    pub fn code(&self) -> &'static str {
        match self {
            RequestError::BadRequest { .. }
            | RequestError::BadQuery { .. }
            | RequestError::Json { .. } => "BAD_REQUEST",
            RequestError::Notation { kind, .. } => kind.code,
            RequestError::InvalidPosition { .. } => "INVALID_POSITION",
            RequestError::Refused(refusal) => refusal.code,
            RequestError::LimitExceeded { .. } | RequestError::Unaffordable { .. } => {
                "LIMIT_EXCEEDED"
            }
            RequestError::BodyTimeout { .. } => "REQUEST_TIMEOUT",
            RequestError::Unauthorized { .. } => "UNAUTHORIZED",
            RequestError::TooManyRequests { .. } => "TOO_MANY_REQUESTS",
            RequestError::Busy { .. } => "SERVICE_BUSY",
            RequestError::PayloadTooLarge { .. } => "PAYLOAD_TOO_LARGE",
            RequestError::ExpectationFailed { .. } => "EXPECTATION_FAILED",
            RequestError::UnsupportedMediaType | RequestError::UnsupportedEncoding(_) => {
                "UNSUPPORTED_MEDIA_TYPE"
            }
            RequestError::NotFound { .. } => "NOT_FOUND",
            RequestError::MethodNotAllowed { .. } => "METHOD_NOT_ALLOWED",
            RequestError::Status { status, .. } => status_code(*status),
            RequestError::Internal(_) => "INTERNAL",
        }
    }

    /// A short summary of the problem type, the same for every occurrence
    /// of its code: the English catalogue's `title-{code}` (`src/i18n`,
    /// which the Czech answer's title comes from too). A code no catalogue
    /// knows (a game served in tests only) gets its kind's.
    pub fn title(&self) -> &'static str {
        crate::i18n::title(crate::i18n::Lang::En, self.code()).unwrap_or(match self {
            RequestError::Notation { .. } => "Notation is malformed",
            RequestError::Refused(_) => "Refused by the rules",
            _ => "Request refused",
        })
    }
}

impl From<Refusal> for RequestError {
    fn from(refusal: Refusal) -> RequestError {
        RequestError::Refused(Box::new(refusal))
    }
}

/// Every code the service's own problems carry, whatever the game: the
/// codes of [`RequestError`] but for notations and refusals (each game
/// lists its own), and those of the statuses made outside the application.
pub const SERVICE_CODES: &[&str] = &[
    "BAD_REQUEST",
    "INVALID_POSITION",
    "LIMIT_EXCEEDED",
    "UNAUTHORIZED",
    "FORBIDDEN",
    "NOT_FOUND",
    "METHOD_NOT_ALLOWED",
    "NOT_ACCEPTABLE",
    "REQUEST_TIMEOUT",
    "LENGTH_REQUIRED",
    "PAYLOAD_TOO_LARGE",
    "URI_TOO_LONG",
    "UNSUPPORTED_MEDIA_TYPE",
    "EXPECTATION_FAILED",
    "TOO_MANY_REQUESTS",
    "HEADERS_TOO_LARGE",
    "SERVICE_BUSY",
    "INTERNAL",
];

/// The code of an error status made outside the application.
fn status_code(status: u16) -> &'static str {
    match status {
        401 => "UNAUTHORIZED",
        403 => "FORBIDDEN",
        404 => "NOT_FOUND",
        405 => "METHOD_NOT_ALLOWED",
        406 => "NOT_ACCEPTABLE",
        408 => "REQUEST_TIMEOUT",
        411 => "LENGTH_REQUIRED",
        413 => "PAYLOAD_TOO_LARGE",
        414 => "URI_TOO_LONG",
        415 => "UNSUPPORTED_MEDIA_TYPE",
        417 => "EXPECTATION_FAILED",
        429 => "TOO_MANY_REQUESTS",
        431 => "HEADERS_TOO_LARGE",
        503 => "SERVICE_BUSY",
        400..=499 => "BAD_REQUEST",
        _ => "INTERNAL",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_service_code_is_listed() {
        let made = [
            RequestError::bad_request("x", None),
            RequestError::BadQuery {
                detail: "x".into(),
                field: None,
            },
            RequestError::invalid_position(Text::new("invalid-nim-pile"), "position"),
            RequestError::limit_exceeded(Text::new("limit-tanks"), ""),
            RequestError::BodyTimeout { secs: 5.0 },
            RequestError::Unauthorized { detail: "x".into() },
            RequestError::TooManyRequests {
                class: "requests",
                quota: 1,
                price: 1,
                retry_after_secs: 1,
            },
            RequestError::Unaffordable {
                class: "searches",
                quota: 2,
                price: 6,
            },
            RequestError::Busy {
                retry_after_secs: 1,
            },
            RequestError::PayloadTooLarge { limit: 1 },
            RequestError::ExpectationFailed { detail: "x".into() },
            RequestError::UnsupportedMediaType,
            RequestError::UnsupportedEncoding("gzip".into()),
            RequestError::NotFound { path: "/x".into() },
            RequestError::MethodNotAllowed {
                method: "PUT".into(),
                allow: "GET".into(),
            },
            RequestError::Internal("x".into()),
        ];
        let statuses = (400..600).map(|status| RequestError::Status {
            status,
            detail: String::new(),
        });
        for error in made.into_iter().chain(statuses) {
            assert!(SERVICE_CODES.contains(&error.code()), "{}", error.code());
            // Its title is its code's, from the catalogue.
            let catalogue = crate::i18n::title(crate::i18n::Lang::En, error.code());
            assert_eq!(Some(error.title()), catalogue, "{}", error.code());
        }
    }

    /// A 404 quotes a long path only in part, on a character boundary.
    #[test]
    fn a_404_quotes_at_most_a_few_hundred_characters_of_its_path() {
        let long = format!("/v1/{}", "é".repeat(20_000));
        let RequestError::NotFound { path } = RequestError::not_found(&long) else {
            panic!("not a 404");
        };
        assert_eq!(path.chars().count(), QUOTED_PATH_CHARS + 1);
        assert!(path.starts_with("/v1/é") && path.ends_with('…'));
        let RequestError::NotFound { path } = RequestError::not_found("/v1/x") else {
            panic!("not a 404");
        };
        assert_eq!(path, "/v1/x");
    }
}
