//! The board (`/board/`, docs/TOURS.md) over HTTP: its files with their
//! policy, one route in the metrics, open when the API asks for keys,
//! gone with `--no-board`; and the page asks the API only for what the
//! document holds.

use actix_web::http::StatusCode;
use actix_web::test;
use serde_json::{json, Value};
use tank_rules::api::board::{CONTENT_SECURITY_POLICY, ROUTE};
use tank_rules::api::AppState;
use tank_rules::cache::CacheConfig;
use tank_rules::fair_use::{FairUse, FairUseConfig, KeysFile};
use tank_rules::limits::Limits;

use crate::common::{get, metric, send};

const FILES: &[(&str, &str)] = &[
    ("/board/", "text/html; charset=utf-8"),
    ("/board/board.js", "text/javascript; charset=utf-8"),
    ("/board/common.js", "text/javascript; charset=utf-8"),
    ("/board/review.js", "text/javascript; charset=utf-8"),
    ("/board/rounds.js", "text/javascript; charset=utf-8"),
    ("/board/tank-battle.js", "text/javascript; charset=utf-8"),
    ("/board/tank-war.js", "text/javascript; charset=utf-8"),
    ("/board/tank-wars.js", "text/javascript; charset=utf-8"),
    ("/board/board.css", "text/css; charset=utf-8"),
    ("/board/favicon.svg", "image/svg+xml"),
    ("/board/texts/en.json", "application/json"),
    ("/board/texts/cs.json", "application/json"),
];

fn state() -> AppState {
    AppState::new(Limits::default(), CacheConfig::default())
}

#[actix_web::test]
async fn every_file_is_served_with_its_type_and_policy() {
    let app = test::init_service(tank_rules::api::app(state())).await;
    for (path, content_type) in FILES {
        let reply = get(&app, path).await;
        assert_eq!(reply.status, StatusCode::OK, "{path}");
        assert_eq!(reply.content_type, *content_type, "{path}");
        let header = |name: &str| {
            reply
                .headers
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned)
        };
        assert_eq!(
            header("content-security-policy").as_deref(),
            Some(CONTENT_SECURITY_POLICY),
            "{path}"
        );
        assert_eq!(header("x-content-type-options").as_deref(), Some("nosniff"));
        assert!(!reply.text.is_empty(), "{path}");
        // A browser that holds the file is told so.
        let etag = header("etag").unwrap();
        let again = send(
            &app,
            test::TestRequest::get()
                .uri(path)
                .insert_header(("if-none-match", etag.as_str())),
        )
        .await;
        assert_eq!(again.status, StatusCode::NOT_MODIFIED, "{path}");
        assert!(again.text.is_empty());
    }
    // The page's policy allows no inline script: every script is a file.
    let page = get(&app, "/board/").await.text;
    assert!(page.contains(r#"<script type="module" src="board.js"></script>"#));
    assert_eq!(page.matches("<script").count(), 1, "{page}");
    assert!(
        !page.contains("style="),
        "an inline style the policy refuses"
    );
    assert!(!CONTENT_SECURITY_POLICY.contains("unsafe"));
    // `/board` sends a browser to the page.
    let bare = get(&app, "/board").await;
    assert_eq!(bare.status, StatusCode::PERMANENT_REDIRECT);
    assert_eq!(bare.headers.get("location").unwrap(), "/board/");
}

#[actix_web::test]
async fn the_texts_are_the_catalogues_in_each_language() {
    let app = test::init_service(tank_rules::api::app(state())).await;
    let en = get(&app, "/board/texts/en.json").await.body;
    let cs = get(&app, "/board/texts/cs.json").await.body;
    let (en, cs) = (en.as_object().unwrap(), cs.as_object().unwrap());
    assert_eq!(en.keys().collect::<Vec<_>>(), cs.keys().collect::<Vec<_>>());
    assert_eq!(en["board-game-tank-battle"], "Tank Battle");
    assert_eq!(cs["board-game-tank-battle"], "Tanková bitva");
    // Every text the page's files name is in the catalogues.
    let mut page = String::new();
    for (path, _) in FILES
        .iter()
        .filter(|(path, _)| path.ends_with(".js") || path.ends_with('/'))
    {
        page += &get(&app, path).await.text;
    }
    let mut named = Vec::new();
    for prefix in ["board-", "label-"] {
        named.extend(quoted_after(&page, prefix));
    }
    assert!(named.len() > 100, "{named:?}");
    for id in named.iter().filter(|id| !id.ends_with('-')) {
        assert!(en.contains_key(id.as_str()), "{id} is not in the catalogue");
    }
    // And every one of the page's own messages is asked for, whole or as
    // the stem of a family (`board-war-event-` + kind; not `board-` alone).
    let stem = |n: &String| n.ends_with('-') && n.len() > "board-".len();
    for id in en.keys().filter(|id| id.starts_with("board-")) {
        assert!(
            named
                .iter()
                .any(|n| n == id || (stem(n) && id.starts_with(n.as_str()))),
            "{id} is in the catalogue but the page never asks for it"
        );
    }
}

/// Every `board-…` id the page's text asks for: `data-text="…"`,
/// `data-label="…"`, `t("…")`, and `` t(`…`) `` up to its first
/// placeholder.
fn quoted_after(text: &str, prefix: &str) -> Vec<String> {
    let mut ids = Vec::new();
    for opening in ["data-text=\"", "data-label=\"", "t(\"", "t(`"] {
        for (at, _) in text.match_indices(&format!("{opening}{prefix}")) {
            let id: String = text[at + opening.len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect();
            ids.push(id);
        }
    }
    ids
}

#[actix_web::test]
async fn its_files_are_one_route_in_the_metrics() {
    let app = test::init_service(tank_rules::api::app(state())).await;
    for (path, _) in FILES {
        assert_eq!(get(&app, path).await.status, StatusCode::OK);
    }
    let counted = metric(
        &app,
        "tank_rules_http_requests_total",
        &[("endpoint", ROUTE), ("method", "GET"), ("status", "200")],
    )
    .await;
    assert_eq!(counted, FILES.len() as f64);
    // A path under the page's that it does not hold is the fallback's, and
    // another method than GET is refused naming GET.
    assert_eq!(
        get(&app, "/board/missing.js").await.status,
        StatusCode::NOT_FOUND
    );
    let posted = send(&app, test::TestRequest::post().uri("/board/board.js")).await;
    assert_eq!(posted.status, StatusCode::METHOD_NOT_ALLOWED);
    // The page takes no query: its state is in the fragment.
    let queried = get(&app, "/board/?start=x").await;
    assert_eq!(queried.status, StatusCode::BAD_REQUEST);
}

#[actix_web::test]
async fn it_loads_without_a_key_when_the_api_asks_for_one() {
    let keys = KeysFile::parse(
        &json!({"keys": [{"key": "board-test-key-0123456789", "name": "site"}]}).to_string(),
    )
    .unwrap();
    let state = state().with_fair_use(FairUse::new(FairUseConfig {
        keys: Some(keys),
        ..FairUseConfig::default()
    }));
    let app = test::init_service(tank_rules::api::app(state)).await;
    for (path, _) in FILES {
        assert_eq!(get(&app, path).await.status, StatusCode::OK, "{path}");
    }
    // What the page asks the API for needs the key, as for any client.
    let initial = get(&app, "/v1/tank-battle/initial").await;
    assert_eq!(initial.status, StatusCode::UNAUTHORIZED);
}

#[actix_web::test]
async fn no_board_leaves_it_out() {
    let app = test::init_service(tank_rules::api::app(AppState {
        board: false,
        ..state()
    }))
    .await;
    for (path, _) in FILES {
        assert_eq!(
            get(&app, path).await.status,
            StatusCode::NOT_FOUND,
            "{path}"
        );
    }
    assert_eq!(
        get(&app, "/v1/tank-battle/initial").await.status,
        StatusCode::OK
    );
}

#[actix_web::test]
async fn the_page_asks_only_for_documented_operations() {
    let app = test::init_service(tank_rules::api::app(state())).await;
    let document: Value = get(&app, "/openapi.json").await.body;
    let paths = document["paths"].as_object().unwrap();
    let mut scripts = Vec::new();
    for (file, _) in FILES.iter().filter(|(path, _)| path.ends_with(".js")) {
        let name = file.trim_start_matches("/board/");
        scripts.push((name, get(&app, file).await.text));
    }
    // A view's calls are `api("METHOD", "operation", …)` on the game its
    // `client(GAME)` names; a module shared by views (`this.api(…)`) asks
    // the game of each view that imports it.
    let game_of = |script: &str| {
        script
            .split("const GAME = \"")
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .map(str::to_owned)
    };
    let mut games = Vec::new();
    let mut calls = 0;
    for (name, script) in &scripts {
        let asked: Vec<String> = if script.contains("client(GAME)") {
            game_of(script).into_iter().collect()
        } else {
            scripts
                .iter()
                .filter(|(_, other)| other.contains(&format!("from \"./{name}\"")))
                .filter_map(|(_, other)| game_of(other))
                .collect()
        };
        let mut own = 0;
        for (at, _) in script.match_indices("api(\"") {
            let call = &script[at + 5..];
            let mut parts = call.split('"');
            let method = parts.next().unwrap().to_lowercase();
            let operation = parts.nth(1).unwrap();
            assert!(!asked.is_empty(), "{name} asks the API for no game");
            for game in &asked {
                let path = format!("/v1/{game}/{operation}");
                assert!(
                    paths
                        .get(&path)
                        .and_then(|item| item.get(&method))
                        .is_some(),
                    "{name}: {method} {path} is not in the document"
                );
            }
            own += 1;
        }
        if script.contains("client(GAME)") {
            assert!(own >= 4, "{name}: {own} calls found");
            games.extend(asked);
        }
        calls += own;
    }
    assert!(calls >= 20, "{calls} calls found");
    games.sort();
    assert_eq!(games, ["cobi-tank-wars", "tank-battle", "tank-war"]);
}
