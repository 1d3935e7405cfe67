//! Tank Battle's end policy (docs/TANK-BATTLE.md, "Ending a game"): `rules` with a ply limit and a
//! repetition rule, the server's default for it, and the `reason` every
//! answer that can say a game is finished gives.

use crate::common::{app_with, assert_problem, post, INITIAL};
use serde_json::{json, Value};
use tank_rules::games::tank_battle::EndPolicy;
use tank_rules::limits::Limits;

const TB: &str = "/v1/tank-battle";

/// The start position less Black's tank on b8: White leads 14 to 13.
const WHITE_AHEAD: &str = "ctttt6/tttt7/ttt8/t10/11/11/11/9TT/8TTT/7TTTT/6TTTTC w 0";

/// There and back again, both sides: the start position stands again
/// after every four moves.
const SHUFFLE: [&str; 4] = ["k4-k5", "a8-a7", "k5-k4", "a7-a8"];

fn shuffled(times: usize) -> Vec<&'static str> {
    SHUFFLE.iter().copied().cycle().take(4 * times).collect()
}

fn path(endpoint: &str) -> String {
    format!("{TB}/{endpoint}")
}

#[actix_web::test]
async fn a_shuffling_game_ends_at_the_ply_limit_with_the_higher_score_winning() {
    let app = app_with(Limits::default()).await;
    // The rules as written: the shuffle goes on.
    let body = json!({"start": WHITE_AHEAD, "moves": shuffled(3)});
    let reply = post(&app, &path("replay"), body).await;
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(reply.body["final"]["finished"], false);
    assert_eq!(reply.body["final"]["reason"], Value::Null);

    // Under a ply limit of 6, the sixth move ends it; the seventh is over.
    let body = json!({"start": WHITE_AHEAD, "moves": shuffled(3)[..6], "rules": {"max_plies": 6}});
    let reply = post(&app, &path("replay"), body).await;
    assert_eq!(reply.status, 200, "{reply:?}");
    let last = &reply.body["final"];
    assert_eq!(last["finished"], true, "{reply:?}");
    assert_eq!(last["reason"], "ply_limit");
    assert_eq!(last["score"], json!({"white": 14, "black": 13}));
    assert_eq!(last["winner"], "white");
    assert_eq!(last["draw"], false);
    let body = json!({"start": WHITE_AHEAD, "moves": shuffled(2)[..7], "rules": {"max_plies": 6}});
    let reply = post(&app, &path("replay"), body).await;
    assert_problem(&reply, 422, "GAME_OVER");
    assert_eq!(reply.body["ply"], 6);

    // The position at the limit: finished everywhere it is asked about.
    let at_limit = WHITE_AHEAD.replace(" w 0", " w 6");
    let rules = json!({"max_plies": 6});
    let reply = post(
        &app,
        &path("score"),
        json!({"position": at_limit, "rules": rules}),
    )
    .await;
    assert_eq!(reply.body["finished"], true, "{reply:?}");
    assert_eq!(reply.body["reason"], "ply_limit");
    assert_eq!(reply.body["winner"], "white");
    let reply = post(
        &app,
        &path("legal-moves"),
        json!({"position": at_limit, "rules": rules}),
    )
    .await;
    assert_eq!(reply.body["count"], 0, "{reply:?}");
    let reply = post(
        &app,
        &path("validate"),
        json!({"position": at_limit, "move": "k4-k5", "rules": rules}),
    )
    .await;
    assert_eq!(reply.body["legal"], false, "{reply:?}");
    assert_eq!(reply.body["reason"]["code"], "GAME_OVER");
    let reply = post(
        &app,
        &path("apply"),
        json!({"position": at_limit, "move": "k4-k5", "rules": rules}),
    )
    .await;
    assert_problem(&reply, 422, "GAME_OVER");
    let reply = post(
        &app,
        &path("ai-move"),
        json!({"position": at_limit, "rules": rules, "limits": {"max_depth": 2}}),
    )
    .await;
    assert_problem(&reply, 422, "GAME_OVER");

    // One ply before it: `apply` says the move ended the game, and why.
    let before = WHITE_AHEAD.replace(" w 0", " w 5");
    let reply = post(
        &app,
        &path("apply"),
        json!({"position": before, "move": "k4-k5", "rules": rules}),
    )
    .await;
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(reply.body["finished"], true);
    assert_eq!(reply.body["reason"], "ply_limit");
    assert_eq!(reply.body["winner"], "white");
    assert_eq!(reply.body["turn"], "black");
}

#[actix_web::test]
async fn a_repeated_position_ends_a_replay_and_a_review() {
    let app = app_with(Limits::default()).await;
    let rules = json!({"repetition": 3});
    // The start stands a third time after eight moves.
    let body = json!({"start": WHITE_AHEAD, "moves": shuffled(2), "rules": rules});
    let reply = post(&app, &path("replay"), body).await;
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(reply.body["final"]["finished"], true, "{reply:?}");
    assert_eq!(reply.body["final"]["reason"], "repetition");
    assert_eq!(reply.body["final"]["winner"], "white");
    // Seven moves: twice only.
    let body = json!({"start": WHITE_AHEAD, "moves": shuffled(2)[..7], "rules": rules});
    let reply = post(&app, &path("replay"), body).await;
    assert_eq!(reply.body["final"]["finished"], false, "{reply:?}");
    // A ninth move comes after the end.
    let body = json!({"start": WHITE_AHEAD, "moves": shuffled(3)[..9], "rules": rules});
    let reply = post(&app, &path("replay"), body).await;
    assert_problem(&reply, 422, "GAME_OVER");
    assert_eq!(reply.body["ply"], 8);

    // A review sees the same end.
    let body = json!({
        "start": WHITE_AHEAD,
        "moves": shuffled(2),
        "rules": rules,
        "limits": {"max_nodes": 10_000},
    });
    let reply = post(&app, &path("annotate"), body).await;
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(reply.body["final"]["reason"], "repetition", "{reply:?}");
    let body = json!({
        "start": WHITE_AHEAD,
        "moves": shuffled(3)[..9],
        "rules": rules,
        "limits": {"max_nodes": 10_000},
    });
    let reply = post(&app, &path("annotate"), body).await;
    assert_problem(&reply, 422, "GAME_OVER");
    assert_eq!(reply.body["ply"], 8);
}

#[actix_web::test]
async fn perft_counts_a_position_at_the_limit_as_finished() {
    let app = app_with(Limits::default()).await;
    let perft =
        |depth: u32, rules: Value| json!({"position": INITIAL, "depth": depth, "rules": rules});
    for (depth, rules, nodes) in [
        (1, json!({}), 45),
        (2, json!({}), 2025),
        (1, json!({"max_plies": 1}), 45),
        (2, json!({"max_plies": 1}), 0),
        (2, json!({"max_plies": 2}), 2025),
        (3, json!({"max_plies": 2}), 0),
    ] {
        let reply = post(&app, &path("perft"), perft(depth, rules.clone())).await;
        assert_eq!(reply.status, 200, "{reply:?}");
        assert_eq!(reply.body["nodes"], nodes, "depth {depth} under {rules}");
    }
}

#[actix_web::test]
async fn the_servers_default_policy_applies_unless_a_request_names_its_own() {
    let limits = Limits {
        tank_battle_rules: EndPolicy {
            max_plies: Some(1),
            repetition: None,
        },
        ..Limits::default()
    };
    let app = app_with(limits).await;
    let reply = post(
        &app,
        &path("apply"),
        json!({"position": INITIAL, "move": "j4-j5"}),
    )
    .await;
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(reply.body["finished"], true, "{reply:?}");
    assert_eq!(reply.body["reason"], "ply_limit");
    assert_eq!(reply.body["draw"], true);
    // `{}`: the rules as written.
    let reply = post(
        &app,
        &path("apply"),
        json!({"position": INITIAL, "move": "j4-j5", "rules": {}}),
    )
    .await;
    assert_eq!(reply.body["finished"], false, "{reply:?}");
    assert_eq!(reply.body["reason"], Value::Null);
    assert_eq!(reply.body["turn"], "black");
}

#[actix_web::test]
async fn the_ai_sees_the_limit_and_does_not_share_answers_across_policies() {
    let app = app_with(Limits::default()).await;
    // One ply before the limit every move ends the game: the AI's value
    // is that of a finished game (White leads, so a win), not an estimate.
    let before = WHITE_AHEAD.replace(" w 0", " w 5");
    let ask = |rules: Value| json!({"position": before, "rules": rules, "limits": {"max_depth": 3}, "seed": 1});
    let limited = post(&app, &path("ai-move"), ask(json!({"max_plies": 6}))).await;
    assert_eq!(limited.status, 200, "{limited:?}");
    let value = limited.body["evaluation"].as_i64().unwrap();
    assert!(value > 999_000, "a won game at the limit, not {value}");
    // Without the limit the same position is an estimate, and is not the
    // limited answer served from the cache.
    let written = post(&app, &path("ai-move"), ask(json!({}))).await;
    assert_eq!(written.status, 200, "{written:?}");
    assert_eq!(written.body["cached"], false, "{written:?}");
    let value = written.body["evaluation"].as_i64().unwrap();
    assert!(value.abs() < 10_000, "an estimate, not {value}");
}

#[actix_web::test]
async fn a_policy_out_of_range_is_a_bad_request() {
    let app = app_with(Limits::default()).await;
    for (rules, field) in [
        (json!({"repetition": 1}), Some("rules.repetition")),
        (json!({"repetition": 101}), Some("rules.repetition")),
        (json!({"max_plies": 0}), Some("rules.max_plies")),
        (
            json!({"max_plies": EndPolicy::MAX_PLIES + 1}),
            Some("rules.max_plies"),
        ),
        (json!({"max_plies": u64::MAX}), Some("rules.max_plies")),
        (json!({"max_plies": -1}), None),
        (json!({"max_moves": 10}), None),
        (json!("300"), None),
    ] {
        let reply = post(
            &app,
            &path("score"),
            json!({"position": INITIAL, "rules": rules}),
        )
        .await;
        assert_problem(&reply, 400, "BAD_REQUEST");
        if let Some(field) = field {
            assert_eq!(reply.body["field"], field, "{reply:?}");
        }
    }
}

/// The document's bounds of `rules` are the engine's.
#[test]
fn the_documented_bounds_are_the_engines() {
    let doc = tank_rules::api::openapi::document();
    let rules = &doc["components"]["schemas"]["TankBattleRules"]["properties"];
    let bound = |field: &str, end: &str| rules[field][end].as_f64();
    assert_eq!(bound("max_plies", "minimum"), Some(1.0));
    assert_eq!(
        bound("max_plies", "maximum"),
        Some(EndPolicy::MAX_PLIES as f64)
    );
    assert_eq!(bound("repetition", "minimum"), Some(2.0));
    assert_eq!(
        bound("repetition", "maximum"),
        Some(f64::from(EndPolicy::MAX_REPETITION))
    );
}
