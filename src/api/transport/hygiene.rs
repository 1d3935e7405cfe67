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
        super::compression::keep_small_answers_plain(&mut res);
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
    let routes = req.app_data::<actix_web::web::Data<crate::api::meta::RouteTable>>()?;
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
