//! Server limits over HTTP: busy search slots, replay length, Tank War
//! state size, readiness.

use crate::common::{app_with, assert_problem, get, post, INITIAL};
use serde_json::json;
use tank_rules::limits::Limits;

#[actix_web::test]
async fn readiness() {
    let app = app_with(Limits::default()).await;
    let reply = get(&app, "/readyz").await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.body, json!({"status": "ready"}));
}

/// Each pool's slots: a request waits `--search-wait-ms` for one of its
/// own pool, then is refused (503 with `Retry-After`), never queued; a
/// full pool leaves the others free (live play never waits for a review).
#[actix_web::test]
async fn searches_beyond_the_slots_are_refused_not_queued() {
    let war = get(&app_with(Limits::default()).await, "/v1/tank-war/initial")
        .await
        .body;
    let live = [
        ("/v1/tank-battle/ai-move", json!({"position": INITIAL})),
        ("/v1/tank-war/ai-move", json!({"state": war, "player": "U"})),
    ];
    let long = [
        (
            "/v1/tank-battle/perft",
            json!({"position": INITIAL, "depth": 2}),
        ),
        (
            "/v1/tank-battle/annotate",
            json!({"moves": ["k4-k5"], "limits": {"max_depth": 1}}),
        ),
    ];
    // No live slot: live play is refused, long work is not.
    let app = app_with(Limits {
        max_concurrent_searches: 0,
        ..Limits::default()
    })
    .await;
    for (path, body) in &live {
        let reply = post(&app, path, body.clone()).await;
        assert_problem(&reply, 503, "SERVICE_BUSY");
        assert_eq!(reply.headers.get("retry-after").unwrap(), "1", "{path}");
    }
    for (path, body) in &long {
        let reply = post(&app, path, body.clone()).await;
        assert_eq!(reply.status, 200, "{path}: {reply:?}");
    }
    // No long slot: long work is refused (retry after the AI time cap, a
    // review's slot is held longer), live play is not.
    let app = app_with(Limits {
        max_concurrent_reviews: 0,
        ..Limits::default()
    })
    .await;
    for (path, body) in &long {
        let reply = post(&app, path, body.clone()).await;
        assert_problem(&reply, 503, "SERVICE_BUSY");
        assert_eq!(reply.headers.get("retry-after").unwrap(), "5", "{path}");
    }
    for (path, body) in &live {
        let reply = post(&app, path, body.clone()).await;
        assert_eq!(reply.status, 200, "{path}: {reply:?}");
    }
    // Cheap endpoints need no slot.
    let reply = post(
        &app,
        "/v1/tank-battle/legal-moves",
        json!({"position": INITIAL}),
    )
    .await;
    assert_eq!(reply.status, 200);
}

#[actix_web::test]
async fn replays_and_states_are_bounded() {
    let limits = Limits {
        replay_max_moves: 2,
        tank_war_max_tanks: 4,
        ..Limits::default()
    };
    let app = app_with(limits).await;
    let reply = post(
        &app,
        "/v1/tank-battle/replay",
        json!({"moves": ["k4-k5", "a8-a7", "k5-k6"]}),
    )
    .await;
    assert_problem(&reply, 400, "LIMIT_EXCEEDED");
    assert_eq!(reply.body["field"], "moves");
    let reply = post(
        &app,
        "/v1/tank-battle/replay",
        json!({"moves": ["k4-k5", "a8-a7"]}),
    )
    .await;
    assert_eq!(reply.status, 200);

    let round = json!({"U": "LA", "D": "RC"});
    let reply = post(
        &app,
        "/v1/tank-war/replay",
        json!({"rounds": [round, round, round]}),
    )
    .await;
    assert_problem(&reply, 400, "LIMIT_EXCEEDED");
    assert_eq!(reply.body["field"], "rounds");

    // The default state has 12 tanks, over this server's 4.
    let state = get(&app, "/v1/tank-war/initial").await.body;
    let reply = post(&app, "/v1/tank-war/score", json!({"state": state})).await;
    assert_problem(&reply, 400, "LIMIT_EXCEEDED");
    assert_eq!(reply.body["field"], "state");

    let short_tracks = app_with(Limits {
        tank_war_max_track: 5,
        ..Limits::default()
    })
    .await;
    let reply = post(
        &short_tracks,
        "/v1/tank-war/legal-moves",
        json!({"state": state}),
    )
    .await;
    assert_problem(&reply, 400, "LIMIT_EXCEEDED");
}
