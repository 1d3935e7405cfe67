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
/// or order, or any of them in a finished game (`GAME_OVER`). Its facts
/// only: the detail is the rule's reason from the catalogues
/// ([`RequestError::detail`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The rule's stable code, e.g. `PATH_BLOCKED`, `END_OF_TRACK`.
    pub code: &'static str,
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
    pub fn new(code: &'static str, field: &str) -> Refusal {
        Refusal {
            code,
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

/// The rule reason `code` in `lang`, from the catalogue, at its `square`
/// when it names one; a code the catalogue does not know (a game served
/// in tests only) as the code.
pub fn rule_reason(lang: Lang, code: &str, square: Option<&str>) -> String {
    let Some(rule) = i18n::reason(lang, code) else {
        return code.to_owned();
    };
    let at = square.and_then(|square| {
        i18n::text(
            lang,
            "refused-at-square",
            &[("reason", rule), ("square", square)],
        )
    });
    at.unwrap_or_else(|| rule.to_owned())
}

/// How much of an unknown path a 404 quotes back.
pub const QUOTED_PATH_CHARS: usize = 200;

/// Everything a request can fail with. Its human text (the problem's
/// `detail`) is written from the catalogues ([`RequestError::detail`]),
/// English included: a variant carries the facts, never a sentence.
#[derive(Debug, Error)]
pub enum RequestError {
    /// A request of the wrong shape that serde does not see (a pick
    /// missing, a number out of its range, a batch item that is no
    /// object or breaks its schema): a `request-…` text with the facts,
    /// and, in a batch, the item's index.
    BadRequest {
        text: Text,
        field: Option<String>,
        item: Option<usize>,
    },
    /// A JSON document (a body, a query parameter, a batch's request)
    /// that is not of the operation's shape: the fault as serde_json
    /// classifies it, a text of the catalogues (`json-…`) with where it is
    /// and what came, so that every language says as much.
    Json {
        text: Text,
        field: Option<String>,
    },
    /// A query string the operation does not take (a `request-query-…`
    /// text).
    BadQuery {
        text: Text,
        field: Option<String>,
    },
    /// Text that does not follow a notation: its fault as a text of the
    /// catalogues (`notation-…`, with the facts it names).
    Notation {
        kind: NotationKind,
        text: Text,
        field: String,
        ply: Option<usize>,
    },
    /// A well-formed position or state that breaks an invariant: which,
    /// as a text of the catalogues (`invalid-<game>-…` with the facts that
    /// say where).
    InvalidPosition {
        text: Text,
        field: String,
    },
    /// A well-formed move that a rule refuses (422).
    Refused(Box<Refusal>),
    /// The request asks for more work (or a larger answer) than the
    /// server allows.
    /// What it asks for and the limit, as a text of the catalogues (a
    /// `limit-…` message with its numbers), so that every language says
    /// both.
    LimitExceeded {
        text: Text,
        field: Option<String>,
    },
    /// The client stopped sending its body before the deadline (408; the
    /// connection is closed).
    BodyTimeout {
        secs: f64,
    },
    /// API keys are configured and the request has none, or an unknown one
    /// (401).
    Unauthorized {
        known: KeyPresented,
    },
    /// The client is over a quota (429): the policy it broke (its name,
    /// `class`, and its quota a minute), what the request costs in it, and
    /// when to retry (when the quota holds the price again).
    TooManyRequests {
        class: &'static str,
        quota: u32,
        price: u32,
        retry_after_secs: u64,
    },
    /// The request costs more than the client's whole quota a minute, so
    /// no wait would let it through (400 `LIMIT_EXCEEDED`): the policy
    /// and the price.
    Unaffordable {
        class: &'static str,
        quota: u32,
        price: u32,
    },
    /// Every slot for expensive work is taken (503, with Retry-After).
    Busy {
        retry_after_secs: u64,
    },
    /// The bytes in flight (bodies, answers) have no room for this
    /// request's body or answer (503, with Retry-After).
    NoRoom,
    /// A review ran past the server's time cap (`cap_ms`) before it was
    /// done (503, with Retry-After): the server's time, not the client's
    /// fault; the verdicts it found are kept, so a retry goes further.
    ReviewUnfinished {
        cap_ms: u64,
    },
    PayloadTooLarge {
        limit: usize,
    },
    /// An `Expect` the server cannot meet (417): anything but
    /// `100-continue`; what it asked, quoted in part.
    ExpectationFailed {
        expect: String,
    },
    UnsupportedMediaType,
    /// A body sent compressed (`Content-Encoding` other than `identity`).
    UnsupportedEncoding(String),
    NotFound {
        path: String,
    },
    MethodNotAllowed {
        method: String,
        allow: String,
    },
    /// An error answer made outside the routes (hygiene, actix's own
    /// answers, CORS), by its status: the same status as a
    /// problem document, its text a `detail-…` of the catalogues.
    Status {
        status: u16,
        text: Text,
    },
    /// A failure of the server itself; never caused by input.
    Internal(String),
}

/// Which API key a request refused 401 presented.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyPresented {
    /// None: the service asks for one.
    None,
    /// One the service does not know.
    Unknown,
}

impl std::fmt::Display for RequestError {
    /// The detail in English, from its catalogue.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.detail(Lang::En))
    }
}

impl Refusal {
    /// The detail in `lang`: the rule's reason from the catalogue, at its
    /// square when it names one, else by its player (and vehicle) in a
    /// simultaneous game; a code the catalogue does not know (a game
    /// served in tests only) as the code.
    pub fn detail(&self, lang: Lang) -> String {
        let Some(rule) = i18n::reason(lang, self.code) else {
            return self.code.to_owned();
        };
        let written = match (&self.square, &self.player, &self.vehicle) {
            (Some(square), ..) => return rule_reason(lang, self.code, Some(square)),
            (None, Some(player), Some(vehicle)) => i18n::text(
                lang,
                "refused-vehicle",
                &[("reason", rule), ("player", player), ("vehicle", vehicle)],
            ),
            (None, Some(player), None) => i18n::text(
                lang,
                "refused-by-player",
                &[("reason", rule), ("player", player)],
            ),
            (None, None, _) => None,
        };
        written.unwrap_or_else(|| rule.to_owned())
    }
}

impl RequestError {
    /// A request of the wrong shape, as `text` says, at `field`.
    pub fn bad_request(text: Text, field: Option<&str>) -> RequestError {
        RequestError::BadRequest {
            text,
            field: field.map(str::to_owned),
            item: None,
        }
    }

    /// A query the operation does not take, as `text` says, at `field`.
    pub fn bad_query(text: Text, field: Option<&str>) -> RequestError {
        RequestError::BadQuery {
            text,
            field: field.map(str::to_owned),
        }
    }

    /// An error answer made outside the routes: `status`, as `text`
    /// says.
    pub fn status(status: u16, text: Text) -> RequestError {
        RequestError::Status { status, text }
    }

    /// An error answer another layer made (actix's own, CORS): its
    /// status, and what it `said` (quoted in English, in its
    /// own words; another language says its code's sentence).
    pub fn other_layer(status: u16, said: String) -> RequestError {
        let text = Text::new("detail-other-layer")
            .with("code", status_code(status))
            .with("said", said);
        RequestError::Status { status, text }
    }

    /// The problem's detail in `lang`, from that language's catalogue,
    /// with the facts the error names (for a refused move, the text its
    /// game wrote: the problem writer says its rule from the catalogue).
    pub fn detail(&self, lang: Lang) -> String {
        let said = |text: &Text| i18n::write(lang, text);
        match self {
            RequestError::BadRequest {
                text,
                item: Some(index),
                ..
            } => said(
                &Text::new("request-in-batch")
                    .with("index", *index)
                    .with("detail", said(text)),
            ),
            RequestError::BadRequest { text, .. }
            | RequestError::BadQuery { text, .. }
            | RequestError::Json { text, .. }
            | RequestError::Notation { text, .. }
            | RequestError::InvalidPosition { text, .. }
            | RequestError::LimitExceeded { text, .. }
            | RequestError::Status { text, .. } => said(text),
            RequestError::Refused(refusal) => refusal.detail(lang),
            RequestError::BodyTimeout { secs } => {
                said(&Text::new("detail-body-timeout").with("secs", *secs))
            }
            RequestError::Unauthorized { known } => said(&Text::new(match known {
                KeyPresented::None => "detail-key-missing",
                KeyPresented::Unknown => "detail-key-unknown",
            })),
            RequestError::TooManyRequests {
                class,
                quota,
                price,
                retry_after_secs,
            } => said(
                &Text::new("detail-quota")
                    .with("policy", *class)
                    .with("quota", *quota)
                    .with("price", *price)
                    .with("retry", *retry_after_secs),
            ),
            RequestError::Unaffordable {
                class,
                quota,
                price,
            } => said(
                &Text::new("detail-unaffordable")
                    .with("policy", *class)
                    .with("quota", *quota)
                    .with("price", *price),
            ),
            RequestError::Busy { retry_after_secs } => {
                said(&Text::new("detail-busy").with("retry", *retry_after_secs))
            }
            RequestError::NoRoom => said(&Text::new("detail-no-room").with("retry", 1)),
            RequestError::ReviewUnfinished { cap_ms } => said(
                &Text::new("detail-review-unfinished")
                    .with("cap", *cap_ms)
                    .with("retry", 1),
            ),
            RequestError::PayloadTooLarge { limit } => {
                said(&Text::new("detail-body-too-large").with("max", *limit))
            }
            RequestError::ExpectationFailed { expect } => {
                said(&Text::new("detail-expectation").with("expect", expect))
            }
            RequestError::UnsupportedMediaType => said(&Text::new("detail-media-type")),
            RequestError::UnsupportedEncoding(encoding) => {
                said(&Text::new("detail-encoding").with("encoding", format!("{encoding:?}")))
            }
            RequestError::NotFound { path } => {
                said(&Text::new("detail-not-found").with("path", path))
            }
            RequestError::MethodNotAllowed { method, allow } => said(
                &Text::new("detail-method")
                    .with("method", method)
                    .with("allow", allow),
            ),
            RequestError::Internal(error) => {
                said(&Text::new("detail-internal").with("error", error))
            }
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
            RequestError::Busy { .. }
            | RequestError::NoRoom
            | RequestError::ReviewUnfinished { .. } => "SERVICE_BUSY",
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

impl From<crate::memory::NoRoom> for RequestError {
    fn from(_: crate::memory::NoRoom) -> RequestError {
        RequestError::NoRoom
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
    "UNSUPPORTED_MEDIA_TYPE",
    "EXPECTATION_FAILED",
    "TOO_MANY_REQUESTS",
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
        415 => "UNSUPPORTED_MEDIA_TYPE",
        417 => "EXPECTATION_FAILED",
        429 => "TOO_MANY_REQUESTS",
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
            RequestError::bad_request(Text::new("request-no-picks"), None),
            RequestError::bad_query(Text::new("request-query-string"), None),
            RequestError::invalid_position(Text::new("invalid-nim-pile"), "position"),
            RequestError::limit_exceeded(Text::new("limit-tanks"), ""),
            RequestError::BodyTimeout { secs: 5.0 },
            RequestError::Unauthorized {
                known: KeyPresented::None,
            },
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
            RequestError::NoRoom,
            RequestError::ReviewUnfinished { cap_ms: 30_000 },
            RequestError::PayloadTooLarge { limit: 1 },
            RequestError::ExpectationFailed { expect: "x".into() },
            RequestError::UnsupportedMediaType,
            RequestError::UnsupportedEncoding("gzip".into()),
            RequestError::NotFound { path: "/x".into() },
            RequestError::MethodNotAllowed {
                method: "PUT".into(),
                allow: "GET".into(),
            },
            RequestError::Internal("x".into()),
        ];
        let statuses = (400..600).map(|status| RequestError::other_layer(status, "x".into()));
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

    /// The English details of the refusals an HTTP test cannot make (the
    /// connection's and the server's own), as they were before they were
    /// written from the catalogue; and every one in Czech from its own.
    #[test]
    fn details_the_connection_writes_are_as_they_were() {
        let cases = [
            (
                RequestError::BodyTimeout { secs: 5.0 },
                "the request body did not arrive within 5 s",
            ),
            (
                RequestError::BodyTimeout { secs: 0.25 },
                "the request body did not arrive within 0.25 s",
            ),
            (
                RequestError::bad_request(
                    Text::new("request-body-read").with("error", "connection reset"),
                    None,
                ),
                "reading the body failed: connection reset",
            ),
            (
                RequestError::bad_request(
                    Text::new("request-path").with("error", "cannot parse"),
                    None,
                ),
                "path: cannot parse",
            ),
            (
                RequestError::Internal("search worker failed: gone".into()),
                "internal error: search worker failed: gone",
            ),
        ];
        for (error, english) in cases {
            assert_eq!(error.to_string(), english);
            let czech = error.detail(Lang::Cs);
            assert_ne!(czech, english);
            assert!(!czech.starts_with("detail-") && !czech.starts_with("request-"));
        }
    }
}
