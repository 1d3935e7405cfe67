//! `POST /v1/{game}/batch`: every result is what the single endpoint
//! answers; per-request problems locate their field in the batch; the caps
//! and broken bodies fail the whole batch.

use crate::common;
use crate::common::{app_with, assert_problem, get, post, send, Reply, INITIAL};
use actix_web::body::MessageBody;
use actix_web::dev::{Service, ServiceResponse};
use actix_web::test::{self, TestRequest};
use serde_json::{json, Value};
use tank_rules::limits::Limits;

fn batch_path(game: &str) -> String {
    format!("/v1/{game}/batch")
}

/// `body` with `"op": op` added.
fn item(op: &str, body: &Value) -> Value {
    let mut item = body.clone();
    item["op"] = json!(op);
    item
}

/// The single endpoint's answer as a batch result: problems get their
/// `field` located in the batch and lose their `instance` (the single
/// request's id, which its `X-Request-Id` echoes; a batch's items are parts
/// of the batch's request); `cached` is left out (a batched AI answer
/// fills the cache the single request then hits).
fn as_result(single: &Reply, index: usize) -> Value {
    let mut body = single.body.clone();
    if !single.status.is_success() {
        let id = single
            .headers
            .get("x-request-id")
            .map(|v| v.to_str().unwrap());
        assert_eq!(body["instance"].as_str(), id, "{body}");
        body.as_object_mut().unwrap().remove("instance");
        body["field"] = json!(match body["field"].as_str() {
            Some(field) => format!("requests[{index}].{field}"),
            None => format!("requests[{index}]"),
        });
    }
    without_cached(body)
}

fn without_cached(mut body: Value) -> Value {
    if let Some(object) = body.as_object_mut() {
        object.remove("cached");
    }
    body
}

/// A result's `op`, which comes first, and the rest of it.
fn unnamed(result: &Value) -> (String, Value) {
    let mut result = result.clone();
    let fields = result.as_object_mut().expect("a result is an object");
    assert_eq!(
        fields.keys().next().map(String::as_str),
        Some("op"),
        "{fields:?}"
    );
    let op = fields.shift_remove("op").expect("op");
    (op.as_str().expect("a string").to_owned(), result)
}

/// Runs `requests` (op and body) as one batch of `game`, then each on its
/// own endpoint, and checks the batch answered each in order exactly as
/// its endpoint does. Answers the batch's results.
async fn assert_batch_matches_endpoints<S, B>(
    app: &S,
    game: &str,
    requests: &[(&str, Value)],
) -> Vec<Value>
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let items: Vec<Value> = requests.iter().map(|(op, body)| item(op, body)).collect();
    let reply = post(app, &batch_path(game), json!({ "requests": items })).await;
    assert_eq!(reply.status, 200, "{game}: {reply:?}");
    assert_eq!(reply.content_type, "application/json", "{game}");
    let results = reply.body["results"].as_array().unwrap().clone();
    assert_eq!(results.len(), requests.len(), "{game}: {results:?}");
    for (index, ((op, body), result)) in requests.iter().zip(&results).enumerate() {
        let single = post(app, &format!("/v1/{game}/{op}"), body.clone()).await;
        let named = if single.status.is_success() {
            *op
        } else {
            "problem"
        };
        let (result_op, result) = unnamed(result);
        assert_eq!(result_op, named, "{game} request {index}: its `op`");
        assert_eq!(
            without_cached(result.clone()),
            as_result(&single, index),
            "{game} request {index} ({op})"
        );
        if !single.status.is_success() {
            assert_eq!(result["status"], single.status.as_u16(), "{game} {index}");
        }
    }
    results
}

#[actix_web::test]
async fn tank_battle_batch_answers_like_each_endpoint() {
    let app = app_with(Limits::default()).await;
    let position = json!({"position": INITIAL});
    let with = |extra: Value| {
        let mut body = position.clone();
        body.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        body
    };
    let results = assert_batch_matches_endpoints(
        &app,
        "tank-battle",
        &[
            ("legal-moves", with(json!({"from": "j4"}))),
            ("legal-moves", position.clone()),
            ("validate", with(json!({"move": "j4-j5"}))),
            ("validate", with(json!({"move": "k4-k3"}))),
            ("apply", with(json!({"move": "j4-j5"}))),
            ("score", position.clone()),
            ("replay", json!({"moves": ["k4-k5", "a8-a7", "k5-k6"]})),
            ("perft", with(json!({"depth": 2, "divide": true}))),
            (
                "ai-move",
                with(json!({"limits": {"max_depth": 2}, "seed": 3})),
            ),
            ("apply", with(json!({"move": "a8-a7"}))),
            // Its pattern holds, but rank 1 covers 10 squares.
            (
                "score",
                json!({"position": "11/11/11/11/11/11/11/11/11/11/10 w 0"}),
            ),
            ("replay", json!({"moves": ["k4-k5", "k5-k6"]})),
        ],
    )
    .await;
    assert_eq!(results[0]["count"], 5);
    assert_eq!(results[9]["code"], "NOT_YOUR_TANK");
    assert_eq!(results[9]["field"], "requests[9].move");
    assert_eq!(results[10]["code"], "BAD_POSITION");
    assert_eq!(results[10]["field"], "requests[10].position");
    assert_eq!(results[11]["field"], "requests[11].moves[1]");
    assert_eq!(results[11]["ply"], 1);
}

#[actix_web::test]
async fn tank_war_batch_answers_like_each_endpoint() {
    let app = app_with(Limits::default()).await;
    let state = get(&app, "/v1/tank-war/initial").await.body;
    // Schema-valid, but a tank stands past the end of its track.
    let mut far_end = state.clone();
    far_end["tanks"][0]["at"] = json!(6);
    let results = assert_batch_matches_endpoints(
        &app,
        "tank-war",
        &[
            ("legal-moves", json!({"state": state, "player": "D"})),
            ("validate", json!({"state": state, "moves": {"U": "LA"}})),
            (
                "apply",
                json!({"state": state, "moves": {"U": "LA", "D": "RC"}, "elapsed_ms": {"U": 1500}}),
            ),
            ("score", json!({"state": state})),
            (
                "replay",
                json!({"rounds": [{"U": "LA", "D": "RC"}, {"U": "LC", "D": "RB"}]}),
            ),
            (
                "ai-move",
                json!({"state": state, "player": "U", "limits": {"max_depth": 1}, "seed": 2}),
            ),
            (
                "apply",
                json!({"state": state, "moves": {"U": "ZZ", "D": "RC"}}),
            ),
            ("validate", json!({"state": far_end, "moves": {"U": "LA"}})),
        ],
    )
    .await;
    assert_eq!(results[6]["code"], "NO_SUCH_TANK");
    assert_eq!(results[6]["player"], "U");
    assert_eq!(results[6]["field"], "requests[6].moves");
    assert_eq!(results[7]["code"], "INVALID_POSITION");
    assert_eq!(results[7]["field"], "requests[7].state");
}

#[actix_web::test]
async fn cobi_tank_wars_batch_answers_like_each_endpoint() {
    let app = app_with(Limits::default()).await;
    let state = get(&app, "/v1/cobi-tank-wars/initial").await.body;
    // Schema-valid, but a vehicle stands off the 8x8 board.
    let mut off_board = state.clone();
    off_board["vehicles"][0]["square"] = json!("z9");
    let orders = json!({
        "P1": {"P1-1": {"dir": "N", "dist": 2}, "P1-2": {"dir": "E", "dist": 1}, "P1-3": {"dir": "N", "dist": 3}},
        "P2": {"P2-1": {"dir": "S", "dist": 1}, "P2-2": {"dir": "S", "dist": 3}, "P2-3": {"dir": "E", "dist": 2}}
    });
    let results = assert_batch_matches_endpoints(
        &app,
        "cobi-tank-wars",
        &[
            ("legal-moves", json!({"state": state})),
            ("validate", json!({"state": state, "orders": orders})),
            (
                "apply",
                json!({"state": state, "orders": orders, "seed": 5}),
            ),
            ("score", json!({"state": state})),
            (
                "replay",
                json!({"rounds": [{"orders": orders, "gunfire": ["d4"], "seed": 1}]}),
            ),
            (
                "ai-move",
                json!({"state": state, "player": "P2", "limits": {"max_nodes": 500}, "seed": 3}),
            ),
            ("ai-move", json!({"state": off_board, "player": "P2"})),
            (
                "apply",
                json!({"state": state, "orders": {"P1": orders["P1"]}}),
            ),
        ],
    )
    .await;
    assert_eq!(results[6]["code"], "INVALID_POSITION");
    assert_eq!(results[6]["field"], "requests[6].state");
    assert_eq!(results[7]["code"], "MISSING_ORDER");
    assert_eq!(results[7]["field"], "requests[7].orders");
}

/// A request that breaks its schema refuses the whole (JSON) batch, as the
/// endpoint's body extractor refuses it: the same code, the field located
/// in the batch. One a line (NDJSON), it fails alone.
#[actix_web::test]
async fn malformed_requests_refuse_the_batch_with_prefixed_fields() {
    let app = app_with(Limits::default()).await;
    let requests = [
        json!({"op": "score", "position": 5}),
        json!({"op": "score", "position": INITIAL, "colour": "red"}),
        json!({"op": "score"}),
        json!({"op": "replay", "moves": ["k4-k5", 3]}),
        json!({"op": "ai-move", "position": INITIAL, "limits": {"max_time_ms": -5}}),
        json!({"op": "score", "position": "x"}),
        // 2^64: read as a float, within the schema's bound as a float is,
        // but no seed.
        serde_json::from_str(&format!(
            r#"{{"op": "ai-move", "position": "{INITIAL}", "seed": 18446744073709551616}}"#
        ))
        .unwrap(),
    ];
    let fields = [
        "requests[1].position",
        "requests[1].colour",
        // A missing field is the field at fault.
        "requests[1].position",
        "requests[1].moves[1]",
        "requests[1].limits.max_time_ms",
        "requests[1].position",
        "requests[1].seed",
    ];
    let valid = json!({"op": "score", "position": INITIAL});
    for (index, field) in fields.into_iter().enumerate() {
        let batch = json!({"requests": [valid, requests[index]]});
        let result = post(&app, &batch_path("tank-battle"), batch).await;
        assert_problem(&result, 400, "BAD_REQUEST");
        assert_eq!(result.body["field"], field, "{index}: {result:?}");
        let lines = format!("{valid}\n{}", requests[index]);
        let reply = send(
            &app,
            TestRequest::post()
                .uri(&batch_path("tank-battle"))
                .insert_header(("content-type", "application/x-ndjson"))
                .set_payload(lines),
        )
        .await;
        assert_eq!(reply.status, 200, "{index}: {reply:?}");
        assert!(
            reply.text.contains("\"finished\":false"),
            "{index}: {reply:?}"
        );
        // The endpoint refuses it too (with the notation's own code for
        // a position that breaks its pattern).
        let mut body = requests[index].clone();
        let op = body.as_object_mut().unwrap().remove("op").unwrap();
        let single = post(
            &app,
            &format!("/v1/tank-battle/{}", op.as_str().unwrap()),
            body,
        )
        .await;
        assert_eq!(single.status, 400, "{index}: {single:?}");
        assert_eq!(as_result(&single, 1)["field"], field, "{index}: {single:?}");
    }
}

#[actix_web::test]
async fn unknown_ops_and_non_objects_refuse_the_batch() {
    let app = app_with(Limits::default()).await;
    let bad = [
        json!({"op": "render"}),
        json!({"op": "perft-ish", "position": INITIAL}),
        json!({"op": 3}),
        json!({"position": INITIAL}),
        json!(42),
        json!([{"op": "score"}]),
        Value::Null,
        json!({"op": "initial"}),
    ];
    for game in crate::common::games() {
        let valid = match game {
            "tank-battle" => json!({"op": "score", "position": INITIAL}),
            _ => {
                json!({"op": "score", "state": get(&app, &format!("/v1/{game}/initial")).await.body})
            }
        };
        for (index, item) in bad.iter().enumerate() {
            // The schema says what an item is: a JSON batch that breaks it
            // is refused whole, like any body that breaks its schema.
            let reply = post(&app, &batch_path(game), json!({"requests": [valid, item]})).await;
            common::assert_problem(&reply, 400, "BAD_REQUEST");
            let field = if (4..7).contains(&index) {
                "requests[1]"
            } else {
                "requests[1].op"
            };
            assert_eq!(reply.body["field"], field, "{game} {index}: {reply:?}");
        }
        // One a line, each line stands alone: a bad line is a bad result.
        let lines: Vec<String> = bad.iter().map(Value::to_string).collect();
        let reply = common::send(
            &app,
            actix_web::test::TestRequest::post()
                .uri(&batch_path(game))
                .insert_header(("content-type", "application/x-ndjson"))
                .set_payload(lines.join("\n")),
        )
        .await;
        assert_eq!(reply.status, 200, "{game}: {reply:?}");
    }
    // Tank War has no perft.
    let reply = post(
        &app,
        &batch_path("tank-war"),
        json!({"requests": [{"op": "perft", "position": INITIAL, "depth": 1}]}),
    )
    .await;
    assert_eq!(reply.body["field"], "requests[0].op");
}

/// Every op of every game reaches its endpoint's function: an empty
/// request, one a line, is refused by the endpoint's decoding, never by
/// the server.
#[actix_web::test]
async fn every_op_reaches_its_endpoint() {
    let app = app_with(Limits::default()).await;
    for (game, ops) in [
        (
            "tank-battle",
            &[
                "legal-moves",
                "validate",
                "apply",
                "score",
                "replay",
                "perft",
                "ai-move",
            ][..],
        ),
        (
            "tank-war",
            &[
                "legal-moves",
                "validate",
                "apply",
                "score",
                "replay",
                "ai-move",
            ][..],
        ),
        (
            "cobi-tank-wars",
            &[
                "legal-moves",
                "validate",
                "apply",
                "score",
                "replay",
                "ai-move",
            ][..],
        ),
    ] {
        let lines: Vec<String> = ops
            .iter()
            .map(|op| json!({ "op": op }).to_string())
            .collect();
        let reply = send(
            &app,
            TestRequest::post()
                .uri(&batch_path(game))
                .insert_header(("content-type", "application/x-ndjson"))
                .set_payload(lines.join("\n")),
        )
        .await;
        assert_eq!(reply.status, 200, "{game}: {reply:?}");
        let results: Vec<Value> = reply
            .text
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect();
        for (index, (op, result)) in ops.iter().zip(&results).enumerate() {
            assert_eq!(result["code"], "BAD_REQUEST", "{game} {op}: {result}");
            // The first field the operation needs, located in the batch.
            let field = result["field"].as_str().unwrap_or_default();
            assert!(
                field.starts_with(&format!("requests[{index}].")),
                "{game} {op}: {field}"
            );
            let single = post(&app, &format!("/v1/{game}/{op}"), json!({})).await;
            assert_problem(&single, 400, "BAD_REQUEST");
            assert_eq!(as_result(&single, index)["field"], result["field"]);
        }
    }
}

#[actix_web::test]
async fn caps_fail_the_whole_batch() {
    let app = app_with(Limits {
        batch_max_requests: 3,
        batch_max_searches: 1,
        ..Limits::default()
    })
    .await;
    let war = get(&app, "/v1/tank-war/initial").await.body;
    let cobi = get(&app, "/v1/cobi-tank-wars/initial").await.body;
    let score = |game: &str| match game {
        "tank-battle" => json!({"op": "score", "position": INITIAL}),
        "tank-war" => json!({"op": "score", "state": war}),
        _ => json!({"op": "score", "state": cobi}),
    };
    let search = |game: &str| match game {
        "tank-battle" => json!({"op": "ai-move", "position": INITIAL, "limits": {"max_depth": 1}}),
        "tank-war" => {
            json!({"op": "ai-move", "state": war, "player": "U", "limits": {"max_depth": 1}})
        }
        _ => json!({"op": "ai-move", "state": cobi, "player": "P1", "limits": {"max_nodes": 200}}),
    };
    for game in crate::common::games() {
        let reply = post(
            &app,
            &batch_path(game),
            json!({"requests": [score(game), score(game), score(game), score(game)]}),
        )
        .await;
        assert_problem(&reply, 400, "LIMIT_EXCEEDED");
        assert_eq!(reply.body["field"], "requests", "{game}");

        let reply = post(
            &app,
            &batch_path(game),
            json!({"requests": [search(game), score(game), search(game)]}),
        )
        .await;
        assert_problem(&reply, 400, "LIMIT_EXCEEDED");
        assert_eq!(reply.body["field"], "requests", "{game}");

        // Within both caps; a search that fails to decode still counts.
        let reply = post(
            &app,
            &batch_path(game),
            json!({"requests": [score(game), search(game), score(game)]}),
        )
        .await;
        assert_eq!(reply.status, 200, "{game}: {reply:?}");
        assert!(
            reply.body["results"][1]["move"].is_string()
                || reply.body["results"][1]["orders"].is_object(),
            "{game}: {reply:?}"
        );
        let reply = post(
            &app,
            &batch_path(game),
            json!({"requests": [{"op": "ai-move"}, {"op": "ai-move", "x": 1}]}),
        )
        .await;
        assert_problem(&reply, 400, "LIMIT_EXCEEDED");
    }
    // perft is a search too.
    let perft = json!({"op": "perft", "position": INITIAL, "depth": 1});
    let reply = post(
        &app,
        &batch_path("tank-battle"),
        json!({"requests": [perft, search("tank-battle")]}),
    )
    .await;
    assert_problem(&reply, 400, "LIMIT_EXCEEDED");

    // The defaults: 256 requests and 4 searches.
    let app = app_with(Limits::default()).await;
    let score = json!({"op": "score", "position": INITIAL});
    let reply = post(
        &app,
        &batch_path("tank-battle"),
        json!({ "requests": vec![score.clone(); 257] }),
    )
    .await;
    assert_problem(&reply, 400, "LIMIT_EXCEEDED");
    let reply = post(
        &app,
        &batch_path("tank-battle"),
        json!({ "requests": vec![score; 256] }),
    )
    .await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.body["results"].as_array().unwrap().len(), 256);
    let searches = vec![perft; 5];
    let reply = post(
        &app,
        &batch_path("tank-battle"),
        json!({ "requests": searches }),
    )
    .await;
    assert_problem(&reply, 400, "LIMIT_EXCEEDED");
    let reply = post(
        &app,
        &batch_path("tank-battle"),
        json!({ "requests": searches[..4] }),
    )
    .await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.body["results"][3]["nodes"], 45, "{reply:?}");
}

/// A batch with no free search slot answers its searches `SERVICE_BUSY`
/// and its other requests as usual.
#[actix_web::test]
async fn busy_searches_fail_alone() {
    let app = app_with(Limits {
        max_concurrent_searches: 0,
        max_concurrent_reviews: 0,
        ..Limits::default()
    })
    .await;
    let reply = post(
        &app,
        &batch_path("tank-battle"),
        json!({"requests": [
            {"op": "ai-move", "position": INITIAL},
            {"op": "score", "position": INITIAL},
            {"op": "perft", "position": INITIAL, "depth": 1},
        ]}),
    )
    .await;
    assert_eq!(reply.status, 200, "{reply:?}");
    let results = &reply.body["results"];
    for index in [0, 2] {
        assert_eq!(results[index]["code"], "SERVICE_BUSY", "{results}");
        assert_eq!(results[index]["status"], 503);
        assert_eq!(results[index]["field"], format!("requests[{index}]"));
    }
    assert_eq!(results[1]["finished"], false);
}

/// Batched AI requests go through the same cache as `ai-move`.
#[actix_web::test]
async fn ai_move_requests_share_the_cache() {
    let app = app_with(Limits::default()).await;
    let ai = json!({"op": "ai-move", "position": INITIAL, "limits": {"max_depth": 2}, "seed": 11});
    let reply = post(
        &app,
        &batch_path("tank-battle"),
        json!({"requests": [ai, ai]}),
    )
    .await;
    let results = &reply.body["results"];
    assert_eq!(results[0]["cached"], false, "{results}");
    assert_eq!(results[1]["cached"], true, "{results}");
    let single = post(
        &app,
        "/v1/tank-battle/ai-move",
        json!({"position": INITIAL, "limits": {"max_depth": 2}, "seed": 11}),
    )
    .await;
    assert_eq!(single.body["cached"], true);
    assert_eq!((String::from("ai-move"), single.body), unnamed(&results[1]));
}

/// The body is refused as the other endpoints refuse it.
#[actix_web::test]
async fn broken_batch_bodies_are_refused_like_any_body() {
    let app = app_with(Limits::default()).await;
    for game in crate::common::games() {
        let uri = batch_path(game);
        let reply = send(
            &app,
            TestRequest::post()
                .uri(&uri)
                .insert_header(("content-type", "text/plain"))
                .set_payload(r#"{"requests":[]}"#),
        )
        .await;
        assert_problem(&reply, 415, "UNSUPPORTED_MEDIA_TYPE");
        let reply = send(
            &app,
            TestRequest::post()
                .uri(&uri)
                .set_payload(r#"{"requests":[]}"#),
        )
        .await;
        assert_problem(&reply, 415, "UNSUPPORTED_MEDIA_TYPE");
        for (body, field) in [
            ("{\"requests\": [", None),
            ("[]", None),
            ("{}", None),
            (r#"{"requests": {"op": "score"}}"#, Some("requests")),
            (r#"{"requests": [], "extra": 1}"#, Some("extra")),
            (r#"{"requests": []} []"#, None),
        ] {
            let reply = send(
                &app,
                TestRequest::post()
                    .uri(&uri)
                    .insert_header(("content-type", "application/json"))
                    .set_payload(body),
            )
            .await;
            assert_problem(&reply, 400, "BAD_REQUEST");
            if let Some(field) = field {
                assert_eq!(reply.body["field"], field, "{game} {body}");
            }
        }
        let huge = format!(
            r#"{{"requests": [{{"op": "score", "position": "{}"}}]}}"#,
            "1".repeat(70_000)
        );
        let reply = send(
            &app,
            TestRequest::post()
                .uri(&uri)
                .insert_header(("content-type", "application/json"))
                .set_payload(huge),
        )
        .await;
        assert_problem(&reply, 413, "PAYLOAD_TOO_LARGE");
        let reply = post(&app, &uri, json!({"requests": []})).await;
        assert_eq!(reply.status, 200);
        assert_eq!(reply.body, json!({"results": []}));
    }
}

/// Posts `body` as NDJSON: the status, content type and body text.
async fn post_ndjson<S, B>(app: &S, uri: &str, body: String) -> (u16, String, String)
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let request = TestRequest::post()
        .uri(uri)
        .insert_header(("content-type", "application/x-ndjson"))
        .set_payload(body)
        .to_request();
    let resp = test::call_service(app, request).await;
    let status = resp.status().as_u16();
    let content_type = resp
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    let bytes = test::read_body(resp).await;
    (
        status,
        content_type,
        String::from_utf8(bytes.to_vec()).unwrap(),
    )
}

#[actix_web::test]
async fn ndjson_batches_answer_one_result_a_line() {
    let app = app_with(Limits {
        batch_max_requests: 6,
        ..Limits::default()
    })
    .await;
    let requests = [
        json!({"op": "legal-moves", "position": INITIAL, "from": "j4"}),
        json!({"op": "apply", "position": INITIAL, "move": "j4-j5"}),
        json!({"op": "apply", "position": INITIAL, "move": "a8-a7"}),
        json!({"op": "ai-move", "position": INITIAL, "limits": {"max_depth": 1}}),
    ];
    let json_reply = post(
        &app,
        &batch_path("tank-battle"),
        json!({ "requests": requests }),
    )
    .await;
    let lines: Vec<String> = requests.iter().map(Value::to_string).collect();
    // Blank lines and CRLF endings are fine; no final newline is needed.
    let body = format!(
        "{}\r\n\n{}\n  \n{}\n{}",
        lines[0], lines[1], lines[2], lines[3]
    );
    let (status, content_type, text) = post_ndjson(&app, &batch_path("tank-battle"), body).await;
    assert_eq!(status, 200, "{text}");
    assert_eq!(content_type, "application/x-ndjson");
    assert!(text.ends_with('\n'));
    let results: Vec<Value> = text
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let expected: Vec<Value> = json_reply.body["results"]
        .as_array()
        .unwrap()
        .iter()
        .cloned()
        .map(without_cached)
        .collect();
    let results: Vec<Value> = results.into_iter().map(without_cached).collect();
    assert_eq!(results, expected);
    assert_eq!(results[2]["field"], "requests[2].move");

    // A line that is not JSON fails alone.
    let body = format!("{}\n{{oops\n42\n{}\n", lines[0], lines[1]);
    let (status, _, text) = post_ndjson(&app, &batch_path("tank-battle"), body).await;
    assert_eq!(status, 200, "{text}");
    let results: Vec<Value> = text
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(results.len(), 4);
    assert_eq!(results[1]["code"], "BAD_REQUEST");
    assert!(results[1]["detail"]
        .as_str()
        .unwrap()
        .starts_with("malformed JSON"));
    assert!(results[1]["field"]
        .as_str()
        .unwrap()
        .starts_with("requests[1]"));
    assert_eq!(results[2]["field"], "requests[2]");
    assert_eq!(results[3], expected[1]);

    // An empty body is an empty batch; the caps hold.
    let (status, content_type, text) =
        post_ndjson(&app, &batch_path("tank-war"), String::new()).await;
    assert_eq!((status, text.as_str()), (200, ""));
    assert_eq!(content_type, "application/x-ndjson");
    let (status, content_type, text) =
        post_ndjson(&app, &batch_path("cobi-tank-wars"), "{}\n".repeat(7)).await;
    assert_eq!(status, 400, "{text}");
    assert_eq!(content_type, "application/problem+json");
    assert!(text.contains("LIMIT_EXCEEDED"), "{text}");
}

/// Each game's documented example runs: the mixed batch succeeds where it
/// should and its last request fails alone.
#[actix_web::test]
async fn documented_examples_are_mixed_batches() {
    let app = app_with(Limits::default()).await;
    let doc: Value = serde_json::from_str(&tank_rules::api::openapi::json()).unwrap();
    for (game, schema) in [
        ("tank-battle", "TankBattleBatchRequest"),
        ("tank-war", "TankWarBatchRequest"),
        ("cobi-tank-wars", "CobiTankWarsBatchRequest"),
    ] {
        let path = &doc["paths"][batch_path(game)]["post"];
        assert_eq!(
            path["requestBody"]["content"]["application/json"]["schema"]["$ref"],
            format!("#/components/schemas/{schema}")
        );
        // NDJSON is described in prose: a client generated from the
        // document sees one body type and one answer type.
        assert!(path["requestBody"]["content"]
            .get("application/x-ndjson")
            .is_none());
        assert!(
            path["description"].as_str().unwrap().contains("NDJSON")
                || path["description"].as_str().unwrap().contains("x-ndjson")
        );
        let example = doc["components"]["schemas"][schema]["example"].clone();
        let requests = example["requests"].as_array().unwrap().clone();
        let ops: Vec<&str> = requests.iter().filter_map(|r| r["op"].as_str()).collect();
        for op in ["legal-moves", "validate", "apply", "score", "ai-move"] {
            assert!(ops.contains(&op), "{game}: {ops:?}");
        }
        let reply = post(&app, &batch_path(game), example).await;
        assert_eq!(reply.status, 200, "{game}: {reply:?}");
        let results = reply.body["results"].as_array().unwrap();
        assert_eq!(results.len(), requests.len());
        let (last, rest) = results.split_last().unwrap();
        assert!(
            rest.iter().all(|r| r.get("code").is_none()),
            "{game}: {rest:?}"
        );
        assert_eq!(last["status"], 422, "{game}: {last}");
    }
}

/// A large batch's answer (written off the HTTP worker, issue 51) is the
/// answer its items give one by one, in JSON and in NDJSON, in the
/// language asked.
#[actix_web::test]
async fn a_large_batch_answers_what_its_items_answer_alone() {
    let app = app_with(Limits::default()).await;
    let items: Vec<Value> = (0..40)
        .map(|i| match i % 4 {
            0 => json!({"op": "validate", "position": INITIAL, "move": "e5-e6"}),
            1 => json!({"op": "apply", "position": INITIAL, "move": "a11-a10"}),
            2 => json!({"op": "score", "position": INITIAL}),
            _ => json!({"op": "legal-moves", "position": INITIAL, "from": "j4"}),
        })
        .collect();
    for lang in ["en", "cs"] {
        let ask = |requests: &[Value]| {
            TestRequest::post()
                .uri(&batch_path("tank-battle"))
                .insert_header(("accept-language", lang))
                .set_json(json!({ "requests": requests }))
        };
        let whole = send(&app, ask(&items)).await;
        assert_eq!(whole.status, 200, "{whole:?}");
        let mut alone = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let one = send(&app, ask(std::slice::from_ref(item))).await;
            for mut result in one.body["results"].as_array().cloned().unwrap_or_default() {
                // Alone, the item is `requests[0]`.
                if let Some(field) = result["field"].as_str() {
                    result["field"] =
                        json!(field.replace("requests[0]", &format!("requests[{i}]")));
                }
                alone.push(result);
            }
        }
        assert!(
            whole.body["results"] == Value::Array(alone.clone()),
            "{lang}: the batch's results differ from its items' alone"
        );
        let lines: String = items.iter().map(|item| format!("{item}\n")).collect();
        let (status, _, text) = post_ndjson(&app, &batch_path("tank-battle"), lines).await;
        assert_eq!(status, 200);
        assert_eq!(text.lines().count(), items.len());
        if lang == "en" {
            let written: Vec<Value> = text
                .lines()
                .map(|line| serde_json::from_str(line).unwrap_or(Value::Null))
                .collect();
            assert!(
                Value::Array(written) == Value::Array(alone),
                "NDJSON differs"
            );
        }
    }
}
