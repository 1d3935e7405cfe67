//! Helpers shared by the HTTP tests.

#![allow(dead_code)]

use actix_web::body::MessageBody;
use actix_web::dev::{Service, ServiceResponse};
use actix_web::http::StatusCode;
use actix_web::test;
use serde_json::Value;
use tank_rules::api::AppState;
use tank_rules::cache::CacheConfig;
use tank_rules::limits::Limits;

pub const INITIAL: &str = "ctttt6/tttt7/ttt8/tt9/11/11/11/9TT/8TTT/7TTTT/6TTTTC w 0";

/// A response's status, content type and JSON body.
#[derive(Debug)]
pub struct Reply {
    pub status: StatusCode,
    pub content_type: String,
    pub headers: actix_web::http::header::HeaderMap,
    pub body: Value,
    /// The body as text (an NDJSON answer, an SVG).
    pub text: String,
}

pub async fn app_with(
    limits: Limits,
) -> impl Service<
    actix_http::Request,
    Response = ServiceResponse<impl MessageBody>,
    Error = actix_web::Error,
> {
    test::init_service(tank_rules::api::app(AppState::new(
        limits,
        CacheConfig::default(),
    )))
    .await
}

pub async fn send<S, B>(app: &S, req: test::TestRequest) -> Reply
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let resp = test::call_service(app, req.to_request()).await;
    let status = resp.status();
    let headers = resp.headers().clone();
    let content_type = headers
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    let bytes = test::read_body(resp).await;
    let body = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    Reply {
        status,
        content_type,
        headers,
        body,
        text: String::from_utf8_lossy(&bytes).into_owned(),
    }
}

pub async fn post<S, B>(app: &S, path: &str, body: Value) -> Reply
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    send(app, test::TestRequest::post().uri(path).set_json(body)).await
}

pub async fn get<S, B>(app: &S, path: &str) -> Reply
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    send(app, test::TestRequest::get().uri(path)).await
}

/// Percent-encodes a query value.
pub fn encode(value: &str) -> String {
    value
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// Asserts an RFC 9457 problem with `status` and `code`.
pub fn assert_problem(reply: &Reply, status: u16, code: &str) {
    assert_eq!(reply.status.as_u16(), status, "{reply:?}");
    assert_eq!(reply.content_type, "application/problem+json", "{reply:?}");
    assert_eq!(reply.body["code"], code, "{reply:?}");
    assert_eq!(reply.body["status"], status, "{reply:?}");
    for field in ["type", "title", "detail"] {
        assert!(reply.body[field].is_string(), "{field} missing: {reply:?}");
    }
}
