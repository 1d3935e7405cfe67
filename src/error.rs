//! The domain's errors, for every game: what a request is refused for
//! by the rules and the service's core (notations, invariants, rules,
//! limits, quotas and keys, busy slots), one typed error with its stable
//! machine code and title. HTTP's own refusals (404, 405, 408, 413, 415,
//! 417 and the statuses other layers answer) are the HTTP layer's
//! (`api::transport::http_error`), which wraps this one and maps both
//! once to statuses, headers and an RFC 9457 problem document
//! (`api::transport::problem`). No HTTP library type is used here; the
//! shared pieces (limits, quotas, caches) and the per-game codecs only
//! build it.

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

/// What the rules and the service's core refuse a request for. Its human
/// text (the problem's `detail`) is written from the catalogues
/// ([`RequestError::detail`]), English included: a variant carries the
/// facts, never a sentence.
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
    Json { text: Text, field: Option<String> },
    /// A query string the operation does not take (a `request-query-…`
    /// text).
    BadQuery { text: Text, field: Option<String> },
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
    InvalidPosition { text: Text, field: String },
    /// A well-formed move that a rule refuses (422).
    Refused(Box<Refusal>),
    /// The request asks for more work (or a larger answer) than the
    /// server allows.
    /// What it asks for and the limit, as a text of the catalogues (a
    /// `limit-…` message with its numbers), so that every language says
    /// both.
    LimitExceeded { text: Text, field: Option<String> },
    /// API keys are configured and the request has none, or an unknown one
    /// (401).
    Unauthorized { known: KeyPresented },
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
    Busy { retry_after_secs: u64 },
    /// The bytes in flight (bodies, answers) have no room for this
    /// request's body or answer (503, with Retry-After).
    NoRoom,
    /// A review ran past the server's time cap (`cap_ms`) before it was
    /// done (503, with Retry-After): the server's time, not the client's
    /// fault; the verdicts it found are kept, so a retry goes further.
    ReviewUnfinished { cap_ms: u64 },
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
            | RequestError::LimitExceeded { text, .. } => said(text),
            RequestError::Refused(refusal) => refusal.detail(lang),
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
            RequestError::Unauthorized { .. } => "UNAUTHORIZED",
            RequestError::TooManyRequests { .. } => "TOO_MANY_REQUESTS",
            RequestError::Busy { .. }
            | RequestError::NoRoom
            | RequestError::ReviewUnfinished { .. } => "SERVICE_BUSY",
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
