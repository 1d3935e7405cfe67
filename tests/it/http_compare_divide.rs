//! HTTP tests of `compare` (issue 53), continued: a wrong `divide` leads
//! to the wrong leaf in at most `depth` calls; claims are checked, capped
//! and priced as a batch's items.

use serde_json::{json, Value};

use crate::common::{app_with, assert_problem, post};
use crate::http_compare::{claim, verdicts};
use tank_rules::games::tank_battle::{parse_position, perft, Layout, Move, Position};
use tank_rules::limits::Limits;

/// An engine that believes one position lacks one of its moves: perft
/// counts as it gives them.
struct WrongEngine {
    layout: Layout,
    blind_at: String,
    blind_to: Move,
}

impl WrongEngine {
    fn moves(&self, position: &Position) -> Vec<Move> {
        let mut moves = position.legal_moves(&self.layout);
        if position.to_string() == self.blind_at {
            moves.retain(|&mv| mv != self.blind_to);
        }
        moves
    }

    fn perft(&self, position: &Position, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if position.outcome(&self.layout).is_some() {
            return 0;
        }
        self.moves(position)
            .into_iter()
            .map(|mv| {
                let mut next = *position;
                next.play_unchecked(mv);
                self.perft(&next, depth - 1)
            })
            .sum()
    }

    /// `perft`'s answer with `divide`, as this engine counts.
    fn divide(&self, position: &Position, depth: u32) -> Value {
        let mut divide = serde_json::Map::new();
        let mut nodes = 0;
        if position.outcome(&self.layout).is_none() {
            for mv in self.moves(position) {
                let mut next = *position;
                next.play_unchecked(mv);
                let count = self.perft(&next, depth - 1);
                nodes += count;
                divide.insert(mv.to_string(), json!(count));
            }
        }
        json!({"nodes": nodes, "divide": divide})
    }
}

#[actix_web::test]
async fn a_wrong_divide_leads_to_the_wrong_leaf_in_at_most_depth_calls() {
    let app = app_with(Limits::default()).await;
    let layout = Layout::parse("standard").unwrap();
    let start = "c10/1t9/11/11/11/11/11/11/11/9T1/T9C w 1";
    let root = parse_position(start, &layout).unwrap();
    // The blind spot: two plies down, the last of its moves.
    let mut blind = root;
    for _ in 0..2 {
        let mv = blind.legal_moves(&layout)[3];
        blind.play_unchecked(mv);
    }
    let blind_to = *blind.legal_moves(&layout).last().unwrap();
    let engine = WrongEngine {
        layout,
        blind_at: blind.to_string(),
        blind_to,
    };
    let depth = 3;
    assert_ne!(
        engine.perft(&root, depth),
        perft::perft(&root, &layout, depth)
    );

    let (mut position, mut calls) = (root, 0);
    for remaining in (1..=depth).rev() {
        let request = json!({"position": position.to_string(), "depth": remaining, "divide": true});
        let answer = engine.divide(&position, remaining);
        let verdict =
            &verdicts(&app, "tank-battle", vec![claim("perft", request, answer)]).await[0];
        calls += 1;
        assert_eq!(verdict["agree"], false, "{verdict}");
        let differing: Vec<&str> = verdict["differences"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|d| d["field"].as_str()?.strip_prefix("/divide/"))
            .collect();
        let Some(first) = differing.first() else {
            panic!("no move's count differs: {verdict}");
        };
        if remaining == 1 {
            // At the leaf: the move the engine does not see, its count 1
            // and the claim's none.
            assert_eq!(position.to_string(), engine.blind_at);
            assert_eq!(*first, blind_to.to_string());
            let leaf = verdict["differences"]
                .as_array()
                .unwrap()
                .iter()
                .find(|d| d["field"] == format!("/divide/{first}"))
                .unwrap();
            assert_eq!(
                leaf,
                &json!({"field": format!("/divide/{first}"), "expected": 1})
            );
            break;
        }
        let mv = position
            .legal_moves(&layout)
            .into_iter()
            .find(|mv| mv.to_string() == *first)
            .unwrap();
        position.play_unchecked(mv);
    }
    assert!(calls <= depth, "{calls} calls");
}

#[actix_web::test]
async fn claims_are_checked_capped_and_run_in_a_batch() {
    let limits = Limits {
        batch_max_requests: 4,
        batch_max_searches: 1,
        ..Limits::default()
    };
    let app = app_with(limits).await;
    let position = json!({"position": tank_rules::games::tank_battle::INITIAL_TBN});
    let score = post(&app, "/v1/tank-battle/score", position.clone())
        .await
        .body;
    let ok = claim("score", position.clone(), score);
    // A claim's request that breaks its schema refuses the whole compare.
    let reply = post(
        &app,
        "/v1/tank-battle/compare",
        json!({"claims": [ok, claim("score", json!({"position": 7}), json!({}))]}),
    )
    .await;
    assert_problem(&reply, 400, "BAD_REQUEST");
    assert!(
        reply.body["field"]
            .as_str()
            .unwrap_or_default()
            .starts_with("claims[1].request"),
        "{reply:?}"
    );
    // An op that is not a rules operation.
    let reply = post(
        &app,
        "/v1/tank-battle/compare",
        json!({"claims": [claim("ai-move", position.clone(), json!({}))]}),
    )
    .await;
    assert_problem(&reply, 400, "BAD_REQUEST");
    assert_eq!(reply.body["field"], "claims[0].op", "{reply:?}");
    // More claims than a batch holds; more searches.
    let five = vec![ok.clone(); 5];
    let reply = post(&app, "/v1/tank-battle/compare", json!({"claims": five})).await;
    assert_problem(&reply, 400, "LIMIT_EXCEEDED");
    assert_eq!(reply.body["field"], "claims", "{reply:?}");
    let perft = claim(
        "perft",
        json!({"position": position["position"], "depth": 1}),
        json!({}),
    );
    let reply = post(
        &app,
        "/v1/tank-battle/compare",
        json!({"claims": [perft.clone(), perft.clone()]}),
    )
    .await;
    assert_problem(&reply, 400, "LIMIT_EXCEEDED");
    // In a batch, a compare's claims are its items: 1 + 3 fit in 4, 1 + 4
    // do not.
    let compare = |n: usize| json!({"op": "compare", "claims": vec![ok.clone(); n]});
    let reply = post(
        &app,
        "/v1/tank-battle/batch",
        json!({"requests": [{"op": "score", "position": position["position"]}, compare(3)]}),
    )
    .await;
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(reply.body["results"][1]["op"], "compare", "{reply:?}");
    assert_eq!(reply.body["results"][1]["agree"], true, "{reply:?}");
    let reply = post(
        &app,
        "/v1/tank-battle/batch",
        json!({"requests": [{"op": "score", "position": position["position"]}, compare(4)]}),
    )
    .await;
    assert_problem(&reply, 400, "LIMIT_EXCEEDED");
    // A claimed perft within a batch counts among its searches.
    let with_perft = json!({"op": "compare", "claims": [perft.clone()]});
    let reply = post(
        &app,
        "/v1/tank-battle/batch",
        json!({"requests": [with_perft, {"op": "perft", "position": position["position"], "depth": 1}]}),
    )
    .await;
    assert_problem(&reply, 400, "LIMIT_EXCEEDED");
}

/// A claim runs exactly the operation it names and is priced as (issue
/// 71): a claim's request that names another `op` (a perft, a review, a
/// replay under a cheap claim) is refused naming `request.op`, alone, in
/// a JSON batch and in an NDJSON batch, in every game; nothing runs.
#[actix_web::test]
async fn a_claim_runs_only_the_operation_it_names() {
    let app = app_with(Limits::default()).await;
    let tank_battle = tank_rules::games::tank_battle::INITIAL_TBN;
    let smuggled = [
        (
            "tank-battle",
            json!({"op": "perft", "position": tank_battle, "depth": 3}),
        ),
        ("tank-battle", json!({"op": "annotate", "moves": ["j4-j5"]})),
        ("tank-war", json!({"op": "replay", "rounds": []})),
        ("cobi-tank-wars", json!({"op": "score"})),
    ];
    for (game, request) in smuggled {
        let claimed = claim("legal-moves", request, json!({}));
        let reply = post(
            &app,
            &format!("/v1/{game}/compare"),
            json!({"claims": [claimed.clone()]}),
        )
        .await;
        assert_problem(&reply, 400, "BAD_REQUEST");
        assert_eq!(reply.body["field"], "claims[0].request.op", "{reply:?}");
        let item = json!({"op": "compare", "claims": [claimed.clone(), claimed.clone()]});
        let reply = post(
            &app,
            &format!("/v1/{game}/batch"),
            json!({"requests": [item.clone()]}),
        )
        .await;
        assert_eq!(reply.status, 200, "{reply:?}");
        let result = &reply.body["results"][0];
        assert_eq!(result["op"], "problem", "{reply:?}");
        assert_eq!(result["code"], "BAD_REQUEST", "{reply:?}");
        assert_eq!(
            result["field"], "requests[0].claims[0].request.op",
            "{reply:?}"
        );
        let lines = format!("{item}\n{item}\n");
        let reply = crate::common::send(
            &app,
            actix_web::test::TestRequest::post()
                .uri(&format!("/v1/{game}/batch"))
                .insert_header(("content-type", "application/x-ndjson"))
                .set_payload(lines),
        )
        .await;
        assert_eq!(reply.status, 200, "{reply:?}");
        let results: Vec<Value> = reply
            .text
            .lines()
            .filter_map(|line| serde_json::from_str(line).ok())
            .collect();
        assert_eq!(results.len(), 2, "{reply:?}");
        for (i, result) in results.iter().enumerate() {
            assert_eq!(result["code"], "BAD_REQUEST", "{reply:?}");
            assert_eq!(
                result["field"],
                format!("requests[{i}].claims[0].request.op"),
                "{reply:?}"
            );
        }
    }
    // No perft ran: the long pool was never asked for a slot.
    let asked =
        crate::common::metric(&app, "tank_rules_slot_requests_total", &[("pool", "long")]).await;
    assert_eq!(asked, 0.0);
}
