//! HTTP tests of the `render.svg` pictures: SVG that parses as XML, served
//! with an entity tag and cache headers, and problems for bad input.

use crate::common;
use crate::common::{app_with, assert_problem, encode, get, send};
use actix_web::test::TestRequest;
use serde_json::json;
use tank_rules::limits::Limits;

/// Fetches a picture, checks it is SVG that parses as XML and returns the
/// body and its ETag.
async fn picture<S, B>(app: &S, uri: &str) -> (String, String)
where
    S: actix_web::dev::Service<
        actix_http::Request,
        Response = actix_web::dev::ServiceResponse<B>,
        Error = actix_web::Error,
    >,
    B: actix_web::body::MessageBody,
{
    let resp = actix_web::test::call_service(app, TestRequest::get().uri(uri).to_request()).await;
    assert_eq!(resp.status(), 200, "{uri}");
    let header = |name: &str| {
        resp.headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned()
    };
    assert_eq!(header("content-type"), "image/svg+xml");
    assert!(header("cache-control").contains("max-age="), "{uri}");
    let etag = header("etag");
    assert!(etag.starts_with('"') && etag.len() > 2, "{etag}");
    let body = String::from_utf8(actix_web::test::read_body(resp).await.to_vec()).unwrap();
    let doc = roxmltree::Document::parse(&body).unwrap_or_else(|e| panic!("{uri}: {e}\n{body}"));
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    (body, etag)
}

#[actix_web::test]
async fn tank_battle_pictures_are_cacheable_svg() {
    let app = app_with(Limits::default()).await;
    let (plain, etag) = picture(&app, "/v1/tank-battle/render.svg").await;
    assert_eq!(
        plain.matches("class=\"tank ").count(),
        28,
        "every tank drawn"
    );
    let (again, etag_again) = picture(&app, "/v1/tank-battle/render.svg").await;
    assert_eq!((plain, etag.clone()), (again, etag_again));
    let not_modified = send(
        &app,
        TestRequest::get()
            .uri("/v1/tank-battle/render.svg")
            .insert_header(("if-none-match", etag.as_str())),
    )
    .await;
    assert_eq!(not_modified.status, 304);
    assert_eq!(not_modified.headers.get("etag").unwrap(), etag.as_str());

    let position = common::INITIAL;
    let uri = format!(
        "/v1/tank-battle/render.svg?position={}&last_move=k3-k4&moves_from=j4",
        encode(position)
    );
    let (marked, marked_etag) = picture(&app, &uri).await;
    assert_ne!(marked_etag, etag);
    assert!(marked.contains("last-move"));
    // j4's tank has legal moves; each gets a dot.
    let moves = common::post(
        &app,
        "/v1/tank-battle/legal-moves",
        json!({"position": position, "from": "j4"}),
    )
    .await;
    let dots = marked.matches("class=\"dot").count();
    assert_eq!(dots as u64, moves.body["count"].as_u64().unwrap());
    assert!(dots > 0);

    for (query, code) in [
        ("position=xyz", "BAD_POSITION"),
        ("layout=nope", "BAD_LAYOUT"),
        ("last_move=k3k", "BAD_MOVE_NOTATION"),
        ("moves_from=z99", "BAD_MOVE_NOTATION"),
        ("arrows=k3-k4,k3k", "BAD_MOVE_NOTATION"),
        ("arrows=", "BAD_MOVE_NOTATION"),
        ("colour=red", "BAD_REQUEST"),
    ] {
        let reply = get(&app, &format!("/v1/tank-battle/render.svg?{query}")).await;
        assert_problem(&reply, 400, code);
    }

    // A line drawn as arrows, in its order; one more than the most is
    // refused naming the parameter and the most.
    let line = ["k3-k4", "a9-a8", "k4-k5"];
    let uri = format!(
        "/v1/tank-battle/render.svg?position={}&arrows={}",
        encode(position),
        line.join(",")
    );
    let (drawn, drawn_etag) = picture(&app, &uri).await;
    assert_ne!(drawn_etag, etag);
    assert_eq!(drawn.matches("class=\"arrow hint\"").count(), line.len());
    for (order, mv) in line.iter().enumerate() {
        let at = drawn
            .find(&format!("data-move=\"{mv}\""))
            .unwrap_or_else(|| panic!("{mv} is not drawn"));
        assert!(
            drawn[at..].starts_with(&format!("data-move=\"{mv}\" data-order=\"{}\"", order + 1))
        );
    }
    let most = Limits::RENDER_MAX_ARROWS;
    let too_many = vec!["k3-k4"; most + 1].join(",");
    let reply = get(
        &app,
        &format!("/v1/tank-battle/render.svg?arrows={too_many}"),
    )
    .await;
    assert_problem(&reply, 400, "BAD_REQUEST");
    let detail = reply.body["detail"].as_str().unwrap_or_default();
    assert!(
        detail.contains("arrows")
            && detail.contains(&(most + 1).to_string())
            && detail.contains(&most.to_string()),
        "{detail}"
    );
    let (_, _) = picture(
        &app,
        &format!(
            "/v1/tank-battle/render.svg?arrows={}",
            vec!["k3-k4"; most].join(",")
        ),
    )
    .await;
}

#[actix_web::test]
async fn track_game_pictures_take_the_state_as_json() {
    let app = app_with(Limits::default()).await;
    for game in ["tank-war", "cobi-tank-wars"] {
        let state = get(&app, &format!("/v1/{game}/initial")).await.body;
        let uri = format!("/v1/{game}/render.svg?state={}", encode(&state.to_string()));
        let (svg, _) = picture(&app, &uri).await;
        assert!(svg.len() > 1000, "{game}");
        let (default, _) = picture(&app, &format!("/v1/{game}/render.svg")).await;
        assert_eq!(default, svg, "no state: the default one");
        for (query, code) in [
            ("state=".to_owned(), "BAD_REQUEST"),
            ("state=%7B".to_owned(), "BAD_REQUEST"),
            (format!("state={}", encode(r#"{"rows":1}"#)), "BAD_REQUEST"),
        ] {
            let reply = get(&app, &format!("/v1/{game}/render.svg?{query}")).await;
            assert_problem(&reply, 400, code);
        }
        let mut invalid = state.clone();
        invalid["rows"] = json!(40);
        let reply = get(
            &app,
            &format!(
                "/v1/{game}/render.svg?state={}",
                encode(&invalid.to_string())
            ),
        )
        .await;
        assert_problem(&reply, 400, "INVALID_POSITION");
    }
    // Client strings are escaped, so the picture stays XML.
    let mut state = get(&app, "/v1/cobi-tank-wars/initial").await.body;
    state["vehicles"][0]["id"] = json!("<b>&\"'</b>");
    let uri = format!(
        "/v1/cobi-tank-wars/render.svg?state={}",
        encode(&state.to_string())
    );
    let (svg, _) = picture(&app, &uri).await;
    assert!(!svg.contains("<b>"));
}

/// A picture is an answer like any other: over a piece's size it is held
/// in flight, and refused 503 when the bytes in flight have no room.
#[actix_web::test]
async fn a_large_picture_is_held_in_flight_or_refused() {
    let state = |bytes| {
        tank_rules::api::AppState::new(Limits::default(), tank_rules::cache::CacheConfig::default())
            .with_in_flight(bytes)
    };
    let roomy = actix_web::test::init_service(tank_rules::api::app(state(1 << 20))).await;
    let reply = get(&roomy, "/v1/tank-battle/render.svg").await;
    assert_eq!(reply.status, 200);
    assert!(
        reply.text.len() > tank_rules::memory::ANSWER_PIECE_BYTES,
        "a picture larger than a piece: {} bytes",
        reply.text.len()
    );
    let full = actix_web::test::init_service(tank_rules::api::app(state(4 << 10))).await;
    let refused = get(&full, "/v1/tank-battle/render.svg").await;
    assert_problem(&refused, 503, "SERVICE_BUSY");
    assert!(refused.headers.contains_key("retry-after"));
}
