//! The service does what its OpenAPI document says (issue 13): objects are
//! never taken as arrays, whole-number floats are integers, integers take
//! their documented range, unknown query parameters are refused by every
//! route, `GET /` leads to Swagger UI. `scripts/contract-test.sh` runs
//! schemathesis over the whole document.

use crate::common::{app_with, assert_problem, get, post, INITIAL};
use serde_json::json;
use tank_rules::limits::Limits;

#[actix_web::test]
async fn arrays_are_not_objects() {
    let app = app_with(Limits::default()).await;
    for (path, body) in [
        ("/v1/tank-battle/score", json!([INITIAL])),
        (
            "/v1/tank-battle/ai-move",
            json!({"position": INITIAL, "limits": [4]}),
        ),
        (
            "/v1/tank-battle/ai-move",
            json!({"position": INITIAL, "limits": [null, null]}),
        ),
        ("/v1/tank-war/ai-move", json!({"state": [], "player": "U"})),
    ] {
        let reply = post(&app, path, body.clone()).await;
        assert_problem(&reply, 400, "BAD_REQUEST");
    }
}

#[actix_web::test]
async fn whole_number_floats_are_integers_and_integers_take_their_range() {
    let app = app_with(Limits::default()).await;
    let reply = post(
        &app,
        "/v1/tank-battle/perft",
        json!({"position": INITIAL, "depth": 1.0}),
    )
    .await;
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(reply.body["nodes"], 45);
    let reply = post(
        &app,
        "/v1/tank-battle/perft",
        json!({"position": INITIAL, "depth": 1.5}),
    )
    .await;
    assert_problem(&reply, 400, "BAD_REQUEST");
    // `round` is a u32: its documented maximum is 2^32 - 1.
    let mut state = get(&app, "/v1/tank-war/initial").await.body;
    state["round"] = json!(4_294_967_295u64);
    let reply = post(
        &app,
        "/v1/tank-war/score",
        json!({ "state": state.clone() }),
    )
    .await;
    assert_eq!(reply.status, 200, "{reply:?}");
    state["round"] = json!(4_294_967_296u64);
    let reply = post(&app, "/v1/tank-war/score", json!({ "state": state })).await;
    assert_problem(&reply, 400, "BAD_REQUEST");
    // And the document says so.
    let doc: serde_json::Value = serde_json::from_str(&tank_rules::api::openapi::json()).unwrap();
    let round = &doc["components"]["schemas"]["TankWarState"]["properties"]["round"];
    assert_eq!(round["maximum"], 4_294_967_295u64, "{round}");
    let seed = &doc["components"]["schemas"]["TankBattleAiMoveRequest"]["properties"]["seed"];
    assert_eq!(seed["maximum"], u64::MAX, "{seed}");
}

#[actix_web::test]
async fn unknown_query_parameters_are_refused_everywhere() {
    let app = app_with(Limits::default()).await;
    for path in [
        "/healthz?x=1",
        "/readyz?verbose",
        "/v1/games?game=tank-war",
        "/v1/tank-war/initial?size=8",
        "/v1/cobi-tank-wars/initial?x=",
        "/v1/tank-battle/initial?layouts=standard",
        "/v1/tank-battle/render.svg?move=k4-k9",
    ] {
        let reply = get(&app, path).await;
        assert_problem(&reply, 400, "BAD_REQUEST");
        // The title is BAD_REQUEST's; the detail names the parameter.
        let name = path.split(['?', '=']).nth(1).unwrap_or_default();
        let detail = reply.body["detail"].as_str().unwrap_or_default();
        assert!(
            detail.starts_with(&format!("unknown query parameter `{name}`")),
            "{path}: {detail}"
        );
        assert_eq!(reply.body["field"], name, "{path}");
    }
    // Declared parameters still work.
    let reply = get(&app, "/v1/tank-battle/initial?layout=standard").await;
    assert_eq!(reply.status, 200);
}

#[actix_web::test]
async fn the_root_leads_to_swagger_ui() {
    let app = app_with(Limits::default()).await;
    let reply = get(&app, "/").await;
    assert!(reply.status.is_redirection(), "{reply:?}");
    assert_eq!(reply.headers.get("location").unwrap(), "/swagger-ui/");
}

#[actix_web::test]
async fn every_operation_documents_its_errors() {
    let doc: serde_json::Value = serde_json::from_str(&tank_rules::api::openapi::json()).unwrap();
    let mut checked = 0;
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let responses = op["responses"].as_object().unwrap();
            assert!(responses.contains_key("405"), "{method} {path}");
            assert!(
                op["description"].is_string(),
                "{method} {path}: no description"
            );
            if method == "post" {
                for status in ["400", "408", "413", "415"] {
                    assert!(responses.contains_key(status), "{method} {path}: {status}");
                }
            }
            checked += 1;
        }
    }
    assert!(checked >= 32, "{checked} operations");
}
