//! Fair use per client (issue 14): quotas per address or per API key,
//! apart for cheap calls and searches; over a quota 429 with `Retry-After`
//! and the `RateLimit` headers, other clients untouched; with keys
//! configured, no key or an unknown one is 401; `X-Forwarded-For` only
//! from trusted proxies; `/metrics` can leave the public address. Issue
//! 38: clients are who they are (every `X-Forwarded-For` line, IPv6 by
//! /64, IPv4-mapped as IPv4), keys held as digests (`key_blake3`), wrong
//! keys limited per address, `Bearer` in any casing.

use std::net::SocketAddr;

use crate::common;
use crate::common::{assert_problem, send, INITIAL};
use actix_web::test;
use serde_json::json;
use tank_rules::api::AppState;
use tank_rules::cache::CacheConfig;
use tank_rules::fair_use::{FairUse, FairUseConfig, KeyEntry, KeysFile, Quotas};
use tank_rules::limits::Limits;

fn from(addr: &str, req: test::TestRequest) -> test::TestRequest {
    req.peer_addr(addr.parse::<SocketAddr>().unwrap())
}

fn score() -> test::TestRequest {
    test::TestRequest::post()
        .uri("/v1/tank-battle/score")
        .set_json(json!({"position": INITIAL}))
}

fn search(seed: u64) -> test::TestRequest {
    test::TestRequest::post()
        .uri("/v1/tank-battle/ai-move")
        .set_json(json!({"position": INITIAL, "limits": {"max_depth": 1}, "seed": seed}))
}

fn state(config: FairUseConfig) -> AppState {
    AppState::new(Limits::default(), CacheConfig::default()).with_fair_use(FairUse::new(config))
}

#[actix_web::test]
async fn over_quota_clients_get_429_and_others_do_not() {
    let app = test::init_service(tank_rules::api::app(state(FairUseConfig {
        defaults: Quotas {
            requests_per_minute: 3,
            searches_per_minute: 2,
        },
        ..FairUseConfig::default()
    })))
    .await;
    for remaining in [2, 1, 0] {
        let reply = send(&app, from("1.1.1.1:1000", score())).await;
        assert_eq!(reply.status, 200, "{reply:?}");
        assert_eq!(
            reply.headers.get("ratelimit-policy").unwrap(),
            "\"requests\";q=3;w=60;qu=\"requests\""
        );
        let ratelimit = reply.headers.get("ratelimit").unwrap().to_str().unwrap();
        assert!(
            ratelimit.starts_with(&format!("\"requests\";r={remaining};t=")),
            "{ratelimit}"
        );
    }
    let reply = send(&app, from("1.1.1.1:1001", score())).await;
    assert_problem(&reply, 429, "TOO_MANY_REQUESTS");
    let retry: u64 = reply
        .headers
        .get("retry-after")
        .unwrap()
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=20).contains(&retry), "{retry}");
    assert_eq!(
        reply.headers.get("ratelimit-policy").unwrap(),
        "\"requests\";q=3;w=60;qu=\"requests\""
    );
    assert_eq!(
        reply.headers.get("ratelimit").unwrap().to_str().unwrap(),
        format!("\"requests\";r=0;t={retry}")
    );
    // Another client is untouched, and so are searches and health.
    let reply = send(&app, from("2.2.2.2:1000", score())).await;
    assert_eq!(reply.status, 200);
    let reply = send(&app, from("1.1.1.1:1002", search(1))).await;
    assert_eq!(reply.status, 200, "{reply:?}");
    let reply = send(
        &app,
        from("1.1.1.1:1003", test::TestRequest::get().uri("/healthz")),
    )
    .await;
    assert_eq!(reply.status, 200);
    // A batch costs the sum of its items: three searches are more than
    // 2.2.2.2's whole quota of two, so no wait would let them through: 400
    // naming the policy and the price, and nothing spent.
    let batch = |searches: u64| {
        let items: Vec<_> = (0..searches)
            .map(|seed| json!({"op": "ai-move", "position": INITIAL, "limits": {"max_depth": 1}, "seed": seed}))
            .collect();
        from(
            "2.2.2.2:1001",
            test::TestRequest::post()
                .uri("/v1/tank-battle/batch")
                .set_json(json!({ "requests": items })),
        )
    };
    let reply = send(&app, batch(3)).await;
    assert_problem(&reply, 400, "LIMIT_EXCEEDED");
    assert_eq!(reply.body["policy"], "searches", "{reply:?}");
    assert_eq!(reply.body["price"], 3, "{reply:?}");
    // Two fit, and spend the quota: a third search is 429, naming its
    // policy and price, and saying when the quota holds it again.
    let reply = send(&app, batch(2)).await;
    assert_eq!(reply.status, 200, "{reply:?}");
    let reply = send(&app, from("2.2.2.2:1002", search(9))).await;
    assert_problem(&reply, 429, "TOO_MANY_REQUESTS");
    assert_eq!(reply.body["policy"], "searches", "{reply:?}");
    assert_eq!(reply.body["price"], 1, "{reply:?}");
    assert_eq!(
        reply.headers.get("ratelimit-policy").unwrap(),
        "\"searches\";q=2;w=60;tank-rules-unit=\"search\""
    );
    let retry: u64 = reply
        .headers
        .get("retry-after")
        .unwrap()
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=30).contains(&retry), "{retry}");
}

#[actix_web::test]
async fn forwarded_addresses_count_only_behind_trusted_proxies() {
    let app = test::init_service(tank_rules::api::app(state(FairUseConfig {
        defaults: Quotas {
            requests_per_minute: 1,
            searches_per_minute: 0,
        },
        trusted_proxies: vec!["10.0.0.0/8".parse().unwrap()],
        ..FairUseConfig::default()
    })))
    .await;
    let via_proxy = |client: &str| {
        from("10.0.0.5:80", score()).insert_header(("x-forwarded-for", client.to_owned()))
    };
    assert_eq!(send(&app, via_proxy("5.5.5.5")).await.status, 200);
    assert_eq!(send(&app, via_proxy("6.6.6.6")).await.status, 200);
    assert_eq!(send(&app, via_proxy("5.5.5.5")).await.status, 429);
    // An untrusted peer cannot pose as another client.
    let spoof = |n: u16| {
        from(&format!("7.7.7.7:{n}"), score())
            .insert_header(("x-forwarded-for", format!("9.9.9.{n}")))
    };
    assert_eq!(send(&app, spoof(1)).await.status, 200);
    assert_eq!(send(&app, spoof(2)).await.status, 429);
}

#[actix_web::test]
async fn with_keys_configured_a_missing_or_unknown_key_is_401() {
    let keys = KeysFile::from_entries(vec![
        KeyEntry::with_key("site", "k-123").requests_per_minute(2)
    ])
    .unwrap();
    let app = test::init_service(tank_rules::api::app(state(FairUseConfig {
        keys: Some(keys),
        ..FairUseConfig::default()
    })))
    .await;
    let reply = send(&app, score()).await;
    assert_problem(&reply, 401, "UNAUTHORIZED");
    assert!(reply.headers.get("www-authenticate").is_some());
    let reply = send(&app, score().insert_header(("x-api-key", "nope"))).await;
    assert_problem(&reply, 401, "UNAUTHORIZED");
    let reply = send(&app, score().insert_header(("x-api-key", "k-123"))).await;
    assert_eq!(reply.status, 200);
    let reply = send(
        &app,
        score().insert_header(("authorization", "Bearer k-123")),
    )
    .await;
    assert_eq!(reply.status, 200);
    // The key's own quota, whatever the address.
    let reply = send(
        &app,
        from("3.3.3.3:1", score()).insert_header(("x-api-key", "k-123")),
    )
    .await;
    assert_problem(&reply, 429, "TOO_MANY_REQUESTS");
    // Health, the catalogue's documentation and CORS preflights need no key.
    assert_eq!(
        send(&app, test::TestRequest::get().uri("/healthz"))
            .await
            .status,
        200
    );
    assert_eq!(
        send(&app, test::TestRequest::get().uri("/openapi.json"))
            .await
            .status,
        200
    );
    let preflight = test::TestRequest::default()
        .method(actix_web::http::Method::OPTIONS)
        .uri("/v1/tank-battle/score")
        .insert_header(("origin", "https://a.example"))
        .insert_header(("access-control-request-method", "POST"));
    assert_eq!(send(&app, preflight).await.status, 200);
}

#[actix_web::test]
async fn metrics_can_leave_the_public_address() {
    let state = AppState {
        metrics_public: false,
        ..AppState::new(Limits::default(), CacheConfig::default())
    };
    let admin = test::init_service(tank_rules::api::admin_app(&state)).await;
    let public = test::init_service(tank_rules::api::app(state)).await;
    let reply = send(&public, test::TestRequest::get().uri("/metrics")).await;
    assert_problem(&reply, 404, "NOT_FOUND");
    let resp = test::call_service(
        &admin,
        test::TestRequest::get().uri("/metrics").to_request(),
    )
    .await;
    assert_eq!(resp.status(), 200);
    let resp = test::call_service(
        &admin,
        test::TestRequest::get().uri("/healthz").to_request(),
    )
    .await;
    assert_eq!(resp.status(), 200);
}

/// A browser page can use the service with a key and read its refusals:
/// the preflight allows the key's headers (and a request id), and 401 and
/// 429 answers carry the CORS headers too, exposing the quota's headers
/// and the request id to the page's script.
#[actix_web::test]
async fn browser_pages_can_send_keys_and_read_refusals() {
    let keys = KeysFile::from_entries(vec![
        KeyEntry::with_key("site", "k-123").requests_per_minute(1)
    ])
    .unwrap();
    let app = test::init_service(tank_rules::api::app(state(FairUseConfig {
        keys: Some(keys),
        ..FairUseConfig::default()
    })))
    .await;
    let origin = ("origin", "https://a.example");
    for asked in ["x-api-key, content-type", "authorization", "x-request-id"] {
        let preflight = test::TestRequest::default()
            .method(actix_web::http::Method::OPTIONS)
            .uri("/v1/tank-battle/score")
            .insert_header(origin)
            .insert_header(("access-control-request-method", "POST"))
            .insert_header(("access-control-request-headers", asked));
        let reply = send(&app, preflight).await;
        assert_eq!(reply.status, 200, "{asked}: {reply:?}");
        let allowed = reply
            .headers
            .get("access-control-allow-headers")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_ascii_lowercase();
        for header in asked.split(", ") {
            assert!(allowed.contains(header), "{header} not in {allowed}");
        }
    }
    let exposed = |reply: &common::Reply| {
        reply
            .headers
            .get("access-control-expose-headers")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_ascii_lowercase()
    };
    let refused = send(&app, score().insert_header(origin)).await;
    assert_problem(&refused, 401, "UNAUTHORIZED");
    assert_eq!(
        refused.headers.get("access-control-allow-origin").unwrap(),
        "*"
    );
    let keyed = || {
        score()
            .insert_header(origin)
            .insert_header(("x-api-key", "k-123"))
    };
    let served = send(&app, keyed()).await;
    assert_eq!(served.status, 200);
    let over = send(&app, keyed()).await;
    assert_problem(&over, 429, "TOO_MANY_REQUESTS");
    assert_eq!(
        over.headers.get("access-control-allow-origin").unwrap(),
        "*"
    );
    for reply in [&served, &over] {
        let exposed = exposed(reply);
        for header in [
            "x-request-id",
            "ratelimit",
            "ratelimit-policy",
            "retry-after",
        ] {
            assert!(exposed.contains(header), "{header} not in {exposed}");
        }
    }
}

/// Quotas of `requests_per_minute` for cheap calls, behind `10.0.0.0/8`.
fn behind_proxies(requests_per_minute: u32) -> AppState {
    state(FairUseConfig {
        defaults: Quotas {
            requests_per_minute,
            searches_per_minute: 0,
        },
        trusted_proxies: vec!["10.0.0.0/8".parse().unwrap()],
        ..FairUseConfig::default()
    })
}

/// Behind HAProxy (`option forwardfor`), a client's own `X-Forwarded-For`
/// line comes first and the proxy's line, naming the real address, last:
/// fresh spoofed lines (and unparsable hops in them) do not make fresh
/// clients.
#[actix_web::test]
async fn spoofed_forwarded_lines_through_a_trusted_proxy_count_the_real_address() {
    let app = test::init_service(tank_rules::api::app(behind_proxies(5))).await;
    let mut statuses = Vec::new();
    for i in 0..8 {
        let spoofed = match i % 2 {
            0 => format!("1.2.3.{i}"),
            _ => format!("1.2.3.{i}, unknown"),
        };
        let req = from("10.0.0.5:80", score())
            .append_header(("x-forwarded-for", spoofed))
            .append_header(("x-forwarded-for", "5.5.5.5"));
        statuses.push(send(&app, req).await.status.as_u16());
    }
    println!("spoofed lines, then the proxy's: {statuses:?}");
    assert_eq!(statuses, [200, 200, 200, 200, 200, 429, 429, 429]);
    // The same client through another proxy of the fleet, with a port.
    let req = from("10.0.0.6:80", score()).append_header(("x-forwarded-for", "5.5.5.5:4711"));
    assert_eq!(send(&app, req).await.status, 429);
    // A hop that does not parse ends the walk at the proxy that wrote it.
    let req = from("10.0.0.5:80", score())
        .append_header(("x-forwarded-for", "6.6.6.6"))
        .append_header(("x-forwarded-for", "1.2.3.4:"));
    assert_eq!(send(&app, req).await.status, 200);
}

#[actix_web::test]
async fn ipv6_clients_share_the_quota_of_their_64() {
    let app = test::init_service(tank_rules::api::app(behind_proxies(5))).await;
    let mut statuses = Vec::new();
    for i in 1..=7 {
        let peer = format!("[2001:db8:1:2::{i:x}]:1000");
        statuses.push(send(&app, from(&peer, score())).await.status.as_u16());
    }
    println!("seven addresses of one /64, quota 5: {statuses:?}");
    assert_eq!(statuses, [200, 200, 200, 200, 200, 429, 429]);
    // As hops behind a proxy too.
    let req = from("10.0.0.5:80", score()).append_header(("x-forwarded-for", "2001:db8:1:2::99"));
    assert_eq!(send(&app, req).await.status, 429);
    // Another /64 is another client.
    let reply = send(&app, from("[2001:db8:1:3::1]:1000", score())).await;
    assert_eq!(reply.status, 200);
}

#[actix_web::test]
async fn an_ipv4_mapped_address_is_its_ipv4_address() {
    let app = test::init_service(tank_rules::api::app(behind_proxies(2))).await;
    for _ in 0..2 {
        assert_eq!(send(&app, from("4.4.4.4:1000", score())).await.status, 200);
    }
    assert_eq!(send(&app, from("4.4.4.4:1001", score())).await.status, 429);
    let mapped = send(&app, from("[::ffff:4.4.4.4]:1000", score())).await;
    assert_problem(&mapped, 429, "TOO_MANY_REQUESTS");
    let via_proxy = from("[::ffff:10.0.0.5]:80", score())
        .append_header(("x-forwarded-for", "[::ffff:4.4.4.4]:1234"));
    assert_eq!(send(&app, via_proxy).await.status, 429);
}

/// A keyed service with one key, `right-key-0123456789`.
fn keyed() -> AppState {
    let keys =
        KeysFile::from_entries(vec![KeyEntry::with_key("site", "right-key-0123456789")]).unwrap();
    state(FairUseConfig {
        keys: Some(keys),
        ..FairUseConfig::default()
    })
}

#[actix_web::test]
async fn guessing_keys_from_one_address_is_limited() {
    let app = test::init_service(tank_rules::api::app(keyed())).await;
    let guess = |key: String| from("6.6.6.6:1000", score()).insert_header(("x-api-key", key));
    let mut unauthorized = 0;
    let mut first_429 = None;
    let mut too_many = 0;
    for i in 0..1_000 {
        let reply = send(&app, guess(format!("guess-{i:04}"))).await;
        match reply.status.as_u16() {
            401 => unauthorized += 1,
            429 => {
                too_many += 1;
                first_429.get_or_insert((i, reply));
            }
            other => panic!("guess {i}: {other}"),
        }
    }
    let (at, reply) = first_429.expect("a 429");
    println!(
        "1,000 wrong keys: {unauthorized} x 401, {too_many} x 429, the first 429 at guess {at}"
    );
    assert_eq!((unauthorized, too_many, at), (30, 970, 30));
    assert_problem(&reply, 429, "TOO_MANY_REQUESTS");
    let retry: u64 = reply
        .headers
        .get("retry-after")
        .unwrap()
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&retry), "{retry}");
    assert_eq!(
        reply.headers.get("ratelimit-policy").unwrap(),
        "\"failed key attempts\";q=30;w=60;qu=\"requests\""
    );
    // The right key from that address is not even looked at now...
    let right = send(&app, guess("right-key-0123456789".to_owned())).await;
    assert_problem(&right, 429, "TOO_MANY_REQUESTS");
    // ... while another address with it is served, and a request without a
    // key is a plain 401.
    let other = from("7.7.7.7:1000", score()).insert_header(("x-api-key", "right-key-0123456789"));
    assert_eq!(send(&app, other).await.status, 200);
    let keyless = send(&app, from("6.6.6.6:1000", score())).await;
    assert_problem(&keyless, 401, "UNAUTHORIZED");
}

#[actix_web::test]
async fn the_bearer_scheme_is_case_insensitive() {
    let app = test::init_service(tank_rules::api::app(keyed())).await;
    for scheme in ["Bearer", "bearer", "BEARER", "beaRER"] {
        let req =
            score().insert_header(("authorization", format!("{scheme}  right-key-0123456789")));
        let reply = send(&app, req).await;
        assert_eq!(reply.status, 200, "{scheme}: {reply:?}");
    }
    let basic = score().insert_header(("authorization", "Basic right-key-0123456789"));
    assert_problem(&send(&app, basic).await, 401, "UNAUTHORIZED");
}

/// A keys file holding only a digest (`key_blake3`), loaded through the
/// command line's options as the server loads it.
#[actix_web::test]
async fn a_key_blake3_keys_file_works_end_to_end() {
    use clap::Parser;
    let key = "k-end-to-end-0123456789";
    let digest = blake3::hash(key.as_bytes()).to_hex();
    let path = std::env::temp_dir().join(format!("tank-rules-keys-{}.json", std::process::id()));
    std::fs::write(
        &path,
        format!(r#"{{"keys": [{{"key_blake3": "{digest}", "name": "digested", "requests_per_minute": 1}}]}}"#),
    )
    .unwrap();
    let cli = tank_rules::config::Cli::try_parse_from([
        "tank-rules",
        "--api-keys-file",
        path.to_str().unwrap(),
        "--failed-key-attempts-per-minute",
        "2",
        "--ipv6-prefix-len",
        "48",
    ])
    .unwrap();
    let config = cli.serve.fair_use();
    std::fs::remove_file(&path).unwrap();
    let config = config.unwrap();
    assert_eq!(config.ipv6_prefix_len, 48);
    assert_eq!(config.failed_key_attempts_per_minute, 2);
    let app = test::init_service(tank_rules::api::app(state(config))).await;
    let served = send(&app, score().insert_header(("x-api-key", key))).await;
    assert_eq!(served.status, 200, "{served:?}");
    assert_eq!(
        served.headers.get("ratelimit-policy").unwrap(),
        "\"requests\";q=1;w=60;qu=\"requests\""
    );
    // The digest is not the key; and two wrong keys from one /48 are all
    // it may send.
    let requests = [
        "[2001:db8:1:2::1]:1",
        "[2001:db8:1:3::1]:1",
        "[2001:db8:1:4::1]:1",
    ]
    .map(|peer| from(peer, score()).insert_header(("x-api-key", digest.as_str())));
    let mut seen = Vec::new();
    for req in requests {
        seen.push(send(&app, req).await.status.as_u16());
    }
    assert_eq!(seen, [401, 401, 429]);
}

/// The `RateLimit` field of `reply` for the policy `name`: what is left.
fn remaining(reply: &common::Reply, name: &str) -> Option<u32> {
    let field = reply.headers.get("ratelimit")?.to_str().ok()?;
    field.split(", ").find_map(|item| {
        let rest = item.strip_prefix(&format!("\"{name}\";r="))?;
        rest.split(';').next()?.parse().ok()
    })
}

/// A 503 costs nothing (issue 71): a search answered `SERVICE_BUSY` (no
/// slot) leaves the client's search quota as it was, alone and as a
/// batch's item, and says so in its `RateLimit` header; the header after
/// a batch shows each quota after the batch's items were spent.
#[actix_web::test]
async fn a_503_costs_nothing_and_a_batch_says_what_it_left() {
    let quotas = Quotas {
        requests_per_minute: 100,
        searches_per_minute: 6,
    };
    let limits = Limits {
        max_concurrent_searches: 0,
        search_wait_ms: 1,
        ..Limits::default()
    };
    let state =
        AppState::new(limits, CacheConfig::default()).with_fair_use(FairUse::new(FairUseConfig {
            defaults: quotas,
            ..FairUseConfig::default()
        }));
    let app = test::init_service(tank_rules::api::app(state)).await;
    for seed in 0..10 {
        let reply = send(&app, from("1.1.1.1:1000", search(seed))).await;
        assert_problem(&reply, 503, "SERVICE_BUSY");
        assert_eq!(remaining(&reply, "searches"), Some(6), "{reply:?}");
    }
    // A perft still runs (the long pool has its slot), and pays.
    let perft = test::TestRequest::post()
        .uri("/v1/tank-battle/perft")
        .set_json(json!({"position": INITIAL, "depth": 1}));
    let reply = send(&app, from("1.1.1.1:1000", perft)).await;
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(remaining(&reply, "searches"), Some(5), "{reply:?}");
    // A batch of two busy searches, a perft and a score: the perft and
    // the score are paid for, the busy searches are not; the header says
    // both quotas as the batch left them.
    let batch = test::TestRequest::post()
        .uri("/v1/tank-battle/batch")
        .set_json(json!({"requests": [
            {"op": "ai-move", "position": INITIAL, "seed": 1},
            {"op": "perft", "position": INITIAL, "depth": 1},
            {"op": "ai-move", "position": INITIAL, "seed": 2},
            {"op": "score", "position": INITIAL},
        ]}));
    let reply = send(&app, from("1.1.1.1:1000", batch)).await;
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(
        reply.body["results"][0]["code"], "SERVICE_BUSY",
        "{reply:?}"
    );
    assert_eq!(reply.body["results"][1]["nodes"], 45, "{reply:?}");
    assert_eq!(remaining(&reply, "searches"), Some(4), "{reply:?}");
    // One request: the door's, which pays for the one item that is not a
    // search.
    assert_eq!(remaining(&reply, "requests"), Some(99), "{reply:?}");
    let policies = reply
        .headers
        .get("ratelimit-policy")
        .unwrap()
        .to_str()
        .unwrap();
    assert_eq!(
        policies,
        "\"requests\";q=100;w=60;qu=\"requests\", \"searches\";q=6;w=60;tank-rules-unit=\"search\""
    );
    // The next search pays from what the batch left.
    let reply = send(&app, from("1.1.1.1:1000", search(99))).await;
    assert_problem(&reply, 503, "SERVICE_BUSY");
    assert_eq!(remaining(&reply, "searches"), Some(4), "{reply:?}");
}
