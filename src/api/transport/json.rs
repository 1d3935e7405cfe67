//! JSON in and out: the body extractor (content type and size checked,
//! deserialisation errors reported with the path of the offending field),
//! JSON text in a query parameter, and the 200 JSON answer within the
//! answer limit.

use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use actix_web::dev::Payload;
use actix_web::http::header;
use actix_web::{web, HttpMessage, HttpRequest, HttpResponse};
use futures_util::Stream;
use serde::de::DeserializeOwned;

use super::json_fault::{self, DataFault};
use super::problem::{HttpError, RequestError};
use super::strict::{self, Seen, Strict};
use crate::limits::Limits;
use crate::memory::{Held, InFlight};
use crate::text::Text;

/// A JSON request body of type `T`, read within the server's limits and
/// parsed; unlike `actix_web::web::Json`, every failure is an [`HttpError`]
/// (so it is served as problem+json) naming the field that failed. Written
/// out rather than boxed, as nearly every request makes one.
pub struct ReadJson<T> {
    body: ReadBody,
    shape: PhantomData<fn() -> T>,
}

impl<T> ReadJson<T> {
    /// Reads the request's JSON body within `limits`, its bytes held in
    /// flight.
    pub(crate) fn new(
        req: &HttpRequest,
        payload: &mut Payload,
        limits: &Limits,
        in_flight: &InFlight,
    ) -> ReadJson<T> {
        let mut body = read_body(req, payload, limits, in_flight);
        if !is_json(req) {
            body.refused = Some(HttpError::unsupported_media_type());
        }
        ReadJson {
            body,
            shape: PhantomData,
        }
    }
}

impl<T: DeserializeOwned> Future for ReadJson<T> {
    type Output = Result<T, HttpError>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        Pin::new(&mut self.body)
            .poll(cx)
            .map(|body| Ok(parse(&body?)?))
    }
}

/// Whether the request says its body is JSON (`application/json` or a
/// `+json` type).
pub(crate) fn is_json(req: &HttpRequest) -> bool {
    // The usual case without parsing a media type.
    let plain = req
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().eq_ignore_ascii_case(b"application/json"));
    plain
        || req.mime_type().ok().flatten().is_some_and(|mime| {
            (mime.type_() == "application" && mime.subtype() == "json")
                || mime.suffix().is_some_and(|suffix| suffix == "json")
        })
}

/// The body's `Content-Encoding` unless it is sent as is (none, or
/// `identity`): the service takes no compressed bodies.
fn compressed(req: &HttpRequest) -> Option<String> {
    req.headers()
        .get_all(header::CONTENT_ENCODING)
        .map(|value| String::from_utf8_lossy(value.as_bytes()).into_owned())
        .find(|value| {
            value
                .split(',')
                .any(|coding| !coding.trim().eq_ignore_ascii_case("identity"))
        })
}

/// The request body, read when the future is polled: one over the
/// server's size (`limits`; declared or sent) is refused with 413, a
/// compressed one with 415, one that does not arrive whole within the
/// body deadline with 408 (and the connection closed), and one the bytes
/// in flight have no room for with 503. Its bytes are held in flight
/// (`in_flight`) as they arrive, until the body is dropped.
pub(crate) fn read_body(
    req: &HttpRequest,
    payload: &mut Payload,
    limits: &Limits,
    in_flight: &InFlight,
) -> ReadBody {
    let limit = limits.body_bytes;
    let declared = super::expect::announced_length(req.headers())
        .map(|n| usize::try_from(n).unwrap_or(usize::MAX));
    let refused = match compressed(req) {
        Some(coding) => Some(HttpError::unsupported_encoding(&coding)),
        None if declared.is_some_and(|len| len > limit) => {
            Some(HttpError::payload_too_large(limit))
        }
        None => None,
    };
    ReadBody {
        payload: payload.take(),
        refused,
        limit,
        declared,
        first: web::Bytes::new(),
        joined: None,
        polled: false,
        timeout: Duration::from_millis(limits.body_timeout_ms),
        deadline: None,
        held: Some(in_flight.none()),
    }
}

/// A request's body as read, its bytes held in flight until it is
/// dropped.
pub struct Body {
    bytes: web::Bytes,
    _held: Option<Held>,
}

impl std::ops::Deref for Body {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        &self.bytes
    }
}

/// [`read_body`]'s future.
///
/// A body that comes in one chunk (nearly every one) is that chunk,
/// neither copied nor reallocated; more are joined. The deadline's timer
/// is armed only for a body still missing at the second poll: a body that
/// came with its head (nearly every request) is read without one. The
/// first poll always waits, as actix hands the handler the body it read
/// just after calling it; waking the task then costs nothing there (the
/// body's arrival wakes it too) and makes sure of a second poll under any
/// executor.
pub(crate) struct ReadBody {
    payload: Payload,
    /// Why the body is refused before it is read, if it is.
    refused: Option<HttpError>,
    limit: usize,
    declared: Option<usize>,
    /// The body while it is one chunk…
    first: web::Bytes,
    /// …and once it is more.
    joined: Option<web::BytesMut>,
    /// Whether it has been polled before.
    polled: bool,
    timeout: Duration,
    deadline: Option<Pin<Box<tokio::time::Sleep>>>,
    /// The body's bytes in flight.
    held: Option<Held>,
}

impl ReadBody {
    /// Adds `chunk` to the body read so far: its bytes held in flight
    /// before they are taken.
    fn add(&mut self, chunk: web::Bytes) -> Result<(), HttpError> {
        let len = self
            .joined
            .as_ref()
            .map_or(self.first.len(), |body| body.len())
            + chunk.len();
        if len > self.limit {
            return Err(HttpError::payload_too_large(self.limit));
        }
        let holds = match &self.joined {
            Some(body) => body.capacity().max(len),
            None if self.first.is_empty() => len,
            None => self.declared.unwrap_or(0).min(self.limit).max(len),
        };
        if let Some(held) = &mut self.held {
            held.grow_to(holds)?;
        }
        match &mut self.joined {
            Some(body) => body.extend_from_slice(&chunk),
            None if self.first.is_empty() => self.first = chunk,
            None => {
                let mut body = web::BytesMut::with_capacity(holds);
                body.extend_from_slice(&self.first);
                body.extend_from_slice(&chunk);
                self.joined = Some(body);
            }
        }
        Ok(())
    }
}

impl Future for ReadBody {
    type Output = Result<Body, HttpError>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = &mut *self;
        if let Some(refusal) = this.refused.take() {
            return Poll::Ready(Err(refusal));
        }
        loop {
            match Pin::new(&mut this.payload).poll_next(cx) {
                Poll::Ready(Some(Ok(chunk))) => this.add(chunk)?,
                Poll::Ready(Some(Err(e))) => {
                    return Poll::Ready(Err(RequestError::bad_request(
                        Text::new("request-body-read").with("error", e.to_string()),
                        None,
                    )
                    .into()))
                }
                Poll::Ready(None) => {
                    let first = std::mem::take(&mut this.first);
                    return Poll::Ready(Ok(Body {
                        bytes: this.joined.take().map_or(first, |b| b.freeze()),
                        _held: this.held.take(),
                    }));
                }
                Poll::Pending => break,
            }
        }
        if !std::mem::replace(&mut this.polled, true) {
            cx.waker().wake_by_ref();
            return Poll::Pending;
        }
        let timeout = this.timeout;
        let deadline = this
            .deadline
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(timeout)));
        match deadline.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(HttpError::body_timeout(timeout.as_secs_f64()))),
            Poll::Pending => Poll::Pending,
        }
    }
}

/// Deserialises JSON carried in a query parameter (`field`), reporting
/// failures like a body's, with the path prefixed by the parameter.
pub fn parse_param<T: DeserializeOwned>(text: &str, field: &str) -> Result<T, RequestError> {
    parse(text.as_bytes()).map_err(|err| match err {
        RequestError::Json { text, field: inner } => RequestError::Json {
            text: json_fault::in_query(text, field),
            field: Some(match inner {
                Some(path) => format!("{field}.{path}"),
                None => field.to_owned(),
            }),
        },
        // `parse` fails with a JSON fault alone.
        other => other,
    })
}

/// Deserialises `body` as its schema describes it ([`Strict`]), rejecting
/// trailing data. A failure is read again, to name the fault and the
/// field's path; its place is the first reading's.
pub(crate) fn parse<T: DeserializeOwned>(body: &[u8]) -> Result<T, RequestError> {
    let seen = Seen::default();
    let mut de = serde_json::Deserializer::from_slice(body);
    let placed = match T::deserialize(Strict::new(&mut de, &seen)) {
        Ok(value) => match de.end() {
            Ok(()) => return Ok(value),
            Err(trailing) => {
                let text = json_fault::syntax_text(&trailing, body);
                return Err(RequestError::Json { text, field: None });
            }
        },
        Err(error) => seen.fault(error).0,
    };
    let seen = Seen::default();
    let mut de = serde_json::Deserializer::from_slice(body);
    match serde_path_to_error::deserialize::<_, T>(Strict::naming_every_fault(&mut de, &seen)) {
        Err(error) => Err(bad_json(error, &seen, body, Some(placed))),
        // Never: the same document, read again, fails again.
        Ok(_) => Err(RequestError::Json {
            text: json_fault::data_text(&placed, None, None),
            field: None,
        }),
    }
}

/// A deserialisation failure (of `document`, when it was text; placed
/// where `placed` says, when given) as a `BAD_REQUEST` naming the failing
/// field: the one of the wrong type or value, the unknown one, or the
/// missing one (none when the whole document is at fault).
pub(crate) fn bad_json(
    err: serde_path_to_error::Error<strict::Error<serde_json::Error>>,
    seen: &Seen,
    document: &[u8],
    placed: Option<serde_json::Error>,
) -> RequestError {
    // The path names the client's keys (an unknown field's among them):
    // quoted in part, as any value the client sent.
    let path = crate::text::quote(&err.path().to_string()).into_owned();
    let (inner, fault) = seen.fault(err.into_inner());
    let placed = placed.unwrap_or(inner);
    let at = (path != ".").then_some(path);
    let data = placed.classify() == serde_json::error::Category::Data;
    let fault = fault.filter(|_| data);
    let text = match data {
        true => json_fault::data_text(&placed, fault.as_ref(), at.as_deref()),
        false => json_fault::syntax_text(&placed, document),
    };
    // A missing field is reported at the object that lacks it; the field
    // at fault is the missing one.
    let missing = fault.as_ref().and_then(DataFault::missing_field);
    let field = match (at, missing) {
        (Some(at), Some(name)) => Some(format!("{at}.{name}")),
        (None, Some(name)) => Some(name.to_owned()),
        (at, None) => at,
    };
    RequestError::Json { text, field }
}

/// An answer's JSON text. One held in flight (over
/// [`crate::memory::ANSWER_PIECE_BYTES`], counted by its length) is
/// shrunk to its size; a smaller one keeps the buffer it was written in.
pub fn encode<T: serde::Serialize>(answer: &T) -> serde_json::Result<Vec<u8>> {
    // Nearly every answer fits the first buffer; a larger one grows it a
    // few times.
    let mut body = Vec::with_capacity(4096);
    serde_json::to_writer(&mut body, answer)?;
    if body.len() > crate::memory::ANSWER_PIECE_BYTES {
        body.shrink_to_fit();
    }
    Ok(body)
}

/// `Content-Type: application/json`, made at compile time (actix's
/// `ContentType::json()` is copied into a new buffer every answer, and
/// `from_static` checks every byte when it runs).
fn json_content_type() -> (header::HeaderName, header::HeaderValue) {
    const JSON: header::HeaderValue = header::HeaderValue::from_static("application/json");
    (header::CONTENT_TYPE, JSON)
}

/// A 200 JSON answer, no larger than the answer limit; a large one held
/// in flight and handed over in pieces ([`Pieces`]), or refused (503)
/// when the bytes in flight have no room for it.
pub fn respond(
    body: serde_json::Result<Vec<u8>>,
    limits: &Limits,
    in_flight: &InFlight,
) -> Result<HttpResponse, HttpError> {
    let body =
        body.map_err(|e| RequestError::Internal(format!("writing the answer failed: {e}")))?;
    limits.check_answer(body.len(), false)?;
    let mut answer = HttpResponse::Ok();
    answer.insert_header(json_content_type());
    super::pieces::answer(answer, body, in_flight)
}

/// A 200 JSON answer that is the same for every request (a game's start):
/// written by `write` on first use, then served from `cell`.
pub fn respond_constant(
    cell: &'static std::sync::OnceLock<actix_web::web::Bytes>,
    write: impl FnOnce() -> serde_json::Result<Vec<u8>>,
) -> Result<HttpResponse, HttpError> {
    let body = match cell.get() {
        Some(body) => body.clone(),
        None => {
            let body = write()
                .map_err(|e| RequestError::Internal(format!("writing the answer failed: {e}")))?;
            cell.get_or_init(|| body.into()).clone()
        }
    };
    Ok(HttpResponse::Ok()
        .insert_header(json_content_type())
        .body(body))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An answer that writes another answer while it is written.
    struct Nested(usize);

    impl serde::Serialize for Nested {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            let inner = match self.0 {
                0 => Vec::new(),
                n => encode(&Nested(n - 1)).map_err(serde::ser::Error::custom)?,
            };
            serializer.serialize_str(&format!("{}:{}", self.0, String::from_utf8_lossy(&inner)))
        }
    }

    #[test]
    fn encoding_is_serde_json_whatever_the_answer_and_its_size() {
        let big = "x".repeat(200_000);
        let answers = [
            serde_json::json!({"a": 1}),
            serde_json::json!({ "big": big }),
            serde_json::json!([1, 2, 3]),
            serde_json::json!("after a big one"),
        ];
        for answer in &answers {
            let body = encode(answer).unwrap();
            assert_eq!(body, serde_json::to_vec(answer).unwrap());
            if body.len() > crate::memory::ANSWER_PIECE_BYTES {
                assert_eq!(body.capacity(), body.len());
            }
        }
        assert_eq!(
            encode(&Nested(3)).unwrap(),
            serde_json::to_vec(&Nested(3)).unwrap()
        );
    }

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Body {
        position: String,
        moves: Vec<String>,
    }

    fn field_of(body: &str) -> Option<String> {
        match parse::<Body>(body.as_bytes()) {
            Err(RequestError::Json { field, .. }) => field,
            other => panic!("expected a bad request, got {other:?}"),
        }
    }

    #[test]
    fn names_the_failing_field() {
        assert_eq!(
            field_of(r#"{"position":"x","moves":["a",3]}"#).as_deref(),
            Some("moves[1]")
        );
        assert_eq!(
            field_of(r#"{"position":1,"moves":[]}"#).as_deref(),
            Some("position")
        );
        // A missing field is the field at fault.
        assert_eq!(field_of(r#"{"position":"x"}"#).as_deref(), Some("moves"));
        assert_eq!(field_of(r#"{"moves":[]}"#).as_deref(), Some("position"));
        assert_eq!(field_of(r#"[1]"#), None);
        assert_eq!(
            field_of(r#"{"position":"x","moves":[],"extra":1}"#).as_deref(),
            Some("extra")
        );
    }

    #[test]
    fn rejects_malformed_json_and_trailing_data() {
        for body in [
            "",
            "{",
            r#"{"position":"x","moves":[]} x"#,
            r#"{"position" "x"}"#,
        ] {
            match parse::<Body>(body.as_bytes()) {
                Err(error @ RequestError::Json { .. }) => {
                    let detail = error.to_string();
                    assert!(detail.starts_with("malformed JSON"), "{body}: {detail}")
                }
                other => panic!("{body}: {other:?}"),
            }
        }
    }
}
