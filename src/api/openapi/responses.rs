//! The error answers operations share, declared once: a wrong method
//! ([`WrongMethod`]: 405), a query parameter where an operation takes none
//! ([`NoQuery`]: 400), those any route may answer ([`ServiceErrors`]: 405
//! and 417), those any game route may answer ([`RouteErrors`]: those and
//! the fair-use 401 and 429), those of a route that reads a body
//! ([`BodyErrors`]: 408, 413, 415), and a search's 503 ([`BusyError`]).
//! Each operation lists them beside its own answers (`responses(…,
//! RouteErrors, BodyErrors)`).

#![allow(dead_code)] // the variants are documentation only

use std::collections::BTreeMap;

use utoipa::openapi::{RefOr, Response};
use utoipa::IntoResponses;

use crate::api::transport::problem::Problem;

/// Another method than the operation's.
#[derive(IntoResponses)]
pub enum WrongMethod {
    #[response(
        status = 405,
        description = "`METHOD_NOT_ALLOWED`: another method than this one (`Allow` names it)",
        content_type = "application/problem+json",
        headers(("Allow" = String, description = "The methods of this path"))
    )]
    MethodNotAllowed(Problem),
}

/// A query parameter sent to an operation that takes none.
#[derive(IntoResponses)]
pub enum NoQuery {
    #[response(
        status = 400,
        description = "`BAD_REQUEST`: a query parameter (this operation takes none)",
        content_type = "application/problem+json"
    )]
    BadRequest(Problem),
}

/// What fair use (API keys, quotas) may answer on a route it guards.
#[derive(IntoResponses)]
pub enum FairUseErrors {
    #[response(
        status = 401,
        description = "`UNAUTHORIZED`: this server needs an API key (`X-Api-Key` or `Authorization: Bearer`) and none, or an unknown one, was sent",
        content_type = "application/problem+json"
    )]
    Unauthorized(Problem),
    #[response(
        status = 429,
        description = "`TOO_MANY_REQUESTS`: the client is over a quota; retry after `Retry-After` seconds (`RateLimit-Policy` and `RateLimit` say which quota)",
        content_type = "application/problem+json",
        headers(
            ("Retry-After" = u64, description = "Seconds to wait"),
            ("RateLimit-Policy" = String, description = "The quota, e.g. `\"requests\";q=600;w=60`"),
            ("RateLimit" = String, description = "What is left of it, e.g. `\"requests\";r=0;t=6`")
        )
    )]
    TooManyRequests(Problem),
}

/// An `Expect` the server cannot meet.
#[derive(IntoResponses)]
pub enum Unmet {
    #[response(
        status = 417,
        description = "`EXPECTATION_FAILED`: an `Expect` other than `100-continue`",
        content_type = "application/problem+json"
    )]
    ExpectationFailed(Problem),
}

/// What any route may answer besides its own answers: a wrong method and
/// an expectation it cannot meet.
pub struct ServiceErrors;

impl IntoResponses for ServiceErrors {
    fn responses() -> BTreeMap<String, RefOr<Response>> {
        let mut responses = WrongMethod::responses();
        responses.extend(Unmet::responses());
        responses
    }
}

/// What any game route, and the catalogue, may answer besides its own
/// answers: [`ServiceErrors`] and fair use's refusals.
pub struct RouteErrors;

impl IntoResponses for RouteErrors {
    fn responses() -> BTreeMap<String, RefOr<Response>> {
        let mut responses = ServiceErrors::responses();
        responses.extend(FairUseErrors::responses());
        responses
    }
}

/// What a route that reads a body may answer besides.
#[derive(IntoResponses)]
pub enum BodyErrors {
    #[response(
        status = 408,
        description = "`REQUEST_TIMEOUT`: the body did not arrive within the server's body deadline (5 s by default); the connection is closed",
        content_type = "application/problem+json"
    )]
    RequestTimeout(Problem),
    #[response(
        status = 413,
        description = "`PAYLOAD_TOO_LARGE`: the body is larger than the server's limit (64 KiB by default); a body announced so with `Expect: 100-continue` is refused before it is sent",
        content_type = "application/problem+json"
    )]
    PayloadTooLarge(Problem),
    #[response(
        status = 415,
        description = "`UNSUPPORTED_MEDIA_TYPE`: the body is not sent as JSON (`Content-Type: application/json`), or is sent compressed",
        content_type = "application/problem+json"
    )]
    UnsupportedMediaType(Problem),
}

/// What a search (`ai-move`, `perft`) may answer besides.
#[derive(IntoResponses)]
pub enum BusyError {
    #[response(
        status = 503,
        description = "`SERVICE_BUSY`: every search slot is taken; retry after `Retry-After` seconds",
        content_type = "application/problem+json"
    )]
    Busy(Problem),
}
