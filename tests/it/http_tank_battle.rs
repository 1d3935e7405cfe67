//! HTTP tests of every Tank Battle endpoint and each error status.

use crate::common;
use crate::common::{app_with, assert_problem, get, post, send, INITIAL};
use actix_web::test::{self, TestRequest};
use serde_json::{json, Value};
use tank_rules::limits::Limits;

const TB: &str = "/v1/tank-battle";

fn path(endpoint: &str) -> String {
    format!("{TB}/{endpoint}")
}

/// The final position of the rules' scoring example (the game is over).
const RULES_EXAMPLE: &str = tank_rules::games::tank_battle::SCORING_EXAMPLE_TBN;

#[actix_web::test]
async fn health_and_catalogue() {
    let app = app_with(Limits::default()).await;
    let reply = get(&app, "/healthz").await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.body, json!({"status": "ok"}));

    let reply = get(&app, "/v1/games").await;
    assert_eq!(reply.status, 200);
    let game = &reply.body["games"][0];
    assert_eq!(game["id"], "tank-battle");
    assert_eq!(game["players"], json!(["white", "black"]));
    let endpoints: Vec<&str> = game["endpoints"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    for expected in [
        "GET /v1/tank-battle/initial",
        "POST /v1/tank-battle/legal-moves",
        "POST /v1/tank-battle/validate",
        "POST /v1/tank-battle/apply",
        "POST /v1/tank-battle/score",
        "POST /v1/tank-battle/replay",
        "POST /v1/tank-battle/perft",
        "POST /v1/tank-battle/ai-move",
    ] {
        assert!(
            endpoints.contains(&expected),
            "{expected} missing from {endpoints:?}"
        );
    }
}

#[actix_web::test]
async fn initial_position_for_standard_and_custom_layouts() {
    let app = app_with(Limits::default()).await;
    for uri in [path("initial"), path("initial?layout=standard")] {
        let reply = get(&app, &uri).await;
        assert_eq!(reply.status, 200);
        assert_eq!(reply.body["position"], INITIAL);
        assert!(reply.body["layout"]
            .as_str()
            .unwrap()
            .starts_with("Bbbbb....../"));
    }
    let custom = "W........../.........../.........../.........../.........../~~~~~~~~~~~/.........../.........../.........../.........../bbbbbbbbbbB";
    let reply = get(&app, &format!("{}?layout={custom}", path("initial"))).await;
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(
        reply.body["position"],
        "C10/11/11/11/11/11/11/11/11/11/ttttttttttc w 0"
    );
    assert_eq!(reply.body["layout"], custom);

    assert_problem(
        &get(&app, &format!("{}?layout=huge", path("initial"))).await,
        400,
        "BAD_LAYOUT",
    );
    assert_problem(
        &get(&app, &format!("{}?colour=red", path("initial"))).await,
        400,
        "BAD_REQUEST",
    );
}

#[actix_web::test]
async fn legal_moves_are_sorted_and_filterable() {
    let app = app_with(Limits::default()).await;
    let reply = post(&app, &path("legal-moves"), json!({"position": INITIAL})).await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.body["count"], 45);
    let moves = reply.body["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 45);
    let key = |sq: &str| {
        let file = sq.as_bytes()[0] - b'a';
        let rank: u8 = sq[1..].parse().unwrap();
        (file, rank)
    };
    let keys: Vec<_> = moves
        .iter()
        .map(|m| {
            (
                key(m["from"].as_str().unwrap()),
                key(m["to"].as_str().unwrap()),
            )
        })
        .collect();
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(keys, sorted, "sorted by from (file, rank) then to");
    assert_eq!(
        moves[0],
        json!({"move": "g1-a1", "from": "g1", "to": "a1", "capture": false})
    );

    // k4: up the k-file to k11 (7) and up the diagonal to g8 (4).
    let reply = post(
        &app,
        &path("legal-moves"),
        json!({"position": INITIAL, "layout": "standard", "from": "k4"}),
    )
    .await;
    assert_eq!(reply.body["count"], 11);
    let reply = post(
        &app,
        &path("legal-moves"),
        json!({"position": INITIAL, "from": "e5"}),
    )
    .await;
    assert_eq!(reply.body, json!({"moves": [], "count": 0}));

    let reply = post(
        &app,
        &path("legal-moves"),
        json!({"position": INITIAL, "from": "z9"}),
    )
    .await;
    assert_problem(&reply, 400, "BAD_MOVE_NOTATION");
    assert_eq!(reply.body["field"], "from");

    // A finished position has no legal moves.
    let reply = post(
        &app,
        &path("legal-moves"),
        json!({"position": RULES_EXAMPLE}),
    )
    .await;
    assert_eq!(reply.body, json!({"moves": [], "count": 0}));
}

#[actix_web::test]
async fn validate_answers_legal_or_the_first_reason() {
    let app = app_with(Limits::default()).await;
    let app = &app;
    let check = |mv: &'static str| async move {
        post(
            app,
            &path("validate"),
            json!({"position": INITIAL, "move": mv}),
        )
        .await
    };
    assert_eq!(
        check("J4J5").await.body,
        json!({"legal": true, "move": "j4-j5"})
    );
    assert_eq!(
        check("j4-f8").await.body,
        json!({"legal": false, "reason": {
            "code": "CONTAMINATED",
            "message": "only a commander may enter or pass a contaminated square (g7)",
            "square": "g7"
        }})
    );
    let reason = |body: Value| {
        (
            body["reason"]["code"].clone(),
            body["reason"].get("square").cloned(),
        )
    };
    assert_eq!(
        reason(check("e5-e6").await.body),
        (json!("NO_TANK_AT_FROM"), Some(json!("e5")))
    );
    assert_eq!(
        reason(check("a11-a10").await.body),
        (json!("NOT_YOUR_TANK"), Some(json!("a11")))
    );
    assert_eq!(
        reason(check("j4-i6").await.body),
        (json!("NOT_A_LINE"), None)
    );
    assert_eq!(
        reason(check("k4-k3").await.body),
        (json!("OWN_TANK_AT_TO"), Some(json!("k3")))
    );
    assert_eq!(
        reason(check("k1-k5").await.body),
        (json!("PATH_BLOCKED"), Some(json!("k2")))
    );
    assert_eq!(
        reason(check("k4-h4").await.body),
        (json!("PATH_BLOCKED"), Some(json!("j4")))
    );
    assert_eq!(
        reason(check("j4-j7").await.body),
        (json!("MINE"), Some(json!("j6")))
    );

    let reply = post(
        &app,
        &path("validate"),
        json!({"position": RULES_EXAMPLE, "move": "b11-a11"}),
    )
    .await;
    assert_eq!(reply.body["reason"]["code"], "GAME_OVER");
    assert!(reply.body["reason"].get("square").is_none());

    let reply = check("j4:j5").await;
    assert_problem(&reply, 400, "BAD_MOVE_NOTATION");
    assert_eq!(reply.body["field"], "move");
}

#[actix_web::test]
async fn apply_plays_moves_captures_and_ends_games() {
    let app = app_with(Limits::default()).await;
    let reply = post(
        &app,
        &path("apply"),
        json!({"position": INITIAL, "move": "j4j5"}),
    )
    .await;
    assert_eq!(reply.status, 200);
    assert_eq!(
        reply.body,
        json!({
            "position": "ctttt6/tttt7/ttt8/tt9/11/11/9T1/10T/8TTT/7TTTT/6TTTTC b 1",
            "move": "j4-j5",
            "captured": null,
            "finished": false,
            "winner": null,
            "draw": false,
            "reason": null,
            "score": {"white": 14, "black": 14},
            "turn": "black"
        })
    );

    // White's tank on a5 captures Black's last tank, its commander on a9.
    let reply = post(
        &app,
        &path("apply"),
        json!({"position": "11/11/c10/11/11/11/T10/11/11/11/10C w 3", "move": "a5-a9"}),
    )
    .await;
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(reply.body["move"], "a5xa9");
    assert_eq!(
        reply.body["captured"],
        json!({"square": "a9", "kind": "commander", "side": "black"})
    );
    // Black has no tanks left: the game is over. White: a tank in Black's
    // base (2) and its commander at home (1).
    assert_eq!(reply.body["finished"], true);
    assert_eq!(reply.body["winner"], "white");
    assert_eq!(reply.body["draw"], false);
    assert_eq!(reply.body["reason"], "all_in_base");
    assert_eq!(reply.body["score"], json!({"white": 3, "black": 0}));
    assert_eq!(
        reply.body["position"],
        "11/11/T10/11/11/11/11/11/11/11/10C b 4"
    );

    // White's only tank enters Black's base: over, 2 - 2, a draw.
    let reply = post(
        &app,
        &path("apply"),
        json!({"position": "11/11/11/11/10t/10t/T10/11/11/11/11 w 0", "move": "a5-a8"}),
    )
    .await;
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(reply.body["finished"], true);
    assert_eq!(reply.body["winner"], Value::Null);
    assert_eq!(reply.body["draw"], true);
    assert_eq!(reply.body["score"], json!({"white": 2, "black": 2}));

    let reply = post(
        &app,
        &path("apply"),
        json!({"position": INITIAL, "move": "k1-k5"}),
    )
    .await;
    assert_problem(&reply, 422, "PATH_BLOCKED");
    assert_eq!(reply.body["square"], "k2");
    assert_eq!(reply.body["field"], "move");

    let reply = post(
        &app,
        &path("apply"),
        json!({"position": RULES_EXAMPLE, "move": "e5-e6"}),
    )
    .await;
    assert_problem(&reply, 422, "GAME_OVER");
}

#[actix_web::test]
async fn score_reproduces_the_rules_example() {
    let app = app_with(Limits::default()).await;
    let reply = post(&app, &path("score"), json!({"position": RULES_EXAMPLE})).await;
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(
        reply.body,
        json!({
            "score": {"white": 4, "black": 7},
            "finished": true,
            "winner": "black",
            "draw": false,
            "reason": "all_in_base",
            "breakdown": {
                "white": {"commander_on_start": 0, "commander_in_base": 2, "tanks_in_base": 0, "tanks_on_field": 2},
                "black": {"commander_on_start": 3, "commander_in_base": 0, "tanks_in_base": 4, "tanks_on_field": 0}
            }
        })
    );
    let reply = post(&app, &path("score"), json!({"position": INITIAL})).await;
    assert_eq!(reply.body["score"], json!({"white": 14, "black": 14}));
    assert_eq!(reply.body["finished"], false);
}

#[actix_web::test]
async fn replay_reports_positions_and_the_failing_ply() {
    let app = app_with(Limits::default()).await;
    let reply = post(
        &app,
        &path("replay"),
        json!({"moves": ["k4-k5", "a8-a7", "k5-k6"]}),
    )
    .await;
    assert_eq!(reply.status, 200);
    let positions = reply.body["positions"].as_array().unwrap();
    assert_eq!(positions.len(), 3);
    assert_eq!(
        positions[2],
        "ctttt6/tttt7/ttt8/1t9/t10/10T/11/9T1/8TTT/7TTTT/6TTTTC b 3"
    );
    assert_eq!(
        reply.body["final"]["score"],
        json!({"white": 14, "black": 14})
    );

    let reply = post(&app, &path("replay"), json!({"moves": []})).await;
    assert_eq!(reply.body["positions"], json!([]));

    let reply = post(
        &app,
        &path("replay"),
        json!({"moves": ["k4-k5", "a8-a7", "k5-i7"]}),
    )
    .await;
    assert_problem(&reply, 422, "MINE");
    assert_eq!(reply.body["ply"], 2);
    assert_eq!(reply.body["field"], "moves[2]");
    assert_eq!(reply.body["square"], "j6");

    let reply = post(
        &app,
        &path("replay"),
        json!({"moves": ["k4-k5", "nonsense"]}),
    )
    .await;
    assert_problem(&reply, 400, "BAD_MOVE_NOTATION");
    assert_eq!(reply.body["ply"], 1);
    assert_eq!(reply.body["field"], "moves[1]");

    let reply = post(
        &app,
        &path("replay"),
        json!({"start": "11/11 w 0", "moves": []}),
    )
    .await;
    assert_problem(&reply, 400, "BAD_POSITION");
    assert_eq!(reply.body["field"], "start");

    let reply = post(
        &app,
        &path("replay"),
        json!({"start": RULES_EXAMPLE, "moves": ["b11-a11"]}),
    )
    .await;
    assert_problem(&reply, 422, "GAME_OVER");
    assert_eq!(reply.body["ply"], 0);
}

#[actix_web::test]
async fn perft_counts_divides_and_is_bounded() {
    let app = app_with(Limits::default()).await;
    for (depth, nodes) in [(0, 1), (1, 45), (2, 2025), (3, 108097)] {
        let reply = post(
            &app,
            &path("perft"),
            json!({"position": INITIAL, "depth": depth}),
        )
        .await;
        assert_eq!(reply.body, json!({"nodes": nodes}), "depth {depth}");
    }
    let reply = post(
        &app,
        &path("perft"),
        json!({"position": INITIAL, "depth": 2, "divide": true}),
    )
    .await;
    let divide = reply.body["divide"].as_object().unwrap();
    assert_eq!(divide.len(), 45);
    assert_eq!(divide["k4-k11"], 45);
    assert_eq!(divide.values().filter_map(Value::as_u64).sum::<u64>(), 2025);

    let reply = post(
        &app,
        &path("perft"),
        json!({"position": RULES_EXAMPLE, "depth": 2}),
    )
    .await;
    assert_eq!(reply.body["nodes"], 0);

    let reply = post(
        &app,
        &path("perft"),
        json!({"position": INITIAL, "depth": 6}),
    )
    .await;
    assert_problem(&reply, 400, "LIMIT_EXCEEDED");
    assert_eq!(reply.body["field"], "depth");

    let small = app_with(Limits {
        perft_max_nodes: 1000,
        ..Limits::default()
    })
    .await;
    let reply = post(
        &small,
        &path("perft"),
        json!({"position": INITIAL, "depth": 3}),
    )
    .await;
    assert_problem(&reply, 400, "LIMIT_EXCEEDED");
    let reply = post(
        &small,
        &path("perft"),
        json!({"position": INITIAL, "depth": 3, "divide": true}),
    )
    .await;
    assert_problem(&reply, 400, "LIMIT_EXCEEDED");

    let reply = post(
        &app,
        &path("perft"),
        json!({"position": INITIAL, "depth": -1}),
    )
    .await;
    assert_problem(&reply, 400, "BAD_REQUEST");
}

#[actix_web::test]
async fn notation_and_invariant_errors_are_400() {
    let app = app_with(Limits::default()).await;
    let cases = [
        (
            json!({"position": "11/11/11 w 0"}),
            "BAD_POSITION",
            "position",
        ),
        (
            json!({"position": INITIAL, "layout": "tiny"}),
            "BAD_LAYOUT",
            "layout",
        ),
        // A tank on the mine at d8.
        (
            json!({"position": "11/11/11/3T7/11/11/11/11/11/11/11 w 0"}),
            "INVALID_POSITION",
            "position",
        ),
        // A normal tank on the contaminated e5.
        (
            json!({"position": "11/11/11/11/11/11/4t6/11/11/11/11 w 0"}),
            "INVALID_POSITION",
            "position",
        ),
        // Two white commanders.
        (
            json!({"position": "11/11/11/11/11/11/11/11/11/11/9CC w 0"}),
            "INVALID_POSITION",
            "position",
        ),
    ];
    for endpoint in ["legal-moves", "score", "validate", "apply", "perft"] {
        for (body, code, field) in &cases {
            let mut body = body.clone();
            body["move"] = json!("a1-a2");
            body["depth"] = json!(1);
            if endpoint != "validate" && endpoint != "apply" {
                body.as_object_mut().unwrap().remove("move");
            }
            if endpoint != "perft" {
                body.as_object_mut().unwrap().remove("depth");
            }
            let reply = post(&app, &path(endpoint), body).await;
            assert_problem(&reply, 400, code);
            assert_eq!(reply.body["field"], *field, "{endpoint}: {reply:?}");
        }
    }
}

#[actix_web::test]
async fn transport_errors_are_problem_json() {
    let app = app_with(Limits::default()).await;
    // Malformed JSON.
    let req = TestRequest::post()
        .uri(&path("score"))
        .insert_header(("content-type", "application/json"))
        .set_payload("{\"position\": ");
    assert_problem(&send(&app, req).await, 400, "BAD_REQUEST");
    // Missing field, wrong type, unknown field.
    for body in [
        json!({}),
        json!({"position": 7}),
        json!({"position": INITIAL, "colour": "red"}),
        json!([1]),
    ] {
        assert_problem(&post(&app, &path("score"), body).await, 400, "BAD_REQUEST");
    }
    // Wrong or missing content type.
    let req = TestRequest::post()
        .uri(&path("score"))
        .insert_header(("content-type", "text/plain"))
        .set_payload("{}");
    assert_problem(&send(&app, req).await, 415, "UNSUPPORTED_MEDIA_TYPE");
    let req = TestRequest::post().uri(&path("score")).set_payload("{}");
    assert_problem(&send(&app, req).await, 415, "UNSUPPORTED_MEDIA_TYPE");
    // `+json` media types are JSON too.
    let req = TestRequest::post()
        .uri(&path("score"))
        .insert_header(("content-type", "application/vnd.api+json"))
        .set_payload(json!({"position": INITIAL}).to_string());
    assert_eq!(send(&app, req).await.status, 200);
    // Body over the limit, with and without a declared length.
    let big = json!({"position": INITIAL, "moves": vec!["a1-a2"; 20_000]});
    assert_problem(
        &post(&app, &path("replay"), big).await,
        413,
        "PAYLOAD_TOO_LARGE",
    );
    // Unknown path, wrong method.
    assert_problem(&get(&app, "/v1/chess/initial").await, 404, "NOT_FOUND");
    assert_problem(&get(&app, "/nowhere").await, 404, "NOT_FOUND");
    let reply = get(&app, &path("apply")).await;
    assert_problem(&reply, 405, "METHOD_NOT_ALLOWED");
    assert_eq!(reply.headers.get("allow").unwrap(), "POST");
    let reply = send(&app, TestRequest::delete().uri("/healthz")).await;
    assert_problem(&reply, 405, "METHOD_NOT_ALLOWED");
    assert_eq!(reply.headers.get("allow").unwrap(), "GET");
}

#[actix_web::test]
async fn openapi_and_swagger_ui_are_served() {
    let app = app_with(Limits::default()).await;
    let reply = get(&app, "/openapi.json").await;
    assert_eq!(reply.status, 200);
    let generated: Value = serde_json::from_str(&tank_rules::api::openapi::json()).unwrap();
    assert_eq!(reply.body, generated);

    let resp = test::call_service(&app, TestRequest::get().uri("/swagger-ui/").to_request()).await;
    assert_eq!(resp.status(), 200);
    let html = String::from_utf8(test::read_body(resp).await.to_vec()).unwrap();
    assert!(html.contains("swagger"), "{html}");
    let resp = test::call_service(&app, TestRequest::get().uri("/swagger-ui").to_request()).await;
    assert!(resp.status().is_redirection());
}

/// Every request example in the OpenAPI document, sent as Swagger UI's
/// "Try it out" would send it, is answered with 200, and the answer has
/// the fields its documented response schema declares.
#[actix_web::test]
async fn every_documented_example_runs() {
    let app = app_with(Limits::default()).await;
    let doc: Value = serde_json::from_str(&tank_rules::api::openapi::json()).unwrap();
    let schemas = &doc["components"]["schemas"];
    let schema_of = |content: &Value| -> Value {
        let reference = content["application/json"]["schema"]["$ref"]
            .as_str()
            .unwrap_or_default();
        schemas[reference.rsplit('/').next().unwrap_or_default()].clone()
    };
    let check_response = |route: &str, op: &Value, body: &Value| {
        let schema = schema_of(&op["responses"]["200"]["content"]);
        let Some(properties) = schema["properties"].as_object() else {
            return;
        };
        let keys: Vec<&String> = body
            .as_object()
            .map(|o| o.keys().collect())
            .unwrap_or_default();
        for key in &keys {
            assert!(
                properties.contains_key(*key),
                "{route}: `{key}` is not in the documented response"
            );
        }
        for required in schema["required"].as_array().into_iter().flatten() {
            let required = required.as_str().unwrap();
            assert!(
                keys.iter().any(|k| *k == required),
                "{route}: documented `{required}` missing"
            );
        }
    };
    let mut tried = 0;
    for (route, item) in doc["paths"].as_object().unwrap() {
        if let Some(op) = item.get("post") {
            let schema = schema_of(&op["requestBody"]["content"]);
            let example = schema["example"].clone();
            assert!(
                example.is_object(),
                "{route}: request schema has no example"
            );
            let reply = post(&app, route, example).await;
            assert_eq!(reply.status, 200, "{route}: {reply:?}");
            check_response(route, op, &reply.body);
            tried += 1;
        }
        if let Some(op) = item.get("get") {
            let query: Vec<String> = op["parameters"]
                .as_array()
                .map(|params| {
                    params
                        .iter()
                        .filter(|p| p["in"] == "query")
                        .filter_map(|p| {
                            Some(format!(
                                "{}={}",
                                p["name"].as_str()?,
                                common::encode(p["example"].as_str()?)
                            ))
                        })
                        .collect()
                })
                .unwrap_or_default();
            let uri = if query.is_empty() {
                route.clone()
            } else {
                format!("{route}?{}", query.join("&"))
            };
            let reply = get(&app, &uri).await;
            assert_eq!(reply.status, 200, "{uri}: {reply:?}");
            check_response(route, op, &reply.body);
            tried += 1;
        }
    }
    assert!(tried >= 17, "only {tried} operations tried");
}

#[actix_web::test]
async fn ai_move_is_legal_bounded_and_cached() {
    // A node cap far above what 20 ms of search visits, so that a search
    // the time limit did not stop ends at it, soon.
    const NODE_CAP: u64 = 2_000_000;
    let app = app_with(Limits {
        ai_max_nodes: NODE_CAP,
        ..Limits::default()
    })
    .await;
    let request = json!({"position": INITIAL, "limits": {"max_depth": 3}, "seed": 5});
    let first = post(&app, &path("ai-move"), request.clone()).await;
    assert_eq!(first.status, 200, "{first:?}");
    assert_eq!(first.body["cached"], false);
    assert_eq!(first.body["depth"], 3);
    let mv = first.body["move"].as_str().unwrap().to_owned();
    assert_eq!(first.body["pv"][0], mv.as_str());
    let check = post(
        &app,
        &path("validate"),
        json!({"position": INITIAL, "move": mv}),
    )
    .await;
    assert_eq!(check.body["legal"], true, "{check:?}");

    // The identical request is answered from the cache.
    let second = post(&app, &path("ai-move"), request).await;
    assert_eq!(second.body["cached"], true);
    for field in ["move", "evaluation", "depth", "nodes", "pv"] {
        assert_eq!(second.body[field], first.body[field], "{field}");
    }
    // Another seed is another request.
    let other = post(
        &app,
        &path("ai-move"),
        json!({"position": INITIAL, "limits": {"max_depth": 3}, "seed": 6}),
    )
    .await;
    assert_eq!(other.body["cached"], false);

    // The node limit holds.
    let small = post(
        &app,
        &path("ai-move"),
        json!({"position": INITIAL, "limits": {"max_nodes": 500}}),
    )
    .await;
    assert_eq!(small.status, 200);
    assert!(small.body["nodes"].as_u64().unwrap() <= 500, "{small:?}");

    // A time limit stops the search: it ends before the node cap and the
    // depth cap (which, without it, it would search to).
    let timed = post(
        &app,
        &path("ai-move"),
        json!({"position": INITIAL, "limits": {"max_time_ms": 20}}),
    )
    .await;
    assert_eq!(timed.status, 200);
    assert!(
        timed.body["nodes"].as_u64().unwrap() < NODE_CAP,
        "not stopped by its time: {timed:?}"
    );
    assert!(
        timed.body["depth"].as_u64().unwrap() < u64::from(Limits::DEFAULT_AI_MAX_DEPTH),
        "{timed:?}"
    );
}

#[actix_web::test]
async fn ai_move_errors() {
    let app = app_with(Limits::default()).await;
    assert_problem(
        &post(&app, &path("ai-move"), json!({"position": RULES_EXAMPLE})).await,
        422,
        "GAME_OVER",
    );
    assert_problem(
        &post(&app, &path("ai-move"), json!({"position": "x"})).await,
        400,
        "BAD_POSITION",
    );
    let reply = post(
        &app,
        &path("ai-move"),
        json!({"position": INITIAL, "limits": {"max_depth": 2, "depth": 9}}),
    )
    .await;
    assert_problem(&reply, 400, "BAD_REQUEST");
    assert_eq!(reply.body["field"], "limits.depth");
    let reply = post(
        &app,
        &path("ai-move"),
        json!({"position": INITIAL, "seed": -1}),
    )
    .await;
    assert_problem(&reply, 400, "BAD_REQUEST");
}
