//! HTTP tests of the AI's levels and analysis (`level`, `multipv`) in all
//! three games: levels repeat exactly with a seed, analysis lists the best
//! moves from the same search as `ai-move`, both are cached and checked.

use crate::common::{app_with, assert_problem, get, post, INITIAL};
use serde_json::{json, Value};
use tank_rules::limits::Limits;

/// The answer without the fields that say how it was served.
fn content(mut answer: Value) -> Value {
    if let Some(object) = answer.as_object_mut() {
        object.remove("time_ms");
        object.remove("cached");
    }
    answer
}

/// Positions a few moves into a Tank Battle game.
fn tank_battle_positions() -> Vec<String> {
    let layout = tank_rules::games::tank_battle::Layout::STANDARD;
    let mut pos = tank_rules::games::tank_battle::Position::initial(&layout);
    let mut positions = vec![pos.to_string()];
    for i in 0..6 {
        let moves = pos.legal_moves(&layout);
        let Some(mv) = moves.get((i * 7) % moves.len().max(1)) else {
            break;
        };
        pos.play_unchecked(*mv);
        positions.push(pos.to_string());
    }
    positions
}

#[actix_web::test]
async fn tank_battle_levels_repeat_with_a_seed_on_any_server() {
    for level in [1, 4, 8] {
        let request = json!({"position": INITIAL, "level": level, "seed": 5});
        let first = post(
            &app_with(Limits::default()).await,
            "/v1/tank-battle/ai-move",
            request.clone(),
        )
        .await;
        assert_eq!(first.status, 200, "{}", first.body);
        assert_eq!(first.body["cached"], false);
        // A new server (no cache): the same search, the same answer.
        let again = post(
            &app_with(Limits::default()).await,
            "/v1/tank-battle/ai-move",
            request,
        )
        .await;
        assert_eq!(again.body["cached"], false);
        assert_eq!(content(first.body), content(again.body), "level {level}");
    }
}

#[actix_web::test]
async fn a_low_level_varies_with_the_seed_and_a_high_one_searches_deeper() {
    let app = app_with(Limits::default()).await;
    let mut moves = std::collections::BTreeSet::new();
    for seed in 0..12 {
        let reply = post(
            &app,
            "/v1/tank-battle/ai-move",
            json!({"position": INITIAL, "level": 1, "seed": seed}),
        )
        .await;
        assert_eq!(reply.status, 200);
        assert_eq!(reply.body["depth"], 1);
        moves.insert(reply.body["move"].as_str().unwrap_or_default().to_owned());
    }
    assert!(moves.len() >= 4, "level 1 played only {moves:?}");
    let top = post(
        &app,
        "/v1/tank-battle/ai-move",
        json!({"position": INITIAL, "level": 8, "seed": 0}),
    )
    .await;
    assert!(
        top.body["depth"].as_u64().unwrap_or_default() >= 4,
        "{}",
        top.body
    );
    // Within level 8's recipe: 300,000 positions.
    assert!(top.body["nodes"].as_u64().unwrap_or(u64::MAX) <= 300_000);
}

#[actix_web::test]
async fn tank_battle_analysis_starts_with_the_ai_move() {
    let app = app_with(Limits::default()).await;
    for position in tank_battle_positions() {
        for depth in [1, 3] {
            let limits = json!({"max_depth": depth});
            let single = post(
                &app,
                "/v1/tank-battle/ai-move",
                json!({"position": position, "limits": limits, "seed": 2}),
            )
            .await;
            let analysis = post(
                &app,
                "/v1/tank-battle/ai-move",
                json!({"position": position, "limits": limits, "seed": 2, "multipv": 4}),
            )
            .await;
            assert_eq!(analysis.status, 200, "{}", analysis.body);
            let lines = analysis.body["lines"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            assert_eq!(lines.len(), 4, "{position}: {}", analysis.body);
            assert_eq!(
                lines[0]["move"], single.body["move"],
                "{position} depth {depth}"
            );
            assert_eq!(lines[0]["evaluation"], single.body["evaluation"]);
            assert_eq!(analysis.body["move"], single.body["move"]);
            let values: Vec<i64> = lines
                .iter()
                .map(|l| l["evaluation"].as_i64().unwrap_or_default())
                .collect();
            assert!(values.windows(2).all(|w| w[0] >= w[1]), "{values:?}");
            for line in &lines {
                assert_eq!(line["pv"][0], line["move"]);
            }
            // The analysis is cached apart from the single answer.
            let cached = post(
                &app,
                "/v1/tank-battle/ai-move",
                json!({"position": position, "limits": limits, "seed": 2, "multipv": 4}),
            )
            .await;
            assert_eq!(cached.body["cached"], true);
            assert_eq!(content(cached.body), content(analysis.body));
        }
    }
}

#[actix_web::test]
async fn level_and_multipv_out_of_range_are_bad_requests() {
    let app = app_with(Limits::default()).await;
    for (field, value) in [("level", 0), ("level", 9), ("multipv", 0), ("multipv", 17)] {
        let mut body = json!({"position": INITIAL});
        body[field] = json!(value);
        let reply = post(&app, "/v1/tank-battle/ai-move", body).await;
        assert_problem(&reply, 400, "BAD_REQUEST");
        assert_eq!(reply.body["field"], field, "{}", reply.body);
    }
    let state = get(&app, "/v1/tank-war/initial").await.body;
    let reply = post(
        &app,
        "/v1/tank-war/ai-move",
        json!({"state": state, "player": "U", "level": 12}),
    )
    .await;
    assert_problem(&reply, 400, "BAD_REQUEST");
    // The Tank War's strategy already values every pick: no `multipv`.
    let reply = post(
        &app,
        "/v1/tank-war/ai-move",
        json!({"state": state, "player": "U", "multipv": 2}),
    )
    .await;
    assert_problem(&reply, 400, "BAD_REQUEST");
}

#[actix_web::test]
async fn tank_war_levels_soften_the_strategy_and_repeat() {
    let app = app_with(Limits::default()).await;
    let state = get(&app, "/v1/tank-war/initial").await.body;
    let full = post(
        &app,
        "/v1/tank-war/ai-move",
        json!({"state": state, "player": "U", "limits": {"max_depth": 1}, "seed": 3}),
    )
    .await;
    assert_eq!(full.status, 200, "{}", full.body);
    let strategy = full.body["strategy"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(!strategy.is_empty());
    for entry in &strategy {
        assert!(entry["worst_case"].is_number(), "{entry}");
    }
    // No pick guarantees more than the game's value.
    let value = full.body["value"].as_f64().unwrap_or_default();
    assert!(strategy
        .iter()
        .all(|e| e["worst_case"].as_f64().unwrap_or(f64::MAX) <= value + 1e-6));

    let low = json!({"state": state, "player": "U", "level": 1, "seed": 3});
    let first = post(
        &app_with(Limits::default()).await,
        "/v1/tank-war/ai-move",
        low.clone(),
    )
    .await;
    let again = post(
        &app_with(Limits::default()).await,
        "/v1/tank-war/ai-move",
        low,
    )
    .await;
    assert_eq!(first.status, 200, "{}", first.body);
    assert_eq!(content(first.body.clone()), content(again.body));
    // At the start every tank is in the line: level 1 spreads its choice
    // over every pick.
    let probabilities: Vec<f64> = first.body["strategy"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .map(|e| e["probability"].as_f64().unwrap_or_default())
        .collect();
    assert!(probabilities.iter().all(|p| *p > 0.05), "{probabilities:?}");
    assert!((probabilities.iter().sum::<f64>() - 1.0).abs() < 1e-9);
}

#[actix_web::test]
async fn cobi_analysis_starts_with_the_ai_orders_and_levels_repeat() {
    let app = app_with(Limits::default()).await;
    let state = get(&app, "/v1/cobi-tank-wars/initial").await.body;
    let base = json!({"state": state, "player": "P1", "limits": {"max_nodes": 20000}, "seed": 4});
    let single = post(&app, "/v1/cobi-tank-wars/ai-move", base.clone()).await;
    assert_eq!(single.status, 200, "{}", single.body);
    let mut asked = base.clone();
    asked["multipv"] = json!(3);
    let analysis = post(&app, "/v1/cobi-tank-wars/ai-move", asked).await;
    let lines = analysis.body["lines"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(lines.len(), 3, "{}", analysis.body);
    assert_eq!(lines[0]["orders"], single.body["orders"]);
    assert_eq!(analysis.body["orders"], single.body["orders"]);

    let level = json!({"state": state, "player": "P2", "level": 2, "seed": 9});
    let first = post(
        &app_with(Limits::default()).await,
        "/v1/cobi-tank-wars/ai-move",
        level.clone(),
    )
    .await;
    let again = post(
        &app_with(Limits::default()).await,
        "/v1/cobi-tank-wars/ai-move",
        level,
    )
    .await;
    assert_eq!(first.status, 200, "{}", first.body);
    assert_eq!(content(first.body.clone()), content(again.body));
    // Within level 2's recipe: 5,000 simulated rounds.
    assert!(first.body["simulations"].as_u64().unwrap_or(u64::MAX) <= 5_000 + 64);
}

/// Issue 72's finding 4: a search the request governs by positions, cut
/// by a server's time cap, says so (`cut`) and is not cached; a server
/// whose cap lets it finish answers the full search, `cut: false`, and
/// keeps it.
#[actix_web::test]
async fn an_answer_cut_by_a_cap_says_so_and_is_not_kept() {
    let body = json!({
        "position": "ctttt6/tttt7/t1t8/11/1t1t4T2/t10/7T3/5T3TT/8T1T/8T1T/6TTTTC b 7",
        "limits": {"max_nodes": 400_000}
    });
    let capped = app_with(Limits {
        ai_max_time_ms: 2,
        ..Limits::default()
    })
    .await;
    for _ in 0..2 {
        let reply = post(&capped, "/v1/tank-battle/ai-move", body.clone()).await;
        assert_eq!(reply.status, 200, "{reply:?}");
        assert_eq!(reply.body["cut"], true, "{}", reply.body);
        assert_eq!(reply.body["cached"], false, "{}", reply.body);
        assert!(
            reply.body["nodes"].as_u64().unwrap_or(0) < 400_000,
            "{}",
            reply.body
        );
    }
    let free = app_with(Limits::default()).await;
    let full = post(&free, "/v1/tank-battle/ai-move", body.clone()).await;
    assert_eq!(full.status, 200, "{full:?}");
    assert_eq!(full.body["cut"], false, "{}", full.body);
    assert_eq!(full.body["nodes"], 400_000, "{}", full.body);
    let again = post(&free, "/v1/tank-battle/ai-move", body).await;
    assert_eq!(again.body["cached"], true, "{}", again.body);
    assert_eq!(content(again.body), content(full.body));
}
