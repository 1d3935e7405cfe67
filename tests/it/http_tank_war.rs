//! HTTP tests of The Tank War endpoints.

use crate::common::{app_with, assert_problem, get, post};
use serde_json::{json, Value};
use tank_rules::limits::Limits;

const TW: &str = "/v1/tank-war";

fn path(endpoint: &str) -> String {
    format!("{TW}/{endpoint}")
}

use tank_rules::games::tank_war::ILLUSTRATION;

fn destroyed(events: &Value) -> Vec<String> {
    events
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "destroyed")
        .map(|e| {
            let by: Vec<String> = e["by"]
                .as_array()
                .unwrap()
                .iter()
                .map(|b| {
                    format!(
                        "{}{}@{}",
                        b["player"].as_str().unwrap(),
                        b["tank"].as_str().unwrap(),
                        b["square"].as_str().unwrap()
                    )
                })
                .collect();
            format!(
                "{}{}@{} by {}",
                e["player"].as_str().unwrap(),
                e["tank"].as_str().unwrap(),
                e["square"].as_str().unwrap(),
                by.join("+")
            )
        })
        .collect()
}

#[actix_web::test]
async fn default_setup_matches_the_spec() {
    let app = app_with(Limits::default()).await;
    let state = get(&app, &path("initial")).await.body;
    assert_eq!(state["rows"], 6);
    assert_eq!(
        state["territory"],
        json!(["UUUUUU", "UUUUUU", "UUUUUU", "DDDDDD", "DDDDDD", "DDDDDD"])
    );
    assert_eq!(state["clock_ms"], json!({"U": 120000, "D": 120000}));
    let tanks = state["tanks"].as_array().unwrap();
    assert_eq!(tanks.len(), 12);
    let u_la = tanks
        .iter()
        .find(|t| t["owner"] == "U" && t["name"] == "LA")
        .unwrap();
    assert_eq!(
        *u_la,
        json!({"owner": "U", "name": "LA", "type": "A", "track": ["e6", "e5", "e4", "e3", "e2", "e1"], "at": 0})
    );
    let row1: Vec<&str> = ["a1", "b1", "c1", "d1", "e1", "f1"]
        .iter()
        .map(|sq| {
            tanks
                .iter()
                .find(|t| t["owner"] == "D" && t["track"][0] == *sq)
                .unwrap()["name"]
                .as_str()
                .unwrap()
        })
        .collect();
    assert_eq!(row1, ["LC", "LA", "LB", "RB", "RA", "RC"]);
}

#[actix_web::test]
async fn the_illustration_replays_through_apply_and_replay() {
    let app = app_with(Limits::default()).await;
    let mut state = get(&app, &path("initial")).await.body;
    let mut fire = Vec::new();
    for (u, d) in ILLUSTRATION {
        let reply = post(
            &app,
            &path("apply"),
            json!({"state": state, "moves": {"U": u, "D": d}}),
        )
        .await;
        assert_eq!(reply.status, 200, "{reply:?}");
        assert_eq!(reply.body["finished"], false);
        fire.push(destroyed(&reply.body["events"]));
        state = reply.body["state"].clone();
    }
    assert!(fire[..3].iter().all(Vec::is_empty), "{fire:?}");
    assert_eq!(fire[3], ["ULA@e4 by DRB@d4"]);
    assert_eq!(
        fire[4],
        ["ULC@f4 by DRC@f2", "DRB@d4 by ULC@f4", "DRC@f2 by ULC@f4"]
    );

    let rounds: Vec<Value> = ILLUSTRATION
        .iter()
        .map(|(u, d)| json!({"U": u, "D": d}))
        .collect();
    let reply = post(&app, &path("replay"), json!({"rounds": rounds})).await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.body["states"].as_array().unwrap().len(), 5);
    assert_eq!(reply.body["states"][4], state);
    assert_eq!(
        reply.body["final"],
        json!({"finished": false, "winner": null, "draw": false, "reason": null,
               "score": {"U": 4, "D": 4},
               "surviving": {"U": 4, "D": 4}, "territory": {"U": 17, "D": 19}})
    );
}

#[actix_web::test]
async fn moves_events_and_clocks() {
    let app = app_with(Limits::default()).await;
    let state = get(&app, &path("initial")).await.body;
    let reply = post(&app, &path("apply"), json!({"state": state, "moves": {"U": "LA", "D": "RC"}, "elapsed_ms": {"U": 1500, "D": 2300}})).await;
    assert_eq!(
        reply.body["events"],
        json!([
            {"kind": "move", "player": "U", "tank": "LA", "from": "e6", "to": "e5"},
            {"kind": "move", "player": "D", "tank": "RC", "from": "f1", "to": "f2"}
        ])
    );
    assert_eq!(
        reply.body["state"]["clock_ms"],
        json!({"U": 118500, "D": 117700})
    );
    assert_eq!(reply.body["state"]["round"], 1);

    // D's clock runs out: D loses and the round is not played.
    let mut low = state.clone();
    low["clock_ms"] = json!({"U": 5000, "D": 100});
    let reply = post(
        &app,
        &path("apply"),
        json!({"state": low, "moves": {"U": "LA", "D": "RC"}, "elapsed_ms": {"D": 100}}),
    )
    .await;
    assert_eq!(
        reply.body["events"],
        json!([{"kind": "timeout", "player": "D"}])
    );
    assert_eq!(
        (
            reply.body["finished"].clone(),
            reply.body["winner"].clone(),
            reply.body["reason"].clone()
        ),
        (json!(true), json!("U"), json!("time"))
    );
    assert_eq!(reply.body["state"]["tanks"], low["tanks"]);
    assert_eq!(reply.body["state"]["clock_ms"], json!({"U": 5000, "D": 0}));
    // Time runs out before the picks count: an unknown tank does not matter.
    let reply = post(
        &app,
        &path("apply"),
        json!({"state": low, "moves": {"U": "LA", "D": "nonsense"}, "elapsed_ms": {"D": 100}}),
    )
    .await;
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(reply.body["reason"], "time");
    // A finished state accepts no move.
    let over = reply.body["state"].clone();
    let reply = post(
        &app,
        &path("apply"),
        json!({"state": over, "moves": {"U": "LA", "D": "RC"}}),
    )
    .await;
    assert_problem(&reply, 422, "GAME_OVER");
    assert_eq!(reply.body["player"], "U");
    let reply = post(&app, &path("legal-moves"), json!({"state": over})).await;
    assert_eq!(reply.body, json!({"U": [], "D": []}));
    let reply = post(&app, &path("score"), json!({"state": over})).await;
    assert_eq!(reply.body["reason"], "time");
    assert_eq!(reply.body["winner"], "U");
}

#[actix_web::test]
async fn picks_and_their_reasons() {
    let app = app_with(Limits::default()).await;
    let state = get(&app, &path("initial")).await.body;
    let reply = post(&app, &path("legal-moves"), json!({"state": state})).await;
    let all = json!(["LA", "LB", "LC", "RA", "RB", "RC"]);
    assert_eq!(reply.body, json!({"U": all, "D": all}));
    let reply = post(
        &app,
        &path("legal-moves"),
        json!({"state": state, "player": "U"}),
    )
    .await;
    assert_eq!(reply.body, json!({"U": all}));

    let reply = post(
        &app,
        &path("validate"),
        json!({"state": state, "moves": {"U": "LA", "D": "RC"}}),
    )
    .await;
    assert_eq!(reply.body, json!({"legal": true, "reasons": {}}));
    let reply = post(
        &app,
        &path("validate"),
        json!({"state": state, "moves": {"U": "QQ"}}),
    )
    .await;
    assert_eq!(reply.body["legal"], false);
    assert_eq!(reply.body["reasons"]["U"]["code"], "NO_SUCH_TANK");
    assert!(reply.body["reasons"].get("D").is_none());

    // Walk U's RC and D's LC towards each other on the a-file.
    let mut s = state.clone();
    for _ in 0..2 {
        s = post(
            &app,
            &path("apply"),
            json!({"state": s, "moves": {"U": "RC", "D": "LC"}}),
        )
        .await
        .body["state"]
            .clone();
    }
    let reply = post(
        &app,
        &path("validate"),
        json!({"state": s, "moves": {"U": "RC", "D": "LC"}}),
    )
    .await;
    assert_eq!(reply.body["reasons"]["U"]["code"], "SQUARE_OCCUPIED");
    assert_eq!(reply.body["reasons"]["D"]["code"], "SQUARE_OCCUPIED");
    let reply = post(
        &app,
        &path("apply"),
        json!({"state": s, "moves": {"U": "LA", "D": "LC"}}),
    )
    .await;
    assert_problem(&reply, 422, "SQUARE_OCCUPIED");
    assert_eq!(reply.body["player"], "D");

    // End of track: a track of one square.
    let mut short = state.clone();
    short["tanks"][0]["track"] = json!(["a6"]);
    let reply = post(
        &app,
        &path("validate"),
        json!({"state": short, "moves": {"U": "RC"}}),
    )
    .await;
    assert_eq!(reply.body["reasons"]["U"]["code"], "END_OF_TRACK");

    let reply = post(
        &app,
        &path("validate"),
        json!({"state": state, "moves": {}}),
    )
    .await;
    assert_problem(&reply, 400, "BAD_REQUEST");

    // Replay stops at the first illegal round.
    let reply = post(
        &app,
        &path("replay"),
        json!({"rounds": [{"U": "LA", "D": "RC"}, {"U": "LA", "D": "XX"}]}),
    )
    .await;
    assert_problem(&reply, 422, "NO_SUCH_TANK");
    assert_eq!(reply.body["ply"], 1);
    assert_eq!(reply.body["player"], "D");
    assert_eq!(reply.body["field"], "rounds[1]");
}

#[actix_web::test]
async fn invalid_states_are_400() {
    let app = app_with(Limits::default()).await;
    let state = get(&app, &path("initial")).await.body;
    let mut cases = Vec::new();
    let mut s = state.clone();
    s["tanks"][1]["track"] = s["tanks"][0]["track"].clone();
    cases.push(s);
    let mut s = state.clone();
    s["tanks"][1]["name"] = s["tanks"][0]["name"].clone();
    cases.push(s);
    let mut s = state.clone();
    s["tanks"][0]["track"] = json!(["a6", "a7"]);
    cases.push(s);
    let mut s = state.clone();
    s["tanks"][0]["track"] = json!(["a6", "b5"]);
    cases.push(s);
    let mut s = state.clone();
    s["tanks"][0]["at"] = json!(9);
    cases.push(s);
    let mut s = state.clone();
    s["territory"] = json!(["UU"]);
    cases.push(s);
    for s in cases {
        let reply = post(&app, &path("score"), json!({"state": s})).await;
        assert_problem(&reply, 400, "INVALID_POSITION");
        assert_eq!(reply.body["field"], "state");
    }
    let mut s = state.clone();
    s["tanks"][0]["type"] = json!("Z");
    assert_problem(
        &post(&app, &path("score"), json!({"state": s})).await,
        400,
        "BAD_REQUEST",
    );
    let reply = post(
        &app,
        &path("replay"),
        json!({"start": {"rows": 0, "cols": 6, "territory": [], "tanks": []}, "rounds": []}),
    )
    .await;
    assert_problem(&reply, 400, "INVALID_POSITION");
    assert_eq!(reply.body["field"], "start");
}

#[actix_web::test]
async fn ai_move_plays_the_solved_game_exactly() {
    let app = app_with(Limits::default()).await;
    let start = get(&app, &path("initial")).await.body;
    // The start (from the table) and the illustration's rounds (from the
    // table, then solved on demand), for both players.
    let mut states = vec![start.clone()];
    let mut state = start;
    for (u, d) in ILLUSTRATION {
        let reply = post(
            &app,
            &path("apply"),
            json!({"state": state, "moves": {"U": u, "D": d}}),
        )
        .await;
        assert_eq!(reply.status, 200, "{reply:?}");
        state = reply.body["state"].clone();
        states.push(state.clone());
    }
    for (n, state) in states.iter().enumerate() {
        let mut values = Vec::new();
        for player in ["U", "D"] {
            let reply = post(
                &app,
                &path("ai-move"),
                json!({"state": state, "player": player, "seed": 1}),
            )
            .await;
            assert_eq!(reply.status, 200, "{reply:?}");
            let body = &reply.body;
            assert_eq!(body["exact"], true, "after {n} rounds: {body}");
            let expected = body["expected_result"].as_f64().unwrap();
            assert!((body["value"].as_f64().unwrap() - 10_000.0 * expected).abs() < 1e-6);
            // The strategy guarantees the value against the best reply;
            // each pick's worst case is on the result scale and none is
            // above the value when played alone.
            for entry in body["strategy"].as_array().unwrap() {
                let worst = entry["worst_case"].as_f64().unwrap();
                assert!((-1.0..=1.0).contains(&worst), "{entry}");
                assert!(worst <= expected + 1e-9, "{entry}");
            }
            values.push(expected);
        }
        // Zero-sum: the players' values are opposite.
        assert!((values[0] + values[1]).abs() < 1e-6, "{values:?}");
        if n == 0 {
            assert!(values[0].abs() < 1e-6, "the start is worth {}", values[0]);
        }
    }
}

#[actix_web::test]
async fn ai_move_gives_a_strategy_and_is_cached() {
    let app = app_with(Limits::default()).await;
    let state = get(&app, &path("initial")).await.body;
    let request = json!({"state": state, "player": "D", "limits": {"max_depth": 2}, "seed": 9});
    let first = post(&app, &path("ai-move"), request.clone()).await;
    assert_eq!(first.status, 200, "{first:?}");
    let strategy = first.body["strategy"].as_array().unwrap();
    assert_eq!(strategy.len(), 6);
    let total: f64 = strategy
        .iter()
        .map(|e| e["probability"].as_f64().unwrap())
        .sum();
    assert!((total - 1.0).abs() < 1e-9, "{total}");
    let chosen = first.body["move"].as_str().unwrap();
    assert!(strategy
        .iter()
        .any(|e| e["move"] == chosen && e["probability"].as_f64().unwrap() > 0.0));
    assert_eq!(first.body["depth"], 2);
    assert_eq!(first.body["cached"], false);
    let second = post(&app, &path("ai-move"), request).await;
    assert_eq!(second.body["cached"], true);
    assert_eq!(second.body["strategy"], first.body["strategy"]);

    // The one winning pick is found: U's C on a4 two squares from D's lone
    // tank on a2 would be hit first by nothing; U to move RC (a5 -> a4).
    let duel = json!({"rows": 6, "cols": 1, "territory": ["U", "U", "U", "D", "D", "D"], "tanks": [
        {"owner": "U", "name": "C", "type": "C", "track": ["a5", "a4"], "at": 0},
        {"owner": "D", "name": "A", "type": "A", "track": ["a1", "a2"], "at": 0}
    ]});
    let reply = post(
        &app,
        &path("ai-move"),
        json!({"state": duel, "player": "U", "limits": {"max_depth": 1}}),
    )
    .await;
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(reply.body["move"], "C");
    assert!(
        reply.body["value"].as_f64().unwrap() >= 10_000.0,
        "{reply:?}"
    );

    let mut over = state.clone();
    over["clock_ms"] = json!({"U": 0, "D": 1});
    assert_problem(
        &post(
            &app,
            &path("ai-move"),
            json!({"state": over, "player": "U"}),
        )
        .await,
        422,
        "GAME_OVER",
    );
}
