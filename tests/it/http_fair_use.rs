//! Fair use per client (issue 14): quotas per address or per API key,
//! apart for cheap calls and searches; over a quota 429 with `Retry-After`
//! and the `RateLimit` headers, other clients untouched; with keys
//! configured, no key or an unknown one is 401; `X-Forwarded-For` only
//! from trusted proxies; `/metrics` can leave the public address.

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
            "\"requests\";q=3;w=60"
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
        "\"requests\";q=3;w=60"
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
    // A batch spends one search per search: two left for 2.2.2.2, three asked.
    let batch = json!({"requests": [
        {"op": "ai-move", "position": INITIAL, "limits": {"max_depth": 1}},
        {"op": "ai-move", "position": INITIAL, "limits": {"max_depth": 1}, "seed": 1},
        {"op": "ai-move", "position": INITIAL, "limits": {"max_depth": 1}, "seed": 2},
    ]});
    let reply = send(
        &app,
        from(
            "2.2.2.2:1001",
            test::TestRequest::post()
                .uri("/v1/tank-battle/batch")
                .set_json(batch),
        ),
    )
    .await;
    assert_problem(&reply, 429, "TOO_MANY_REQUESTS");
    assert_eq!(
        reply.headers.get("ratelimit-policy").unwrap(),
        "\"searches\";q=2;w=60"
    );
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
    let state = AppState::new(Limits::default(), CacheConfig::default()).without_public_metrics();
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
