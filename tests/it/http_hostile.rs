//! Hostile input over HTTP: whatever the body, the answer is a 2xx or a
//! 4xx problem document, never a 5xx or a panic.

use crate::common;
use crate::common::{app_with, send, INITIAL};
use actix_web::test::TestRequest;
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::TestRunner;
use serde_json::{json, Value};
use tank_rules::limits::Limits;

const ENDPOINTS: [&str; 6] = [
    "legal-moves",
    "validate",
    "apply",
    "score",
    "replay",
    "perft",
];

/// Text near the notations: pieces of valid TBN, layouts and moves, mixed
/// with arbitrary characters.
fn notation_like() -> impl Strategy<Value = String> {
    let fragments = prop::sample::select(vec![
        "11",
        "/",
        " ",
        "w",
        "b",
        "0",
        "T",
        "C",
        "t",
        "c",
        "10",
        "1",
        "a1",
        "k11",
        "-",
        "x",
        "#",
        "~",
        "W",
        "B",
        ".",
        "standard",
        "99999999999999999999",
        "é",
        "\u{0}",
        "12",
    ]);
    prop_oneof![
        prop::collection::vec(fragments, 0..40).prop_map(|parts| parts.concat()),
        any::<String>(),
        Just(INITIAL.to_owned()),
    ]
}

fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(|f| json!(f)),
        notation_like().prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 32, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::from),
            prop::collection::btree_map(
                prop::sample::select(vec![
                    "position", "layout", "move", "moves", "from", "start", "depth", "divide", "x"
                ]),
                inner,
                0..6
            )
            .prop_map(|m| Value::Object(m.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())),
        ]
    })
}

/// A request body with the right field names and hostile values.
fn request_body() -> impl Strategy<Value = Value> {
    (
        notation_like(),
        prop::option::of(notation_like()),
        notation_like(),
        prop::collection::vec(notation_like(), 0..5),
        0u32..4,
        any::<bool>(),
    )
        .prop_map(|(position, layout, mv, moves, depth, divide)| {
            let mut body = json!({"position": position, "move": mv, "moves": moves, "depth": depth, "divide": divide});
            if let Some(layout) = layout {
                body["layout"] = json!(layout);
            }
            body
        })
}

fn fields_for(endpoint: &str) -> &'static [&'static str] {
    match endpoint {
        "legal-moves" => &["position", "layout", "from"],
        "validate" | "apply" => &["position", "layout", "move"],
        "score" => &["position", "layout"],
        "replay" => &["start", "layout", "moves"],
        _ => &["position", "layout", "depth", "divide"],
    }
}

#[actix_web::test]
async fn no_body_makes_a_server_error() {
    let app = app_with(Limits::default()).await;
    let mut runner = TestRunner::default();
    let strategy = (
        prop::sample::select(ENDPOINTS.to_vec()),
        request_body(),
        any_json(),
        any::<Vec<u8>>(),
    );
    for _ in 0..300 {
        let (endpoint, body, junk, bytes) = strategy.new_tree(&mut runner).unwrap().current();
        let uri = format!("/v1/tank-battle/{endpoint}");
        // Well-shaped bodies, keeping only the endpoint's fields (valid
        // requests reach the engine with hostile notation).
        let mut shaped = serde_json::Map::new();
        for field in fields_for(endpoint) {
            let value = match *field {
                "start" => body["position"].clone(),
                "from" => body["move"].clone(),
                other => body.get(other).cloned().unwrap_or(Value::Null),
            };
            if !value.is_null() {
                shaped.insert((*field).to_owned(), value);
            }
        }
        for request in [
            TestRequest::post()
                .uri(&uri)
                .set_json(Value::Object(shaped)),
            TestRequest::post().uri(&uri).set_json(&junk),
            TestRequest::post()
                .uri(&uri)
                .insert_header(("content-type", "application/json"))
                .set_payload(bytes.clone()),
        ] {
            let reply = send(&app, request).await;
            assert!(reply.status.as_u16() < 500, "{uri}: {reply:?}");
            assert!(
                reply.status.is_success() || reply.content_type == "application/problem+json",
                "{uri}: {reply:?}"
            );
        }
    }
}

#[actix_web::test]
async fn hostile_query_strings() {
    let app = app_with(Limits::default()).await;
    let mut runner = TestRunner::default();
    for _ in 0..200 {
        let text = notation_like().new_tree(&mut runner).unwrap().current();
        let encoded: String = text.bytes().map(|b| format!("%{b:02X}")).collect();
        for uri in [
            format!("/v1/tank-battle/initial?layout={encoded}"),
            format!("/v1/tank-battle/initial?{encoded}"),
            format!("/v1/tank-battle/render.svg?position={encoded}"),
            format!("/v1/tank-battle/render.svg?layout={encoded}&last_move={encoded}"),
            format!("/v1/tank-battle/render.svg?moves_from={encoded}"),
            format!("/v1/tank-war/render.svg?state={encoded}"),
            format!("/v1/cobi-tank-wars/render.svg?state={encoded}"),
            format!("/v1/cobi-tank-wars/render.svg?{encoded}"),
        ] {
            let reply = send(&app, TestRequest::get().uri(&uri)).await;
            assert!(reply.status.as_u16() < 500, "{uri}: {reply:?}");
        }
    }
}

/// A game whose states are JSON: the fields of its state, the list of
/// pieces and their fields, and a request body with every field its
/// endpoints take.
struct JsonStateGame {
    game: &'static str,
    fields: &'static [&'static str],
    pieces: &'static str,
    piece_fields: &'static [&'static str],
    body: fn(&Value) -> Value,
    fields_of: fn(&str) -> &'static [&'static str],
}

/// The default state with one field, or one piece's field, replaced by
/// junk, sent to every endpoint; no answer may be a server error.
async fn survives_hostile_states(game: JsonStateGame) {
    let app = app_with(Limits::default()).await;
    let initial = common::get(&app, &format!("/v1/{}/initial", game.game))
        .await
        .body;
    let pieces = initial[game.pieces].as_array().map_or(1, Vec::len).max(1);
    let mut runner = TestRunner::default();
    let strategy = (
        prop::sample::select(vec![
            "legal-moves",
            "validate",
            "apply",
            "score",
            "replay",
            "ai-move",
        ]),
        any_json(),
        prop::sample::select(game.fields.to_vec()),
        any::<Vec<u8>>(),
        any::<u8>(),
    );
    for _ in 0..300 {
        let (endpoint, junk, field, bytes, index) =
            strategy.new_tree(&mut runner).unwrap().current();
        let uri = format!("/v1/{}/{endpoint}", game.game);
        let mut state = initial.clone();
        if index % 2 == 0 {
            state[field] = junk.clone();
        } else {
            let piece = usize::from(index) % pieces;
            let key = game.piece_fields[usize::from(index / 12) % game.piece_fields.len()];
            state[game.pieces][piece][key] = junk.clone();
        }
        let picture = format!(
            "/v1/{}/render.svg?state={}",
            game.game,
            common::encode(&state.to_string())
        );
        let reply = send(&app, TestRequest::get().uri(&picture)).await;
        assert!(reply.status.as_u16() < 500, "{picture}: {reply:?}");
        let body = (game.body)(&state);
        let mut shaped = serde_json::Map::new();
        for f in (game.fields_of)(endpoint) {
            shaped.insert((*f).to_owned(), body[*f].clone());
        }
        for request in [
            TestRequest::post()
                .uri(&uri)
                .set_json(Value::Object(shaped)),
            TestRequest::post().uri(&uri).set_json(&junk),
            TestRequest::post()
                .uri(&uri)
                .insert_header(("content-type", "application/json"))
                .set_payload(bytes.clone()),
        ] {
            let reply = send(&app, request).await;
            assert!(reply.status.as_u16() < 500, "{uri}: {reply:?}");
        }
    }
}

#[actix_web::test]
async fn tank_war_survives_hostile_states() {
    survives_hostile_states(JsonStateGame {
        game: "tank-war",
        fields: &["rows", "cols", "territory", "tanks", "round", "clock_ms"],
        pieces: "tanks",
        piece_fields: &["owner", "name", "type", "track", "at"],
        body: |state| {
            json!({
                "state": state, "start": state, "player": "U",
                "moves": {"U": "LA", "D": "RC"}, "rounds": [{"U": "LA", "D": "RC"}],
                "limits": {"max_depth": 1}
            })
        },
        fields_of: |endpoint| match endpoint {
            "legal-moves" => &["state", "player"],
            "validate" | "apply" => &["state", "moves"],
            "score" => &["state"],
            "replay" => &["start", "rounds"],
            _ => &["state", "player", "limits"],
        },
    })
    .await;
}

#[actix_web::test]
async fn cobi_tank_wars_survives_hostile_states() {
    survives_hostile_states(JsonStateGame {
        game: "cobi-tank-wars",
        fields: &[
            "rows",
            "cols",
            "first",
            "vehicles",
            "artillery",
            "support",
            "gunfire",
            "support_cards",
            "round",
        ],
        pieces: "vehicles",
        piece_fields: &["id", "owner", "square", "armor", "slot"],
        body: |state| {
            let orders = json!({
                "P1": {"P1-1": {"dir": "N", "dist": 2}, "P1-2": {"dir": "E", "dist": 1}, "P1-3": {"dir": "W", "dist": 3}},
                "P2": {"P2-1": {"dir": "S", "dist": 1}, "P2-2": {"dir": "S", "dist": 3}, "P2-3": {"dir": "E", "dist": 2}}
            });
            json!({
                "state": state, "start": state, "player": "P2", "orders": orders,
                "seed": 3, "rounds": [{"orders": orders, "gunfire": ["d4"]}],
                "gunfire_tokens": 2, "limits": {"max_nodes": 500}
            })
        },
        fields_of: |endpoint| match endpoint {
            "legal-moves" => &["state", "player"],
            "validate" => &["state", "orders"],
            "apply" => &["state", "orders", "seed"],
            "score" => &["state"],
            "replay" => &["start", "rounds"],
            _ => &["state", "player", "gunfire_tokens", "limits", "seed"],
        },
    })
    .await;
}

/// Every endpoint of every game gets each kind of broken body; each answer
/// is a 4xx problem document with a code.
#[actix_web::test]
async fn every_endpoint_rejects_each_kind_of_broken_body() {
    let app = app_with(Limits::default()).await;
    let endpoints = [
        "/v1/tank-battle/legal-moves",
        "/v1/tank-battle/validate",
        "/v1/tank-battle/apply",
        "/v1/tank-battle/score",
        "/v1/tank-battle/replay",
        "/v1/tank-battle/perft",
        "/v1/tank-battle/ai-move",
        "/v1/tank-battle/batch",
        "/v1/tank-war/legal-moves",
        "/v1/tank-war/validate",
        "/v1/tank-war/apply",
        "/v1/tank-war/score",
        "/v1/tank-war/replay",
        "/v1/tank-war/ai-move",
        "/v1/tank-war/batch",
        "/v1/cobi-tank-wars/legal-moves",
        "/v1/cobi-tank-wars/validate",
        "/v1/cobi-tank-wars/apply",
        "/v1/cobi-tank-wars/score",
        "/v1/cobi-tank-wars/replay",
        "/v1/cobi-tank-wars/ai-move",
        "/v1/cobi-tank-wars/batch",
    ];
    let valid = json!({"position": INITIAL, "move": "k4-k5", "moves": ["k4-k5"], "depth": 1});
    let text = valid.to_string();
    let nested = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let mut bodies: Vec<(String, Vec<u8>)> = vec![
        ("empty".into(), Vec::new()),
        ("malformed".into(), b"{\"position\": ".to_vec()),
        (
            "truncated".into(),
            text.as_bytes()[..text.len() / 2].to_vec(),
        ),
        ("not an object".into(), b"42".to_vec()),
        ("deeply nested".into(), nested.clone().into_bytes()),
        (
            "deeply nested object".into(),
            format!("{{\"position\":{nested}}}").into_bytes(),
        ),
        ("binary".into(), (0..=255u8).cycle().take(3000).collect()),
        (
            "invalid utf-8 in a string".into(),
            b"{\"position\":\"\xff\xfe\"}".to_vec(),
        ),
        (
            "oversized".into(),
            format!("{{\"position\":\"{}\"}}", "1".repeat(70_000)).into_bytes(),
        ),
    ];
    for (name, value) in [
        (
            "wrong types",
            json!({"position": 5, "state": "x", "moves": "k4-k5", "player": 3}),
        ),
        ("negative depth", json!({"position": INITIAL, "depth": -1})),
        ("huge depth", json!({"position": INITIAL, "depth": 1e20})),
        (
            "fractional depth",
            json!({"position": INITIAL, "depth": 1.5}),
        ),
        ("null depth", json!({"position": INITIAL, "depth": null})),
        (
            "integer past u64",
            json!({"position": INITIAL, "seed": 18446744073709551616u128.to_string().parse::<f64>().unwrap()}),
        ),
        (
            "negative limits",
            json!({"position": INITIAL, "limits": {"max_time_ms": -5}}),
        ),
        (
            "unknown field",
            json!({"position": INITIAL, "colour": "red"}),
        ),
    ] {
        bodies.push((name.into(), value.to_string().into_bytes()));
    }
    for endpoint in endpoints {
        for (name, body) in &bodies {
            let request = TestRequest::post()
                .uri(endpoint)
                .insert_header(("content-type", "application/json"))
                .set_payload(body.clone());
            let reply = send(&app, request).await;
            let status = reply.status.as_u16();
            assert!((400..500).contains(&status), "{endpoint} {name}: {reply:?}");
            assert_eq!(
                reply.content_type, "application/problem+json",
                "{endpoint} {name}"
            );
            assert!(
                reply.body["code"].is_string(),
                "{endpoint} {name}: {reply:?}"
            );
        }
    }
}

/// Absurd AI limits are clamped to the server's caps: the search is the
/// one a request asking exactly the caps makes, and it visits no more
/// positions than the cap. Where the node cap stopped it short of the
/// positions asked, it says so (`cut`) and is not kept; the request that
/// asks exactly the caps got what it asked, and is kept.
#[actix_web::test]
async fn absurd_ai_limits_are_clamped() {
    let limits = Limits {
        ai_max_time_ms: 100,
        ai_max_nodes: 20_000,
        ..Limits::default()
    };
    let app = app_with(limits).await;
    let absurd = json!({"max_time_ms": 1_000_000_000_000u64, "max_depth": 4_000_000_000u32, "max_nodes": u64::MAX});
    let caps = json!({"max_time_ms": 100, "max_depth": limits.ai_max_depth, "max_nodes": 20_000});
    let war = common::get(&app, "/v1/tank-war/initial").await.body;
    let asks = [
        ("/v1/tank-battle/ai-move", json!({"position": INITIAL})),
        ("/v1/tank-war/ai-move", json!({"state": war, "player": "D"})),
    ];
    for (path, ask) in asks {
        let with = |limits: &Value| {
            let mut body = ask.clone();
            body["limits"] = limits.clone();
            body
        };
        let reply = common::post(&app, path, with(&absurd)).await;
        assert_eq!(reply.status, 200, "{path}: {reply:?}");
        assert_eq!(reply.body["cached"], false, "{path}: {reply:?}");
        assert!(
            reply.body["nodes"].as_u64().unwrap() <= 20_000,
            "{path}: past the node cap: {reply:?}"
        );
        let cut = reply.body["cut"] == true;
        if reply.body["nodes"].as_u64() == Some(20_000) {
            assert!(cut, "{path}: stopped by the node cap: {reply:?}");
        }
        let capped = common::post(&app, path, with(&caps)).await;
        assert_eq!(capped.body["cached"], !cut, "{path}: {capped:?}");
        assert_eq!(capped.body["cut"], false, "{path}: {capped:?}");
        let content = |mut answer: Value| {
            for field in ["time_ms", "cached", "cut"] {
                answer.as_object_mut().map(|o| o.remove(field));
            }
            answer
        };
        assert_eq!(
            content(reply.body),
            content(capped.body),
            "{path}: the absurd limits were not searched as the caps"
        );
        let again = common::post(&app, path, with(&caps)).await;
        assert_eq!(again.body["cached"], true, "{path}: {again:?}");
    }
}
