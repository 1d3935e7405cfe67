//! Errors of the HTTP layer ([`HttpError`], the domain's among them),
//! mapped once to RFC 9457 `application/problem+json` with a stable
//! machine `code`.

use actix_web::body::BoxBody;
use actix_web::dev::ServiceResponse;
use actix_web::http::{header, StatusCode};
use actix_web::{HttpResponse, ResponseError};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

pub use super::http_error::HttpError;
use super::request_id::{Asked, RequestId};
use crate::i18n::Lang;

/// The media type of every error answer.
pub const CONTENT_TYPE: &str = "application/problem+json";

/// An RFC 9457 problem document, served as `application/problem+json`.
#[derive(Debug, Default, Serialize, Deserialize, ToSchema)]
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
    #[schema(schema_with = problem_code)]
    pub code: String,
    /// For `replay`: 0-based index into `moves` (or `rounds`) of the step
    /// that failed; absent elsewhere.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub ply: Option<usize>,
    /// For a simultaneous-move game: the player whose move failed; absent
    /// when the problem is no one player's.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub player: Option<String>,
    /// The request field the problem is about, e.g. `position`, `moves[3]`;
    /// absent when it is about no one field (a method, a path, a quota).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub field: Option<String>,
    /// For a rule violation: the square where the move failed; absent when
    /// the rule names no square.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub square: Option<String>,
    /// For a refused order in Tank Wars: the vehicle it was for; absent
    /// elsewhere.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false, example = "P1-2")]
    pub vehicle: Option<String>,
    /// For a request refused by a quota (429) or priced over a whole
    /// quota (400 `LIMIT_EXCEEDED`): the policy, as `RateLimit-Policy`
    /// names it (`requests`, `searches`, `failed key attempts`); absent
    /// elsewhere.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false, example = "searches")]
    pub policy: Option<String>,
    /// With `policy`: what the request costs in that policy's units (one
    /// search unit is one search at the server's AI time cap); absent
    /// elsewhere.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false, example = 6)]
    pub price: Option<u32>,
    /// The request's id, as its `X-Request-Id` header says: the occurrence
    /// of the problem, for tracing it in the server's logs. Every problem
    /// answer has it (added by the layers around the routes); absent in a
    /// batch's results, which are parts of one request.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub instance: Option<String>,
}

/// The `code` field's schema: a reference to `ProblemCode`, the list of
/// every code of the service and its games, which the document adds
/// ([`crate::api::openapi`]: the games' codes are theirs to say).
fn problem_code() -> utoipa::openapi::Ref {
    utoipa::openapi::Ref::from_schema_name("ProblemCode")
}

pub use crate::error::RequestError;

impl Problem {
    /// A problem of the type `code`, with its facts (`ply`, `field`, …)
    /// and `instance` still to be set: its `type` is
    /// `urn:tank-rules:problem:` and the code in kebab case.
    fn new(code: &str, title: &str, status: StatusCode, detail: String) -> Problem {
        let kebab = code.to_ascii_lowercase().replace('_', "-");
        Problem {
            type_uri: format!("urn:tank-rules:problem:{kebab}"),
            title: title.to_owned(),
            status: status.as_u16(),
            detail,
            code: code.to_owned(),
            ..Problem::default()
        }
    }
}

impl RequestError {
    /// The problem document for this error, its texts in `lang`, naming no
    /// instance (a batch's results are parts of one request).
    pub fn problem_in(&self, lang: Lang) -> Problem {
        let code = self.code();
        let title = crate::i18n::title(lang, code).unwrap_or_else(|| self.title());
        let mut problem = Problem::new(code, title, self.status(), self.detail(lang));
        match self {
            RequestError::BadRequest { field, .. }
            | RequestError::BadQuery { field, .. }
            | RequestError::Json { field, .. }
            | RequestError::LimitExceeded { field, .. } => problem.field = field.clone(),
            RequestError::Notation { field, ply, .. } => {
                (problem.ply, problem.field) = (*ply, Some(field.clone()));
            }
            RequestError::InvalidPosition { field, .. } => problem.field = Some(field.clone()),
            RequestError::Refused(refusal) => {
                problem.ply = refusal.ply;
                problem.field = Some(refusal.field.clone());
                problem.player = refusal.player.clone();
                problem.square = refusal.square.clone();
                problem.vehicle = refusal.vehicle.clone();
            }
            RequestError::TooManyRequests { class, price, .. }
            | RequestError::Unaffordable { class, price, .. } => {
                (problem.policy, problem.price) = (Some((*class).to_owned()), Some(*price));
            }
            _ => {}
        }
        // A field's path may name the client's keys: quoted in part.
        problem.field = problem
            .field
            .as_deref()
            .map(|field| crate::text::quote(field).into_owned());
        problem
    }
}

impl RequestError {
    /// The status a domain error is answered with.
    pub fn status(&self) -> StatusCode {
        match self {
            RequestError::BadRequest { .. }
            | RequestError::BadQuery { .. }
            | RequestError::Json { .. }
            | RequestError::Notation { .. }
            | RequestError::InvalidPosition { .. }
            | RequestError::LimitExceeded { .. }
            | RequestError::Unaffordable { .. } => StatusCode::BAD_REQUEST,
            RequestError::Refused(_) => StatusCode::UNPROCESSABLE_ENTITY,
            RequestError::Busy { .. }
            | RequestError::NoRoom
            | RequestError::ReviewUnfinished { .. } => StatusCode::SERVICE_UNAVAILABLE,
            RequestError::Unauthorized { .. } => StatusCode::UNAUTHORIZED,
            RequestError::TooManyRequests { .. } => StatusCode::TOO_MANY_REQUESTS,
            RequestError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl HttpError {
    /// The problem document for this error, its texts in `lang`, naming
    /// no instance.
    pub fn problem_in(&self, lang: Lang) -> Problem {
        let HttpError::Request(error) = self else {
            let title = crate::i18n::title(lang, self.code()).unwrap_or_else(|| self.title());
            return Problem::new(self.code(), title, self.status_code(), self.detail(lang));
        };
        error.problem_in(lang)
    }
}

impl ResponseError for HttpError {
    fn status_code(&self) -> StatusCode {
        match self {
            HttpError::Request(error) => error.status(),
            HttpError::MethodNotAllowed { .. } => StatusCode::METHOD_NOT_ALLOWED,
            HttpError::Status { status, .. } => {
                StatusCode::from_u16(*status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
            }
        }
    }

    fn error_response(&self) -> HttpResponse {
        let mut response = HttpResponse::build(self.status_code());
        response.content_type(CONTENT_TYPE);
        match self {
            HttpError::MethodNotAllowed { allow, .. } => {
                response.insert_header((header::ALLOW, allow.as_str()));
            }
            // The rest of the body may still come: the connection cannot
            // carry another request.
            HttpError::Status {
                status: 408 | 417, ..
            } => {
                response.force_close();
            }
            HttpError::Request(RequestError::Unauthorized { .. }) => {
                response.insert_header((header::WWW_AUTHENTICATE, "Bearer realm=\"tank-rules\""));
            }
            HttpError::Request(RequestError::TooManyRequests {
                class,
                quota,
                retry_after_secs,
                ..
            }) => {
                use crate::fair_use::{policy_field, state_field};
                response
                    .insert_header((header::RETRY_AFTER, retry_after_secs.to_string()))
                    .insert_header(("RateLimit-Policy", policy_field(class, *quota, 60)))
                    .insert_header(("RateLimit", state_field(class, 0, *retry_after_secs)));
            }
            HttpError::Request(RequestError::Busy { retry_after_secs }) => {
                response.insert_header((header::RETRY_AFTER, retry_after_secs.to_string()));
            }
            HttpError::Request(RequestError::NoRoom | RequestError::ReviewUnfinished { .. }) => {
                response.insert_header((header::RETRY_AFTER, "1"));
            }
            _ => {}
        }
        // The body is the problem, written by [`write`], which knows the
        // request's language and id.
        let mut answer = response.finish();
        if let HttpError::Request(RequestError::ReviewUnfinished { .. }) = self {
            answer.extensions_mut().insert(WorkDone);
        }
        answer
    }
}

/// Writes the problem of an answer that is an error of the service
/// ([`HttpError`], as [`HttpResponse::from_error`] and actix's
/// handlers keep it): the one writer of every problem answer, its texts
/// in the request's language, its `instance` the request's id
/// ([`Asked`]). Any other answer is left as it is.
pub fn write(res: ServiceResponse<BoxBody>) -> ServiceResponse<BoxBody> {
    let is_problem = res
        .response()
        .error()
        .is_some_and(|error| error.as_error::<HttpError>().is_some());
    if !is_problem {
        return res;
    }
    let asked = Asked::of(res.request());
    let (req, res) = res.into_parts();
    ServiceResponse::new(req, with_problem(res, asked.lang, Some(&asked.id)))
}

/// `res` (an error's answer) with its error's problem as its body, in
/// `lang`, naming `id` as its instance; `res` as it is when its error is
/// not one of the service's.
pub fn with_problem(res: HttpResponse, lang: Lang, id: Option<&RequestId>) -> HttpResponse {
    let Some(error) = res.error().and_then(|error| error.as_error::<HttpError>()) else {
        return res;
    };
    if let HttpError::Request(RequestError::Internal(message)) = error {
        let id = id.map_or("-", RequestId::as_str);
        tracing::error!(request_id = %id, %message, "internal error");
    }
    let mut problem = error.problem_in(lang);
    problem.instance = id.map(|id| id.as_str().to_owned());
    // A problem is strings and numbers: serde always writes it.
    let body = serde_json::to_vec(&problem).unwrap_or_default();
    res.set_body(BoxBody::new(body))
}

/// Marks a 503 whose work was done (a review the server's time cap
/// stopped): unlike a 503 for want of a slot, its price is not refunded.
#[derive(Clone, Copy, Debug)]
pub struct WorkDone;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::Text;

    /// A problem answer names the request it answers as its `instance`
    /// and speaks its language; a problem apart from an answer (a batch's
    /// item) names none.
    #[test]
    fn a_problem_names_the_request_it_answers_and_speaks_its_language() {
        let error = RequestError::bad_request(
            Text::new("request-multipv").with("max", 4).with("value", 9),
            Some("multipv"),
        );
        assert_eq!(error.problem_in(Lang::En).instance, None);
        let id = RequestId::generate();
        let answer = with_problem(
            HttpResponse::from_error(HttpError::from(error)),
            Lang::Cs,
            Some(&id),
        );
        let body = actix_web::body::to_bytes(answer.into_body());
        let body = futures_util::FutureExt::now_or_never(body)
            .unwrap()
            .unwrap();
        let problem: Problem = serde_json::from_slice(&body).unwrap();
        assert_eq!(problem.instance.as_deref(), Some(id.as_str()));
        assert_eq!(problem.detail, "multipv musí být 1 až 4, ne 9");
        let error = RequestError::bad_request(
            Text::new("request-multipv").with("max", 4).with("value", 9),
            Some("multipv"),
        );
        let english = error.problem_in(Lang::En);
        assert_eq!(english.detail, "multipv must be 1 to 4, not 9");
        assert!(serde_json::to_string(&english)
            .unwrap()
            .ends_with(r#""field":"multipv"}"#));
    }
}
