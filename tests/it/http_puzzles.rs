//! `POST /v1/{game}/puzzles`: a played game's puzzles over HTTP (Tank
//! Battle's, then Tank Wars').

use serde_json::{json, Value};
use tank_rules::limits::Limits;

use actix_web::test;

use crate::common::{app_with, assert_problem, metric, post, send};
use crate::http_annotate::TANK_BATTLE_GAME;

/// Black moves a tank where White's k2 takes it: the capture is a puzzle.
const CAPTURE_START: &str = "c10/8t2/7t3/11/11/11/11/11/11/2T7T/10C b 1";

fn puzzles_of(reply: &crate::common::Reply) -> &Vec<Value> {
    reply.body["puzzles"].as_array().expect("puzzles")
}

#[actix_web::test]
async fn a_capture_that_wins_a_tank_is_a_puzzle() {
    let app = app_with(Limits::default()).await;
    let reply = post(
        &app,
        "/v1/tank-battle/puzzles",
        json!({"start": CAPTURE_START, "moves": ["h9-h5", "k2xh5"], "limits": {"max_nodes": 40000}}),
    )
    .await;
    assert_eq!(reply.status, 200, "{reply:?}");
    let found = puzzles_of(&reply);
    assert_eq!(found.len(), 1, "{found:?}");
    let puzzle = &found[0];
    assert_eq!(puzzle["ply"], 1);
    assert_eq!(puzzle["player"], "white");
    assert_eq!(puzzle["solution"], json!(["k2xh5"]));
    assert_eq!(puzzle["themes"], json!(["capture"]));
    assert_eq!(
        puzzle["source"],
        json!({"played": "k2xh5", "label": "best"})
    );
    assert_eq!(
        puzzle["position"],
        "c10/8t2/11/11/11/11/7t3/11/11/2T7T/10C w 2"
    );
    let id = puzzle["id"].as_str().expect("id");
    assert!(
        id.len() == 32 && id.bytes().all(|b| b.is_ascii_hexdigit()),
        "{id}"
    );
    let (chance, second) = (
        puzzle["win_chance"].as_f64().expect("chance"),
        puzzle["second_chance"].as_f64().expect("second"),
    );
    assert!(chance - second >= 30.0, "{puzzle}");
    assert!((100..=900).contains(&puzzle["rating"].as_u64().expect("rating")));
}

/// Every solution replays legally from its position; the same game gives
/// the same bytes on a fresh server, and again from the cache.
#[actix_web::test]
async fn puzzles_replay_and_are_the_same_everywhere() {
    let body =
        json!({"moves": TANK_BATTLE_GAME, "limits": {"max_nodes": 10000}, "max_puzzles": 50});
    let app = app_with(Limits::default()).await;
    let first = post(&app, "/v1/tank-battle/puzzles", body.clone()).await;
    assert_eq!(first.status, 200, "{first:?}");
    for puzzle in puzzles_of(&first) {
        let replay = post(
            &app,
            "/v1/tank-battle/replay",
            json!({"start": puzzle["position"], "layout": puzzle["layout"], "moves": puzzle["solution"]}),
        )
        .await;
        assert_eq!(replay.status, 200, "{puzzle}: {replay:?}");
        let solution = puzzle["solution"].as_array().expect("solution");
        assert_eq!(solution.len() % 2, 1, "{puzzle}");
        let ply = puzzle["ply"].as_u64().expect("ply") as usize;
        assert_eq!(puzzle["source"]["played"], TANK_BATTLE_GAME[ply]);
    }
    let lookups = |result: &'static str| {
        let app = &app;
        async move {
            metric(
                app,
                "tank_rules_ai_cache_lookups_total",
                &[
                    ("game", "tank-battle"),
                    ("result", result),
                    ("tier", "memory"),
                ],
            )
            .await
        }
    };
    let misses = lookups("miss").await;
    let again = post(&app, "/v1/tank-battle/puzzles", body.clone()).await;
    assert_eq!(again.body, first.body);
    assert_eq!(
        lookups("miss").await,
        misses,
        "nothing judged or looked for again"
    );
    let fresh = app_with(Limits::default()).await;
    let elsewhere = post(&fresh, "/v1/tank-battle/puzzles", body).await;
    assert_eq!(elsewhere.body, first.body);
}

#[actix_web::test]
async fn a_shuffled_game_has_none() {
    let app = app_with(Limits::default()).await;
    let shuffle = ["k4-k5", "a8-a7", "k5-k4", "a7-a8"];
    let moves: Vec<&str> = shuffle.iter().chain(shuffle.iter()).copied().collect();
    let reply = post(
        &app,
        "/v1/tank-battle/puzzles",
        json!({"moves": moves, "limits": {"max_nodes": 10000}}),
    )
    .await;
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(reply.body["puzzles"], json!([]));
}

#[actix_web::test]
async fn what_a_puzzle_request_may_ask_is_bounded() {
    let app = app_with(Limits::default()).await;
    for max in [0, 51] {
        let reply = post(
            &app,
            "/v1/tank-battle/puzzles",
            json!({"moves": ["k4-k5"], "max_puzzles": max}),
        )
        .await;
        assert_problem(&reply, 400, "BAD_REQUEST");
        assert_eq!(reply.body["field"], "max_puzzles");
    }
    let illegal = post(
        &app,
        "/v1/tank-battle/puzzles",
        json!({"moves": ["k4-k5", "k5-k6"]}),
    )
    .await;
    assert_eq!(illegal.status, 422, "{illegal:?}");
    assert_eq!(illegal.body["ply"], 1);
    let too_many = post(
        &app,
        "/v1/tank-battle/puzzles",
        json!({"moves": vec!["k4-k5"; Limits::default().annotate_max_plies + 1]}),
    )
    .await;
    assert_problem(&too_many, 400, "LIMIT_EXCEEDED");
    // The Tank War does not serve it (docs/PUZZLES.md says why).
    for game in ["tank-war"] {
        let reply = post(&app, &format!("/v1/{game}/puzzles"), json!({})).await;
        assert_eq!(reply.status, 404, "{game}: {reply:?}");
    }
}

#[actix_web::test]
async fn a_batch_runs_puzzles_and_a_compare_may_not_claim_them() {
    let app = app_with(Limits::default()).await;
    let reply = post(
        &app,
        "/v1/tank-battle/batch",
        json!({"requests": [
            {"op": "puzzles", "start": CAPTURE_START, "moves": ["h9-h5", "k2xh5"], "limits": {"max_nodes": 40000}},
            {"op": "puzzles", "moves": ["k4-k5", "k5-k6"]},
        ]}),
    )
    .await;
    assert_eq!(reply.status, 200, "{reply:?}");
    let results = reply.body["results"].as_array().expect("results");
    assert_eq!(results[0]["puzzles"][0]["solution"], json!(["k2xh5"]));
    assert_eq!(results[1]["status"], 422);
    let claim = post(
        &app,
        "/v1/tank-battle/compare",
        json!({"claims": [{"op": "puzzles", "request": {"moves": []}, "answer": {"puzzles": []}}]}),
    )
    .await;
    assert_problem(&claim, 400, "BAD_REQUEST");
}

/// A game the server's time stops is a 503 to retry; the retry goes on
/// from what the first kept.
#[actix_web::test]
async fn puzzles_past_the_servers_time_are_retried_not_refused() {
    let app = app_with(Limits {
        annotate_max_time_ms: 250,
        ..Limits::default()
    })
    .await;
    let body = json!({"moves": TANK_BATTLE_GAME, "limits": {"max_nodes": 10000}});
    let mut refused = 0;
    let finished = loop {
        let reply = post(&app, "/v1/tank-battle/puzzles", body.clone()).await;
        if reply.status == 200 {
            break reply;
        }
        assert_problem(&reply, 503, "SERVICE_BUSY");
        assert!(reply.headers.contains_key("retry-after"), "{reply:?}");
        refused += 1;
        assert!(
            refused <= 2 * TANK_BATTLE_GAME.len(),
            "no retry went further"
        );
    };
    assert!(finished.body["puzzles"].is_array());
}

/// Streamed: a line a puzzle as it is found, the answer's puzzles tagged,
/// then the summary; `puzzles.ndjson` and `Accept` alike.
#[actix_web::test]
async fn streamed_puzzles_are_a_line_each_then_the_summary() {
    let app = app_with(Limits::default()).await;
    let body =
        json!({"moves": TANK_BATTLE_GAME, "limits": {"max_nodes": 10000}, "max_puzzles": 50});
    let whole = post(&app, "/v1/tank-battle/puzzles", body.clone()).await;
    let found = puzzles_of(&whole).clone();
    for (path, accept) in [
        ("/v1/tank-battle/puzzles", Some("application/x-ndjson")),
        ("/v1/tank-battle/puzzles.ndjson", None),
    ] {
        let mut request = test::TestRequest::post().uri(path).set_json(body.clone());
        if let Some(accept) = accept {
            request = request.insert_header(("accept", accept));
        }
        let reply = send(&app, request).await;
        assert_eq!(reply.status, 200, "{path}: {reply:?}");
        assert_eq!(reply.content_type, "application/x-ndjson");
        let lines: Vec<Value> = reply
            .text
            .lines()
            .map(|line| serde_json::from_str(line).expect("a JSON line"))
            .collect();
        assert_eq!(lines.len(), found.len() + 1, "{path}");
        for (line, puzzle) in lines.iter().zip(&found) {
            let mut untagged = line.clone();
            let tag = untagged.as_object_mut().and_then(|l| l.remove("line"));
            assert_eq!(tag, Some(json!("puzzle")), "{line}");
            assert_eq!(&untagged, puzzle);
        }
        assert_eq!(
            lines.last(),
            Some(&json!({"line": "summary", "count": found.len()}))
        );
    }
    // Refused before the stream starts: an ordinary problem.
    let request = test::TestRequest::post()
        .uri("/v1/tank-battle/puzzles.ndjson")
        .set_json(json!({"moves": ["k4-k5", "k5-k6"]}));
    let refused = send(&app, request).await;
    assert_eq!(refused.status, 422, "{refused:?}");
}

/// P2's last vehicle stands under gunfire in a corner, its only way out
/// `a2`; P1, moving first, wins by parking there whatever P2 orders, and
/// orders `N 1` instead.
fn cornered_game(p1: &str) -> Value {
    json!({
        "start": {
            "cols": 8, "rows": 8, "first": "P1", "round": 3,
            "vehicles": [
                {"id": "P1-1", "owner": "P1", "square": "b2", "armor": 1, "slot": 1},
                {"id": "P2-1", "owner": "P2", "square": "a1", "armor": 1, "slot": 1}
            ],
            "artillery": ["b1", "a3"],
            "gunfire": ["a1"]
        },
        "rounds": [{"orders": {
            "P1": {"P1-1": {"dir": p1, "dist": 1}},
            "P2": {"P2-1": {"dir": "N", "dist": 1}}
        }}]
    })
}

/// Tank Wars: the win missed is P1's puzzle, its orders legal at its
/// position and winning there; the same bytes on a fresh server, streamed
/// as lines, and as a batch's item; orders without a fault hold none.
#[actix_web::test]
async fn a_tank_wars_win_missed_is_a_puzzle() {
    let app = app_with(Limits::default()).await;
    let reply = post(&app, "/v1/cobi-tank-wars/puzzles", cornered_game("N")).await;
    assert_eq!(reply.status, 200, "{reply:?}");
    let found = puzzles_of(&reply);
    let p1: Vec<&Value> = found.iter().filter(|p| p["player"] == "P1").collect();
    let [puzzle] = p1.as_slice() else {
        panic!("one puzzle for P1: {found:?}");
    };
    assert_eq!(puzzle["ply"], 0);
    assert_eq!(
        puzzle["solution"],
        json!([{"P1-1": {"dir": "W", "dist": 1}}])
    );
    assert_eq!(puzzle["themes"], json!(["forced_win"]));
    assert_eq!(puzzle["forced"], json!({"winner": "P1", "plies": 1}));
    assert_eq!(
        puzzle["source"]["played"],
        json!({"P1-1": {"dir": "N", "dist": 1}})
    );
    assert_eq!(puzzle["win_chance"], 100.0);
    assert_eq!(puzzle["position"]["gunfire"], json!(["a1"]));
    // The solution, played from the position against P2's escape, wins.
    let applied = post(
        &app,
        "/v1/cobi-tank-wars/apply",
        json!({"state": puzzle["position"], "orders": {
            "P1": puzzle["solution"][0],
            "P2": {"P2-1": {"dir": "N", "dist": 1}}
        }}),
    )
    .await;
    assert_eq!(applied.status, 200, "{applied:?}");
    assert_eq!(applied.body["winner"], "P1", "{applied:?}");

    let fresh = app_with(Limits::default()).await;
    let again = post(&fresh, "/v1/cobi-tank-wars/puzzles", cornered_game("N")).await;
    assert_eq!(again.text, reply.text);

    let lines = send(
        &app,
        test::TestRequest::post()
            .uri("/v1/cobi-tank-wars/puzzles.ndjson")
            .set_json(cornered_game("N")),
    )
    .await;
    let lines: Vec<Value> = lines
        .text
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect();
    assert_eq!(lines.len(), found.len() + 1, "{lines:?}");
    assert_eq!(
        lines.last(),
        Some(&json!({"line": "summary", "count": found.len()}))
    );

    let mut item = cornered_game("N");
    item["op"] = json!("puzzles");
    let batch = post(
        &app,
        "/v1/cobi-tank-wars/batch",
        json!({"requests": [item]}),
    )
    .await;
    assert_eq!(batch.status, 200, "{batch:?}");
    assert_eq!(batch.body["results"][0]["puzzles"], reply.body["puzzles"]);

    // The gunfire placed by the round, not the start: the puzzle's
    // position holds it, and the puzzle is the same.
    let mut placed = cornered_game("N");
    placed["start"]["gunfire"] = json!([]);
    placed["rounds"][0]["gunfire"] = json!(["a1"]);
    let by_round = post(&app, "/v1/cobi-tank-wars/puzzles", placed).await;
    assert_eq!(
        by_round.body["puzzles"], reply.body["puzzles"],
        "{by_round:?}"
    );

    let kept = post(&app, "/v1/cobi-tank-wars/puzzles", cornered_game("W")).await;
    assert_eq!(kept.status, 200, "{kept:?}");
    assert!(
        puzzles_of(&kept).iter().all(|p| p["player"] != "P1"),
        "{kept:?}"
    );
}
