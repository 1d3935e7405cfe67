//! HTTP tests of the Tank Wars round endpoints (`cobi-tank-wars`). The
//! rules are checked against an independent implementation in
//! `cobi_tank_wars_oracle.rs`; these tests pin the shapes, codes and
//! worked examples.

use crate::common::{app_with, assert_problem, get, post};
use serde_json::{json, Value};
use tank_rules::limits::Limits;

fn path(endpoint: &str) -> String {
    format!("/v1/cobi-tank-wars/{endpoint}")
}

fn all_orders(dir: &str, dist: u8) -> Value {
    json!({
        "P1": {"P1-1": {"dir": dir, "dist": dist}, "P1-2": {"dir": dir, "dist": dist}, "P1-3": {"dir": dir, "dist": dist}},
        "P2": {"P2-1": {"dir": dir, "dist": dist}, "P2-2": {"dir": dir, "dist": dist}, "P2-3": {"dir": dir, "dist": dist}}
    })
}

fn kinds(events: &Value) -> Vec<String> {
    events
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap().to_owned())
        .collect()
}

#[actix_web::test]
async fn initial_state_is_the_issue_default() {
    let app = app_with(Limits::default()).await;
    let state = get(&app, &path("initial")).await.body;
    assert_eq!(state["cols"], 8);
    assert_eq!(state["rows"], 8);
    assert_eq!(state["first"], "P1");
    let squares: Vec<(&str, &str, i64)> = state["vehicles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            assert_eq!(v["armor"], 3);
            (
                v["id"].as_str().unwrap(),
                v["square"].as_str().unwrap(),
                v["slot"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        squares,
        [
            ("P1-1", "c1", 1),
            ("P1-2", "d1", 2),
            ("P1-3", "f1", 3),
            ("P2-1", "f8", 1),
            ("P2-2", "e8", 2),
            ("P2-3", "c8", 3)
        ]
    );
    for tokens in ["artillery", "support", "gunfire"] {
        assert_eq!(state[tokens], json!([]));
    }
    assert_eq!(state["support_cards"], json!({"P1": 0, "P2": 0}));
    assert_eq!(state["round"], 0);
}

#[actix_web::test]
async fn a_round_with_every_kind_of_event() {
    let app = app_with(Limits::default()).await;
    let mut state = get(&app, &path("initial")).await.body;
    // P1-1 (c1) runs north over artillery on c2 and c3 into the support on
    // c4 and survives with 1 armor; P2-1 (f8) goes south 3 to f5 where
    // gunfire waits; P1-2 (d1) tries west onto c1, which P1-1 has left.
    // P2-3 (c8) drives east onto e8, still held by P2-2: cancelled.
    state["artillery"] = json!(["c2", "c3"]);
    state["support"] = json!(["c4"]);
    state["gunfire"] = json!(["f5", "h8"]);
    let orders = json!({
        "P1": {"P1-1": {"dir": "N", "dist": 3}, "P1-2": {"dir": "W", "dist": 1}, "P1-3": {"dir": "S", "dist": 1}},
        "P2": {"P2-1": {"dir": "S", "dist": 3}, "P2-2": {"dir": "W", "dist": 1}, "P2-3": {"dir": "E", "dist": 2}}
    });
    let reply = post(
        &app,
        &path("apply"),
        json!({"state": state, "orders": orders, "seed": 0}),
    )
    .await;
    assert_eq!(reply.status, 200, "{reply:?}");
    let events = &reply.body["events"];
    assert_eq!(
        kinds(events),
        [
            "moved",         // P1-1 c1-c4
            "artillery_hit", // c2
            "artillery_hit", // c3
            "support_taken", // c4
            "moved",         // P2-1 f8-f5
            "moved",         // P1-2 d1-c1
            "moved",         // P2-2 e8-d8
            "cancelled",     // P1-3 off the board
            "moved",         // P2-3 c8-e8: e8 is free again
            "gunfire_hit",   // P2-1 on f5
            "supply_drop",
        ],
        "{events:#}"
    );
    assert_eq!(
        events[7],
        json!({"kind": "cancelled", "vehicle": "P1-3", "at": "f1", "to": null})
    );
    assert_eq!(
        events[3],
        json!({"kind": "support_taken", "vehicle": "P1-1", "square": "c4", "player": "P1"})
    );
    let after = &reply.body["state"];
    assert_eq!(after["vehicles"][0]["square"], "c4");
    assert_eq!(after["vehicles"][0]["armor"], 1);
    assert_eq!(after["vehicles"][3]["armor"], 2);
    assert_eq!(after["artillery"], json!([]));
    assert_eq!(after["gunfire"], json!([]));
    assert_eq!(after["support_cards"], json!({"P1": 1, "P2": 0}));
    assert_eq!(after["round"], 1);
    assert_eq!(after["support"].as_array().unwrap().len(), 1);
    assert_eq!(
        events[10]["square"], after["support"][0],
        "the dropped token is in the state"
    );
    assert_eq!(reply.body["finished"], false);
    assert_eq!(reply.body["winner"], Value::Null);
    assert_eq!(reply.body["draw"], false);
}

#[actix_web::test]
async fn seeds_move_the_supply_drop_deterministically() {
    let app = app_with(Limits::default()).await;
    let state = get(&app, &path("initial")).await.body;
    let drop = |body: &Value| body["events"].as_array().unwrap().last().unwrap()["square"].clone();
    let mut squares = std::collections::BTreeSet::new();
    for seed in [0u64, 1, 2, 3, u64::MAX] {
        let body = json!({"state": state, "orders": all_orders("E", 1), "seed": seed});
        let a = post(&app, &path("apply"), body.clone()).await.body;
        let b = post(&app, &path("apply"), body).await.body;
        assert_eq!(a, b);
        squares.insert(drop(&a).to_string());
    }
    assert!(squares.len() > 1, "{squares:?}");
}

#[actix_web::test]
async fn refused_orders_are_422_with_the_code() {
    let app = app_with(Limits::default()).await;
    let state = get(&app, &path("initial")).await.body;
    let mut missing = all_orders("N", 1);
    missing["P2"]
        .as_object_mut()
        .unwrap()
        .remove("P2-2")
        .unwrap();
    let mut foreign = all_orders("N", 1);
    foreign["P1"]["P2-1"] = json!({"dir": "N", "dist": 1});
    let mut bad_dir = all_orders("N", 1);
    bad_dir["P1"]["P1-2"]["dir"] = json!("NE");
    let mut bad_dist = all_orders("N", 1);
    bad_dist["P2"]["P2-3"]["dist"] = json!(4);
    for (orders, code, player) in [
        (missing, "MISSING_ORDER", "P2"),
        (foreign, "NO_SUCH_VEHICLE", "P1"),
        (bad_dir, "BAD_DIRECTION", "P1"),
        (bad_dist, "BAD_DISTANCE", "P2"),
        (json!({}), "MISSING_ORDER", "P1"),
    ] {
        let reply = post(
            &app,
            &path("apply"),
            json!({"state": state, "orders": orders}),
        )
        .await;
        assert_problem(&reply, 422, code);
        assert_eq!(reply.body["player"], player, "{reply:?}");
    }
    let mut over = state.clone();
    over["vehicles"] = json!([{"id": "x", "owner": "P1", "square": "a1", "armor": 1, "slot": 1}]);
    let reply = post(
        &app,
        &path("apply"),
        json!({"state": over, "orders": {"P1": {"x": {"dir": "N", "dist": 1}}}}),
    )
    .await;
    assert_problem(&reply, 422, "GAME_OVER");
}

#[actix_web::test]
async fn validate_lists_every_reason() {
    let app = app_with(Limits::default()).await;
    let state = get(&app, &path("initial")).await.body;
    let reply = post(
        &app,
        &path("validate"),
        json!({"state": state, "orders": all_orders("S", 2)}),
    )
    .await;
    assert_eq!(reply.body, json!({"legal": true, "reasons": []}));
    let mut orders = all_orders("S", 2);
    orders["P1"]["P1-1"]["dist"] = json!(0);
    orders["P2"]["P2-1"]["dir"] = json!("up");
    orders["P2"].as_object_mut().unwrap().remove("P2-3");
    let reply = post(
        &app,
        &path("validate"),
        json!({"state": state, "orders": orders}),
    )
    .await;
    assert_eq!(reply.body["legal"], false);
    let reasons: Vec<(String, String, String)> = reply.body["reasons"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            assert!(r["message"].is_string());
            (
                r["player"].as_str().unwrap().to_owned(),
                r["vehicle"].as_str().unwrap().to_owned(),
                r["code"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let expected = [
        ("P1", "P1-1", "BAD_DISTANCE"),
        ("P2", "P2-1", "BAD_DIRECTION"),
        ("P2", "P2-3", "MISSING_ORDER"),
    ]
    .map(|(a, b, c)| (a.to_owned(), b.to_owned(), c.to_owned()));
    assert_eq!(reasons, expected);
}

#[actix_web::test]
async fn invalid_states_are_400() {
    let app = app_with(Limits::default()).await;
    let state = get(&app, &path("initial")).await.body;
    let mut cases = Vec::new();
    for (field, value) in [
        ("cols", json!(1)),
        ("rows", json!(27)),
        ("artillery", json!(["i1"])),
        ("support", json!(["d4", "d4"])),
        ("gunfire", json!(["a0"])),
    ] {
        let mut s = state.clone();
        s[field] = value;
        cases.push(s);
    }
    for (key, value) in [
        ("armor", json!(0)),
        ("slot", json!(2)),
        ("slot", json!(4)),
        ("square", json!("d1")),
        ("id", json!("P1-2")),
    ] {
        let mut s = state.clone();
        s["vehicles"][0][key] = value;
        cases.push(s);
    }
    let mut four = state.clone();
    four["vehicles"]
        .as_array_mut()
        .unwrap()
        .push(json!({"id": "P1-4", "owner": "P1", "square": "h1", "armor": 1, "slot": 3}));
    cases.push(four);
    for s in cases {
        let reply = post(&app, &path("score"), json!({"state": s})).await;
        assert_problem(&reply, 400, "INVALID_POSITION");
        assert_eq!(reply.body["field"], "state");
    }
    let mut s = state.clone();
    s["vehicles"][0]["owner"] = json!("P3");
    assert_problem(
        &post(&app, &path("score"), json!({"state": s})).await,
        400,
        "BAD_REQUEST",
    );
}

#[actix_web::test]
async fn legal_moves_mark_blocked_destinations() {
    let app = app_with(Limits::default()).await;
    let state = get(&app, &path("initial")).await.body;
    let reply = post(
        &app,
        &path("legal-moves"),
        json!({"state": state, "player": "P1"}),
    )
    .await;
    assert_eq!(reply.status, 200);
    assert!(reply.body.get("P2").is_none());
    let c1 = reply.body["P1"]["P1-1"].as_array().unwrap();
    // From c1: N 1-3, E 1-3 (d1 is blocked), W 1-2; S leaves the board.
    let listed: Vec<String> = c1
        .iter()
        .map(|o| {
            format!(
                "{}{}>{}{}",
                o["dir"].as_str().unwrap(),
                o["dist"],
                o["to"].as_str().unwrap(),
                if o["blocked_now"] == true { "!" } else { "" }
            )
        })
        .collect();
    assert_eq!(
        listed,
        ["N1>c2", "N2>c3", "N3>c4", "E1>d1!", "E2>e1", "E3>f1!", "W1>b1", "W2>a1"]
    );
    let both = post(&app, &path("legal-moves"), json!({"state": state})).await;
    assert_eq!(both.body["P2"].as_object().unwrap().len(), 3);
}

#[actix_web::test]
async fn score_counts_and_decides() {
    let app = app_with(Limits::default()).await;
    let mut state = get(&app, &path("initial")).await.body;
    state["vehicles"][0]["armor"] = json!(1);
    state["support_cards"] = json!({"P1": 2, "P2": 5});
    let reply = post(&app, &path("score"), json!({"state": state})).await;
    assert_eq!(
        reply.body,
        json!({
            "vehicles": {"P1": 3, "P2": 3}, "armor": {"P1": 7, "P2": 9},
            "support_cards": {"P1": 2, "P2": 5},
            "finished": false, "winner": null, "draw": false,
            "reason": null, "score": {"P1": 3, "P2": 3}
        })
    );
    state["vehicles"] = json!([]);
    let reply = post(&app, &path("score"), json!({"state": state})).await;
    assert_eq!(reply.body["finished"], true);
    assert_eq!(reply.body["draw"], true);
    assert_eq!(reply.body["winner"], Value::Null);
}

#[actix_web::test]
async fn replay_plays_rounds_and_reports_the_ply() {
    let app = app_with(Limits::default()).await;
    let rounds = json!([
        {"orders": all_orders("N", 1), "seed": 1},
        {"orders": all_orders("E", 1), "gunfire": ["d2"], "seed": 2},
    ]);
    let reply = post(&app, &path("replay"), json!({"rounds": rounds})).await;
    assert_eq!(reply.status, 200, "{reply:?}");
    let states = reply.body["states"].as_array().unwrap();
    assert_eq!(states.len(), 2);
    assert_eq!(states[1]["round"], 2);
    // Each replayed state is what apply makes of the previous one.
    let mut first_round = get(&app, &path("initial")).await.body;
    let applied = post(
        &app,
        &path("apply"),
        json!({"state": first_round.take(), "orders": all_orders("N", 1), "seed": 1}),
    )
    .await;
    assert_eq!(applied.body["state"], states[0]);
    // P1-2 went d1-d2 in round 1; round 2's gunfire on d2 is where it
    // would be hit, but it moves east first.
    assert_eq!(reply.body["final"]["finished"], false);

    let bad = json!([
        {"orders": all_orders("N", 1)},
        {"orders": {"P1": {}}},
    ]);
    let reply = post(&app, &path("replay"), json!({"rounds": bad})).await;
    assert_problem(&reply, 422, "MISSING_ORDER");
    assert_eq!(reply.body["ply"], 1);
    assert_eq!(reply.body["field"], "rounds[1].orders");
}

#[actix_web::test]
async fn ai_move_gives_every_vehicle_an_order_and_is_cached() {
    let app = app_with(Limits::default()).await;
    let mut state = get(&app, &path("initial")).await.body;
    state["support"] = json!(["c3", "f6"]);
    state["artillery"] = json!(["d2", "d3"]);
    let body = json!({
        "state": state, "player": "P1", "gunfire_tokens": 2,
        "limits": {"max_nodes": 5000}, "seed": 4
    });
    let first = post(&app, &path("ai-move"), body.clone()).await;
    assert_eq!(first.status, 200, "{first:?}");
    let orders = first.body["orders"].as_object().unwrap();
    assert_eq!(orders.keys().collect::<Vec<_>>(), ["P1-1", "P1-2", "P1-3"]);
    // The suggested orders are legal.
    let mut full = json!({"P1": first.body["orders"].clone(), "P2": {}});
    for id in ["P2-1", "P2-2", "P2-3"] {
        full["P2"][id] = json!({"dir": "S", "dist": 1});
    }
    let check = post(
        &app,
        &path("validate"),
        json!({"state": state, "orders": full}),
    )
    .await;
    assert_eq!(check.body["legal"], true, "{check:?}");
    assert!(first.body["gunfire"].as_array().unwrap().len() <= 2);
    assert_eq!(first.body["cached"], false);
    assert!(first.body["simulations"].as_u64().unwrap() <= 5000);
    let second = post(&app, &path("ai-move"), body.clone()).await;
    assert_eq!(second.body["cached"], true);
    assert_eq!(second.body["orders"], first.body["orders"]);

    let mut too_many = body.clone();
    too_many["gunfire_tokens"] = json!(9);
    assert_problem(
        &post(&app, &path("ai-move"), too_many).await,
        400,
        "BAD_REQUEST",
    );
    let mut over = body;
    over["state"]["vehicles"] = json!([]);
    assert_problem(&post(&app, &path("ai-move"), over).await, 422, "GAME_OVER");
}

#[actix_web::test]
async fn the_catalogue_lists_the_game() {
    let app = app_with(Limits::default()).await;
    let games = get(&app, "/v1/games").await.body;
    let cobi = games["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == "cobi-tank-wars")
        .unwrap()
        .clone();
    assert_eq!(cobi["players"], json!(["P1", "P2"]));
    let endpoints: Vec<&str> = cobi["endpoints"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e.as_str().unwrap())
        .collect();
    for route in [
        "GET /v1/cobi-tank-wars/initial",
        "POST /v1/cobi-tank-wars/apply",
        "POST /v1/cobi-tank-wars/ai-move",
    ] {
        assert!(endpoints.contains(&route), "{endpoints:?}");
    }
}
