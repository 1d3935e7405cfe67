//! What the replicas share in Redis: the AI cache tier (two processes share
//! answers; a value is served only when it is sealed with the fleet's
//! secret under its key, no longer than the tier reads, and exactly an
//! answer, legal for its request; a rotation serves what the previous
//! secret sealed) and the quotas (two processes count one client together;
//! a forged state costs at most one window), under the configured key
//! prefix; a Redis that hangs or lies never fails or slows a request
//! beyond the link's deadline; a password in the Redis URL and the Redis
//! secret are never logged, and Redis without a secret refuses to start.
//! The real-Redis tests run against `REDIS_URL`, or a `redis-server` they
//! start (the TLS test, one speaking TLS), and say `SKIPPED` on standard
//! error when there is none, through `common::skipped` (or fail, with
//! `REQUIRE_REDIS=1`, as CI runs them); the failure tests use fake
//! servers.

use crate::common;
use crate::common::metric;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::time::Duration;

use actix_web::test;
use serde_json::{json, Value};
use tank_rules::api::AppState;
use tank_rules::cache::{CacheConfig, Seal, Secret};
use tank_rules::fair_use::{FairUse, FairUseConfig, Quotas};
use tank_rules::limits::Limits;
use tank_rules::redis::{Link, LinkConfig};

const INITIAL: &str = common::INITIAL;

/// A replica's state sharing the Redis at `url`, its calls given
/// `timeout_ms`, its keys under the default prefix.
fn sharing(state: AppState, url: &str, timeout_ms: u64) -> AppState {
    sharing_under(state, url, timeout_ms, LinkConfig::DEFAULT_PREFIX)
}

/// A replica's state sharing the Redis at `url`, its keys under `prefix`,
/// its answers sealed with [`SECRET`].
fn sharing_under(state: AppState, url: &str, timeout_ms: u64, prefix: &str) -> AppState {
    sealed_with(state, url, timeout_ms, prefix, seal(SECRET, None))
}

/// A replica's state sharing the Redis at `url`, its keys under `prefix`,
/// its answers sealed by `seal`.
fn sealed_with(state: AppState, url: &str, timeout_ms: u64, prefix: &str, seal: Seal) -> AppState {
    let config = LinkConfig::new(url, Duration::from_millis(timeout_ms)).with_prefix(prefix);
    let link = Link::start(config).unwrap();
    state.with_redis(link, seal, Duration::from_secs(60))
}

/// The Redis deadline of tests about what is served (not about time): one
/// a loopback Redis meets even on a machine loaded by the whole test run
/// (500 ms was missed there, the first command paying for the lazy
/// connection).
const ROOMY_MS: u64 = 5_000;

/// The fleet's secret in these tests.
const SECRET: &str = "shared-cache-test-secret-0123456789";

/// The seal of `secret` (and `previous`).
fn seal(secret: &str, previous: Option<&str>) -> Seal {
    let previous = previous.map(Secret::new);
    Seal::new(&Secret::new(secret), previous.as_ref()).unwrap()
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

/// A fake Redis on a free port that lies: `GET` and `GETRANGE` find
/// `value`, which is no answer; any other command is `OK`.
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
                        let reply = if name == "GET" || name == "GETRANGE" {
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
    let Some(redis) = common::redis_for("two_processes_share_answers_through_redis") else {
        return;
    };
    let url = &redis.url;
    let a = test::init_service(tank_rules::api::app(sharing(replica(), url, ROOMY_MS))).await;
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
        let b = test::init_service(tank_rules::api::app(sharing(replica(), url, ROOMY_MS))).await;
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
    let Some(redis) = common::redis_for("two_processes_count_one_quota_through_redis") else {
        return;
    };
    // A fresh prefix per run, so an earlier run's count is not this one's.
    let prefix = fresh_prefix("quota");
    let replica = || sharing_under(quota(10), &redis.url, ROOMY_MS, &prefix);
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

/// What a replica stored in Redis for one request: its answer as it
/// replied, the key and the stored value (the seal's tag, then the answer).
struct Stored {
    first: Value,
    key: String,
    value: Vec<u8>,
}

impl Stored {
    /// The answer in the stored value (after its tag), checked to be
    /// sealed with [`SECRET`] under its key.
    fn answer(&self) -> Vec<u8> {
        seal(SECRET, None)
            .open(&self.key, &self.value)
            .expect("a value sealed with the fleet's secret")
            .to_vec()
    }
}

/// Asks a replica with `state` `request` at `path`: its answer, and how
/// many Redis look-ups it counted `rejected`, `hit` and `error`.
async fn ask(state: AppState, path: &str, request: Value) -> (Value, f64, f64, f64) {
    let app = test::init_service(tank_rules::api::app(state)).await;
    let reply = common::post(&app, path, request).await;
    assert_eq!(reply.status, 200, "{reply:?}");
    let rejected = lookups(&app, "redis", "rejected").await;
    let hits = lookups(&app, "redis", "hit").await;
    let errors = lookups(&app, "redis", "error").await;
    (reply.body, rejected, hits, errors)
}

/// Lets a replica (sealing with [`SECRET`], keys under `prefix`) answer
/// `request` at `path` and store its answer in the Redis at `url`; the
/// only key under `prefix`.
async fn store(url: &str, prefix: &str, path: &str, request: Value) -> Stored {
    store_sealed(url, prefix, path, request, seal(SECRET, None)).await
}

/// [`store`] by a replica sealing with `seal`; the newest key under
/// `prefix`.
async fn store_sealed(url: &str, prefix: &str, path: &str, request: Value, seal: Seal) -> Stored {
    let mut connection = redis_connection(url);
    let before: Vec<String> = redis::cmd("KEYS")
        .arg(format!("{prefix}*"))
        .query(&mut connection)
        .unwrap();
    let state = sealed_with(replica(), url, ROOMY_MS, prefix, seal);
    let (first, _, _, _) = ask(state, path, request).await;
    assert_eq!(first["cached"], false, "{first}");
    // The store is in the background: wait for the new key.
    let mut keys: Vec<String> = Vec::new();
    for _ in 0..100 {
        keys = redis::cmd("KEYS")
            .arg(format!("{prefix}*"))
            .query(&mut connection)
            .unwrap();
        keys.retain(|key| !before.contains(key));
        if !keys.is_empty() {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(keys.len(), 1, "{keys:?}");
    let key = keys[0].clone();
    assert!(key.starts_with(&format!("{prefix}ai:")), "{key}");
    let value: Vec<u8> = redis::cmd("GET").arg(&key).query(&mut connection).unwrap();
    Stored { first, key, value }
}

/// Writes `value` under `key`, asks a new replica (its own tier empty,
/// sealing with [`SECRET`]) `request` at `path`: the value is not served
/// (the replica searches, answering what `stored` holds) and is counted
/// `rejected` (not `error`). Then waits until the replica has stored its
/// own answer again (in the background), so that it does not overwrite
/// the next value.
async fn refused(
    url: &str,
    prefix: &str,
    path: &str,
    request: &Value,
    stored: &Stored,
    what: &str,
    value: &[u8],
) {
    let mut connection = redis_connection(url);
    let _: () = redis::cmd("SET")
        .arg(&stored.key)
        .arg(value)
        .query(&mut connection)
        .unwrap();
    let state = sharing_under(replica(), url, ROOMY_MS, prefix);
    let (reply, rejected, hits, errors) = ask(state, path, request.clone()).await;
    assert_eq!(reply["cached"], false, "{what}: served {reply}");
    assert_eq!(content(reply), content(stored.first.clone()), "{what}");
    assert_eq!((rejected, hits, errors), (1.0, 0.0, 0.0), "{what}");
    written_back(&mut connection, &stored.key, what, |now| now != value);
}

/// Waits (up to 10 s) until the replica's background store has written
/// `key` again, as `done` tells from the key's value (`None` while it is
/// not a string), so that a late store cannot overwrite what a test
/// writes next; fails if it never comes.
fn written_back(
    connection: &mut redis::Connection,
    key: &str,
    what: &str,
    done: impl Fn(&[u8]) -> bool,
) {
    for _ in 0..500 {
        let kind: String = redis::cmd("TYPE").arg(key).query(connection).unwrap();
        if kind == "string" {
            let now: Vec<u8> = redis::cmd("GET").arg(key).query(connection).unwrap();
            if done(&now) {
                return;
            }
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("{what}: the replica's answer was not stored again within 10 s");
}

/// Lets a replica store its answer to `request` (at `path`) in the Redis
/// at `url`, then, for each of `spoils`, writes that answer spoiled under
/// the same key, sealed with the fleet's secret (as the server would have
/// written it: what stands behind the seal is checked too), and asks a new
/// replica (its own tier empty): the value is not served (the replica
/// searches, answering what the first did) and is counted `rejected`.
/// Last, the answer as it was stored is served from Redis (`"cached":
/// true`).
async fn shared_values_are_checked(url: &str, path: &str, request: Value, spoils: &[Spoil]) {
    let prefix = fresh_prefix("checked");
    let stored = store(url, &prefix, path, request.clone()).await;
    let answer_bytes = stored.answer();
    let answer: Value = serde_json::from_slice(&answer_bytes).unwrap();
    // Written back from its JSON value, the answer is the same bytes: a
    // spoiled value differs from it only by its spoiling.
    assert_eq!(serde_json::to_vec(&answer).unwrap(), answer_bytes);

    for (what, spoil) in spoils {
        let mut spoiled = answer.clone();
        spoil(&mut spoiled);
        let spoiled = serde_json::to_vec(&spoiled).unwrap();
        assert_ne!(spoiled, answer_bytes, "{what}: not spoiled");
        let sealed = seal(SECRET, None).seal(&stored.key, &spoiled);
        refused(url, &prefix, path, &request, &stored, what, &sealed).await;
    }

    let mut connection = redis_connection(url);
    let _: () = redis::cmd("SET")
        .arg(&stored.key)
        .arg(&stored.value)
        .query(&mut connection)
        .unwrap();
    let state = sharing_under(replica(), url, ROOMY_MS, &prefix);
    let (reply, rejected, hits, _) = ask(state, path, request).await;
    assert_eq!(reply["cached"], true, "{reply}");
    assert_eq!(content(reply), content(stored.first));
    assert_eq!((rejected, hits), (0.0, 1.0));
}

/// A move of the start position's empty middle: never legal there.
const ILLEGAL: &str = "f6-f7";

#[actix_web::test]
async fn tank_battle_answers_from_redis_are_checked() {
    let Some(redis) = common::redis_for("tank_battle_answers_from_redis_are_checked") else {
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
    let Some(redis) = common::redis_for("tank_war_answers_from_redis_are_checked") else {
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
    let Some(redis) = common::redis_for("cobi_tank_wars_answers_from_redis_are_checked") else {
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

/// Issue 50's finding 4, as an attacker who can write to Redis but has not
/// the fleet's secret would: values that decode and whose first move is
/// legal, with an invented evaluation, illegal later `pv` moves, no
/// `lines` and absurd numbers; the server's own answer without its tag or
/// with another's; a genuine value of another key; values cut, grown or of
/// another type. None is served; each is counted `rejected` (never
/// `error`: the link does not rest for them).
#[actix_web::test]
async fn forged_answers_in_redis_are_ignored_and_counted() {
    let Some(redis) = common::redis_for("forged_answers_in_redis_are_ignored_and_counted") else {
        return;
    };
    let url = &redis.url;
    let prefix = fresh_prefix("forged");
    let path = "/v1/tank-battle/ai-move";
    let request =
        |seed: u64| json!({"position": INITIAL, "limits": {"max_depth": 2}, "seed": seed});
    let stored = store(url, &prefix, path, request(11)).await;
    let other = store(url, &prefix, path, request(12)).await;
    let answer = stored.answer();

    // A legal move of the start position that is not the one found.
    let app = test::init_service(tank_rules::api::app(replica())).await;
    let legal = common::post(
        &app,
        "/v1/tank-battle/legal-moves",
        json!({"position": INITIAL}),
    )
    .await;
    let wrong = legal.body["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].clone())
        .find(|m| *m != stored.first["move"])
        .unwrap();
    let forged = json!({
        "move": wrong,
        "evaluation": 999_999,
        "depth": u32::MAX,
        "nodes": u64::MAX,
        "pv": [wrong, ILLEGAL, ILLEGAL],
        "lines": [],
        "time_ms": 0,
        "cached": true,
        "cut": false,
    });
    let forged = serde_json::to_vec(&forged).unwrap();
    let tagged = |tag: &[u8], answer: &[u8]| [tag, answer].concat();
    let values: Vec<(&str, Vec<u8>)> = vec![
        ("the server's own answer without its tag", answer.clone()),
        ("a forged legal answer without a tag", forged.clone()),
        (
            "a forged answer behind 32 bytes of zeros",
            tagged(&[0; 32], &forged),
        ),
        (
            "a forged answer sealed with another secret",
            seal("another-secret-0123456789abcdef", None).seal(&stored.key, &forged),
        ),
        (
            "a forged answer behind the tag of the real one",
            tagged(&stored.value[..Seal::TAG_BYTES], &forged),
        ),
        ("the genuine value of another key", other.value.clone()),
        (
            "the value cut by a byte",
            stored.value[..stored.value.len() - 1].to_vec(),
        ),
        ("the value and a byte more", tagged(&stored.value, b" ")),
        ("the tag alone", stored.value[..Seal::TAG_BYTES].to_vec()),
        ("half a tag", stored.value[..Seal::TAG_BYTES / 2].to_vec()),
    ];
    for (what, value) in &values {
        refused(url, &prefix, path, &request(11), &stored, what, value).await;
    }

    // A key of another type: Redis answers WRONGTYPE, a value refused.
    let mut connection = redis_connection(url);
    let _: () = redis::cmd("DEL")
        .arg(&stored.key)
        .query(&mut connection)
        .unwrap();
    let _: () = redis::cmd("RPUSH")
        .arg(&stored.key)
        .arg(&answer)
        .query(&mut connection)
        .unwrap();
    let state = sharing_under(replica(), url, ROOMY_MS, &prefix);
    let (reply, rejected, hits, errors) = ask(state, path, request(11)).await;
    assert_eq!(reply["cached"], false, "a list: served {reply}");
    assert_eq!((rejected, hits, errors), (1.0, 0.0, 0.0), "a list");
    written_back(&mut connection, &stored.key, "a list", |_| true);

    // The forged answer is one the checks behind the seal take (written
    // as the server writes it, its first moves legal): sealed with the
    // fleet's secret, it is served. The seal alone stopped it above.
    let _: () = redis::cmd("DEL")
        .arg(&stored.key)
        .query(&mut connection)
        .unwrap();
    let sealed = seal(SECRET, None).seal(&stored.key, &forged);
    let _: () = redis::cmd("SET")
        .arg(&stored.key)
        .arg(&sealed)
        .query(&mut connection)
        .unwrap();
    let state = sharing_under(replica(), url, ROOMY_MS, &prefix);
    let (reply, rejected, hits, _) = ask(state, path, request(11)).await;
    assert_eq!(
        (reply["cached"].clone(), reply["move"].clone()),
        (json!(true), wrong)
    );
    assert_eq!((rejected, hits), (0.0, 1.0));

    // And the value as it was stored is served.
    let _: () = redis::cmd("SET")
        .arg(&stored.key)
        .arg(&stored.value)
        .query(&mut connection)
        .unwrap();
    let state = sharing_under(replica(), url, ROOMY_MS, &prefix);
    let (reply, rejected, hits, _) = ask(state, path, request(11)).await;
    assert_eq!(reply["cached"], true, "{reply}");
    assert_eq!((rejected, hits), (0.0, 1.0));
}

/// Bytes Redis has sent to its clients so far (`INFO stats`).
fn sent_by_redis(connection: &mut redis::Connection) -> u64 {
    let info: String = redis::cmd("INFO").arg("stats").query(connection).unwrap();
    info.lines()
        .find_map(|line| line.strip_prefix("total_net_output_bytes:"))
        .and_then(|n| n.trim().parse().ok())
        .expect("total_net_output_bytes in INFO stats")
}

/// A value longer than the tier reads (its first bytes the genuine sealed
/// answer) is refused without being read to its end: Redis sends a few
/// hundred KB for it at most, not its 8 MB.
#[actix_web::test]
async fn a_value_too_long_is_refused_without_being_read() {
    let Some(redis) = common::redis_for("a_value_too_long_is_refused_without_being_read") else {
        return;
    };
    let url = &redis.url;
    let prefix = fresh_prefix("long");
    let path = "/v1/tank-battle/ai-move";
    let request = json!({"position": INITIAL, "limits": {"max_depth": 2}, "seed": 13});
    let stored = store(url, &prefix, path, request.clone()).await;
    let long = [&stored.value[..], &vec![b' '; 8 << 20]].concat();
    let mut connection = redis_connection(url);
    let _: () = redis::cmd("SET")
        .arg(&stored.key)
        .arg(&long)
        .query(&mut connection)
        .unwrap();
    let before = sent_by_redis(&mut connection);
    let state = sharing_under(replica(), url, 2_000, &prefix);
    let (reply, rejected, hits, errors) = ask(state, path, request).await;
    let sent = sent_by_redis(&mut connection) - before;
    assert_eq!(reply["cached"], false, "served {reply}");
    assert_eq!((rejected, hits, errors), (1.0, 0.0, 0.0));
    let most = (Seal::TAG_BYTES + tank_rules::cache::MAX_ANSWER_BYTES + 64 * 1024) as u64;
    assert!(
        sent < most,
        "Redis sent {sent} bytes for a look-up (at most {most})"
    );
    assert!(
        sent > tank_rules::cache::MAX_ANSWER_BYTES as u64,
        "{sent}: nothing read?"
    );
}

/// An answer longer than the tier stores (a Cobi Tank Wars analysis of 16
/// lines repeating long vehicle ids: about 0.5 MB) is not stored in Redis;
/// its replica still keeps it in its own tier.
#[actix_web::test]
async fn an_answer_too_long_is_not_shared() {
    let Some(redis) = common::redis_for("an_answer_too_long_is_not_shared") else {
        return;
    };
    let prefix = fresh_prefix("not-shared");
    let state = sharing_under(replica(), &redis.url, ROOMY_MS, &prefix);
    let app = test::init_service(tank_rules::api::app(state)).await;
    let mut board = common::get(&app, "/v1/cobi-tank-wars/initial").await.body;
    for vehicle in board["vehicles"].as_array_mut().unwrap() {
        let id = format!("{}-{}", vehicle["id"].as_str().unwrap(), "x".repeat(9_000));
        vehicle["id"] = json!(id);
    }
    let request = json!({"state": board, "player": "P1", "limits": {"max_nodes": 200}, "seed": 4, "multipv": 16});
    let first = common::post(&app, "/v1/cobi-tank-wars/ai-move", request.clone()).await;
    assert_eq!(first.status, 200, "{first:?}");
    let bytes = serde_json::to_vec(&first.body).unwrap().len();
    assert!(bytes > tank_rules::cache::MAX_ANSWER_BYTES, "{bytes} bytes");
    let again = common::post(&app, "/v1/cobi-tank-wars/ai-move", request).await;
    assert_eq!(again.body["cached"], true, "not kept in-process");
    // Nothing was stored: a store would be there by now.
    actix_web::rt::time::sleep(Duration::from_millis(300)).await;
    let keys: Vec<String> = redis::cmd("KEYS")
        .arg(format!("{prefix}*"))
        .query(&mut redis_connection(&redis.url))
        .unwrap();
    assert!(keys.is_empty(), "{keys:?}");
}

/// A rotation: a replica given the new secret and the old one as previous
/// serves what the old secret sealed (and seals with the new one); a
/// replica past the rotation (the new secret alone) refuses it.
#[actix_web::test]
async fn a_rotation_serves_what_the_previous_secret_sealed() {
    let Some(redis) = common::redis_for("a_rotation_serves_what_the_previous_secret_sealed") else {
        return;
    };
    let url = &redis.url;
    let prefix = fresh_prefix("rotation");
    let path = "/v1/tank-battle/ai-move";
    let request = json!({"position": INITIAL, "limits": {"max_depth": 2}, "seed": 14});
    const OLD: &str = "old-secret-0123456789abcdef";
    const NEW: &str = "new-secret-0123456789abcdef";
    let stored = store_sealed(url, &prefix, path, request.clone(), seal(OLD, None)).await;
    let rotating = sealed_with(replica(), url, ROOMY_MS, &prefix, seal(NEW, Some(OLD)));
    let (reply, rejected, hits, _) = ask(rotating, path, request.clone()).await;
    assert_eq!(reply["cached"], true, "during the rotation: {reply}");
    assert_eq!((rejected, hits), (0.0, 1.0));
    let past = sealed_with(replica(), url, ROOMY_MS, &prefix, seal(NEW, None));
    let (reply, rejected, hits, _) = ask(past, path, request.clone()).await;
    assert_eq!(reply["cached"], false, "after the rotation: {reply}");
    assert_eq!(content(reply), content(stored.first.clone()));
    assert_eq!((rejected, hits), (1.0, 0.0));
    // That replica stored its answer again, sealed with the new secret.
    let mut connection = redis_connection(url);
    written_back(&mut connection, &stored.key, "after the rotation", |now| {
        now != stored.value
    });
    let value: Vec<u8> = redis::cmd("GET")
        .arg(&stored.key)
        .query(&mut connection)
        .unwrap();
    assert!(seal(NEW, None).open(&stored.key, &value).is_ok());
    assert!(seal(OLD, None).open(&stored.key, &value).is_err());
}

/// Issue 50's finding 4 on the quotas: a client's state in Redis set far
/// in the future (as anyone reaching Redis could) costs the client at most
/// one window (its burst spent), never a `Retry-After` of 9223372036855 s;
/// a state that is no number, too long or of another type counts as none.
/// All decided by Redis (`fleet`), none by the fallback.
#[actix_web::test]
async fn a_forged_quota_state_costs_at_most_one_window() {
    let Some(redis) = common::redis_for("a_forged_quota_state_costs_at_most_one_window") else {
        return;
    };
    let prefix = fresh_prefix("quota-forged");
    // 600 a minute: one every 100 ms.
    let app = test::init_service(tank_rules::api::app(sharing_under(
        quota(600),
        &redis.url,
        500,
        &prefix,
    )))
    .await;
    let key = format!("{prefix}quota:requests:a:203.0.113.7");
    let mut connection = redis_connection(&redis.url);
    let score = || {
        test::TestRequest::post()
            .uri("/v1/tank-battle/score")
            .peer_addr("203.0.113.7:4000".parse().unwrap())
            .set_json(json!({ "position": INITIAL }))
    };
    let _: () = redis::cmd("SET")
        .arg(&key)
        .arg("9223372036854775807")
        .query(&mut connection)
        .unwrap();
    let limited = common::send(&app, score()).await;
    assert_eq!(limited.status, 429, "{limited:?}");
    let retry_after: u64 = limited
        .headers
        .get("retry-after")
        .unwrap()
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(retry_after <= 60, "Retry-After: {retry_after}");
    // Written back at one window ahead, in digits, expiring with it.
    let state: String = redis::cmd("GET").arg(&key).query(&mut connection).unwrap();
    let ttl: i64 = redis::cmd("PTTL").arg(&key).query(&mut connection).unwrap();
    assert!(state.bytes().all(|b| b.is_ascii_digit()), "{state}");
    assert!((0..=60_001).contains(&ttl), "PTTL {ttl}");
    // The window's burst is spent: one more request a 100 ms.
    actix_web::rt::time::sleep(Duration::from_millis(150)).await;
    let again = common::send(&app, score()).await;
    assert_eq!(again.status, 200, "{again:?}");

    // A state that is no number, too long or not a string: none.
    for (what, forge) in [
        ("not a number", "SET x"),
        ("a number in another spelling", "SET 1e300"),
        ("negative", "SET -5"),
        ("too long", "LONG"),
        ("a list", "RPUSH x"),
    ] {
        let _: () = redis::cmd("DEL").arg(&key).query(&mut connection).unwrap();
        let command = match forge.split_once(' ') {
            Some((name, value)) => {
                let mut command = redis::cmd(name);
                command.arg(&key).arg(value);
                command
            }
            None => {
                let mut command = redis::cmd("SET");
                command.arg(&key).arg("9".repeat(1 << 20));
                command
            }
        };
        let _: () = command.query(&mut connection).unwrap();
        let reply = common::send(&app, score()).await;
        assert_eq!(reply.status, 200, "{what}: {reply:?}");
        let state: String = redis::cmd("GET").arg(&key).query(&mut connection).unwrap();
        assert!(
            state.len() <= 20 && state.bytes().all(|b| b.is_ascii_digit()),
            "{what}: {state}"
        );
    }
    let fallback = metric(
        &app,
        "tank_rules_quota_checks_total",
        &[("result", "fallback")],
    )
    .await;
    let fleet = metric(
        &app,
        "tank_rules_quota_checks_total",
        &[("result", "fleet")],
    )
    .await;
    assert_eq!((fleet, fallback), (7.0, 0.0));
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
    const REDIS_SECRET: &str = "the-redis-s3cret-0123456789";
    let redis_port = free_port();
    let port = free_port();
    let mut server = std::process::Command::new(env!("CARGO_BIN_EXE_tank-rules"))
        .args(["--addr", &format!("127.0.0.1:{port}"), "--workers", "1"])
        .args([
            "--redis-url",
            &format!("redis://:{SECRET}@127.0.0.1:{redis_port}/0"),
        ])
        .args(["--redis-timeout-ms", "5"])
        .env("TANK_RULES_REDIS_SECRET", REDIS_SECRET)
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
    assert!(
        !log.contains(REDIS_SECRET),
        "the Redis secret is in the log:\n{log}"
    );
    // The place is shown, and so the log is the one that would hold it.
    assert!(
        log.contains(&format!("redis://127.0.0.1:{redis_port}/0")),
        "{log}"
    );
    eprintln!("{} log lines, none with the password", log.lines().count());
}

/// The server's exit status and output when started with `flags` (and
/// `env`), for a server that is not to start; killed after 10 s if it does.
fn start_refused(flags: &[&str], env: &[(&str, &str)]) -> (Option<i32>, String) {
    let mut server = std::process::Command::new(env!("CARGO_BIN_EXE_tank-rules"))
        .args([
            "--addr",
            &format!("127.0.0.1:{}", free_port()),
            "--workers",
            "1",
        ])
        .args(flags)
        .envs(env.iter().copied())
        .env("RUST_LOG", "debug")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = collect(server.stdout.take().unwrap());
    let stderr = collect(server.stderr.take().unwrap());
    let mut status = None;
    for _ in 0..500 {
        if let Some(exit) = server.try_wait().unwrap() {
            status = Some(exit);
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    if status.is_none() {
        let _ = server.kill();
        let _ = server.wait();
    }
    let output = format!("{}{}", stdout.join().unwrap(), stderr.join().unwrap());
    (status.and_then(|s| s.code()), output)
}

#[::core::prelude::v1::test]
fn a_redis_url_without_a_secret_refuses_to_start() {
    let url = format!("redis://127.0.0.1:{}/0", free_port());
    let (code, output) = start_refused(&["--redis-url", &url], &[]);
    assert!(
        code.is_some_and(|code| code != 0),
        "exit {code:?}:\n{output}"
    );
    assert!(output.contains("--redis-url needs a secret"), "{output}");
    assert!(output.contains("--redis-secret-file"), "{output}");
    // A secret too short, by flag or in the environment, refuses too, and
    // is not echoed.
    for (flags, env) in [
        (
            vec!["--redis-url", &url, "--redis-secret", "sh0rt-s3cret"],
            vec![],
        ),
        (
            vec!["--redis-url", &url],
            vec![("TANK_RULES_REDIS_SECRET", "sh0rt-s3cret")],
        ),
        (
            vec![
                "--redis-url",
                &url,
                "--redis-secret",
                "long-enough-0123456789",
            ],
            vec![("TANK_RULES_REDIS_PREVIOUS_SECRET", "sh0rt-s3cret")],
        ),
    ] {
        let (code, output) = start_refused(&flags, &env);
        assert!(
            code.is_some_and(|code| code != 0),
            "exit {code:?}:\n{output}"
        );
        assert!(output.contains("too short: it has 12 bytes"), "{output}");
        assert!(!output.contains("sh0rt-s3cret"), "{output}");
        assert!(!output.contains("long-enough"), "{output}");
    }
    // Both a secret and its file: refused.
    let (code, output) = start_refused(
        &[
            "--redis-url",
            &url,
            "--redis-secret",
            "long-enough-0123456789",
            "--redis-secret-file",
            "/dev/null",
        ],
        &[],
    );
    assert!(
        code.is_some_and(|code| code != 0),
        "exit {code:?}:\n{output}"
    );
    assert!(
        output.contains("give one of them") && !output.contains("long-enough"),
        "{output}"
    );
    eprintln!("refused: {}", output.lines().last().unwrap_or_default());
}

#[::core::prelude::v1::test]
fn help_does_not_show_the_redis_url_or_secrets_of_the_environment() {
    let help = std::process::Command::new(env!("CARGO_BIN_EXE_tank-rules"))
        .arg("--help")
        .env(
            "TANK_RULES_REDIS_URL",
            "redis://:s3cretPassw0rd@127.0.0.1:1/0",
        )
        .env("TANK_RULES_REDIS_SECRET", "s3cret-of-the-fleet-0123")
        .env("TANK_RULES_REDIS_PREVIOUS_SECRET", "s3cret-of-before-0123")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&help.stdout);
    for variable in [
        "TANK_RULES_REDIS_URL",
        "TANK_RULES_REDIS_SECRET",
        "TANK_RULES_REDIS_SECRET_FILE",
        "TANK_RULES_REDIS_PREVIOUS_SECRET",
        "TANK_RULES_REDIS_PREVIOUS_SECRET_FILE",
    ] {
        assert!(text.contains(variable), "{variable}: {text}");
    }
    assert!(!text.contains("s3cret"), "{text}");
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
            common::skipped("two_processes_share_answers_through_redis_over_tls", &why);
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
