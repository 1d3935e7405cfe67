//! Request ids: every answer carries `X-Request-Id` (the client's own when
//! it is well-formed, else one the server made), a problem names it as its
//! `instance`, and the access log's line about the request carries it.

use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::common::{assert_problem, send, Reply, INITIAL};
use actix_web::test::{self, TestRequest};
use serde_json::{json, Value};
use tank_rules::access_log::AccessLog;
use tank_rules::api::AppState;
use tank_rules::cache::CacheConfig;
use tank_rules::limits::Limits;

/// An access log's output, kept in memory.
#[derive(Clone, Default)]
struct Kept(Arc<Mutex<Vec<u8>>>);

impl Write for Kept {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Kept {
    /// The log's lines once `count` of them are written (the writer is a
    /// thread of its own).
    fn lines(&self, count: usize) -> Vec<Value> {
        for _ in 0..400 {
            let text = String::from_utf8(self.0.lock().unwrap().clone()).unwrap();
            let lines: Vec<Value> = text
                .lines()
                .map(|line| serde_json::from_str(line).unwrap())
                .collect();
            if lines.len() >= count {
                return lines;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        panic!("the access log did not write {count} lines");
    }
}

fn id_of(reply: &Reply) -> String {
    let id = reply.headers.get("x-request-id").expect("X-Request-Id");
    id.to_str().unwrap().to_owned()
}

fn score(position: &str) -> TestRequest {
    TestRequest::post()
        .uri("/v1/tank-battle/score")
        .set_json(json!({ "position": position }))
}

#[actix_web::test]
async fn the_id_is_in_the_answer_the_problem_and_the_log() {
    let kept = Kept::default();
    let state = AppState::new(Limits::default(), CacheConfig::default());
    let log = AccessLog::start(kept.clone(), 100, state.metrics.clone()).unwrap();
    let state = AppState {
        access_log: Some(log),
        ..state
    };
    let app = test::init_service(tank_rules::api::app(state)).await;

    // A client's own well-formed id is kept, in the answer and the log.
    let ok = send(
        &app,
        score(INITIAL).insert_header(("X-Request-Id", "site-42:a.b_c")),
    )
    .await;
    assert_eq!(ok.status, 200, "{ok:?}");
    assert_eq!(id_of(&ok), "site-42:a.b_c");

    // A problem names the request as its instance.
    let bad = send(&app, score("not a position")).await;
    assert_problem(&bad, 400, "BAD_POSITION");
    let generated = id_of(&bad);
    assert_ne!(generated, "site-42:a.b_c");

    // An id that is not well-formed (or too long) is replaced.
    for unusable in ["has space", "quote\"", &"x".repeat(65)] {
        let reply = send(
            &app,
            score(INITIAL).insert_header(("X-Request-Id", unusable)),
        )
        .await;
        let id = id_of(&reply);
        assert_ne!(id, unusable);
        assert!(
            id.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-.:_".contains(&b)),
            "{id}"
        );
    }

    // Routing's and the layers' answers carry one too.
    let missing = send(&app, TestRequest::get().uri("/v1/no-such-game/initial")).await;
    assert_problem(&missing, 404, "NOT_FOUND");
    let health = send(&app, TestRequest::get().uri("/healthz")).await;
    assert!(!id_of(&health).is_empty());

    // The log has one line a request, each with its id.
    let lines = kept.lines(7);
    assert_eq!(lines.len(), 7, "{lines:?}");
    let first = &lines[0];
    assert_eq!(first["request_id"], "site-42:a.b_c", "{first}");
    assert_eq!(first["method"], "POST");
    assert_eq!(first["route"], "/v1/tank-battle/score");
    assert_eq!(first["status"], 200);
    assert!(first["bytes"].as_u64().unwrap() > 0, "{first}");
    assert!(first["us"].is_u64(), "{first}");
    assert!(first["client"].is_string(), "{first}");
    assert_eq!(lines[1]["request_id"].as_str(), Some(generated.as_str()));
    assert_eq!(lines[1]["status"], 400);
    assert_eq!(lines[5]["status"], 404);
    assert_eq!(lines[5]["route"], "UNMATCHED");
}

/// A score request whose body arrives later, fed by the test through the
/// returned function (`None`: the body's end).
fn score_fed_later(length: usize) -> (impl FnMut(Option<&[u8]>), actix_http::Request) {
    let (mut sender, payload) = actix_http::h1::Payload::create(false);
    let feed = move |chunk: Option<&[u8]>| match chunk {
        Some(bytes) => sender.feed_data(bytes.to_vec().into()),
        None => sender.feed_eof(),
    };
    let req = TestRequest::post()
        .uri("/v1/tank-battle/score")
        .insert_header(("content-type", "application/json"))
        .insert_header(("content-length", length.to_string()))
        .to_request();
    let (req, _) = req.replace_payload(actix_http::Payload::from(payload));
    (feed, req)
}

#[actix_web::test]
async fn a_body_in_several_chunks_is_read_whole() {
    let app = test::init_service(tank_rules::api::app(AppState::new(
        Limits::default(),
        CacheConfig::default(),
    )))
    .await;
    let body = json!({ "position": INITIAL }).to_string();
    let (mut send_body, req) = score_fed_later(body.len());
    let chunks: Vec<Vec<u8>> = body.as_bytes().chunks(7).map(<[u8]>::to_vec).collect();
    assert!(chunks.len() > 3);
    let feed = async move {
        for chunk in chunks {
            // Each chunk in a turn of its own: the reader has to wait.
            actix_web::rt::task::yield_now().await;
            send_body(Some(&chunk));
        }
        send_body(None);
    };
    let (resp, ()) = futures_util::future::join(test::call_service(&app, req), feed).await;
    assert_eq!(resp.status(), 200);
    let answer: Value = serde_json::from_slice(&test::read_body(resp).await).unwrap();
    assert_eq!(
        answer["score"],
        json!({"white": 14, "black": 14}),
        "{answer}"
    );
}

#[actix_web::test]
async fn two_requests_interleaved_on_one_worker_keep_their_own_ids() {
    // One thread runs both: each request is polled while the other waits
    // for its body, so the id each problem names must be its own, not the
    // last one the thread saw.
    let app = test::init_service(tank_rules::api::app(AppState::new(
        Limits::default(),
        CacheConfig::default(),
    )))
    .await;
    let bad = b"{\"position\": 42}".to_vec();
    let (mut first_body, first) = score_fed_later(bad.len());
    let (mut second_body, second) = score_fed_later(bad.len());
    let feed = async move {
        actix_web::rt::task::yield_now().await;
        second_body(Some(&bad[..5]));
        actix_web::rt::task::yield_now().await;
        first_body(Some(&bad));
        first_body(None);
        actix_web::rt::task::yield_now().await;
        second_body(Some(&bad[5..]));
        second_body(None);
    };
    let (first, second, ()) = futures_util::future::join3(
        test::call_service(&app, first),
        test::call_service(&app, second),
        feed,
    )
    .await;
    let mut ids = Vec::new();
    for resp in [first, second] {
        assert_eq!(resp.status(), 400);
        let id = resp
            .headers()
            .get("x-request-id")
            .unwrap()
            .to_str()
            .unwrap()
            .to_owned();
        let problem: Value = serde_json::from_slice(&test::read_body(resp).await).unwrap();
        assert_eq!(problem["instance"], id.as_str(), "{problem}");
        ids.push(id);
    }
    assert_ne!(ids[0], ids[1]);
}
