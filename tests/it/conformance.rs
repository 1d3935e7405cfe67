//! The conformance corpora (issue 53): the service answers every case over
//! HTTP as the corpus says (that each committed file is what the rules
//! write is a unit test of `tank_rules::conformance`).

use serde_json::{json, Value};

use crate::common::{app_with, post};
use tank_rules::limits::Limits;

fn committed(game: &str) -> String {
    committed_file(&format!("{game}/corpus.jsonl"))
}

fn committed_file(file: &str) -> String {
    let path = format!("{}/conformance/{file}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path).unwrap_or_default()
}

/// `legal-moves` at `at` answers a legal case's `moves`, in its order.
async fn assert_legal_moves<S, B>(app: &S, at: &Value, case: &Value)
where
    S: actix_web::dev::Service<
        actix_http::Request,
        Response = actix_web::dev::ServiceResponse<B>,
        Error = actix_web::Error,
    >,
    B: actix_web::body::MessageBody,
{
    let id = &case["id"];
    let reply = post(app, "/v1/tank-battle/legal-moves", at.clone()).await;
    assert_eq!(reply.status, 200, "{id}: {reply:?}");
    let moves: Vec<&Value> = reply.body["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| &m["move"])
        .collect();
    let expected: Vec<&Value> = case["moves"].as_array().unwrap().iter().collect();
    assert_eq!(moves, expected, "{id}");
}

/// The fields of `apply`'s (or `score`'s) answer a case states.
fn standing(answer: &Value) -> Value {
    json!({
        "finished": answer["finished"],
        "winner": answer["winner"],
        "draw": answer["draw"],
        "score": {"white": answer["score"]["white"], "black": answer["score"]["black"]},
    })
}

#[actix_web::test]
async fn the_service_answers_every_tank_battle_case() {
    let app = app_with(Limits::default()).await;
    let corpus = committed("tank-battle");
    let mut lines = corpus
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap());
    let header = lines.next().unwrap();
    assert_eq!(header["header"]["game"], "tank-battle");
    let mut checked = [0usize; 4];
    for case in lines {
        let id = &case["id"];
        let at = json!({"position": case["position"], "layout": case["layout"]});
        match case["kind"].as_str().unwrap() {
            "legal" => {
                assert_legal_moves(&app, &at, &case).await;
                let reply = post(&app, "/v1/tank-battle/score", at.clone()).await;
                assert_eq!(reply.status, 200, "{id}: {reply:?}");
                assert_eq!(standing(&reply.body), case["standing"], "{id}");
                for result in case["results"].as_array().unwrap() {
                    let mut body = at.clone();
                    body["move"] = result["move"].clone();
                    let reply = post(&app, "/v1/tank-battle/apply", body).await;
                    assert_eq!(reply.status, 200, "{id}: {reply:?}");
                    let answer = &reply.body;
                    assert_eq!(
                        answer["position"], result["position"],
                        "{id} {}",
                        result["move"]
                    );
                    assert_eq!(answer["move"], result["move"], "{id}");
                    assert_eq!(
                        answer["captured"], result["captured"],
                        "{id} {}",
                        result["move"]
                    );
                    assert_eq!(
                        standing(answer),
                        standing(result),
                        "{id} {}",
                        result["move"]
                    );
                }
                checked[0] += 1;
            }
            "illegal" => {
                let mut body = at.clone();
                body["move"] = case["move"].clone();
                let reply = post(&app, "/v1/tank-battle/validate", body).await;
                assert_eq!(reply.status, 200, "{id}: {reply:?}");
                assert_eq!(reply.body["legal"], false, "{id}");
                let reason = &reply.body["reason"];
                assert_eq!(reason["code"], case["reason"], "{id}");
                let square = reason.get("square").cloned().unwrap_or(Value::Null);
                assert_eq!(square, case["square"], "{id}");
                checked[1] += 1;
            }
            "perft" => {
                let mut body = at.clone();
                body["depth"] = case["depth"].clone();
                let reply = post(&app, "/v1/tank-battle/perft", body).await;
                assert_eq!(reply.status, 200, "{id}: {reply:?}");
                assert_eq!(reply.body["nodes"], case["nodes"], "{id}");
                checked[2] += 1;
            }
            "playthrough" => {
                let steps = case["steps"].as_array().unwrap();
                let moves: Vec<&Value> = steps.iter().map(|s| &s["move"]).collect();
                let body =
                    json!({"start": case["start"], "layout": case["layout"], "moves": moves});
                let reply = post(&app, "/v1/tank-battle/replay", body).await;
                assert_eq!(reply.status, 200, "{id}: {reply:?}");
                let positions: Vec<&Value> = steps.iter().map(|s| &s["position"]).collect();
                let answered: Vec<&Value> =
                    reply.body["positions"].as_array().unwrap().iter().collect();
                assert_eq!(answered, positions, "{id}");
                let last = steps.last().unwrap();
                let expected = json!({
                    "finished": case["finished"],
                    "winner": case["winner"],
                    "draw": case["draw"],
                    "score": last["score"],
                });
                assert_eq!(standing(&reply.body["final"]), expected, "{id}");
                checked[3] += 1;
            }
            kind => panic!("{id}: unknown kind {kind}"),
        }
    }
    assert!(checked.iter().all(|&n| n > 0), "{checked:?}");
}

/// Tank Battle's end-policy corpus (issue 73) over HTTP: each case's
/// `rules` sent with it, each standing with its `reason`; the repetition
/// rule through `replay`, which carries the game's moves.
#[actix_web::test]
async fn the_service_answers_every_tank_battle_end_policy_case() {
    let app = app_with(Limits::default()).await;
    let corpus = committed_file("tank-battle/end-policy.jsonl");
    let mut lines = corpus
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap());
    let header = lines.next().unwrap();
    assert_eq!(header["header"]["game"], "tank-battle");
    // What a standing says, reason included.
    let ended = |answer: &Value| {
        let mut standing = standing(answer);
        standing["reason"] = answer["reason"].clone();
        standing
    };
    let mut checked = [0usize; 3];
    for case in lines {
        let id = &case["id"];
        let rules = &case["rules"];
        assert!(rules.is_object(), "{id}: no rules");
        match case["kind"].as_str().unwrap() {
            "legal" => {
                let at =
                    json!({"position": case["position"], "layout": case["layout"], "rules": rules});
                assert_legal_moves(&app, &at, &case).await;
                let reply = post(&app, "/v1/tank-battle/score", at.clone()).await;
                assert_eq!(ended(&reply.body), case["standing"], "{id}");
                for result in case["results"].as_array().unwrap() {
                    let mut body = at.clone();
                    body["move"] = result["move"].clone();
                    let reply = post(&app, "/v1/tank-battle/apply", body).await;
                    assert_eq!(reply.status, 200, "{id}: {reply:?}");
                    assert_eq!(reply.body["position"], result["position"], "{id}");
                    assert_eq!(ended(&reply.body), ended(result), "{id} {}", result["move"]);
                }
                checked[0] += 1;
            }
            "playthrough" | "replay" => {
                let moves: Vec<Value> = match case["steps"].as_array() {
                    Some(steps) => steps.iter().map(|s| s["move"].clone()).collect(),
                    None => case["moves"].as_array().cloned().unwrap_or_default(),
                };
                let body = json!({"start": case["start"], "layout": case["layout"],
                    "rules": rules, "moves": moves});
                let reply = post(&app, "/v1/tank-battle/replay", body).await;
                assert_eq!(reply.status, 200, "{id}: {reply:?}");
                let last = &reply.body["final"];
                for field in ["finished", "winner", "draw", "reason"] {
                    assert_eq!(last[field], case[field], "{id} {field}");
                }
                let index = if case["kind"] == "replay" { 2 } else { 1 };
                checked[index] += 1;
            }
            kind => panic!("{id}: unknown kind {kind}"),
        }
    }
    assert!(checked.iter().all(|&n| n > 0), "{checked:?}");
}

/// The Tank War's corpus over HTTP: each legal case as `compare` claims
/// (its moves, its standing, each result), each illegal pick through
/// `validate`, each playthrough a round at a time through `apply`.
#[actix_web::test]
async fn the_service_answers_every_tank_war_case() {
    let app = app_with(Limits::default()).await;
    let corpus = committed("tank-war");
    let mut lines = corpus
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap());
    let header = lines.next().unwrap();
    assert_eq!(header["header"]["game"], "tank-war");
    let mut checked = [0usize; 3];
    for case in lines {
        let id = &case["id"];
        let state = &case["state"];
        match case["kind"].as_str().unwrap() {
            "legal" => {
                let at = json!({"state": state});
                let mut claims = vec![
                    json!({"op": "legal-moves", "request": at, "answer": case["moves"]}),
                    json!({"op": "score", "request": at, "answer": case["standing"]}),
                ];
                for result in case["results"].as_array().unwrap() {
                    let request = json!({"state": state, "moves": result["moves"], "elapsed_ms": result["elapsed_ms"]});
                    claims.push(
                        json!({"op": "apply", "request": request, "answer": result["answer"]}),
                    );
                }
                let reply = post(&app, "/v1/tank-war/compare", json!({"claims": claims})).await;
                assert_eq!(reply.status, 200, "{id}: {reply:?}");
                assert_eq!(reply.body["agree"], true, "{id}: {}", reply.body);
                checked[0] += 1;
            }
            "illegal" => {
                let player = case["player"].as_str().unwrap();
                let body = json!({"state": state, "moves": {player: case["pick"]}});
                let reply = post(&app, "/v1/tank-war/validate", body).await;
                assert_eq!(reply.status, 200, "{id}: {reply:?}");
                assert_eq!(
                    reply.body["reasons"][player]["code"], case["reason"],
                    "{id}"
                );
                checked[1] += 1;
            }
            "playthrough" => {
                let mut state = case["start"].clone();
                let steps = case["steps"].as_array().unwrap();
                for (i, step) in steps.iter().enumerate() {
                    let body = json!({"state": state, "moves": step["moves"], "elapsed_ms": step["elapsed_ms"]});
                    let reply = post(&app, "/v1/tank-war/apply", body).await;
                    assert_eq!(reply.status, 200, "{id} step {i}: {reply:?}");
                    assert_eq!(reply.body["state"], step["state"], "{id} step {i}");
                    let scored =
                        post(&app, "/v1/tank-war/score", json!({"state": step["state"]})).await;
                    assert_eq!(scored.body, step["score"], "{id} step {i}");
                    if i + 1 == steps.len() {
                        for field in ["finished", "winner", "draw", "reason"] {
                            assert_eq!(reply.body[field], case[field], "{id} {field}");
                        }
                    }
                    state = step["state"].clone();
                }
                checked[2] += 1;
            }
            kind => panic!("{id}: unknown kind {kind}"),
        }
    }
    assert!(checked.iter().all(|&n| n > 0), "{checked:?}");
}

/// Tank Wars' corpus over HTTP: each legal case as `compare` claims (its
/// orders, its standing, each result with its seed), each illegal case
/// through `validate`, each playthrough a round at a time through `apply`
/// (its gunfire placed first; the seed gives the supply drop the step
/// names).
#[actix_web::test]
async fn the_service_answers_every_tank_wars_case() {
    let app = app_with(Limits::default()).await;
    let corpus = committed("cobi-tank-wars");
    let mut lines = corpus
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap());
    let header = lines.next().unwrap();
    assert_eq!(header["header"]["game"], "cobi-tank-wars");
    let mut checked = [0usize; 3];
    let dropped = |answer: &Value| {
        let events = answer["events"].as_array().cloned().unwrap_or_default();
        let drop = events.iter().find(|e| e["kind"] == "supply_drop");
        drop.map_or(Value::Null, |e| e["square"].clone())
    };
    for case in lines {
        let id = &case["id"];
        let state = &case["state"];
        match case["kind"].as_str().unwrap() {
            "legal" => {
                let at = json!({"state": state});
                let mut claims = vec![
                    json!({"op": "legal-moves", "request": at, "answer": case["moves"]}),
                    json!({"op": "score", "request": at, "answer": case["standing"]}),
                ];
                for result in case["results"].as_array().unwrap() {
                    assert_eq!(dropped(&result["answer"]), result["supply_drop"], "{id}");
                    let request =
                        json!({"state": state, "orders": result["orders"], "seed": result["seed"]});
                    claims.push(
                        json!({"op": "apply", "request": request, "answer": result["answer"]}),
                    );
                }
                let reply = post(
                    &app,
                    "/v1/cobi-tank-wars/compare",
                    json!({"claims": claims}),
                )
                .await;
                assert_eq!(reply.status, 200, "{id}: {reply:?}");
                assert_eq!(reply.body["agree"], true, "{id}: {}", reply.body);
                checked[0] += 1;
            }
            "illegal" => {
                let body = json!({"state": state, "orders": case["orders"]});
                let reply = post(&app, "/v1/cobi-tank-wars/validate", body).await;
                assert_eq!(reply.status, 200, "{id}: {reply:?}");
                let reasons: Vec<Value> = reply.body["reasons"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|r| json!({"player": r.get("player"), "vehicle": r.get("vehicle"), "code": r["code"]}))
                    .collect();
                assert_eq!(json!(reasons), case["reasons"], "{id}");
                checked[1] += 1;
            }
            "playthrough" => {
                let mut state = case["start"].clone();
                let steps = case["steps"].as_array().unwrap();
                for (i, step) in steps.iter().enumerate() {
                    state["gunfire"] = step["gunfire"].clone();
                    let body =
                        json!({"state": state, "orders": step["orders"], "seed": step["seed"]});
                    let reply = post(&app, "/v1/cobi-tank-wars/apply", body).await;
                    assert_eq!(reply.status, 200, "{id} step {i}: {reply:?}");
                    assert_eq!(reply.body["state"], step["state"], "{id} step {i}");
                    assert_eq!(dropped(&reply.body), step["supply_drop"], "{id} step {i}");
                    let scored = post(
                        &app,
                        "/v1/cobi-tank-wars/score",
                        json!({"state": step["state"]}),
                    )
                    .await;
                    assert_eq!(scored.body, step["score"], "{id} step {i}");
                    if i + 1 == steps.len() {
                        for field in ["finished", "winner", "draw"] {
                            assert_eq!(reply.body[field], case[field], "{id} {field}");
                        }
                    }
                    state = step["state"].clone();
                }
                checked[2] += 1;
            }
            kind => panic!("{id}: unknown kind {kind}"),
        }
    }
    assert!(checked.iter().all(|&n| n > 0), "{checked:?}");
}
