//! Priced by the work (issue 50): a review costs its time cap in search
//! units, a price over a whole quota is 400 naming the policy and the
//! price, a batch's reviews run on the batch's budget (refused up front
//! when their share cannot give each position the judge's floor, cut at
//! their share, their slot given back), and reviews are counted in the
//! metrics.

use actix_web::test::{self, TestRequest};
use serde_json::{json, Value};
use tank_rules::api::AppState;
use tank_rules::cache::CacheConfig;
use tank_rules::fair_use::{FairUse, FairUseConfig, Quotas};
use tank_rules::limits::Limits;

use crate::common::{app_with, assert_problem, metric, post, send, INITIAL};
use crate::http_annotate::TANK_BATTLE_GAME;

fn review(addr: &str, moves: &[&str]) -> TestRequest {
    TestRequest::post()
        .uri("/v1/tank-battle/annotate")
        .peer_addr(addr.parse().unwrap())
        .set_json(json!({"moves": moves, "limits": {"max_nodes": 10000}}))
}

/// At the default caps a review costs 30 s ÷ 5 s = 6 search units: with
/// a quota of 5 it can never pass (400, nothing spent), with 12 two pass
/// and the third is 429, each naming the policy and the price.
#[actix_web::test]
async fn a_review_costs_its_time_cap_in_search_units() {
    let state = |searches_per_minute| {
        AppState::new(Limits::default(), CacheConfig::default()).with_fair_use(FairUse::new(
            FairUseConfig {
                defaults: Quotas {
                    requests_per_minute: 0,
                    searches_per_minute,
                },
                ..FairUseConfig::default()
            },
        ))
    };
    let moves = &TANK_BATTLE_GAME[..2];
    let app = test::init_service(tank_rules::api::app(state(5))).await;
    let reply = send(&app, review("1.1.1.1:1", moves)).await;
    assert_problem(&reply, 400, "LIMIT_EXCEEDED");
    assert_eq!(reply.body["policy"], "searches", "{reply:?}");
    assert_eq!(reply.body["price"], 6, "{reply:?}");
    assert!(reply.headers.get("retry-after").is_none());
    // In Czech too, the detail names the policy and the price.
    let czech = review("1.1.1.1:1", moves).insert_header(("accept-language", "cs"));
    let reply = send(&app, czech).await;
    let detail = reply.body["detail"].as_str().unwrap_or_default();
    assert!(
        detail.contains("stojí 6 výpočtů z kvóty `searches`"),
        "{detail}"
    );
    // An ai-move, one unit, still passes: the review spent nothing.
    let ai = TestRequest::post()
        .uri("/v1/tank-battle/ai-move")
        .peer_addr("1.1.1.1:2".parse().unwrap())
        .set_json(json!({"position": INITIAL, "limits": {"max_depth": 1}}));
    let reply = send(&app, ai).await;
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(
        reply.headers.get("ratelimit").unwrap(),
        "\"searches\";r=4;t=12"
    );

    let app = test::init_service(tank_rules::api::app(state(12))).await;
    for remaining in [6, 0] {
        let reply = send(&app, review("2.2.2.2:1", moves)).await;
        assert_eq!(reply.status, 200, "{reply:?}");
        let ratelimit = reply.headers.get("ratelimit").unwrap().to_str().unwrap();
        assert!(
            ratelimit.starts_with(&format!("\"searches\";r={remaining};")),
            "{ratelimit}"
        );
    }
    let reply = send(&app, review("2.2.2.2:1", moves)).await;
    assert_problem(&reply, 429, "TOO_MANY_REQUESTS");
    assert_eq!(reply.body["policy"], "searches");
    assert_eq!(reply.body["price"], 6);
    // Retry-After is when the quota holds the whole price again: six
    // units at one every 5 s.
    let retry: u64 = reply
        .headers
        .get("retry-after")
        .unwrap()
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((25..=30).contains(&retry), "{retry}");
}

/// A batch of reviews runs on the batch's one budget (here 200 ms): each
/// review gets its share by price and is cut there (`LIMIT_EXCEEDED`
/// naming the budget), giving its slot back; what is not a search still
/// runs. Shown by the results and the slot metrics, not by timing: every
/// review here would need many seconds (each position up to 2 million
/// nodes).
#[actix_web::test]
async fn a_batch_of_reviews_is_cut_at_its_budget_and_gives_its_slot_back() {
    let app = app_with(Limits {
        ai_max_time_ms: 200,
        ..Limits::default()
    })
    .await;
    let long = json!({"op": "annotate", "moves": &TANK_BATTLE_GAME[..3],
        "limits": {"max_nodes": 2_000_000}});
    let reply = post(
        &app,
        "/v1/tank-battle/batch",
        json!({"requests": [long, long, long, long, {"op": "score", "position": INITIAL}]}),
    )
    .await;
    assert_eq!(reply.status, 200, "{reply:?}");
    let results = reply.body["results"].as_array().unwrap();
    for review in &results[..4] {
        assert_eq!(review["code"], "LIMIT_EXCEEDED", "{review}");
        assert!(
            review["detail"].as_str().unwrap().contains("200 ms"),
            "the budget is named: {review}"
        );
    }
    assert_eq!(results[4]["op"], "score", "{results:?}");
    let long_pool = |result| [("pool", "long"), ("result", result)];
    assert_eq!(
        metric(&app, "tank_rules_slots_in_use", &[("pool", "long")]).await,
        0.0
    );
    assert_eq!(
        metric(&app, "tank_rules_slot_requests_total", &long_pool("busy")).await,
        0.0
    );
    let taken = metric(&app, "tank_rules_slot_requests_total", &long_pool("free")).await;
    assert!((1.0..=4.0).contains(&taken), "{taken}");
    let cut = [("game", "tank-battle"), ("result", "cut")];
    assert_eq!(metric(&app, "tank_rules_reviews_total", &cut).await, taken);
}

/// A review whose share of the batch's budget cannot give each of its
/// positions the judge's floor (Tank Battle: 10 ms) is refused before it
/// takes a slot.
#[actix_web::test]
async fn a_review_that_cannot_fit_its_share_is_refused_up_front() {
    let app = app_with(Limits {
        ai_max_time_ms: 200,
        ..Limits::default()
    })
    .await;
    // 25 positions need 250 ms; the whole budget is 200.
    let reply = post(
        &app,
        "/v1/tank-battle/batch",
        json!({"requests": [{"op": "annotate", "moves": TANK_BATTLE_GAME}]}),
    )
    .await;
    assert_eq!(reply.status, 200, "{reply:?}");
    let result = &reply.body["results"][0];
    assert_eq!(result["code"], "LIMIT_EXCEEDED", "{result}");
    let detail = result["detail"].as_str().unwrap();
    assert!(detail.contains("at least 250 ms"), "{detail}");
    let taken = [("pool", "long"), ("result", "free")];
    assert_eq!(
        metric(&app, "tank_rules_slot_requests_total", &taken).await,
        0.0
    );
}

/// A review's searches are counted with `ai-move`'s, and the review by
/// how it ended.
#[actix_web::test]
async fn reviews_and_their_searches_are_counted() {
    let app = app_with(Limits::default()).await;
    let reply = post(
        &app,
        "/v1/tank-battle/annotate",
        json!({"moves": &TANK_BATTLE_GAME[..4], "limits": {"max_nodes": 10000}}),
    )
    .await;
    assert_eq!(reply.status, 200, "{reply:?}");
    let game = [("game", "tank-battle")];
    // Four moves: a search each (the position before it), and one more
    // for each verification.
    let verifications = reply.body["verifications"].as_f64().unwrap_or(-1.0);
    assert_eq!(
        metric(&app, "tank_rules_ai_searches_total", &game).await,
        4.0 + verifications
    );
    assert!(metric(&app, "tank_rules_ai_nodes_total", &game).await >= 5.0);
    let finished = [("game", "tank-battle"), ("result", "finished")];
    assert_eq!(
        metric(&app, "tank_rules_reviews_total", &finished).await,
        1.0
    );
    let _: Value = reply.body;
}

/// docs/LIMITS.md's table of prices says what `src/operations.rs` says of
/// each operation: its cost and its pool.
#[test]
fn the_documented_prices_are_every_operations_own() {
    use tank_rules::operations::{Cost, Operation, Pool};
    let limits =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/LIMITS.md")).unwrap();
    let section = limits
        .split("## Prices and pools")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .expect("docs/LIMITS.md has a section \"Prices and pools\"");
    let rows: Vec<&str> = section.lines().filter(|l| l.starts_with("| `")).collect();
    for op in Operation::ALL {
        let name = format!("`{}`", op.name());
        let row = rows
            .iter()
            .find(|row| row.split('|').nth(1).is_some_and(|c| c.contains(&name)))
            .unwrap_or_else(|| panic!("no row names {name}"));
        let cost = match op.cost() {
            Cost::Request => "one request",
            Cost::Search => "one search unit",
            Cost::Review => "search units",
            Cost::Items => "the sum of its items",
        };
        assert!(row.contains(cost), "{name}: {row}");
        if let Some(pool) = op.pool() {
            let pool = match pool {
                Pool::Live => "*live*",
                Pool::Long => "*long*",
                Pool::Work => "*work*",
            };
            assert!(row.contains(pool), "{name}: {row}");
        }
    }
}
