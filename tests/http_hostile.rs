//! Hostile input over HTTP: whatever the body, the answer is a 2xx or a
//! 4xx problem document, never a 5xx or a panic.

mod common;

use actix_web::test::TestRequest;
use common::{app_with, send, INITIAL};
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
        ] {
            let reply = send(&app, TestRequest::get().uri(&uri)).await;
            assert!(reply.status.as_u16() < 500, "{uri}: {reply:?}");
        }
    }
}

#[actix_web::test]
async fn tank_war_survives_hostile_states() {
    let app = app_with(Limits::default()).await;
    let initial = common::get(&app, "/v1/tank-war/initial").await.body;
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
        prop::sample::select(vec![
            "rows",
            "cols",
            "territory",
            "tanks",
            "round",
            "clock_ms",
        ]),
        any::<Vec<u8>>(),
        any::<u8>(),
    );
    for _ in 0..300 {
        let (endpoint, junk, field, bytes, index) =
            strategy.new_tree(&mut runner).unwrap().current();
        let uri = format!("/v1/tank-war/{endpoint}");
        // The default state with one field, or one tank's field, replaced.
        let mut state = initial.clone();
        if index % 2 == 0 {
            state[field] = junk.clone();
        } else {
            let tank = usize::from(index) % 12;
            let key = ["owner", "name", "type", "track", "at"][usize::from(index / 12) % 5];
            state["tanks"][tank][key] = junk.clone();
        }
        let body = json!({
            "state": state, "start": state, "player": "U",
            "moves": {"U": "LA", "D": "RC"}, "rounds": [{"U": "LA", "D": "RC"}],
            "limits": {"max_depth": 1}
        });
        let mut shaped = serde_json::Map::new();
        let fields: &[&str] = match endpoint {
            "legal-moves" => &["state", "player"],
            "validate" | "apply" => &["state", "moves"],
            "score" => &["state"],
            "replay" => &["start", "rounds"],
            _ => &["state", "player", "limits"],
        };
        for f in fields {
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
