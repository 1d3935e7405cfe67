//! HTTP tests of `compare` (issue 53): for every reason code of every game
//! a claimed list with one illegal move extra names that code; a list
//! missing a move names it; a game with a wrong step names the step. (A
//! wrong `divide`, and the claims' caps and price: `http_compare_divide`.)

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{json, Value};

use crate::common::{app_with, get, post};
use tank_rules::limits::Limits;

pub fn claim(op: &str, request: Value, answer: Value) -> Value {
    json!({"op": op, "request": request, "answer": answer})
}

/// The verdicts of `claims` compared by `game`'s service (200 asserted).
pub async fn verdicts<S, B>(app: &S, game: &str, claims: Vec<Value>) -> Vec<Value>
where
    S: actix_web::dev::Service<
        actix_http::Request,
        Response = actix_web::dev::ServiceResponse<B>,
        Error = actix_web::Error,
    >,
    B: actix_web::body::MessageBody,
{
    let count = claims.len();
    let reply = post(
        app,
        &format!("/v1/{game}/compare"),
        json!({"claims": claims}),
    )
    .await;
    assert_eq!(reply.status, 200, "{reply:?}");
    let verdicts = reply.body["claims"].as_array().cloned().unwrap_or_default();
    assert_eq!(verdicts.len(), count, "{reply:?}");
    let all = verdicts.iter().all(|v| v["agree"] == true);
    assert_eq!(reply.body["agree"], all, "{reply:?}");
    verdicts
}

fn corpus_cases(kind: &str) -> Vec<Value> {
    let path = format!(
        "{}/conformance/tank-battle/corpus.jsonl",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter(|case| case["kind"] == kind)
        .collect()
}

#[actix_web::test]
async fn the_services_own_answers_agree() {
    let app = app_with(Limits::default()).await;
    let position = json!({"position": tank_rules::games::tank_battle::INITIAL_TBN});
    let mut claims = Vec::new();
    for op in ["legal-moves", "score"] {
        let answer = post(&app, &format!("/v1/tank-battle/{op}"), position.clone()).await;
        claims.push(claim(op, position.clone(), answer.body));
    }
    let verdicts = verdicts(&app, "tank-battle", claims).await;
    assert_eq!(
        verdicts,
        [
            json!({"op": "legal-moves", "agree": true}),
            json!({"op": "score", "agree": true})
        ]
    );
}

#[actix_web::test]
async fn tank_battle_names_the_reason_of_each_extra_move_and_each_missing_one() {
    let app = app_with(Limits::default()).await;
    let mut codes = BTreeSet::new();
    for case in corpus_cases("illegal") {
        let code = case["reason"].as_str().unwrap_or_default().to_owned();
        if !codes.insert(code.clone()) {
            continue;
        }
        let request = json!({"position": case["position"], "layout": case["layout"]});
        let mut answer = post(&app, "/v1/tank-battle/legal-moves", request.clone())
            .await
            .body;
        answer["moves"]
            .as_array_mut()
            .unwrap()
            .push(json!({"move": case["move"]}));
        let verdict = &verdicts(
            &app,
            "tank-battle",
            vec![claim("legal-moves", request, answer)],
        )
        .await[0];
        assert_eq!(verdict["agree"], false, "{verdict}");
        assert_eq!(
            verdict["extra"].as_array().map(Vec::len),
            Some(1),
            "{verdict}"
        );
        let extra = &verdict["extra"][0];
        assert_eq!(extra["move"], case["move"], "{verdict}");
        assert_eq!(extra["code"], code.as_str(), "{verdict}");
        assert!(
            extra["message"].as_str().is_some_and(|m| !m.is_empty()),
            "{verdict}"
        );
        assert!(verdict.get("missing").is_none() && verdict.get("differences").is_none());
    }
    let all: BTreeSet<String> = tank_rules::games::tank_battle::Reason::ALL
        .iter()
        .map(|reason| reason.code().to_owned())
        .collect();
    assert_eq!(codes, all);

    // One move left out is named, and the count that then differs.
    let request = json!({"position": tank_rules::games::tank_battle::INITIAL_TBN});
    let mut answer = post(&app, "/v1/tank-battle/legal-moves", request.clone())
        .await
        .body;
    let left_out = answer["moves"].as_array_mut().unwrap().remove(7);
    answer["count"] = json!(answer["count"].as_u64().unwrap() - 1);
    let verdict = &verdicts(
        &app,
        "tank-battle",
        vec![claim("legal-moves", request, answer)],
    )
    .await[0];
    assert_eq!(
        verdict["missing"],
        json!([{"move": left_out["move"]}]),
        "{verdict}"
    );
    assert_eq!(verdict["differences"][0]["field"], "/count", "{verdict}");
    assert!(verdict.get("extra").is_none(), "{verdict}");
}

#[actix_web::test]
async fn a_wrong_field_of_a_listed_move_and_a_legal_move_written_otherwise_are_named() {
    let app = app_with(Limits::default()).await;
    let request = json!({"position": "c10/11/11/11/11/11/11/11/11/1t9/T9C w 1"});
    let mut answer = post(&app, "/v1/tank-battle/legal-moves", request.clone())
        .await
        .body;
    let capture = answer["moves"]
        .as_array()
        .unwrap()
        .iter()
        .position(|m| m["capture"] == true)
        .expect("a capture");
    answer["moves"][capture]["capture"] = json!(false);
    let written = answer["moves"][capture]["move"]
        .as_str()
        .unwrap()
        .replace('x', "-");
    answer["moves"]
        .as_array_mut()
        .unwrap()
        .push(json!({"move": written}));
    let verdict = &verdicts(
        &app,
        "tank-battle",
        vec![claim("legal-moves", request, answer)],
    )
    .await[0];
    assert_eq!(
        verdict["differences"][0],
        json!({"field": format!("/moves/{capture}/capture"), "expected": true, "claimed": false})
    );
    // Legal, but not as the list writes it: no code.
    assert_eq!(verdict["extra"][0]["move"], written.as_str(), "{verdict}");
    assert!(verdict["extra"][0].get("code").is_none(), "{verdict}");
}

/// A simultaneous game of deterministic picks (`pick` from each round's
/// legal moves, `null` to stop): its states from the start, and its
/// rounds.
async fn play<S, B>(
    app: &S,
    game: &str,
    rounds: usize,
    pick: impl Fn(&Value, usize) -> Value,
) -> (Vec<Value>, Vec<Value>)
where
    S: actix_web::dev::Service<
        actix_http::Request,
        Response = actix_web::dev::ServiceResponse<B>,
        Error = actix_web::Error,
    >,
    B: actix_web::body::MessageBody,
{
    let mut state = get(app, &format!("/v1/{game}/initial")).await.body;
    let mut states = vec![state.clone()];
    let mut steps = Vec::new();
    for round in 0..rounds {
        let moves = post(
            app,
            &format!("/v1/{game}/legal-moves"),
            json!({"state": state}),
        )
        .await;
        let step = pick(&moves.body, round);
        if step.is_null() {
            break;
        }
        let mut body = json!({"state": state});
        let field = if game == "tank-war" {
            "moves"
        } else {
            "orders"
        };
        body[field] = step.clone();
        steps.push(step);
        let applied = post(app, &format!("/v1/{game}/apply"), body).await;
        assert_eq!(applied.status, 200, "{applied:?}");
        state = applied.body["state"].clone();
        states.push(state.clone());
    }
    (states, steps)
}

#[actix_web::test]
async fn the_tank_war_names_the_reason_of_each_extra_pick() {
    let app = app_with(Limits::default()).await;
    let (states, _) = play(&app, "tank-war", 2, |_, _| json!({"U": "RC", "D": "LC"})).await;
    let initial = states[0].clone();
    // U's RC and D's LC walked towards each other on the a-file: next
    // square occupied; a track of one square; a clock run out.
    let mut short = initial.clone();
    short["tanks"][0]["track"] = json!(["a6"]);
    let mut over = initial.clone();
    over["clock_ms"] = json!({"U": 0, "D": 1});
    let situations = [
        (initial.clone(), "U", "QQ"),
        (states[2].clone(), "U", "RC"),
        (short, "U", "RC"),
        (over, "D", "LA"),
    ];
    let mut found: BTreeMap<String, (Value, &str, &str)> = BTreeMap::new();
    for (state, player, name) in situations {
        let body = json!({"state": state, "moves": {player: name}});
        let reply = post(&app, "/v1/tank-war/validate", body).await;
        let code = reply.body["reasons"][player]["code"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        found.insert(code, (state, player, name));
    }
    let codes: Vec<&str> = found.keys().map(String::as_str).collect();
    assert_eq!(
        codes,
        [
            "END_OF_TRACK",
            "GAME_OVER",
            "NO_SUCH_TANK",
            "SQUARE_OCCUPIED"
        ]
    );
    for (code, (state, player, name)) in &found {
        let request = json!({"state": state});
        let mut answer = post(&app, "/v1/tank-war/legal-moves", request.clone())
            .await
            .body;
        match answer[*player].as_array_mut() {
            Some(list) => list.push(json!(name)),
            None => answer[*player] = json!([name]),
        }
        let verdict = &verdicts(
            &app,
            "tank-war",
            vec![claim("legal-moves", request, answer)],
        )
        .await[0];
        assert_eq!(
            (
                &verdict["extra"][0]["at"],
                &verdict["extra"][0]["move"],
                &verdict["extra"][0]["code"]
            ),
            (&json!(player), &json!(name), &json!(code)),
            "{verdict}"
        );
        assert_eq!(
            verdict["extra"].as_array().map(Vec::len),
            Some(1),
            "{verdict}"
        );
    }
    // A pick left out is named with its player.
    let request = json!({"state": initial});
    let mut answer = post(&app, "/v1/tank-war/legal-moves", request.clone())
        .await
        .body;
    let left_out = answer["D"].as_array_mut().unwrap().remove(0);
    let verdict = &verdicts(
        &app,
        "tank-war",
        vec![claim("legal-moves", request, answer)],
    )
    .await[0];
    assert_eq!(
        verdict["missing"],
        json!([{"at": "D", "move": left_out}]),
        "{verdict}"
    );
}

#[actix_web::test]
async fn tank_wars_names_the_reason_of_each_extra_order() {
    let app = app_with(Limits::default()).await;
    let state = get(&app, "/v1/cobi-tank-wars/initial").await.body;
    let request = json!({"state": state});
    let real = post(&app, "/v1/cobi-tank-wars/legal-moves", request.clone())
        .await
        .body;
    let mut over = state.clone();
    over["vehicles"] = json!([{"id": "x", "owner": "P1", "square": "a1", "armor": 1, "slot": 1}]);
    let over_request = json!({"state": over});
    let over_answer = post(&app, "/v1/cobi-tank-wars/legal-moves", over_request.clone())
        .await
        .body;
    let cases = [
        (
            "P1",
            "P1-9",
            json!({"dir": "N", "dist": 1}),
            "NO_SUCH_VEHICLE",
        ),
        ("P1", "P1-1", Value::Null, "MISSING_ORDER"),
        (
            "P2",
            "P2-2",
            json!({"dir": "NE", "dist": 1}),
            "BAD_DIRECTION",
        ),
        ("P2", "P2-3", json!({"dir": "S", "dist": 4}), "BAD_DISTANCE"),
        ("P1", "x", json!({"dir": "N", "dist": 1}), "GAME_OVER"),
    ];
    let mut codes = BTreeSet::new();
    for (player, vehicle, order, code) in cases {
        let (request, mut answer) = if code == "GAME_OVER" {
            (over_request.clone(), over_answer.clone())
        } else {
            (request.clone(), real.clone())
        };
        let list = &mut answer[player][vehicle];
        match list.as_array_mut() {
            Some(orders) => orders.push(order.clone()),
            None => *list = json!([order]),
        }
        let verdict = &verdicts(
            &app,
            "cobi-tank-wars",
            vec![claim("legal-moves", request, answer)],
        )
        .await[0];
        let extra = &verdict["extra"][0];
        assert_eq!(extra["at"], format!("{player}/{vehicle}"), "{verdict}");
        assert_eq!(extra["move"], order, "{verdict}");
        assert_eq!(extra["code"], code, "{verdict}");
        assert_eq!(
            verdict["extra"].as_array().map(Vec::len),
            Some(1),
            "{verdict}"
        );
        codes.insert(code);
    }
    assert_eq!(codes.len(), 5, "every Tank Wars order code");
    // An order left out is named with its vehicle; `to` and
    // `blocked_now` are compared where both list the order.
    let mut answer = real.clone();
    let left_out = answer["P2"]["P2-1"].as_array_mut().unwrap().remove(0);
    answer["P1"]["P1-1"][0]["to"] = json!("k11");
    let verdict = &verdicts(
        &app,
        "cobi-tank-wars",
        vec![claim("legal-moves", request, answer)],
    )
    .await[0];
    let key = json!({"dir": left_out["dir"], "dist": left_out["dist"]});
    assert_eq!(
        verdict["missing"],
        json!([{"at": "P2/P2-1", "move": key}]),
        "{verdict}"
    );
    assert_eq!(
        verdict["differences"][0]["field"], "/P1/P1-1/0/to",
        "{verdict}"
    );
}

/// A game's wrong step, claimed as the replay's answer, is the verdict's
/// `step`, for a claimed state and for a claimed refusal.
#[actix_web::test]
async fn a_game_with_a_wrong_step_names_the_step() {
    let app = app_with(Limits::default()).await;
    let playthrough = corpus_cases("playthrough")
        .into_iter()
        .next()
        .expect("a playthrough");
    let moves: Vec<Value> = playthrough["steps"]
        .as_array()
        .unwrap()
        .iter()
        .take(12)
        .map(|step| step["move"].clone())
        .collect();
    let request =
        json!({"start": playthrough["start"], "layout": playthrough["layout"], "moves": moves});
    let real = post(&app, "/v1/tank-battle/replay", request.clone()).await;
    assert_eq!(real.status, 200, "{real:?}");
    for wrong in [0, 5, 11] {
        let mut answer = real.body.clone();
        let other = answer["positions"][(wrong + 1) % 12].clone();
        answer["positions"][wrong] = other;
        let verdict = &verdicts(
            &app,
            "tank-battle",
            vec![claim("replay", request.clone(), answer)],
        )
        .await[0];
        assert_eq!(verdict["step"], wrong, "{verdict}");
        assert_eq!(
            verdict["differences"][0]["field"],
            format!("/positions/{wrong}"),
            "{verdict}"
        );
    }
    // The claimant's engine refuses the 4th move; the service does not.
    let refused = json!({"status": 422, "code": "MINE", "ply": 3});
    let verdict = &verdicts(
        &app,
        "tank-battle",
        vec![claim("replay", request.clone(), refused)],
    )
    .await[0];
    assert_eq!(
        (verdict["agree"].clone(), verdict["step"].clone()),
        (json!(false), json!(3)),
        "{verdict}"
    );
    // The service refuses a move the claimant plays: its refusal is the
    // expected answer, at its ply.
    let mut bad = request.clone();
    bad["moves"][6] = json!("a1-a1");
    let verdict = &verdicts(
        &app,
        "tank-battle",
        vec![claim("replay", bad, real.body.clone())],
    )
    .await[0];
    assert_eq!(verdict["step"], 6, "{verdict}");
    let fields: Vec<&str> = verdict["differences"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|d| d["field"].as_str())
        .collect();
    assert!(
        fields.contains(&"/code") && fields.contains(&"/ply"),
        "{verdict}"
    );

    // The Tank War: a round's state claimed wrong.
    let (states, rounds) = play(
        &app,
        "tank-war",
        6,
        |moves, round| json!({"U": moves["U"][round % 2], "D": moves["D"][0]}),
    )
    .await;
    assert_eq!((states.len(), rounds.len()), (7, 6));
    let request = json!({"rounds": rounds});
    let real = post(&app, "/v1/tank-war/replay", request.clone()).await;
    assert_eq!(real.status, 200, "{real:?}");
    let mut answer = real.body.clone();
    answer["states"][4]["clock_ms"]["U"] = json!(1);
    let verdict = &verdicts(&app, "tank-war", vec![claim("replay", request, answer)]).await[0];
    assert_eq!(verdict["step"], 4, "{verdict}");
    assert_eq!(
        verdict["differences"],
        json!([{"field": "/states/4/clock_ms/U", "expected": real.body["states"][4]["clock_ms"]["U"], "claimed": 1}])
    );
}
