//! What the replicas share in Redis: the AI cache tier (two processes share
//! answers; a value is served only when it is exactly an answer, legal for
//! its request) and the quotas (two processes count one client together),
//! under the configured key prefix; a Redis that hangs or lies never fails
//! or slows a request beyond the link's deadline; and a password in the
//! Redis URL is never logged. The real-Redis tests run against
//! `REDIS_URL`, or a `redis-server` they start, and say they skipped when
//! there is neither; the failure tests use fake servers.

use crate::common;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::time::Duration;

use actix_web::test;
use serde_json::{json, Value};
use tank_rules::api::AppState;
use tank_rules::cache::CacheConfig;
use tank_rules::fair_use::{FairUse, FairUseConfig, Quotas};
use tank_rules::limits::Limits;
use tank_rules::redis::{Link, LinkConfig};

const INITIAL: &str = common::INITIAL;

/// A replica's state sharing the Redis at `url`, its calls given
/// `timeout_ms`, its keys under the default prefix.
fn sharing(state: AppState, url: &str, timeout_ms: u64) -> AppState {
    sharing_under(state, url, timeout_ms, LinkConfig::DEFAULT_PREFIX)
}

/// A replica's state sharing the Redis at `url`, its keys under `prefix`.
fn sharing_under(state: AppState, url: &str, timeout_ms: u64, prefix: &str) -> AppState {
    let config = LinkConfig::new(url, Duration::from_millis(timeout_ms)).with_prefix(prefix);
    let link = Link::start(config).unwrap();
    state.with_redis(link, Duration::from_secs(60))
}

/// A key prefix no earlier run used, so that a test sees only its own keys
/// even in a shared Redis.
fn fresh_prefix(test: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    format!("test-{test}-{nanos}:")
}

fn replica() -> AppState {
    AppState::new(Limits::default(), CacheConfig::default())
}

/// A fake Redis on a free port that reads whatever it is sent and never
/// answers.
fn silent_redis() -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for mut stream in listener.incoming().flatten() {
            std::thread::spawn(move || {
                let mut buffer = [0u8; 4096];
                while stream.read(&mut buffer).is_ok_and(|n| n > 0) {}
            });
        }
    });
    addr
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
    let labels = [("tier", tier), ("result", result)];
    metric(app, "tank_rules_ai_cache_lookups_total", &labels).await
}

/// The sum of the series of metric `name` with all of `labels`.
async fn metric<S, B>(app: &S, name: &str, labels: &[(&str, &str)]) -> f64
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

fn ai_request(seed: u64) -> test::TestRequest {
    test::TestRequest::post()
        .uri("/v1/tank-battle/ai-move")
        .set_json(json!({"position": INITIAL, "limits": {"max_depth": 2}, "seed": seed}))
}

#[actix_web::test]
async fn a_redis_that_never_answers_is_given_up_on_at_its_deadline() {
    let addr = silent_redis();
    let state = sharing(replica(), &format!("redis://{addr}"), 50);
    let app = test::init_service(tank_rules::api::app(state)).await;
    // The silent Redis never answers: the request completes only because
    // the look-up gives up at its deadline (the bound here catches a hang,
    // it does not time the request).
    let reply =
        actix_web::rt::time::timeout(Duration::from_secs(60), common::send(&app, ai_request(1)))
            .await
            .expect("the request waited on a Redis that never answers");
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(reply.body["cached"], false);
    assert!(lookups(&app, "redis", "error").await >= 1.0);
    // The in-process tier still works.
    let again = common::send(&app, ai_request(1)).await;
    assert_eq!(again.body["cached"], true);
}

/// The names of the commands (RESP arrays of bulk strings) that `buffer`
/// holds whole, and how many bytes they take.
fn commands(buffer: &[u8]) -> (Vec<String>, usize) {
    fn line(buffer: &[u8], at: usize) -> Option<(usize, usize)> {
        let end = at + buffer.get(at..)?.windows(2).position(|w| w == b"\r\n")?;
        let number = std::str::from_utf8(buffer.get(at + 1..end)?).ok()?;
        Some((number.parse().ok()?, end + 2))
    }
    let (mut names, mut used) = (Vec::new(), 0);
    'commands: while let Some((parts, mut at)) = line(buffer, used) {
        let mut name = String::new();
        for part in 0..parts {
            let Some((length, start)) = line(buffer, at) else {
                break 'commands;
            };
            let Some(bytes) = buffer.get(start..start + length) else {
                break 'commands;
            };
            if part == 0 {
                name = String::from_utf8_lossy(bytes).to_uppercase();
            }
            at = start + length + 2;
        }
        if at > buffer.len() {
            break;
        }
        names.push(name);
        used = at;
    }
    (names, used)
}

/// A fake Redis on a free port that lies: `GET` finds `value`, which is no
/// answer; any other command is `OK`.
fn lying_redis(value: &'static [u8]) -> SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for mut stream in listener.incoming().flatten() {
            std::thread::spawn(move || {
                let (mut buffer, mut chunk) = (Vec::new(), [0u8; 4096]);
                while let Ok(n) = stream.read(&mut chunk) {
                    if n == 0 {
                        return;
                    }
                    buffer.extend_from_slice(&chunk[..n]);
                    let (names, used) = commands(&buffer);
                    buffer.drain(..used);
                    for name in names {
                        let reply = if name == "GET" {
                            [format!("${}\r\n", value.len()).as_bytes(), value, b"\r\n"].concat()
                        } else {
                            b"+OK\r\n".to_vec()
                        };
                        if stream.write_all(&reply).is_err() {
                            return;
                        }
                    }
                }
            });
        }
    });
    addr
}

#[actix_web::test]
async fn a_redis_that_lies_is_ignored() {
    let addr = lying_redis(b"hello");
    let state = sharing(replica(), &format!("redis://{addr}"), 200);
    let app = test::init_service(tank_rules::api::app(state)).await;
    let reply = common::send(&app, ai_request(2)).await;
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(reply.body["cached"], false);
    assert!(reply.body["move"].is_string());
    assert!(lookups(&app, "redis", "rejected").await >= 1.0);
}

#[actix_web::test]
async fn two_processes_share_answers_through_redis() {
    let Some(redis) = common::redis_server() else {
        eprintln!("skipped: no REDIS_URL and no redis-server to start");
        return;
    };
    let url = &redis.url;
    let a = test::init_service(tank_rules::api::app(sharing(replica(), url, 500))).await;
    // A seed no earlier run used, so the answer is new to Redis.
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64;
    let first = common::send(&a, ai_request(seed)).await;
    assert_eq!(first.body["cached"], false, "{first:?}");
    // The store is in the background: give it a moment. Each try is a new
    // replica, whose own tier is empty: what it finds, it found in Redis.
    let mut second = Value::Null;
    for _ in 0..50 {
        let b = test::init_service(tank_rules::api::app(sharing(replica(), url, 500))).await;
        second = common::send(&b, ai_request(seed)).await.body;
        if second["cached"] == true {
            assert_eq!(lookups(&b, "redis", "hit").await, 1.0);
            break;
        }
        actix_web::rt::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(second["cached"], true, "{second}");
    assert_eq!(second["move"], first.body["move"]);
}

/// A replica with a quota of `per_minute` requests for every client.
fn quota(per_minute: u32) -> AppState {
    replica().with_fair_use(FairUse::new(FairUseConfig {
        defaults: Quotas {
            requests_per_minute: per_minute,
            searches_per_minute: 0,
        },
        ..FairUseConfig::default()
    }))
}

/// How many of `n` `score` calls, alternating between `replicas`, were
/// answered 200 and how many 429.
async fn spend<S, B>(replicas: &[&S], n: usize) -> (usize, usize)
where
    S: actix_web::dev::Service<
        actix_http::Request,
        Response = actix_web::dev::ServiceResponse<B>,
        Error = actix_web::Error,
    >,
    B: actix_web::body::MessageBody,
{
    let (mut ok, mut limited) = (0, 0);
    for i in 0..n {
        let request = test::TestRequest::post()
            .uri("/v1/tank-battle/score")
            .peer_addr("203.0.113.7:4000".parse().unwrap())
            .set_json(json!({ "position": INITIAL }));
        match common::send(replicas[i % replicas.len()], request)
            .await
            .status
            .as_u16()
        {
            200 => ok += 1,
            429 => limited += 1,
            other => panic!("status {other}"),
        }
    }
    (ok, limited)
}

#[actix_web::test]
async fn two_processes_count_one_quota_through_redis() {
    let Some(redis) = common::redis_server() else {
        eprintln!("skipped: no REDIS_URL and no redis-server to start");
        return;
    };
    // A fresh prefix per run, so an earlier run's count is not this one's.
    let prefix = fresh_prefix("quota");
    let replica = || sharing_under(quota(10), &redis.url, 500, &prefix);
    let a = test::init_service(tank_rules::api::app(replica())).await;
    let b = test::init_service(tank_rules::api::app(replica())).await;
    // Alone, each would let 10 through: together, the fleet's 10.
    let (ok, limited) = spend(&[&a, &b], 30).await;
    assert_eq!((ok, limited), (10, 20));
    // Counted under the prefix.
    let mut connection = redis_connection(&redis.url);
    let key = format!("{prefix}quota:requests:a:203.0.113.7");
    let exists: bool = redis::cmd("EXISTS")
        .arg(&key)
        .query(&mut connection)
        .unwrap();
    assert!(exists, "no {key}");
}

/// A plain connection to the Redis at `url`, for a test to look and write.
fn redis_connection(url: &str) -> redis::Connection {
    redis::Client::open(url).unwrap().get_connection().unwrap()
}

#[actix_web::test]
async fn without_redis_each_process_counts_alone() {
    // A Redis that never answers: every check is decided by the replica
    // alone (the first after waiting its 50 ms, the next at once while the
    // link rests).
    let addr = silent_redis();
    let url = format!("redis://{addr}");
    let a = test::init_service(tank_rules::api::app(sharing(quota(10), &url, 50))).await;
    let b = test::init_service(tank_rules::api::app(sharing(quota(10), &url, 50))).await;
    let (ok, limited) = spend(&[&a, &b], 30).await;
    assert_eq!((ok, limited), (20, 10), "each replica its own 10");
    let decided_alone = |app| {
        metric(
            app,
            "tank_rules_quota_checks_total",
            &[("result", "fallback")],
        )
    };
    let in_fleet = |app| metric(app, "tank_rules_quota_checks_total", &[("result", "fleet")]);
    assert_eq!(decided_alone(&a).await + decided_alone(&b).await, 30.0);
    assert_eq!(in_fleet(&a).await + in_fleet(&b).await, 0.0);
}

/// The answer without the fields that say how it was served.
fn content(mut answer: Value) -> Value {
    if let Some(object) = answer.as_object_mut() {
        object.remove("time_ms");
        object.remove("cached");
    }
    answer
}

/// A way to spoil a stored answer, named for the failure message.
type Spoil = (&'static str, fn(&mut Value));

/// Lets a replica store its answer to `request` (at `path`) in the Redis
/// at `url`, then, for each of `spoils`, writes that answer spoiled under
/// the same key and asks a new replica (its own tier empty): the value is
/// not served (the replica searches, answering what the first did) and is
/// counted `rejected`. Last, the answer as it was stored is served from
/// Redis (`"cached": true`).
async fn shared_values_are_checked(url: &str, path: &str, request: Value, spoils: &[Spoil]) {
    let prefix = fresh_prefix("checked");
    let ask = |state: AppState| {
        let request = request.clone();
        async move {
            let app = test::init_service(tank_rules::api::app(state)).await;
            let reply = common::post(&app, path, request).await;
            assert_eq!(reply.status, 200, "{reply:?}");
            let rejected = lookups(&app, "redis", "rejected").await;
            let hits = lookups(&app, "redis", "hit").await;
            (reply.body, rejected, hits)
        }
    };
    let (first, _, _) = ask(sharing_under(replica(), url, 500, &prefix)).await;
    assert_eq!(first["cached"], false, "{first}");

    // The stored answer, under the one key the request has.
    let mut connection = redis_connection(url);
    let mut keys: Vec<String> = Vec::new();
    for _ in 0..100 {
        keys = redis::cmd("KEYS")
            .arg(format!("{prefix}*"))
            .query(&mut connection)
            .unwrap();
        if !keys.is_empty() {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(keys.len(), 1, "{keys:?}");
    let key = keys[0].clone();
    assert!(key.starts_with(&format!("{prefix}ai:")), "{key}");
    let stored: Vec<u8> = redis::cmd("GET").arg(&key).query(&mut connection).unwrap();
    let answer: Value = serde_json::from_slice(&stored).unwrap();
    // Written back from its JSON value, the answer is the same bytes: a
    // spoiled value differs from it only by its spoiling.
    assert_eq!(serde_json::to_vec(&answer).unwrap(), stored);

    for (what, spoil) in spoils {
        let mut spoiled = answer.clone();
        spoil(&mut spoiled);
        let spoiled = serde_json::to_vec(&spoiled).unwrap();
        assert_ne!(spoiled, stored, "{what}: not spoiled");
        let _: () = redis::cmd("SET")
            .arg(&key)
            .arg(&spoiled)
            .query(&mut connection)
            .unwrap();
        let (reply, rejected, hits) = ask(sharing_under(replica(), url, 500, &prefix)).await;
        assert_eq!(reply["cached"], false, "{what}: served {reply}");
        assert_eq!(content(reply), content(first.clone()), "{what}");
        assert_eq!((rejected, hits), (1.0, 0.0), "{what}");
        // The replica stores its own answer again, in the background:
        // wait for it, so that it does not overwrite the next spoiling.
        for _ in 0..100 {
            let now: Vec<u8> = redis::cmd("GET").arg(&key).query(&mut connection).unwrap();
            if now != spoiled {
                break;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    let _: () = redis::cmd("SET")
        .arg(&key)
        .arg(&stored)
        .query(&mut connection)
        .unwrap();
    let (reply, rejected, hits) = ask(sharing_under(replica(), url, 500, &prefix)).await;
    assert_eq!(reply["cached"], true, "{reply}");
    assert_eq!(content(reply), content(first));
    assert_eq!((rejected, hits), (0.0, 1.0));
}

/// A move of the start position's empty middle: never legal there.
const ILLEGAL: &str = "f6-f7";

#[actix_web::test]
async fn tank_battle_answers_from_redis_are_checked() {
    let Some(redis) = common::redis_server() else {
        eprintln!("skipped: no REDIS_URL and no redis-server to start");
        return;
    };
    let spoils: &[Spoil] = &[
        ("an extra field", |a| a["extra"] = json!("x")),
        ("an extra field in a line", |a| {
            a["lines"][0]["extra"] = json!(1)
        }),
        ("a field missing", |a| {
            a.as_object_mut().unwrap().remove("nodes");
        }),
        ("not marked cached", |a| a["cached"] = json!(false)),
        ("a field of another type", |a| a["depth"] = json!("1")),
        ("an illegal move", |a| a["move"] = json!(ILLEGAL)),
        ("an illegal first move of the pv", |a| {
            a["pv"][0] = json!(ILLEGAL)
        }),
        ("an illegal move of a line", |a| {
            a["lines"][0]["move"] = json!(ILLEGAL)
        }),
        ("a move that does not parse", |a| a["move"] = json!("k4k9")),
        ("not an answer", |a| *a = json!([1, 2, 3])),
    ];
    shared_values_are_checked(
        &redis.url,
        "/v1/tank-battle/ai-move",
        json!({"position": INITIAL, "limits": {"max_depth": 2}, "seed": 3}),
        spoils,
    )
    .await;
}

#[actix_web::test]
async fn tank_war_answers_from_redis_are_checked() {
    let Some(redis) = common::redis_server() else {
        eprintln!("skipped: no REDIS_URL and no redis-server to start");
        return;
    };
    let app = test::init_service(tank_rules::api::app(replica())).await;
    let mut state = common::get(&app, "/v1/tank-war/initial").await.body;
    // D's LC two squares on, to a5: U's RC (on a6) is blocked.
    assert_eq!(state["tanks"][6]["owner"], "D", "{state}");
    assert_eq!(state["tanks"][6]["track"][4], "a5", "{state}");
    state["tanks"][6]["at"] = json!(4);
    let legal = common::post(
        &app,
        "/v1/tank-war/legal-moves",
        json!({"state": state, "player": "U"}),
    )
    .await;
    assert_eq!(
        legal.body["U"],
        json!(["LA", "LB", "LC", "RA", "RB"]),
        "{legal:?}"
    );
    let spoils: &[Spoil] = &[
        ("an extra field", |a| a["extra"] = json!(null)),
        ("a blocked tank", |a| a["move"] = json!("RC")),
        ("no such tank", |a| a["move"] = json!("ZZ")),
        ("a blocked tank in the strategy", |a| {
            a["strategy"][0]["move"] = json!("RC")
        }),
        ("an extra field in the strategy", |a| {
            a["strategy"][0]["extra"] = json!(true)
        }),
    ];
    shared_values_are_checked(
        &redis.url,
        "/v1/tank-war/ai-move",
        json!({"state": state, "player": "U", "limits": {"max_depth": 1}, "seed": 3}),
        spoils,
    )
    .await;
}

#[actix_web::test]
async fn cobi_tank_wars_answers_from_redis_are_checked() {
    let Some(redis) = common::redis_server() else {
        eprintln!("skipped: no REDIS_URL and no redis-server to start");
        return;
    };
    let app = test::init_service(tank_rules::api::app(replica())).await;
    let state = common::get(&app, "/v1/cobi-tank-wars/initial").await.body;
    /// The orders' first vehicle.
    fn first(orders: &mut Value) -> String {
        orders.as_object().unwrap().keys().next().unwrap().clone()
    }
    let spoils: &[Spoil] = &[
        ("an extra field", |a| a["extra"] = json!(0)),
        ("an order for the other player's vehicle", |a| {
            let id = first(&mut a["orders"]);
            let order = a["orders"].as_object_mut().unwrap().remove(&id).unwrap();
            a["orders"]["P2-1"] = order;
        }),
        ("a vehicle without an order", |a| {
            let id = first(&mut a["orders"]);
            a["orders"].as_object_mut().unwrap().remove(&id);
        }),
        ("a distance of 4", |a| {
            let id = first(&mut a["orders"]);
            a["orders"][id]["dist"] = json!(4);
        }),
        ("a line's orders for a vehicle without an order", |a| {
            let id = first(&mut a["lines"][0]["orders"]);
            a["lines"][0]["orders"].as_object_mut().unwrap().remove(&id);
        }),
        ("gunfire off the board", |a| {
            a["gunfire"] = json!([{"square": "z99", "probability": 0.5}])
        }),
    ];
    shared_values_are_checked(
        &redis.url,
        "/v1/cobi-tank-wars/ai-move",
        json!({"state": state, "player": "P1", "limits": {"max_nodes": 2000}, "seed": 4}),
        spoils,
    )
    .await;
}

/// A loopback port nothing listens on (it was free a moment ago).
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Everything `stream` writes, read on a thread until it closes.
fn collect(mut stream: impl Read + Send + 'static) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = stream.read_to_end(&mut bytes);
        String::from_utf8_lossy(&bytes).into_owned()
    })
}

// A plain test (`test` here is actix's module): it runs a process.
#[::core::prelude::v1::test]
fn a_password_in_the_redis_url_is_never_logged() {
    const SECRET: &str = "s3cretPassw0rd";
    let redis_port = free_port();
    let port = free_port();
    let mut server = std::process::Command::new(env!("CARGO_BIN_EXE_tank-rules"))
        .args(["--addr", &format!("127.0.0.1:{port}"), "--workers", "1"])
        .args([
            "--redis-url",
            &format!("redis://:{SECRET}@127.0.0.1:{redis_port}/0"),
        ])
        .args(["--redis-timeout-ms", "5"])
        // Every line, down to debug (redis-rs's own included).
        .env("RUST_LOG", "debug")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = collect(server.stdout.take().unwrap());
    let stderr = collect(server.stderr.take().unwrap());
    // An `ai-move` consults the Redis tier, which is not there: a failure
    // logged with the URL.
    let mut answer = String::new();
    for _ in 0..500 {
        if let Ok(mut stream) = TcpStream::connect(("127.0.0.1", port)) {
            let body = json!({"position": INITIAL, "limits": {"max_depth": 1}}).to_string();
            let request = format!(
                "POST /v1/tank-battle/ai-move HTTP/1.1\r\nHost: localhost\r\n\
                 Content-Type: application/json\r\nContent-Length: {}\r\n\
                 Connection: close\r\n\r\n{body}",
                body.len()
            );
            stream.write_all(request.as_bytes()).unwrap();
            stream.read_to_string(&mut answer).unwrap();
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = server.kill();
    let _ = server.wait();
    let log = format!("{}{}", stdout.join().unwrap(), stderr.join().unwrap());
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}\n{log}");
    assert!(
        log.contains("Redis failed"),
        "no Redis failure logged:\n{log}"
    );
    assert!(!log.contains(SECRET), "the password is in the log:\n{log}");
    // The place is shown, and so the log is the one that would hold it.
    assert!(
        log.contains(&format!("redis://127.0.0.1:{redis_port}/0")),
        "{log}"
    );
    eprintln!("{} log lines, none with the password", log.lines().count());
}

#[::core::prelude::v1::test]
fn help_does_not_show_the_redis_url_of_the_environment() {
    let help = std::process::Command::new(env!("CARGO_BIN_EXE_tank-rules"))
        .arg("--help")
        .env(
            "TANK_RULES_REDIS_URL",
            "redis://:s3cretPassw0rd@127.0.0.1:1/0",
        )
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&help.stdout);
    assert!(text.contains("TANK_RULES_REDIS_URL"), "{text}");
    assert!(!text.contains("s3cretPassw0rd"), "{text}");
}

/// A `redis-server` speaking only TLS (a self-signed certificate made by
/// `openssl`) and wanting a password, on a free loopback port; stopped and
/// its files removed when dropped.
struct TlsRedis {
    /// `rediss://:<password>@127.0.0.1:<port>/0#insecure`: the certificate
    /// is self-signed, so it is not verified.
    url: String,
    child: std::process::Child,
    dir: std::path::PathBuf,
}

impl Drop for TlsRedis {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Starts a [`TlsRedis`], or says why it cannot: no `openssl`, no
/// `redis-server`, or one built without TLS.
fn tls_redis_server() -> Result<TlsRedis, String> {
    use std::process::{Command, Stdio};
    let dir = std::env::temp_dir().join(fresh_prefix("tls").trim_end_matches(':'));
    std::fs::create_dir_all(&dir).map_err(|e| format!("no temporary folder: {e}"))?;
    let made = Command::new("openssl")
        .args([
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
        ])
        .args([
            "-subj",
            "/CN=localhost",
            "-keyout",
            "key.pem",
            "-out",
            "cert.pem",
        ])
        .current_dir(&dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    if !made.is_ok_and(|status| status.success()) {
        let _ = std::fs::remove_dir_all(&dir);
        return Err("no openssl to make a certificate".to_owned());
    }
    let port = free_port();
    let child = Command::new("redis-server")
        .args([
            "--port",
            "0",
            "--tls-port",
            &port.to_string(),
            "--bind",
            "127.0.0.1",
        ])
        .args(["--tls-cert-file", "cert.pem", "--tls-key-file", "key.pem"])
        .args(["--tls-ca-cert-file", "cert.pem", "--tls-auth-clients", "no"])
        .args(["--requirepass", "tls-s3cret"])
        .args(["--save", "", "--appendonly", "no", "--loglevel", "warning"])
        .current_dir(&dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn();
    let child = match child {
        Ok(child) => child,
        Err(e) => {
            let _ = std::fs::remove_dir_all(&dir);
            return Err(format!("no redis-server: {e}"));
        }
    };
    let mut server = TlsRedis {
        url: format!("rediss://:tls-s3cret@127.0.0.1:{port}/0#insecure"),
        child,
        dir,
    };
    for _ in 0..250 {
        if let Ok(Some(status)) = server.child.try_wait() {
            return Err(format!("redis-server without TLS: it stopped ({status})"));
        }
        if TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return Ok(server);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    Err("redis-server did not listen".to_owned())
}

#[actix_web::test]
async fn two_processes_share_answers_through_redis_over_tls() {
    let redis = match tls_redis_server() {
        Ok(redis) => redis,
        Err(why) => {
            eprintln!("skipped: {why}");
            return;
        }
    };
    let prefix = fresh_prefix("tls");
    let replica = || sharing_under(replica(), &redis.url, 2_000, &prefix);
    let a = test::init_service(tank_rules::api::app(replica())).await;
    let first = common::send(&a, ai_request(7)).await;
    assert_eq!(first.body["cached"], false, "{first:?}");
    assert_eq!(
        lookups(&a, "redis", "miss").await,
        1.0,
        "no answer over TLS"
    );
    // Each try a new replica, its own tier empty: a hit is Redis's.
    let mut second = Value::Null;
    for _ in 0..50 {
        let b = test::init_service(tank_rules::api::app(replica())).await;
        second = common::send(&b, ai_request(7)).await.body;
        if second["cached"] == true {
            assert_eq!(lookups(&b, "redis", "hit").await, 1.0);
            break;
        }
        actix_web::rt::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(second["cached"], true, "{second}");
    assert_eq!(second["move"], first.body["move"]);
    eprintln!(
        "served over TLS from {}",
        tank_rules::redis::redacted(&redis.url)
    );
}
