//! Errors of the HTTP layer, mapped once to RFC 9457
//! `application/problem+json` with a stable machine `code`.

use actix_web::http::{header, StatusCode};
use actix_web::{HttpResponse, ResponseError};
use serde::Serialize;
use thiserror::Error;
use utoipa::ToSchema;

use crate::games::tank_battle::{IllegalMove, Notation, ParseError};
use crate::games::tank_war::{PickError, Player};

/// An RFC 9457 problem document, served as `application/problem+json`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({
    "type": "urn:tank-rules:problem:bad-position",
    "title": "Position notation is malformed",
    "status": 400,
    "detail": "rank 1 covers 10 squares, expected 11",
    "code": "BAD_POSITION",
    "field": "position"
}))]
pub struct Problem {
    /// URI naming the problem type: `urn:tank-rules:problem:` and the code
    /// in kebab case.
    #[serde(rename = "type")]
    pub type_uri: String,
    /// Short summary of the problem type; the same for every occurrence.
    pub title: String,
    /// HTTP status code.
    pub status: u16,
    /// What went wrong in this request.
    pub detail: String,
    /// Stable machine code in SCREAMING_SNAKE_CASE, e.g. `BAD_POSITION`,
    /// `INVALID_POSITION`, `PATH_BLOCKED`, `GAME_OVER`.
    pub code: String,
    /// For `replay`: 0-based index into `moves` of the move that failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ply: Option<usize>,
    /// For a simultaneous-move game: the player whose move failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub player: Option<String>,
    /// The request field the problem is about, e.g. `position`, `moves[3]`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// For a rule violation: the square where the move failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub square: Option<String>,
}

/// Everything a request can fail with.
#[derive(Debug, Error)]
pub enum ApiError {
    /// The body is not JSON of the expected shape.
    #[error("{detail}")]
    BadRequest {
        detail: String,
        field: Option<String>,
    },
    /// Text that does not follow a notation.
    #[error("{error}")]
    Notation {
        error: ParseError,
        field: String,
        ply: Option<usize>,
    },
    /// A well-formed position or state that breaks an invariant.
    #[error("{detail}")]
    InvalidPosition { detail: String, field: String },
    /// A well-formed move that breaks a rule (422).
    #[error("{error}")]
    IllegalMove {
        error: IllegalMove,
        ply: Option<usize>,
        field: String,
    },
    /// A simultaneous-move game's pick that breaks a rule (422).
    #[error("{player}: {error}")]
    IllegalPick {
        error: PickError,
        player: Player,
        ply: Option<usize>,
    },
    /// Tank Wars orders that break a rule (422); `code` is the
    /// engine's order code.
    #[error("{detail}")]
    IllegalOrder {
        code: &'static str,
        detail: String,
        player: Option<crate::games::cobi_tank_wars::Player>,
        ply: Option<usize>,
    },
    /// The request asks for more work than the server allows.
    #[error("{detail}")]
    LimitExceeded { detail: String, field: String },
    /// Every slot for expensive work is taken (503, with Retry-After).
    #[error("the server is busy with other searches; retry in {retry_after_secs} s")]
    Busy { retry_after_secs: u64 },
    #[error("the body is larger than the limit of {limit} bytes")]
    PayloadTooLarge { limit: usize },
    #[error("the body must be JSON, sent with `Content-Type: application/json`")]
    UnsupportedMediaType,
    #[error("no such resource: {path}")]
    NotFound { path: String },
    #[error("{method} is not allowed here; allowed: {allow}")]
    MethodNotAllowed { method: String, allow: String },
    /// A failure of the server itself; never caused by input.
    #[error("internal error: {0}")]
    Internal(String),
}

impl ApiError {
    pub fn bad_request(detail: impl Into<String>, field: Option<String>) -> ApiError {
        ApiError::BadRequest {
            detail: detail.into(),
            field,
        }
    }

    pub fn notation(error: ParseError, field: &str) -> ApiError {
        ApiError::Notation {
            error,
            field: field.to_owned(),
            ply: None,
        }
    }

    /// The stable machine code.
    pub fn code(&self) -> &'static str {
        match self {
            ApiError::BadRequest { .. } => "BAD_REQUEST",
            ApiError::Notation { error, .. } => match error.notation {
                Notation::Position => "BAD_POSITION",
                Notation::Layout => "BAD_LAYOUT",
                Notation::Move => "BAD_MOVE_NOTATION",
            },
            ApiError::InvalidPosition { .. } => "INVALID_POSITION",
            ApiError::IllegalMove { error, .. } => error.reason.code(),
            ApiError::IllegalPick { error, .. } => error.code(),
            ApiError::IllegalOrder { code, .. } => code,
            ApiError::LimitExceeded { .. } => "LIMIT_EXCEEDED",
            ApiError::Busy { .. } => "SERVICE_BUSY",
            ApiError::PayloadTooLarge { .. } => "PAYLOAD_TOO_LARGE",
            ApiError::UnsupportedMediaType => "UNSUPPORTED_MEDIA_TYPE",
            ApiError::NotFound { .. } => "NOT_FOUND",
            ApiError::MethodNotAllowed { .. } => "METHOD_NOT_ALLOWED",
            ApiError::Internal(_) => "INTERNAL",
        }
    }

    fn title(&self) -> &'static str {
        match self {
            ApiError::BadRequest { .. } => "Request body is not valid JSON of the expected shape",
            ApiError::Notation { error, .. } => match error.notation {
                Notation::Position => "Position notation is malformed",
                Notation::Layout => "Layout is malformed",
                Notation::Move => "Move notation is malformed",
            },
            ApiError::InvalidPosition { .. } => "Position breaks an invariant of the layout",
            ApiError::IllegalMove { error, .. } => error.reason.rule(),
            ApiError::IllegalPick { .. } => "Illegal pick",
            ApiError::IllegalOrder { .. } => "Illegal orders",
            ApiError::LimitExceeded { .. } => "Request exceeds a server limit",
            ApiError::Busy { .. } => "Service busy",
            ApiError::PayloadTooLarge { .. } => "Payload too large",
            ApiError::UnsupportedMediaType => "Unsupported media type",
            ApiError::NotFound { .. } => "Not found",
            ApiError::MethodNotAllowed { .. } => "Method not allowed",
            ApiError::Internal(_) => "Internal server error",
        }
    }

    /// The problem document for this error.
    pub fn problem(&self) -> Problem {
        let code = self.code();
        let player = match self {
            ApiError::IllegalPick { player, .. } => Some(player.to_string()),
            ApiError::IllegalOrder { player, .. } => player.map(|p| p.to_string()),
            _ => None,
        };
        let (ply, field, square) = match self {
            ApiError::BadRequest { field, .. } => (None, field.clone(), None),
            ApiError::IllegalPick { ply, .. } => (*ply, Some("moves".to_owned()), None),
            ApiError::IllegalOrder { ply, .. } => (*ply, Some("orders".to_owned()), None),
            ApiError::Notation { field, ply, .. } => (*ply, Some(field.clone()), None),
            ApiError::InvalidPosition { field, .. } | ApiError::LimitExceeded { field, .. } => {
                (None, Some(field.clone()), None)
            }
            ApiError::IllegalMove { error, ply, field } => (
                *ply,
                Some(field.clone()),
                error.square.map(|sq| sq.to_string()),
            ),
            _ => (None, None, None),
        };
        Problem {
            type_uri: format!(
                "urn:tank-rules:problem:{}",
                code.to_ascii_lowercase().replace('_', "-")
            ),
            title: self.title().to_owned(),
            status: self.status_code().as_u16(),
            detail: self.to_string(),
            code: code.to_owned(),
            ply,
            player,
            field,
            square,
        }
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        match self {
            ApiError::BadRequest { .. }
            | ApiError::Notation { .. }
            | ApiError::InvalidPosition { .. }
            | ApiError::LimitExceeded { .. } => StatusCode::BAD_REQUEST,
            ApiError::IllegalMove { .. }
            | ApiError::IllegalPick { .. }
            | ApiError::IllegalOrder { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::Busy { .. } => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::PayloadTooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::NotFound { .. } => StatusCode::NOT_FOUND,
            ApiError::MethodNotAllowed { .. } => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn error_response(&self) -> HttpResponse {
        let mut response = HttpResponse::build(self.status_code());
        response.content_type("application/problem+json");
        if let ApiError::MethodNotAllowed { allow, .. } = self {
            response.insert_header((header::ALLOW, allow.as_str()));
        }
        if let ApiError::Busy { retry_after_secs } = self {
            response.insert_header((header::RETRY_AFTER, retry_after_secs.to_string()));
        }
        if let ApiError::Internal(message) = self {
            tracing::error!(%message, "internal error");
        }
        response.json(self.problem())
    }
}

impl ApiError {
    /// Takes a slot for expensive work, waiting at most the configured
    /// time, or fails with 503.
    pub async fn take_slot(
        slots: &crate::limits::SearchSlots,
        limits: &crate::limits::Limits,
    ) -> Result<tokio::sync::OwnedSemaphorePermit, ApiError> {
        slots
            .take(std::time::Duration::from_millis(limits.search_wait_ms))
            .await
            .ok_or(ApiError::Busy {
                retry_after_secs: 1,
            })
    }
}
