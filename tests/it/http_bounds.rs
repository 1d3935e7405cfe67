//! Every byte and second a request can cost is bounded (issue 12): body
//! deadline, compressed bodies, answer size, replay work, one time budget
//! per batch, searches that stop with their client, problem bodies from
//! every layer, HEAD. `scripts/hostile-test.sh` repeats these against a
//! real server with real sockets.

use std::time::Duration;

use crate::common::{app_with, assert_problem, get, post, send, INITIAL};
use actix_web::test;
use serde_json::{json, Value};
use tank_rules::api::flows::ai::ai_move;
use tank_rules::api::services::Services;
use tank_rules::cache::{AnswerCache, CacheConfig};
use tank_rules::games::tank_battle::TankBattle;
use tank_rules::limits::Limits;
use tank_rules::metrics::Metrics;

#[actix_web::test]
async fn a_body_that_stops_arriving_is_a_408_and_closes_the_connection() {
    let app = app_with(Limits {
        body_timeout_ms: 100,
        ..Limits::default()
    })
    .await;
    // The sender stays alive and never finishes the body.
    let (_sender, payload) = actix_http::h1::Payload::create(false);
    let req = test::TestRequest::post()
        .uri("/v1/tank-battle/score")
        .insert_header(("content-type", "application/json"))
        .insert_header(("content-length", "60000"))
        .to_request();
    let (req, _) = req.replace_payload(actix_http::Payload::from(payload));
    // The body never ends: only the deadline can answer.
    let resp = test::call_service(&app, req).await;
    assert_eq!(resp.status(), 408);
    assert_eq!(
        resp.response().head().connection_type(),
        actix_web::http::ConnectionType::Close
    );
    let body: Value = serde_json::from_slice(&test::read_body(resp).await).unwrap();
    assert_eq!(body["code"], "REQUEST_TIMEOUT");
}

#[actix_web::test]
async fn compressed_bodies_are_415() {
    let app = app_with(Limits::default()).await;
    for coding in ["br", "zstd", "gzip", "identity, gzip"] {
        let reply = send(
            &app,
            test::TestRequest::post()
                .uri("/v1/tank-battle/score")
                .insert_header(("content-encoding", coding))
                .set_json(json!({"position": INITIAL})),
        )
        .await;
        assert_problem(&reply, 415, "UNSUPPORTED_MEDIA_TYPE");
    }
    let reply = send(
        &app,
        test::TestRequest::post()
            .uri("/v1/tank-battle/score")
            .insert_header(("content-encoding", "identity"))
            .set_json(json!({"position": INITIAL})),
    )
    .await;
    assert_eq!(reply.status, 200);
}

#[actix_web::test]
async fn no_answer_is_larger_than_the_cap() {
    let app = app_with(Limits {
        answer_max_bytes: 1_000,
        ..Limits::default()
    })
    .await;
    // 45 moves: about 2.7 KB.
    let reply = post(
        &app,
        "/v1/tank-battle/legal-moves",
        json!({"position": INITIAL}),
    )
    .await;
    assert_problem(&reply, 400, "LIMIT_EXCEEDED");
    // Small answers pass.
    let reply = post(&app, "/v1/tank-battle/score", json!({"position": INITIAL})).await;
    assert_eq!(reply.status, 200);
    // A replay whose answer can be foreseen to be too large is refused
    // before it is played (the moves need not even be legal).
    let moves = vec!["k4-k5"; 40];
    let reply = post(&app, "/v1/tank-battle/replay", json!({"moves": moves})).await;
    assert_problem(&reply, 400, "LIMIT_EXCEEDED");
    assert!(reply.body["detail"].as_str().unwrap().contains("would be"));
    // A batch's whole answer counts.
    let score = json!({"op": "score", "position": INITIAL});
    let reply = post(
        &app,
        "/v1/tank-battle/batch",
        json!({"requests": vec![score; 10]}),
    )
    .await;
    assert_problem(&reply, 400, "LIMIT_EXCEEDED");
}

/// A batch whose answer would pass the cap is refused before it is
/// built (issue 71): the request makes the service hold no more than the
/// cap of answer and one item's, counted in bytes by the test's
/// allocator, not the 8.3 MB the whole answer would be; and the items
/// after the cap do not run. The same for NDJSON, and for replays, which
/// are refused before they are played when what is left of the answer
/// cannot hold them.
#[actix_web::test]
async fn a_batch_answer_is_refused_before_it_passes_the_cap() {
    let cap = 256 << 10;
    let app = app_with(Limits {
        answer_max_bytes: cap,
        ..Limits::default()
    })
    .await;
    // 596 legal moves, about 33 KB of answer each: 250 items would be
    // 8.3 MB.
    let layout = format!(
        "B{}/{}/{}W",
        ".".repeat(10),
        vec![".".repeat(11); 9].join("/"),
        ".".repeat(10)
    );
    let position = "1TTTTTTT1TT/T7T2/T5T1t1T/T7T2/T8T1/T4T3T1/T8T1/T8T1/T6T3/T9T/TTTTTTTTT1T w 0";
    let item = json!({"op": "legal-moves", "position": position, "layout": layout});
    let one = post(
        &app,
        "/v1/tank-battle/legal-moves",
        json!({"position": position, "layout": layout}),
    )
    .await;
    assert_eq!(one.status, 200, "{one:?}");
    let one_bytes = serde_json::to_vec(&one.body).unwrap().len();
    assert!(one_bytes * 250 > 30 * cap, "{one_bytes} bytes an item");
    let body = json!({"requests": vec![item.clone(); 250]});
    let lines = vec![item.to_string(); 250].join("\n");
    for ndjson in [false, true] {
        let request = if ndjson {
            test::TestRequest::post()
                .uri("/v1/tank-battle/batch")
                .insert_header(("content-type", "application/x-ndjson"))
                .set_payload(lines.clone())
        } else {
            test::TestRequest::post()
                .uri("/v1/tank-battle/batch")
                .set_json(&body)
        };
        let start = crate::allocations::held();
        crate::allocations::reset_peak();
        let reply = send(&app, request).await;
        let spent = crate::allocations::peak_since(start);
        assert_problem(&reply, 400, "LIMIT_EXCEEDED");
        let field = reply.body["field"].as_str().unwrap_or_default().to_owned();
        let at: usize = field
            .strip_prefix("requests[")
            .and_then(|rest| rest.strip_suffix(']'))
            .and_then(|index| index.parse().ok())
            .unwrap_or(usize::MAX);
        // Refused at the first item that does not fit (each result is
        // the item's answer, its `op` and a separator).
        assert!(
            (cap / (one_bytes + 32)..=cap / one_bytes).contains(&at),
            "{reply:?}"
        );
        // The answer's cap, one item's answer as a JSON value (several
        // times its text) and the request's own (its body, its items).
        let allowed = cap + 16 * one_bytes + 32 * lines.len();
        assert!(
            spent <= allowed,
            "ndjson {ndjson}: {spent} bytes held at the peak, more than {allowed} (cap {cap})"
        );
    }
    // A replay that what is left of the answer cannot hold is refused
    // before it is played: the moves need not be legal.
    let replay = json!({"op": "replay", "moves": vec!["k4-k5"; 2000]});
    let alone = post(
        &app,
        "/v1/tank-battle/batch",
        json!({"requests": [replay.clone()]}),
    )
    .await;
    assert_eq!(alone.status, 200, "{alone:?}");
    // Alone it fits (and is refused at its second move, an empty square).
    assert_eq!(alone.body["results"][0]["status"], 422, "{alone:?}");
    let mut items = vec![item.clone(); cap / (one_bytes + 32) - 1];
    items.push(replay);
    let reply = post(&app, "/v1/tank-battle/batch", json!({"requests": items})).await;
    assert_eq!(reply.status, 200, "{reply:?}");
    let last = reply.body["results"]
        .as_array()
        .and_then(|r| r.last())
        .cloned();
    let last = last.unwrap_or_default();
    assert_eq!(last["code"], "LIMIT_EXCEEDED", "{last}");
    assert!(
        last["detail"]
            .as_str()
            .unwrap_or_default()
            .contains("would be"),
        "{last}"
    );
}

#[actix_web::test]
async fn replay_work_is_bounded_by_cells_times_steps() {
    let app = app_with(Limits {
        replay_max_work: 121 * 10,
        ..Limits::default()
    })
    .await;
    let ten = ["k4-k5", "a8-a7", "k5-k6", "a7-a6", "j4-j5"].repeat(2);
    let reply = post(&app, "/v1/tank-battle/replay", json!({"moves": ten})).await;
    // Within the work limit: played (its sixth move is illegal).
    assert_problem(&reply, 422, "NO_TANK_AT_FROM");
    let eleven = [ten.as_slice(), &["b8-b7"]].concat();
    let reply = post(&app, "/v1/tank-battle/replay", json!({"moves": eleven})).await;
    assert_problem(&reply, 400, "LIMIT_EXCEEDED");
    assert_eq!(reply.body["field"], "moves");
    // A Tank War state's cells are its squares and its track squares.
    let war = get(&app, "/v1/tank-war/initial").await.body;
    let rounds = vec![json!({"U": "LA", "D": "RC"}); 20];
    let reply = post(
        &app,
        "/v1/tank-war/replay",
        json!({"start": war, "rounds": rounds}),
    )
    .await;
    assert_problem(&reply, 400, "LIMIT_EXCEEDED");
    assert_eq!(reply.body["field"], "rounds");
}

#[actix_web::test]
async fn a_batch_shares_one_search_budget() {
    let app = app_with(Limits {
        ai_max_time_ms: 400,
        ..Limits::default()
    })
    .await;
    let ask = |seed: u64, time: u64| json!({"position": INITIAL, "limits": {"max_time_ms": time}, "seed": seed});
    let item = |seed: u64, time: u64| {
        let mut item = ask(seed, time);
        item["op"] = json!("ai-move");
        item
    };
    let batch =
        |items: Vec<Value>| post(&app, "/v1/tank-battle/batch", json!({ "requests": items }));
    // Four searches each asking the whole cap (400 ms) share it: each is
    // given its share, about 100 ms, and searches to the end of it (no
    // depth or node limit ends a search of the initial position that
    // soon). An answer given less time than it asked, and cut by it, is
    // not the one the request would get alone, so it is not cached: the
    // same request alone is searched again.
    let reply = batch((1..=4).map(|seed| item(seed, 400)).collect()).await;
    assert_eq!(reply.status, 200, "{reply:?}");
    for result in reply.body["results"].as_array().unwrap() {
        assert!(result["move"].is_string(), "{result}");
    }
    for seed in 1..=4 {
        let alone = post(&app, "/v1/tank-battle/ai-move", ask(seed, 400)).await;
        assert_eq!(
            alone.body["cached"], false,
            "search {seed} had all the time it asked: {alone:?}"
        );
    }
    // A search asking less than its share has all it asks: its answer is
    // the one it gets alone, cached.
    let reply = batch(vec![item(5, 50)]).await;
    assert!(reply.body["results"][0]["move"].is_string(), "{reply:?}");
    let alone = post(&app, "/v1/tank-battle/ai-move", ask(5, 50)).await;
    assert_eq!(alone.body["cached"], true, "{alone:?}");
}

/// The count of the `tank_rules_slot_requests_total` series of the live
/// pool with `result`.
fn live_slots_taken(metrics: &Metrics, result: &str) -> u64 {
    let (text, _) = metrics.render().unwrap();
    let series = format!("tank_rules_slot_requests_total{{pool=\"live\",result=\"{result}\"}} ");
    text.lines()
        .find_map(|line| line.strip_prefix(&series)?.parse().ok())
        .unwrap_or(0)
}

#[actix_web::test]
async fn an_abandoned_search_frees_its_slot_at_once() {
    // One slot, and a search that alone would run for a minute (no node
    // cap, the time cap raised).
    let limits = Limits {
        max_concurrent_searches: 1,
        search_wait_ms: 0,
        ai_max_time_ms: 60_000,
        ai_max_nodes: u64::MAX,
        ..Limits::default()
    };
    let services = Services::new(
        limits,
        AnswerCache::new(CacheConfig::default()),
        Metrics::new(),
    );
    let request = serde_json::from_value(json!({
        "position": INITIAL,
        "limits": {"max_time_ms": 60_000},
        "seed": 3
    }))
    .unwrap();
    // The client goes away after 50 ms: the future is dropped.
    let abandoned = tokio::time::timeout(
        Duration::from_millis(50),
        ai_move::<TankBattle>(request, &services, None),
    )
    .await;
    assert!(
        abandoned.is_err(),
        "the minute's search cannot have finished"
    );
    assert_eq!(
        live_slots_taken(&services.metrics, "free"),
        1,
        "the search had taken its slot"
    );
    // The search stops at its next check of the stop flag and gives its
    // slot back: the next request takes it (the wait only keeps a broken
    // build from hanging: a search that ran on would keep the slot for
    // the rest of its minute).
    let slot = services.live.take(Duration::from_secs(20)).await;
    assert!(slot.is_some(), "the abandoned search kept its slot");
    drop(slot);
    // And its partial answer was not cached.
    assert!(services.cache.is_empty());
}

#[actix_web::test]
async fn every_error_answer_is_problem_json() {
    let app = app_with(Limits::default()).await;
    let reply = get(&app, "/swagger-ui/no-such-file.js").await;
    assert_problem(&reply, 404, "NOT_FOUND");
    let reply = send(
        &app,
        test::TestRequest::default()
            .method(actix_web::http::Method::OPTIONS)
            .uri("/v1/tank-battle/score")
            .insert_header(("origin", "https://a.example"))
            .insert_header(("access-control-request-method", "DELETE")),
    )
    .await;
    assert_eq!(reply.status.as_u16(), 400, "{reply:?}");
    assert_eq!(reply.content_type, "application/problem+json");
    assert_eq!(reply.body["status"], 400);
}

#[actix_web::test]
async fn head_works_wherever_get_does() {
    let app = app_with(Limits::default()).await;
    for path in [
        "/healthz",
        "/readyz",
        "/v1/games",
        "/v1/tank-battle/initial",
        "/v1/tank-war/render.svg",
        "/openapi.json",
        "/swagger-ui/",
    ] {
        let reply = send(
            &app,
            test::TestRequest::default()
                .method(actix_web::http::Method::HEAD)
                .uri(path),
        )
        .await;
        assert_eq!(reply.status, 200, "HEAD {path}: {reply:?}");
    }
    let reply = send(
        &app,
        test::TestRequest::default()
            .method(actix_web::http::Method::HEAD)
            .uri("/v1/tank-battle/score"),
    )
    .await;
    assert_problem(&reply, 405, "METHOD_NOT_ALLOWED");
}
