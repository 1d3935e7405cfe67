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

/// Tank Battle's initial position, as the engine writes it.
pub const INITIAL: &str = tank_rules::games::tank_battle::INITIAL_TBN;

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

/// The served games' ids, from the catalogue's one list
/// ([`tank_rules::api::catalogue::SERVED`]).
pub fn games() -> Vec<&'static str> {
    tank_rules::api::catalogue::SERVED
        .iter()
        .map(|game| game.id)
        .collect()
}

/// What a game's schema names start with: its id in Pascal case
/// (`TankBattle` for `tank-battle`).
pub fn schema_prefix(id: &str) -> String {
    id.split('-')
        .map(|word| {
            let mut chars = word.chars();
            chars
                .next()
                .map(|first| first.to_ascii_uppercase().to_string() + chars.as_str())
                .unwrap_or_default()
        })
        .collect()
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
    // The occurrence is the request, as its answer's `X-Request-Id` says.
    let id = reply
        .headers
        .get("x-request-id")
        .and_then(|v| v.to_str().ok());
    assert!(id.is_some(), "no X-Request-Id: {reply:?}");
    assert_eq!(reply.body["instance"].as_str(), id, "{reply:?}");
}

/// Whether a test that needs Redis must run: `REQUIRE_REDIS` set to
/// anything but empty or `0` (CI sets `REQUIRE_REDIS=1`), or the older
/// `TANK_RULES_TEST_REDIS=required`.
pub fn redis_required() -> bool {
    std::env::var("REQUIRE_REDIS").is_ok_and(|v| !v.is_empty() && v != "0")
        || std::env::var("TANK_RULES_TEST_REDIS").is_ok_and(|v| v == "required")
}

/// Says that the Redis test `test` did not run, and why, where `cargo
/// test` shows it (straight to standard error: libtest captures only
/// `print!` and `eprint!`); fails it instead when [`redis_required`].
/// Every Redis test that cannot run comes here.
pub fn skipped(test: &str, why: &str) {
    use std::io::Write;
    if redis_required() {
        panic!("{test} could not run ({why}), and a Redis test must run (REQUIRE_REDIS)");
    }
    let _ = writeln!(std::io::stderr(), "SKIPPED {test}: {why}");
}

/// A real Redis for `test` ([`redis_server`]), or `None` when there is
/// none, said as [`skipped`] says it.
pub fn redis_for(test: &str) -> Option<RedisServer> {
    let server = redis_server();
    if server.is_none() {
        skipped(test, "no REDIS_URL and no redis-server to start");
    }
    server
}

/// A real Redis for a test: `REDIS_URL` when set, else a `redis-server`
/// started on a free loopback port (stopped when this is dropped); `None`
/// when neither is there (the caller says it skipped: [`redis_for`]).
/// Tests take it through [`redis_for`] only.
pub struct RedisServer {
    pub url: String,
    child: Option<std::process::Child>,
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        if let Some(child) = &mut self.child {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

fn redis_server() -> Option<RedisServer> {
    use std::io::{Read, Write};
    if let Ok(url) = std::env::var("REDIS_URL") {
        return Some(RedisServer { url, child: None });
    }
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .ok()?
        .local_addr()
        .ok()?
        .port();
    let child = std::process::Command::new("redis-server")
        .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
        .args(["--save", "", "--appendonly", "no", "--loglevel", "warning"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .ok()?;
    let server = RedisServer {
        url: format!("redis://127.0.0.1:{port}/0"),
        child: Some(child),
    };
    for _ in 0..100 {
        if let Ok(mut stream) = std::net::TcpStream::connect(("127.0.0.1", port)) {
            let mut pong = [0u8; 7];
            if stream.write_all(b"PING\r\n").is_ok() && stream.read_exact(&mut pong).is_ok() {
                return Some(server);
            }
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    None
}

/// A public server ([`tank_rules::server::public`]) on a free loopback
/// port, stopped when dropped.
pub struct Server {
    pub port: u16,
    pub metrics: tank_rules::metrics::Metrics,
    handle: actix_server::ServerHandle,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Server {
    /// The server with one worker, 16 connections and the default limits.
    pub fn start() -> Server {
        Server::with(Server::settings(), Limits::default())
    }

    /// The settings [`Server::start`] uses.
    pub fn settings() -> tank_rules::server::Settings {
        tank_rules::server::Settings {
            workers: 1,
            max_connections: 16,
            request_timeout: std::time::Duration::from_secs(5),
            shutdown_timeout_secs: 1,
            body_limit: Limits::default().body_bytes,
        }
    }

    /// The server with `settings`, serving with `limits`.
    pub fn with(settings: tank_rules::server::Settings, limits: Limits) -> Server {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let state = AppState::new(limits, CacheConfig::default());
        let metrics = state.metrics.clone();
        let (sender, receiver) = std::sync::mpsc::channel();
        let thread = std::thread::spawn(move || {
            actix_web::rt::System::new().block_on(async move {
                let server =
                    tank_rules::server::public(("127.0.0.1", port), state, &settings).unwrap();
                sender.send(server.handle()).unwrap();
                let _ = server.await;
            });
        });
        let handle = receiver.recv().unwrap();
        Server {
            port,
            metrics,
            handle,
            thread: Some(thread),
        }
    }

    /// A connection with a read deadline (a test that waits in vain fails
    /// rather than hangs).
    pub fn connect(&self) -> std::net::TcpStream {
        let stream = std::net::TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        stream
            .set_read_timeout(Some(std::time::Duration::from_secs(10)))
            .unwrap();
        stream
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let stop = self.handle.stop(false);
        drop(stop);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The sum of the series of metric `name` with all of `labels` in the
/// app's scrape (0 when there are none).
pub async fn metric<S, B>(app: &S, name: &str, labels: &[(&str, &str)]) -> f64
where
    S: actix_web::dev::Service<
        actix_http::Request,
        Response = actix_web::dev::ServiceResponse<B>,
        Error = actix_web::Error,
    >,
    B: actix_web::body::MessageBody,
{
    let resp = test::call_service(app, test::TestRequest::get().uri("/metrics").to_request()).await;
    let text = String::from_utf8(test::read_body(resp).await.to_vec()).unwrap();
    text.lines()
        .filter(|line| line.starts_with(&format!("{name}{{")))
        .filter(|line| {
            labels
                .iter()
                .all(|(label, value)| line.contains(&format!("{label}=\"{value}\"")))
        })
        .filter_map(|line| line.rsplit_once(' ')?.1.parse::<f64>().ok())
        .sum()
}

/// The query string an OpenAPI operation's parameter examples make
/// (`name=value&…`, percent-encoded; empty when none has one).
pub fn example_query(op: &Value) -> String {
    let pairs: Vec<String> = op["parameters"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|p| p["in"] == "query")
        .filter_map(|p| {
            let value = match &p["example"] {
                Value::String(text) => text.clone(),
                Value::Null => return None,
                other => other.to_string(),
            };
            Some(format!("{}={}", p["name"].as_str()?, encode(&value)))
        })
        .collect();
    pairs.join("&")
}
