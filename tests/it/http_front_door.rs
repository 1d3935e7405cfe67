//! The front door (issue 38, deploy/README.md): whether a request needs a
//! key, which quota it spends and how the metrics name it are decided from
//! the route the router matched. Every `/v1` operation of the document,
//! written with percent-encoded characters in the prefix, the game id or
//! the operation name, is the same request as its plain form: refused
//! without a key, spending the same quota with one, and named by its
//! route in the metrics.

use actix_web::test;
use serde_json::{json, Value};
use tank_rules::api::AppState;
use tank_rules::cache::CacheConfig;
use tank_rules::fair_use::{FairUse, FairUseConfig, KeysFile};
use tank_rules::limits::Limits;

use crate::common::{send, Reply, INITIAL};

const KEY: &str = "front-door-test-key-0123456789";

/// A keys file of one key with the given quotas a minute.
fn keys(requests: u32, searches: u32) -> KeysFile {
    let text = json!({"keys": [{
        "key": KEY, "name": "site",
        "requests_per_minute": requests, "searches_per_minute": searches,
    }]});
    KeysFile::parse(&text.to_string()).unwrap()
}

fn state(keys: KeysFile) -> AppState {
    AppState::new(Limits::default(), CacheConfig::default()).with_fair_use(FairUse::new(
        FairUseConfig {
            keys: Some(keys),
            ..FairUseConfig::default()
        },
    ))
}

/// Percent-encodes byte `at` of `text`.
fn encoded_at(text: &str, at: usize) -> String {
    let (head, tail) = text.split_at(at);
    let mut chars = tail.chars();
    let c = chars.next().unwrap();
    format!("{head}%{:02X}{}", c as u32, chars.as_str())
}

/// The ways of writing `/v1/<game>/<op>` another client tried: the prefix,
/// the game id and the operation name percent-encoded (upper and lower
/// case hex, every `-`).
fn variants(path: &str) -> Vec<String> {
    let rest = path.strip_prefix("/v1").unwrap();
    let mut out = vec![
        format!("/%761{rest}"),
        format!("/v%31{rest}"),
        format!("/%76%31{rest}"),
    ];
    let segments: Vec<&str> = rest.split('/').skip(1).collect();
    if let [game, op] = segments[..] {
        out.push(format!("/v1/{}/{op}", encoded_at(game, 0)));
        out.push(format!("/v1/{game}/{}", encoded_at(op, 0).to_lowercase()));
        out.push(format!("/v1/{game}/{}", op.replace('-', "%2D")));
        out.push(format!(
            "/%76%31/{}/{}",
            encoded_at(game, game.len() - 1),
            op.replace('-', "%2d")
        ));
    } else {
        // `/v1/games`
        out.push(format!("/v1/{}", encoded_at(segments[0], 1)));
    }
    out
}

/// Every documented operation under `/v1`: method, path and the example
/// body its request schema shows (`null` for a GET).
fn operations() -> Vec<(String, String, Value)> {
    let doc = tank_rules::api::openapi::document();
    let schemas = &doc["components"]["schemas"];
    let mut ops = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        if !path.starts_with("/v1/") {
            continue;
        }
        for (method, op) in item.as_object().unwrap() {
            let schema = &op["requestBody"]["content"]["application/json"]["schema"]["$ref"];
            let body = schema
                .as_str()
                .and_then(|name| name.rsplit('/').next())
                .map_or(Value::Null, |name| schemas[name]["example"].clone());
            ops.push((method.to_uppercase(), path.clone(), body));
        }
    }
    assert!(ops.len() >= 29, "{} operations", ops.len());
    ops
}

fn request(method: &str, path: &str, key: bool) -> test::TestRequest {
    let body = json!({"position": INITIAL});
    with_body(method, path, &body, key)
}

fn with_body(method: &str, path: &str, body: &Value, key: bool) -> test::TestRequest {
    let req = match method {
        "GET" => test::TestRequest::get().uri(path),
        _ => test::TestRequest::post().uri(path).set_json(body),
    };
    if key {
        req.insert_header(("x-api-key", KEY))
    } else {
        req
    }
}

/// The quota an answer says it spent (`RateLimit-Policy`'s name).
fn policy(reply: &Reply) -> Option<String> {
    let value = reply.headers.get("ratelimit-policy")?.to_str().ok()?;
    Some(value.split(';').next()?.trim_matches('"').to_owned())
}

#[actix_web::test]
async fn every_operation_written_any_way_needs_its_key_and_spends_its_quota() {
    let app = test::init_service(tank_rules::api::app(state(keys(100_000, 100_000)))).await;
    let mut checked = 0;
    for (method, path, body) in operations() {
        let plain = send(&app, with_body(&method, &path, &body, true)).await;
        // Every example runs (`render.svg` may need a query).
        if path.ends_with("render.svg") {
            assert_ne!(plain.status, 401, "{method} {path}");
        } else {
            assert_eq!(plain.status, 200, "{method} {path}: {}", plain.text);
        }
        let spent = policy(&plain);
        let search = tank_rules::operations::Operation::ALL
            .iter()
            .any(|op| op.is_search() && path.ends_with(op.path()));
        let expected = if search { "searches" } else { "requests" };
        assert_eq!(spent.as_deref(), Some(expected), "{method} {path}");
        for variant in variants(&path) {
            let refused = send(&app, with_body(&method, &variant, &body, false)).await;
            assert_eq!(refused.status, 401, "{method} {variant} without a key");
            assert_eq!(refused.body["code"], "UNAUTHORIZED", "{method} {variant}");
            let reply = send(&app, with_body(&method, &variant, &body, true)).await;
            assert_eq!(
                reply.status, plain.status,
                "{method} {variant}: {}",
                reply.text
            );
            assert_eq!(policy(&reply), spent, "{method} {variant}");
            checked += 1;
        }
    }
    assert!(checked >= 200, "{checked} variants");
}

#[actix_web::test]
async fn an_encoded_search_spends_the_search_quota() {
    let app = test::init_service(tank_rules::api::app(state(keys(100, 2)))).await;
    let mut statuses = Vec::new();
    for (seed, path) in [
        "/v1/tank-battle/ai-move",
        "/v1/tank-battle/ai%2Dmove",
        "/%76%31/tank-battle/%61i-move",
    ]
    .into_iter()
    .enumerate()
    {
        let body = json!({"position": INITIAL, "limits": {"max_depth": 1}, "seed": seed});
        let reply = send(&app, with_body("POST", path, &body, true)).await;
        statuses.push(reply.status.as_u16());
        if reply.status == 429 {
            assert_eq!(policy(&reply).as_deref(), Some("searches"), "{reply:?}");
        }
    }
    assert_eq!(statuses, [200, 200, 429]);
}

#[actix_web::test]
async fn metrics_name_an_encoded_request_by_its_route() {
    let app = test::init_service(tank_rules::api::app(state(keys(100, 100)))).await;
    for path in ["/%761/tank-battle/score", "/v1/tank-battle/sc%6Fre"] {
        let reply = send(&app, request("POST", path, true)).await;
        assert_eq!(reply.status, 200, "{reply:?}");
    }
    let reply = send(&app, request("POST", "/%761/tank-battle/apply", false)).await;
    assert_eq!(reply.status, 401);
    let metrics = send(&app, test::TestRequest::get().uri("/metrics")).await;
    let series = |route: &str, status: u16| {
        metrics.text.lines().any(|line| {
            line.starts_with("tank_rules_http_requests_total{")
                && line.contains(&format!("endpoint=\"{route}\""))
                && line.contains(&format!("status=\"{status}\""))
        })
    };
    assert!(series("/v1/tank-battle/score", 200), "{}", metrics.text);
    assert!(series("/v1/tank-battle/apply", 401), "{}", metrics.text);
    let unmatched: Vec<&str> = metrics
        .text
        .lines()
        .filter(|line| line.contains("UNMATCHED") && !line.starts_with('#'))
        .collect();
    assert!(unmatched.is_empty(), "{unmatched:?}");
}

#[actix_web::test]
async fn an_unknown_path_is_not_a_route_whatever_its_encoding() {
    let app = test::init_service(tank_rules::api::app(state(keys(100, 100)))).await;
    // A slash is not decoded (it would change the path's segments), and a
    // path that is not a route is 404 before any key is asked for.
    for path in [
        "/v1%2Ftank-battle/score",
        "/v1/tank-battle%2Fscore",
        "/v1/tank-battle/scores",
    ] {
        let reply = send(&app, request("POST", path, false)).await;
        assert_eq!(reply.status, 404, "{path}: {reply:?}");
    }
    // Another method on an encoded route's path is 405, as on the plain.
    let reply = send(&app, request("GET", "/v1/tank-battle/sc%6Fre", true)).await;
    assert_eq!(reply.status, 405, "{reply:?}");
    let body: &Value = &reply.body;
    assert_eq!(body["code"], "METHOD_NOT_ALLOWED");
}

/// Every operation of the document is served by a router of the one
/// registration (`openapi::router`): each request to one is tagged with
/// its route, so none is left for the metrics' `UNMATCHED`. A route added
/// to the application some other way (a `web::resource` beside the
/// routers) would be reached untagged and fail this test — and would walk
/// past the keys and quotas that the routers apply.
#[actix_web::test]
async fn every_documented_operation_is_served_by_a_router() {
    let app = test::init_service(tank_rules::api::app(AppState::new(
        Limits::default(),
        CacheConfig::default(),
    )))
    .await;
    let doc = tank_rules::api::openapi::document();
    let mut asked = 0;
    for (path, item) in doc["paths"].as_object().unwrap() {
        for method in item.as_object().unwrap().keys() {
            let req = match method.as_str() {
                "get" => test::TestRequest::get().uri(path),
                _ => test::TestRequest::post().uri(path).set_json(json!({})),
            };
            let reply = send(&app, req).await;
            assert!(
                reply.status != 404 && reply.status != 405,
                "{method} {path}: {reply:?}"
            );
            asked += 1;
        }
    }
    assert!(asked >= 32, "{asked} operations");
    let metrics = send(&app, test::TestRequest::get().uri("/metrics")).await;
    let unmatched: Vec<&str> = metrics
        .text
        .lines()
        .filter(|line| line.contains("UNMATCHED") && !line.starts_with('#'))
        .collect();
    assert!(unmatched.is_empty(), "{unmatched:?}");
}
