//! HTTP hygiene for every request, in one middleware: `HEAD` is served
//! wherever `GET` is (the server sends the head only), a request that
//! asks to close its connection has it closed after the answer (requests
//! the client pipelined after it are not processed: each is answered 400
//! and the connection closed), and every error answer is problem+json —
//! also those made outside the application's handlers (Swagger UI's 404s,
//! CORS refusals). Errors actix answers before any middleware runs
//! (malformed request lines and headers) stay its own; the README lists
//! them.

use actix_web::body::{self, BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderValue};
use actix_web::http::{ConnectionType, Method};
use actix_web::middleware::Next;
use actix_web::ResponseError;

use super::problem::ApiError;

/// Per-connection state, installed by the server's `on_connect`: whether a
/// request on the connection asked to close it.
#[derive(Clone, Debug, Default)]
pub struct ConnectionState {
    closing: std::rc::Rc<std::cell::Cell<bool>>,
}

impl ConnectionState {
    /// The `on_connect` hook that gives each connection its state.
    pub fn install(_: &dyn std::any::Any, data: &mut actix_web::dev::Extensions) {
        data.insert(ConnectionState::default());
    }
}

/// The longest text of another layer's error answer kept as `detail`.
const MAX_DETAIL: usize = 300;

/// The middleware; see the module documentation.
pub async fn hygiene(
    mut req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    if req.method() == Method::HEAD {
        req.head_mut().method = Method::GET;
    }
    let connection = req.conn_data::<ConnectionState>().cloned();
    let closing = connection.as_ref().is_some_and(|c| c.closing.get());
    if closing {
        // RFC 9112 §9.6: no request after a "close" is processed.
        let refused = ApiError::Status {
            status: 400,
            detail: "an earlier request on this connection asked to close it \
(`Connection: close`); requests pipelined after it are not processed"
                .to_owned(),
        };
        let mut response = refused.error_response();
        response
            .head_mut()
            .set_connection_type(ConnectionType::Close);
        return Ok(req.into_response(response));
    }
    if let Some(unknown) = unknown_query_parameter(&req) {
        return Ok(req.into_response(unknown.error_response()));
    }
    let close = req.head().connection_type() == ConnectionType::Close;
    if let (true, Some(connection)) = (close, &connection) {
        connection.closing.set(true);
    }
    // Inner layers answer their refusals (routing, CORS) as responses;
    // an `Err` is left to actix.
    let mut res = next.call(req).await?.map_into_boxed_body();
    if close {
        res.response_mut()
            .head_mut()
            .set_connection_type(ConnectionType::Close);
    }
    let status = res.status();
    if status.is_success() {
        keep_small_answers_plain(&mut res);
    }
    if !status.is_client_error() && !status.is_server_error() || is_problem(&res) {
        return Ok(res);
    }
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
    let problem = ApiError::Status {
        status: status.as_u16(),
        detail,
    };
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
    Ok(ServiceResponse::new(req, replaced.map_into_boxed_body()))
}

/// Whether the answer is already a problem document.
fn is_problem<B>(res: &ServiceResponse<B>) -> bool {
    res.headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v == HeaderValue::from_static("application/problem+json"))
}

/// A query parameter the GET route does not declare (one rule for every
/// route: unknown query parameters are refused, as unknown body fields
/// are).
fn unknown_query_parameter(req: &ServiceRequest) -> Option<ApiError> {
    let query = req.query_string();
    if query.is_empty() || req.method() != Method::GET {
        return None;
    }
    let routes = req.app_data::<actix_web::web::Data<super::meta::RouteTable>>()?;
    let known = routes.query_parameters(req.path())?;
    let unknown = query
        .split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| pair.split_once('=').map_or(pair, |(name, _)| name))
        .find(|name| !known.iter().any(|k| k == name))?;
    let takes = if known.is_empty() {
        "this operation takes none".to_owned()
    } else {
        format!("this operation takes {}", known.join(", "))
    };
    Some(ApiError::BadQuery {
        detail: format!("unknown query parameter `{unknown}`; {takes}"),
        field: Some(unknown.to_owned()),
    })
}

/// Answers smaller than this are sent uncompressed. actix's `Compress`
/// builds a new encoder for every answer and compresses bodies over 1 KiB
/// on the blocking pool: measured with `wrk` and `Accept-Encoding: gzip`,
/// `legal-moves` (2.5 KB, 418 B gzipped) fell from 0.5x to 0.06x of the
/// hello-world ceiling. Large answers (a picture is 22 KB, 2.7 KB gzipped;
/// replays, batches) are worth it.
const MIN_COMPRESSED: u64 = 8 * 1024;

/// Tells the compression layer (outside this one) to leave a small answer
/// alone: it compresses nothing that already has a `Content-Encoding`.
/// [`after_compression`] removes the marker again.
fn keep_small_answers_plain(res: &mut ServiceResponse<BoxBody>) {
    let small =
        matches!(res.response().body().size(), body::BodySize::Sized(n) if n < MIN_COMPRESSED);
    if small {
        res.headers_mut().insert(
            header::CONTENT_ENCODING,
            HeaderValue::from_static("identity"),
        );
    }
}

/// Runs outside actix's `Compress`: offers it no Brotli (actix's encoder
/// sets up a 4 MiB window for every answer: `legal-moves` fell from 70 000
/// to 2 500 answers a second; gzip and zstd cost little), drops the marker
/// of [`keep_small_answers_plain`], and says on every answer with a body
/// that it varies with `Accept-Encoding` (for caches), compressed or not.
pub async fn after_compression(
    mut req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    if let Some(without_brotli) = req
        .headers()
        .get(header::ACCEPT_ENCODING)
        .and_then(|v| v.to_str().ok())
        .filter(|v| v.contains("br"))
        .map(|v| {
            v.split(',')
                .filter(|coding| {
                    let name = coding.split(';').next().unwrap_or("").trim();
                    !name.eq_ignore_ascii_case("br")
                })
                .collect::<Vec<_>>()
                .join(",")
        })
    {
        match HeaderValue::from_str(&without_brotli) {
            Ok(value) if !without_brotli.trim().is_empty() => {
                req.headers_mut().insert(header::ACCEPT_ENCODING, value);
            }
            _ => {
                req.headers_mut().remove(header::ACCEPT_ENCODING);
            }
        }
    }
    let mut res = next.call(req).await?;
    let headers = res.headers_mut();
    if headers
        .get(header::CONTENT_ENCODING)
        .is_some_and(|v| v == "identity")
    {
        headers.remove(header::CONTENT_ENCODING);
    }
    let varies = headers.get_all(header::VARY).any(|v| {
        v.to_str()
            .is_ok_and(|v| v.to_ascii_lowercase().contains("accept-encoding"))
    });
    if !varies && res.status().is_success() {
        res.headers_mut()
            .append(header::VARY, HeaderValue::from_static("accept-encoding"));
    }
    Ok(res)
}

/// Fair use, for the games' routes (`/v1/…`): identifies the client (its
/// API key when keys are configured: none or an unknown one is 401), spends
/// one of its quota (searches for `ai-move` and `perft`, requests for the
/// rest; a batch then spends one search per search it holds), answers 429
/// over the quota, and says what is left in the `RateLimit` headers.
pub async fn fair_use(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    use crate::fair_use::{Class, Unidentified, Verdict};
    use actix_web::HttpMessage;

    let services = req
        .app_data::<actix_web::web::Data<super::game::Services>>()
        .map(|s| s.fair_use.clone());
    let Some(fair_use) = services.filter(|f| f.is_active()) else {
        return Ok(next.call(req).await?.map_into_boxed_body());
    };
    // Preflights carry no key and are no work.
    if !req.path().starts_with("/v1/") || req.method() == Method::OPTIONS {
        return Ok(next.call(req).await?.map_into_boxed_body());
    }
    let header = |name: &str| req.headers().get(name).and_then(|v| v.to_str().ok());
    let key = header("x-api-key")
        .or_else(|| header("authorization").and_then(|v| v.strip_prefix("Bearer ").map(str::trim)));
    let peer = req.peer_addr().map(|addr| addr.ip());
    let client = match fair_use.identify(peer, header("x-forwarded-for"), key) {
        Ok(client) => client,
        Err(why) => {
            let detail = match why {
                Unidentified::MissingKey => "this service needs an API key: send it in `X-Api-Key` (or `Authorization: Bearer`)",
                Unidentified::UnknownKey => "the API key is not known to this service",
            };
            let refused = ApiError::Unauthorized {
                detail: detail.to_owned(),
            };
            return Ok(req.into_response(refused.error_response()));
        }
    };
    let class = if req.path().ends_with("/ai-move") || req.path().ends_with("/perft") {
        Class::Search
    } else {
        Class::Cheap
    };
    let verdict = fair_use.check(&client, class, 1).await;
    if let Verdict::Limited {
        policy,
        retry_after,
    } = verdict
    {
        tracing::debug!(client = %fair_use.name(&client), class = class.name(), "over quota");
        let refused = ApiError::TooManyRequests {
            class: policy.class.name(),
            quota: policy.quota,
            retry_after_secs: retry_after.as_secs_f64().ceil() as u64,
        };
        return Ok(req.into_response(refused.error_response()));
    }
    req.extensions_mut().insert(client);
    let mut res = next.call(req).await?.map_into_boxed_body();
    // A refusal from inside (a batch over its search quota) names its own.
    let inner_refusal = res.headers().contains_key("ratelimit-policy");
    if let (
        Verdict::Allowed {
            policy,
            remaining,
            reset,
        },
        false,
    ) = (verdict, inner_refusal)
    {
        let name = policy.class.name();
        let headers = res.headers_mut();
        if let Ok(value) = HeaderValue::from_str(&format!(
            "\"{name}\";q={};w={}",
            policy.quota,
            policy.window.as_secs()
        )) {
            headers.insert(header::HeaderName::from_static("ratelimit-policy"), value);
        }
        if let Ok(value) = HeaderValue::from_str(&format!(
            "\"{name}\";r={remaining};t={}",
            reset.as_secs_f64().ceil() as u64
        )) {
            headers.insert(header::HeaderName::from_static("ratelimit"), value);
        }
    }
    Ok(res)
}
