//! HTTP hygiene for every request (run by [`crate::api::middleware::layers`]):
//! `HEAD` is served
//! wherever `GET` is (the server sends the head only), a request that
//! asks to close its connection has it closed after the answer (requests
//! the client pipelined after it are not processed: each is answered 400
//! and the connection closed), and every error answer is problem+json —
//! also those made outside the application's handlers (Swagger UI's 404s,
//! CORS refusals). Errors actix answers before any middleware runs
//! (malformed request lines and headers) stay its own; the README lists
//! them.

use actix_web::body::{self, BoxBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header;
use actix_web::http::{ConnectionType, Method};
use actix_web::{HttpResponse, ResponseError};

use super::problem::ApiError;
use crate::text::Text;

/// The answer to a request pipelined after one that asked to close the
/// connection (RFC 9112 §9.6: it is not processed): 400, and the
/// connection closed.
pub fn after_close(req: ServiceRequest) -> ServiceResponse<BoxBody> {
    let refused = ApiError::status(400, Text::new("detail-after-close"));
    let mut res = req.into_response(refused.error_response());
    res.response_mut()
        .head_mut()
        .set_connection_type(ConnectionType::Close);
    res
}

/// The longest text of another layer's error answer kept as `detail`.
const MAX_DETAIL: usize = 300;

/// What a request needs of hygiene before the routes see it: `HEAD` is
/// served as `GET`; a request with an expectation the server cannot meet
/// is refused (the answer). Else whether the request asks to close its
/// connection, for [`finish`].
pub fn admit(req: &mut ServiceRequest) -> Result<bool, Box<HttpResponse>> {
    if req.method() == Method::HEAD {
        req.head_mut().method = Method::GET;
    }
    if let Err(unmet) = super::expect::unknown(req.headers()) {
        return Err(Box::new(unmet.error_response()));
    }
    Ok(req.head().connection_type() == ConnectionType::Close)
}

/// The answer as hygiene leaves it: the connection closed after it when
/// the request asked (`close`), and any error another layer answered (the
/// router, CORS) turned into problem+json.
pub async fn finish(mut res: ServiceResponse<BoxBody>, close: bool) -> ServiceResponse<BoxBody> {
    if close {
        res.response_mut()
            .head_mut()
            .set_connection_type(ConnectionType::Close);
    }
    let status = res.status();
    if !status.is_client_error() && !status.is_server_error() || is_problem(&res) {
        return res;
    }
    // Boxed: a future that reads a body, for errors answered outside the
    // handlers only.
    Box::pin(as_problem(res)).await
}

/// Another layer's error answer (the router's, CORS') as problem+json,
/// its text as the `detail`.
async fn as_problem(res: ServiceResponse<BoxBody>) -> ServiceResponse<BoxBody> {
    let status = res.status();
    let (req, response) = res.into_parts();
    let (head, body) = response.into_parts();
    let text = body::to_bytes_limited(body, MAX_DETAIL)
        .await
        .ok()
        .and_then(Result::ok)
        .and_then(|bytes| String::from_utf8(bytes.to_vec()).ok())
        .filter(|text| !text.trim().is_empty());
    let detail = text.unwrap_or_else(|| {
        status
            .canonical_reason()
            .unwrap_or("request refused")
            .to_owned()
    });
    let problem = ApiError::other_layer(status.as_u16(), detail);
    let mut replaced = problem.error_response();
    // Keep what the other layer said in its headers (Allow, CORS, …).
    for (name, value) in head.headers() {
        if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
            replaced.headers_mut().append(name.clone(), value.clone());
        }
    }
    replaced
        .head_mut()
        .set_connection_type(head.head().connection_type());
    ServiceResponse::new(req, replaced.map_into_boxed_body())
}

/// Whether the answer is already a problem document.
pub fn is_problem<B>(res: &ServiceResponse<B>) -> bool {
    res.headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes() == super::problem::CONTENT_TYPE.as_bytes())
}
