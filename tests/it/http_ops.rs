//! Operations: the Prometheus scrape and CORS for browser clients.

use crate::common;
use crate::common::{app_with, get, post, send, INITIAL};
use actix_web::test::{self, TestRequest};
use serde_json::json;
use tank_rules::api::middleware::cors::CorsOrigins;
use tank_rules::api::AppState;
use tank_rules::cache::CacheConfig;
use tank_rules::limits::Limits;

/// The value of the sample `name{labels}` in a scrape, when it is there.
fn sample(scrape: &str, name: &str, labels: &[(&str, &str)]) -> Option<f64> {
    scrape.lines().find_map(|line| {
        let (series, value) = line.rsplit_once(' ')?;
        let (metric, rest) = series.split_once('{').unwrap_or((series, "}"));
        let all = labels
            .iter()
            .all(|(k, v)| rest.contains(&format!("{k}=\"{v}\"")));
        (metric == name && all).then(|| value.parse().ok())?
    })
}

#[actix_web::test]
async fn metrics_scrape_counts_requests_searches_and_the_cache() {
    let app = app_with(Limits::default()).await;
    for _ in 0..3 {
        post(
            &app,
            "/v1/tank-battle/legal-moves",
            json!({"position": INITIAL}),
        )
        .await;
    }
    post(
        &app,
        "/v1/tank-battle/legal-moves",
        json!({"position": "x"}),
    )
    .await;
    get(&app, "/no/such/path/123").await;
    let ai = json!({"position": INITIAL, "limits": {"max_depth": 2}});
    for _ in 0..2 {
        post(&app, "/v1/tank-battle/ai-move", ai.clone()).await;
    }

    let resp = test::call_service(&app, TestRequest::get().uri("/metrics").to_request()).await;
    assert_eq!(resp.status(), 200);
    let content_type = resp
        .headers()
        .get("content-type")
        .unwrap()
        .to_str()
        .unwrap();
    assert!(
        content_type.starts_with("text/plain; version=0.0.4"),
        "{content_type}"
    );
    let scrape = String::from_utf8(test::read_body(resp).await.to_vec()).unwrap();

    // Every line is a comment or `series value`, as the format wants.
    for line in scrape.lines().filter(|l| !l.starts_with('#')) {
        let (_, value) = line.rsplit_once(' ').unwrap();
        assert!(value.parse::<f64>().is_ok(), "{line}");
    }
    let route = ("endpoint", "/v1/tank-battle/legal-moves");
    let requests = "tank_rules_http_requests_total";
    assert_eq!(
        sample(&scrape, requests, &[route, ("status", "200")]),
        Some(3.0)
    );
    assert_eq!(
        sample(&scrape, requests, &[route, ("status", "400")]),
        Some(1.0)
    );
    assert_eq!(
        sample(
            &scrape,
            "tank_rules_http_request_duration_seconds_count",
            &[route, ("status", "200")]
        ),
        Some(3.0)
    );
    // Unknown paths share one label value.
    assert_eq!(
        sample(
            &scrape,
            requests,
            &[("endpoint", "UNMATCHED"), ("status", "404")]
        ),
        Some(1.0)
    );
    assert!(!scrape.contains("/no/such/path"));
    let game = ("game", "tank-battle");
    assert_eq!(
        sample(&scrape, "tank_rules_ai_searches_total", &[game]),
        Some(1.0)
    );
    assert!(sample(&scrape, "tank_rules_ai_nodes_total", &[game]).unwrap() > 0.0);
    assert_eq!(
        sample(&scrape, "tank_rules_ai_search_seconds_count", &[game]),
        Some(1.0)
    );
    let lookups = "tank_rules_ai_cache_lookups_total";
    assert_eq!(
        sample(&scrape, lookups, &[game, ("result", "miss")]),
        Some(1.0)
    );
    assert_eq!(
        sample(&scrape, lookups, &[game, ("result", "hit")]),
        Some(1.0)
    );
    // One cache for all games, bounded in bytes.
    assert!(sample(&scrape, "tank_rules_ai_cache_entries", &[]).is_some());
    assert!(sample(&scrape, "tank_rules_ai_cache_bytes", &[]).is_some());

    let reply = post(&app, "/metrics", json!({})).await;
    common::assert_problem(&reply, 405, "METHOD_NOT_ALLOWED");
}

#[actix_web::test]
async fn any_origin_by_default() {
    let app = app_with(Limits::default()).await;
    let reply = send(
        &app,
        TestRequest::post()
            .uri("/v1/tank-battle/score")
            .insert_header(("origin", "https://games.example"))
            .set_json(json!({"position": INITIAL})),
    )
    .await;
    assert_eq!(reply.status, 200);
    assert_eq!(
        reply.headers.get("access-control-allow-origin").unwrap(),
        "*"
    );

    let preflight = send(
        &app,
        TestRequest::default()
            .method(actix_web::http::Method::OPTIONS)
            .uri("/v1/tank-battle/apply")
            .insert_header(("origin", "https://games.example"))
            .insert_header(("access-control-request-method", "POST"))
            .insert_header(("access-control-request-headers", "content-type")),
    )
    .await;
    assert_eq!(preflight.status, 200, "{preflight:?}");
    let allowed = preflight
        .headers
        .get("access-control-allow-methods")
        .unwrap()
        .to_str()
        .unwrap();
    assert!(allowed.contains("POST"), "{allowed}");
    assert!(preflight.headers.get("access-control-max-age").is_some());

    let without_origin = post(&app, "/v1/tank-battle/score", json!({"position": INITIAL})).await;
    assert!(without_origin
        .headers
        .get("access-control-allow-origin")
        .is_none());
}

#[actix_web::test]
async fn configured_origins_only() {
    let origins: CorsOrigins = "https://games.example,http://localhost:3000"
        .parse()
        .unwrap();
    let state = AppState {
        cors: origins,
        ..AppState::new(Limits::default(), CacheConfig::default())
    };
    let app = test::init_service(tank_rules::api::app(state)).await;
    let ask = |origin: &'static str| {
        TestRequest::get()
            .uri("/v1/cobi-tank-wars/initial")
            .insert_header(("origin", origin))
    };
    let allowed = send(&app, ask("http://localhost:3000")).await;
    assert_eq!(allowed.status, 200);
    assert_eq!(
        allowed.headers.get("access-control-allow-origin").unwrap(),
        "http://localhost:3000"
    );
    // Another origin still gets its answer, without CORS headers: the
    // browser refuses it, other clients are not affected.
    let other = send(&app, ask("https://evil.example")).await;
    assert_eq!(other.status, 200);
    assert!(other.headers.get("access-control-allow-origin").is_none());
}

#[actix_web::test]
async fn large_answers_are_compressed_small_ones_are_not() {
    let app = app_with(Limits::default()).await;
    let legal_moves = json!({"op": "legal-moves", "position": INITIAL});
    for (path, body, compressed) in [
        // 2.5 KB: sent as is.
        (
            "/v1/tank-battle/legal-moves",
            json!({"position": INITIAL}),
            false,
        ),
        ("/v1/tank-battle/score", json!({"position": INITIAL}), false),
        // Four move lists, 10 KB: compressed.
        (
            "/v1/tank-battle/batch",
            json!({"requests": vec![legal_moves; 4]}),
            true,
        ),
    ] {
        let req = actix_web::test::TestRequest::post()
            .uri(path)
            .insert_header(("accept-encoding", "gzip"))
            .set_json(body)
            .to_request();
        let resp = actix_web::test::call_service(&app, req).await;
        assert_eq!(resp.status(), 200, "{path}");
        let encoding = resp
            .headers()
            .get("content-encoding")
            .map(|v| v.to_str().unwrap().to_owned());
        assert_eq!(encoding.as_deref(), compressed.then_some("gzip"), "{path}");
        let vary: Vec<_> = resp.headers().get_all("vary").collect();
        assert!(
            vary.iter().any(|v| v
                .to_str()
                .unwrap()
                .to_ascii_lowercase()
                .contains("accept-encoding")),
            "{path}: {vary:?}"
        );
        let bytes = actix_web::test::read_body(resp).await;
        if compressed {
            assert_eq!(&bytes[..2], &[0x1f, 0x8b], "{path}: gzip magic");
        } else {
            assert_eq!(bytes[0], b'{', "{path}");
        }
    }
}
