//! The shared AI cache tier (Redis): two processes share answers, and a
//! Redis that hangs or lies never fails or slows a request beyond the
//! tier's deadline. The real-Redis test runs when one is reachable
//! (`REDIS_URL`, else `redis://127.0.0.1:6379`) and says it skipped when
//! not; the failure tests use fake servers.

mod common;

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::time::{Duration, Instant};

use actix_web::test;
use serde_json::{json, Value};
use tank_rules::api::AppState;
use tank_rules::cache::{CacheConfig, SharedConfig, SharedTier};
use tank_rules::limits::Limits;

const INITIAL: &str = common::INITIAL;

fn tier(url: &str, timeout_ms: u64) -> SharedTier {
    SharedTier::start(SharedConfig {
        url: url.to_owned(),
        timeout: Duration::from_millis(timeout_ms),
        ttl: Duration::from_secs(60),
    })
    .unwrap()
}

/// A fake Redis on a free port: each connection gets `reply` (or nothing,
/// when `None`) to whatever it sends, forever.
fn fake_redis(reply: Option<&'static [u8]>) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            std::thread::spawn(move || serve_fake(stream, reply));
        }
    });
    addr
}

fn serve_fake(mut stream: TcpStream, reply: Option<&[u8]>) {
    let mut buffer = [0u8; 4096];
    while let Ok(n) = stream.read(&mut buffer) {
        if n == 0 {
            return;
        }
        if let Some(reply) = reply {
            if stream.write_all(reply).is_err() {
                return;
            }
        }
    }
}

/// The value of one `tank_rules_ai_cache_lookups_total` series.
async fn lookups<S, B>(app: &S, tier: &str, result: &str) -> f64
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
        .filter(|line| line.starts_with("tank_rules_ai_cache_lookups_total{"))
        .filter(|line| {
            line.contains(&format!("tier=\"{tier}\""))
                && line.contains(&format!("result=\"{result}\""))
        })
        .filter_map(|line| line.rsplit_once(' ')?.1.parse::<f64>().ok())
        .sum()
}

fn ai_request(seed: u64) -> test::TestRequest {
    test::TestRequest::post()
        .uri("/v1/tank-battle/ai-move")
        .set_json(json!({"position": INITIAL, "limits": {"max_depth": 2}, "seed": seed}))
}

#[actix_web::test]
async fn a_redis_that_never_answers_costs_only_its_deadline() {
    let addr = fake_redis(None);
    let state = AppState::new(Limits::default(), CacheConfig::default())
        .with_shared_cache(tier(&format!("redis://{addr}"), 50));
    let app = test::init_service(tank_rules::api::app(state)).await;
    let started = Instant::now();
    let reply = common::send(&app, ai_request(1)).await;
    let took = started.elapsed();
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(reply.body["cached"], false);
    // The look-up gives up after 50 ms; a depth-2 search takes a few ms.
    assert!(took < Duration::from_millis(1_000), "{took:?}");
    assert!(lookups(&app, "redis", "error").await >= 1.0);
    // The in-process tier still works.
    let again = common::send(&app, ai_request(1)).await;
    assert_eq!(again.body["cached"], true);
}

#[actix_web::test]
async fn a_redis_that_lies_is_ignored() {
    // Whatever is asked, a bulk string that is not an answer.
    let addr = fake_redis(Some(b"$5\r\nhello\r\n"));
    let state = AppState::new(Limits::default(), CacheConfig::default())
        .with_shared_cache(tier(&format!("redis://{addr}"), 200));
    let app = test::init_service(tank_rules::api::app(state)).await;
    let reply = common::send(&app, ai_request(2)).await;
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(reply.body["cached"], false);
    assert!(reply.body["move"].is_string());
    assert!(lookups(&app, "redis", "error").await >= 1.0);
}

#[actix_web::test]
async fn two_processes_share_answers_through_redis() {
    let url = std::env::var("REDIS_URL").unwrap_or_else(|_| "redis://127.0.0.1:6379".to_owned());
    let reachable = url
        .strip_prefix("redis://")
        .and_then(|rest| rest.split('/').next())
        .and_then(|host| host.parse::<SocketAddr>().ok())
        .is_some_and(|addr| TcpStream::connect_timeout(&addr, Duration::from_millis(200)).is_ok());
    if !reachable {
        eprintln!("skipped: no Redis reachable at {url} (set REDIS_URL to run this test)");
        return;
    }
    let replica = || {
        AppState::new(Limits::default(), CacheConfig::default()).with_shared_cache(tier(&url, 500))
    };
    let a = test::init_service(tank_rules::api::app(replica())).await;
    let b = test::init_service(tank_rules::api::app(replica())).await;
    // A seed no earlier run used, so the answer is new to Redis.
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64;
    let first = common::send(&a, ai_request(seed)).await;
    assert_eq!(first.body["cached"], false, "{first:?}");
    // The store is in the background: give it a moment.
    let mut second = Value::Null;
    for _ in 0..50 {
        second = common::send(&b, ai_request(seed)).await.body;
        if second["cached"] == true {
            break;
        }
        actix_web::rt::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(second["cached"], true, "{second}");
    assert_eq!(second["move"], first.body["move"]);
    assert!(lookups(&b, "redis", "hit").await >= 1.0);
}
