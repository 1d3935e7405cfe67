//! HTTP hygiene for every request (run by [`crate::api::middleware::layers`]):
//! `HEAD` is served
//! wherever `GET` is (the server sends the head only), a request that
//! asks to close its connection has it closed after the answer (a request
//! the client pipelined after it is not processed: it is answered 400 and
//! the connection closed), and every error answer is problem+json —
//! also those made outside the application's handlers (Swagger UI's 404s,
//! CORS refusals). Errors actix answers before any middleware runs
//! (malformed request lines and headers) stay its own; docs/LIMITS.md
//! lists them.

use actix_web::body::{self, BoxBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header;
use actix_web::http::{ConnectionType, Method};
use actix_web::HttpResponse;

use std::cell::Cell;

use super::problem::HttpError;
use crate::text::Text;

/// A request's headers in a map of their own, sized to them, each value
/// in bytes of its own. actix-http parses header values as slices of the
/// connection's read buffer (8 KiB and up, grown with the body pieces
/// read with it) into a map made for 16 fields and grown to the most a
/// request had, and actix keeps up to 128 finished requests a worker (and
/// as many heads again) for reuse, headers and all: after a burst of
/// connections every pooled request would pin a read buffer, and after
/// requests of 96 fields a 25 KB map, long after its connection closed,
/// in no budget. A few small copies a request, against some 8 MB a server
/// kept after a burst (`scripts/hostile.py`, idle after the run).
pub fn unpin_headers(headers: &mut header::HeaderMap) {
    let mut own = header::HeaderMap::with_capacity(headers.len());
    for (name, value) in headers.iter() {
        // A value the parser took is one `from_bytes` takes; were it not,
        // the slice is kept rather than the header lost.
        let copy = match header::HeaderValue::from_bytes(value.as_bytes()) {
            Ok(mut copy) => {
                copy.set_sensitive(value.is_sensitive());
                copy
            }
            Err(_) => value.clone(),
        };
        own.append(name.clone(), copy);
    }
    *headers = own;
}

/// The longest text of another layer's error answer kept as `detail`.
const MAX_DETAIL: usize = 300;

/// Whether a request of a connection asked to close it: actix-http goes
/// on serving requests pipelined after a `close`, which RFC 9112 §9.6
/// says are not processed, so each connection keeps this flag in its
/// data (put there by [`crate::server`]).
#[derive(Debug, Default)]
pub struct Closing(Cell<bool>);

/// What a request needs of hygiene before the routes see it: `HEAD` is
/// served as `GET`; a request pipelined after one that asked to close
/// the connection, or with an expectation the server cannot meet, is
/// refused (the answer). Else whether the request asks to close its
/// connection, for [`finish`].
pub fn admit(req: &mut ServiceRequest) -> Result<bool, Box<HttpResponse>> {
    let close = req.head().connection_type() == ConnectionType::Close;
    if let Some(closing) = req.conn_data::<Closing>() {
        if closing.0.replace(closing.0.get() || close) {
            let refusal = HttpError::status(400, Text::new("detail-after-close"));
            let mut refused = HttpResponse::from_error(refusal);
            refused
                .head_mut()
                .set_connection_type(ConnectionType::Close);
            return Err(Box::new(refused));
        }
    }
    if req.method() == Method::HEAD {
        req.head_mut().method = Method::GET;
    }
    if let Err(unmet) = super::expect::unknown(req.headers()) {
        return Err(Box::new(HttpResponse::from_error(unmet)));
    }
    Ok(close)
}

/// The answer as hygiene leaves it: the connection closed after it when
/// the request asked (`close`), and any error another layer answered (the
/// routes' actix defaults, CORS) turned into problem+json.
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

/// Another layer's error answer (actix's, CORS') as problem+json,
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
    let problem = HttpError::other_layer(status.as_u16(), detail);
    let mut replaced = HttpResponse::from_error(problem);
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

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::web::Bytes;

    #[test]
    fn unpinned_headers_keep_nothing_of_the_read_buffer() {
        // A read buffer as actix-http's: the values are slices of it.
        let buffer = Bytes::from(vec![b'v'; 64 << 10]);
        let inside = buffer.as_ptr_range();
        let mut headers = header::HeaderMap::with_capacity(128);
        for i in 0..4 {
            let value =
                header::HeaderValue::from_maybe_shared(buffer.slice(i * 10..i * 10 + 10)).unwrap();
            headers.append(header::HeaderName::from_static("x-a"), value);
        }
        let mut secret = header::HeaderValue::from_maybe_shared(buffer.slice(0..5)).unwrap();
        secret.set_sensitive(true);
        headers.insert(header::AUTHORIZATION, secret);

        unpin_headers(&mut headers);

        assert_eq!(headers.len(), 5);
        assert!(
            headers.capacity() < 128,
            "sized to its fields: {}",
            headers.capacity()
        );
        for (_, value) in headers.iter() {
            assert!(
                !inside.contains(&value.as_bytes().as_ptr()),
                "a value still in the buffer"
            );
        }
        assert_eq!(headers.get_all("x-a").count(), 4);
        assert!(headers
            .get(header::AUTHORIZATION)
            .is_some_and(|v| v.is_sensitive()));
    }
}
