//! Golden answers: for a request of each problem code and rule reason of
//! the three games and of the service (and answers that carry reasons),
//! the exact bytes the service answers in English, kept in
//! `tests/it/golden/en.jsonl`. A change to how texts are written (issue
//! 51: every text written once, from the catalogue) must leave English
//! answers byte for byte as they were; this test holds them. Each request
//! names its id (`X-Request-Id`), so a problem's `instance` is fixed too.
//!
//! `GOLDEN_WRITE=1 cargo test --test it golden` writes the file anew from
//! the service as it is (then review its diff).

use actix_web::test::TestRequest;
use serde_json::{json, Value};
use tank_rules::api::AppState;
use tank_rules::cache::CacheConfig;
use tank_rules::fair_use::{FairUse, FairUseConfig, KeyEntry, KeysFile, Quotas};
use tank_rules::limits::Limits;

use crate::common::{get, INITIAL};

const FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/it/golden/en.jsonl");

/// Two commanders in the contaminated centre (f6 white, f7 black).
const COMMANDERS_IN_THE_CENTRE: &str = "11/t10/11/11/5c5/5C5/11/11/11/10T/11 w 0";
/// A white tank in Black's base (c10).
const IN_THE_ENEMY_BASE: &str = "c10/2T8/11/11/11/11/11/11/11/11/10C w 0";
/// A finished game (the rules' example).
const FINISHED: &str = "1C9/11/11/11/11/11/T10/1T9/11/9t1/9tc b 57";

/// Which app a case runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum On {
    /// Default limits.
    Default,
    /// Small limits (replays, reviews, batches, answers, bodies).
    Small,
    /// Quotas of 2 requests and 2 search units a minute.
    Quotas,
    /// No slots in any pool.
    Busy,
    /// API keys asked for.
    Keys,
}

/// One case: its name, the app, the request.
struct Case {
    name: String,
    on: On,
    request: TestRequest,
}

fn case(name: impl Into<String>, on: On, request: TestRequest) -> Case {
    Case {
        name: name.into(),
        on,
        request,
    }
}

fn post(path: &str, body: Value) -> TestRequest {
    TestRequest::post().uri(path).set_json(body)
}

/// Every case, in a fixed order; `war` and `cobi` are the two JSON-state
/// games' start states.
fn cases(war: &Value, cobi: &Value) -> Vec<Case> {
    let mut all = Vec::new();
    let tb = |op: &str| format!("/v1/tank-battle/{op}");
    // Tank Battle: each rule as a reason (validate) and as a problem
    // (apply, replay with its ply).
    let moves = [
        ("no-tank", INITIAL, "e5-e6"),
        ("not-yours", INITIAL, "a11-a10"),
        ("not-a-line", INITIAL, "j4-i6"),
        ("mine", INITIAL, "k4-k3"),
        ("contaminated", INITIAL, "k1-k5"),
        ("path-blocked", INITIAL, "j4-j7"),
        ("own-tank", INITIAL, "j4-f8"),
        ("capture-contaminated", COMMANDERS_IN_THE_CENTRE, "f6-f7"),
        ("locked-in-base", IN_THE_ENEMY_BASE, "c10-e10"),
        ("game-over", FINISHED, "b11-a11"),
        ("legal", INITIAL, "j4-j5"),
    ];
    for (name, position, mv) in moves {
        let body = json!({"position": position, "move": mv});
        all.push(case(
            format!("tb validate {name}"),
            On::Default,
            post(&tb("validate"), body.clone()),
        ));
        all.push(case(
            format!("tb apply {name}"),
            On::Default,
            post(&tb("apply"), body),
        ));
    }
    all.push(case(
        "tb replay illegal at ply 1",
        On::Default,
        post(&tb("replay"), json!({"moves": ["j4-j5", "e5-e6"]})),
    ));
    all.push(case(
        "tb replay notation at ply 1",
        On::Default,
        post(&tb("replay"), json!({"moves": ["j4-j5", "e5e6"]})),
    ));
    // Notations and invariants.
    for (name, body) in [
        (
            "bad position",
            json!({"position": "nonsense", "move": "j4-j5"}),
        ),
        (
            "bad ranks",
            json!({"position": "12/11/11/11/11/11/11/11/11/11/11 w 0", "move": "j4-j5"}),
        ),
        (
            "bad side",
            json!({"position": "11/11/11/11/11/11/11/11/11/11/11 x 0", "move": "j4-j5"}),
        ),
        ("bad move", json!({"position": INITIAL, "move": "j4j"})),
        ("bad square", json!({"position": INITIAL, "move": "z4-j5"})),
        (
            "bad layout",
            json!({"position": INITIAL, "layout": "x", "move": "j4-j5"}),
        ),
        (
            "two commanders",
            json!({"position": "CC9/11/11/11/11/11/11/11/11/11/11 w 0", "move": "a11-a10"}),
        ),
        (
            "tank on a mine",
            json!({"position": "11/11/11/11/11/11/11/11/11/10T/C10 w 0", "move": "a1-a2"}),
        ),
        (
            "tank on contaminated",
            json!({"position": "11/11/11/11/11/5T5/11/11/11/11/C10 w 0", "move": "a1-a2"}),
        ),
        (
            "unknown field",
            json!({"position": INITIAL, "move": "j4-j5", "extra": 1}),
        ),
        ("wrong type", json!({"position": 3, "move": "j4-j5"})),
        ("missing field", json!({"move": "j4-j5"})),
    ] {
        all.push(case(
            format!("tb apply {name}"),
            On::Default,
            post(&tb("apply"), body),
        ));
    }
    all.push(case(
        "tb apply malformed JSON",
        On::Default,
        TestRequest::post()
            .uri(&tb("apply"))
            .insert_header(("content-type", "application/json"))
            .set_payload("{\"position\": \"x\",\n  \"move\": }"),
    ));
    all.push(case(
        "tb perft too deep",
        On::Default,
        post(&tb("perft"), json!({"position": INITIAL, "depth": 99})),
    ));
    all.push(case(
        "tb ai-move level 9",
        On::Default,
        post(&tb("ai-move"), json!({"position": INITIAL, "level": 9})),
    ));
    all.push(case(
        "tb ai-move multipv 99",
        On::Default,
        post(&tb("ai-move"), json!({"position": INITIAL, "multipv": 99})),
    ));
    all.push(case(
        "tb ai-move game over",
        On::Default,
        post(&tb("ai-move"), json!({"position": FINISHED})),
    ));
    all.push(case(
        "tb annotate illegal at ply 1",
        On::Default,
        post(&tb("annotate"), json!({"moves": ["j4-j5", "e5-e6"]})),
    ));
    all.push(case(
        "tb render unknown parameter",
        On::Default,
        TestRequest::get().uri("/v1/tank-battle/render.svg?colour=red"),
    ));
    all.push(case(
        "tb render bad position",
        On::Default,
        TestRequest::get().uri("/v1/tank-battle/render.svg?position=x"),
    ));
    all.push(case(
        "tb legal-moves bad from",
        On::Default,
        post(
            &tb("legal-moves"),
            json!({"position": INITIAL, "from": "z9"}),
        ),
    ));

    // The Tank War: each pick's reason, and as a problem.
    let mut short = war.clone();
    short["tanks"][0]["track"] = json!(["a6"]);
    let mut over = war.clone();
    over["clock_ms"] = json!({"U": 0, "D": 0});
    let mut two_on_one = war.clone();
    two_on_one["tanks"][1]["track"][0] = war["tanks"][0]["track"][0].clone();
    for (name, state, picks) in [
        ("no such tank", war, json!({"U": "QQ", "D": "LA"})),
        ("end of track", &short, json!({"U": "RC", "D": "LA"})),
        ("game over", &over, json!({"U": "LA", "D": "LA"})),
        ("legal", war, json!({"U": "LA", "D": "RC"})),
    ] {
        let body = json!({"state": state, "moves": picks});
        all.push(case(
            format!("tw validate {name}"),
            On::Default,
            post("/v1/tank-war/validate", body.clone()),
        ));
        all.push(case(
            format!("tw apply {name}"),
            On::Default,
            post("/v1/tank-war/apply", body),
        ));
    }
    all.push(case(
        "tw apply two tanks on a square",
        On::Default,
        post(
            "/v1/tank-war/apply",
            json!({"state": two_on_one, "moves": {"U": "LA", "D": "RC"}}),
        ),
    ));
    all.push(case(
        "tw replay illegal at round 1",
        On::Default,
        post(
            "/v1/tank-war/replay",
            json!({"rounds": [{"U": "LA", "D": "RC"}, {"U": "QQ", "D": "RC"}]}),
        ),
    ));
    all.push(case(
        "tw ai-move unknown player",
        On::Default,
        post("/v1/tank-war/ai-move", json!({"state": war, "player": "Z"})),
    ));

    // Tank Wars: each order's reason, and as a problem.
    let order = |dir: &str, dist: i64| json!({"dir": dir, "dist": dist});
    let every = |dir: &str, dist: i64| {
        json!({
            "P1": {"P1-1": order(dir, dist), "P1-2": order(dir, dist), "P1-3": order(dir, dist)},
            "P2": {"P2-1": order(dir, dist), "P2-2": order(dir, dist), "P2-3": order(dir, dist)},
        })
    };
    let mut foreign = every("N", 1);
    foreign["P1"]["P2-1"] = order("N", 1);
    let mut bad = every("N", 1);
    bad["P1"]["P1-2"]["dir"] = json!("NE");
    bad["P2"]["P2-3"]["dist"] = json!(4);
    let mut finished = cobi.clone();
    finished["vehicles"] =
        json!([{"id": "x", "owner": "P1", "square": "a1", "armor": 1, "slot": 1}]);
    for (name, state, orders) in [
        ("missing orders", cobi, json!({"P1": {}})),
        ("foreign vehicle", cobi, foreign),
        ("bad direction and distance", cobi, bad),
        ("game over", &finished, json!({"P1": {"x": order("N", 1)}})),
        ("legal", cobi, every("N", 1)),
    ] {
        let body = json!({"state": state, "orders": orders});
        all.push(case(
            format!("cobi validate {name}"),
            On::Default,
            post("/v1/cobi-tank-wars/validate", body.clone()),
        ));
        all.push(case(
            format!("cobi apply {name}"),
            On::Default,
            post("/v1/cobi-tank-wars/apply", body),
        ));
    }

    // Batches: items' problems located in the batch; a bad line.
    all.push(case(
        "tb batch of problems",
        On::Default,
        post(
            &tb("batch"),
            json!({"requests": [
                {"op": "validate", "position": INITIAL, "move": "e5-e6"},
                {"op": "apply", "position": INITIAL, "move": "a11-a10"},
                {"op": "apply", "position": "nonsense", "move": "j4-j5"},
                {"op": "score", "position": INITIAL},
            ]}),
        ),
    ));
    all.push(case(
        "tb batch unknown op",
        On::Default,
        post(
            &tb("batch"),
            json!({"requests": [{"op": "dance", "position": INITIAL}]}),
        ),
    ));
    all.push(case(
        "tb batch ndjson bad line",
        On::Default,
        TestRequest::post()
            .uri(&tb("batch"))
            .insert_header(("content-type", "application/x-ndjson"))
            .set_payload("{\"op\": \"score\", \"position\": \"x\"}\nnot json\n"),
    ));

    all.push(case(
        "tb batch item not an object",
        On::Default,
        post(&tb("batch"), json!({"requests": [3]})),
    ));
    all.push(case(
        "tb batch item breaks its schema",
        On::Default,
        post(
            &tb("batch"),
            json!({"requests": [{"op": "apply", "position": INITIAL}]}),
        ),
    ));
    all.push(case(
        "tb batch item of the wrong type",
        On::Default,
        post(
            &tb("batch"),
            json!({"requests": [{"op": "perft", "position": INITIAL, "depth": "x"}]}),
        ),
    ));

    // Requests' own fields and queries.
    all.push(case(
        "tw validate no pick",
        On::Default,
        post("/v1/tank-war/validate", json!({"state": war, "moves": {}})),
    ));
    all.push(case(
        "cobi ai-move gunfire tokens",
        On::Default,
        post(
            "/v1/cobi-tank-wars/ai-move",
            json!({"state": cobi, "player": "P1", "gunfire_tokens": 99}),
        ),
    ));
    all.push(case(
        "tb render query parameter too long",
        On::Default,
        TestRequest::get().uri(&format!(
            "/v1/tank-battle/render.svg?position={}",
            "1".repeat(300)
        )),
    ));
    all.push(case(
        "tb render query string malformed",
        On::Default,
        TestRequest::get().uri("/v1/tank-battle/render.svg?position=a&position=b"),
    ));
    all.push(case(
        "tw render state malformed",
        On::Default,
        TestRequest::get().uri("/v1/tank-war/render.svg?state=%7B%22rows%22"),
    ));
    all.push(case(
        "swagger-ui missing asset",
        On::Default,
        TestRequest::get().uri("/swagger-ui/nothing.js"),
    ));

    // Keys.
    all.push(case(
        "no key",
        On::Keys,
        post(&tb("score"), json!({"position": INITIAL})),
    ));
    all.push(case(
        "unknown key",
        On::Keys,
        post(&tb("score"), json!({"position": INITIAL}))
            .insert_header(("x-api-key", "wrong-key-0123456789")),
    ));

    // The service's own refusals.
    all.push(case(
        "not found",
        On::Default,
        TestRequest::get().uri("/v1/tank-battle/nothing"),
    ));
    all.push(case(
        "method not allowed",
        On::Default,
        TestRequest::put().uri(&tb("apply")),
    ));
    all.push(case(
        "unsupported media type",
        On::Default,
        TestRequest::post()
            .uri(&tb("apply"))
            .insert_header(("content-type", "text/plain"))
            .set_payload("x"),
    ));
    all.push(case(
        "compressed body",
        On::Default,
        TestRequest::post()
            .uri(&tb("apply"))
            .insert_header(("content-type", "application/json"))
            .insert_header(("content-encoding", "br"))
            .set_payload("x"),
    ));
    all.push(case(
        "unknown expectation",
        On::Default,
        TestRequest::post()
            .uri(&tb("apply"))
            .insert_header(("expect", "teapot"))
            .set_json(json!({"position": INITIAL, "move": "j4-j5"})),
    ));

    // Limits.
    all.push(case(
        "replay too long",
        On::Small,
        post(&tb("replay"), json!({"moves": ["j4-j5", "a8-a7", "j5-j6"]})),
    ));
    all.push(case(
        "review too long",
        On::Small,
        post(
            &tb("annotate"),
            json!({"moves": ["j4-j5", "a8-a7", "j5-j6"]}),
        ),
    ));
    all.push(case(
        "batch too many requests",
        On::Small,
        post(
            &tb("batch"),
            json!({"requests": [
                {"op": "score", "position": INITIAL},
                {"op": "score", "position": INITIAL},
                {"op": "score", "position": INITIAL},
            ]}),
        ),
    ));
    all.push(case(
        "batch too many searches",
        On::Small,
        post(
            &tb("batch"),
            json!({"requests": [
                {"op": "perft", "position": INITIAL, "depth": 1},
                {"op": "perft", "position": INITIAL, "depth": 1},
            ]}),
        ),
    ));
    all.push(case(
        "body too large",
        On::Small,
        post(&tb("score"), json!({"position": "x".repeat(3000)})),
    ));
    all.push(case(
        "answer too large",
        On::Small,
        post(&tb("legal-moves"), json!({"position": INITIAL})),
    ));
    all.push(case(
        "too many tanks",
        On::Small,
        post("/v1/tank-war/score", json!({"state": war})),
    ));

    // Fair use.
    for n in 0..3 {
        all.push(case(
            format!("quota request {n}"),
            On::Quotas,
            post(&tb("score"), json!({"position": INITIAL})),
        ));
    }
    all.push(case(
        "quota review over the whole quota",
        On::Quotas,
        post(&tb("annotate"), json!({"moves": ["j4-j5"]})),
    ));

    // Busy.
    all.push(case(
        "busy ai-move",
        On::Busy,
        post(&tb("ai-move"), json!({"position": INITIAL})),
    ));
    all.push(case(
        "busy review",
        On::Busy,
        post(
            &tb("annotate"),
            json!({"moves": ["j4-j5"], "limits": {"max_depth": 1}}),
        ),
    ));
    all
}

/// The small limits of [`On::Small`].
fn small() -> Limits {
    Limits {
        replay_max_moves: 2,
        annotate_max_plies: 2,
        batch_max_requests: 2,
        batch_max_searches: 1,
        answer_max_bytes: 1_000,
        body_bytes: 2_000,
        tank_war_max_tanks: 4,
        ..Limits::default()
    }
}

/// The app of `on`.
fn state(on: On) -> AppState {
    let limits = match on {
        On::Small => small(),
        On::Busy => Limits {
            max_concurrent_searches: 0,
            max_concurrent_reviews: 0,
            search_wait_ms: 0,
            ..Limits::default()
        },
        On::Default | On::Quotas | On::Keys => Limits::default(),
    };
    let state = AppState::new(limits, CacheConfig::default());
    match on {
        On::Quotas => state.with_fair_use(FairUse::new(FairUseConfig {
            defaults: Quotas {
                requests_per_minute: 2,
                searches_per_minute: 2,
            },
            ..FairUseConfig::default()
        })),
        On::Keys => state.with_fair_use(FairUse::new(FairUseConfig {
            keys: Some(
                KeysFile::from_entries(vec![KeyEntry::with_key("site", "right-key-0123456789")])
                    .expect("a keys file"),
            ),
            ..FairUseConfig::default()
        })),
        _ => state,
    }
}

/// One answer as the golden file keeps it: the case, the status, the
/// headers that carry texts or limits, and the body as text.
fn line(
    name: &str,
    status: u16,
    headers: &actix_web::http::header::HeaderMap,
    body: &[u8],
) -> String {
    let header = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    };
    let kept = json!({
        "case": name,
        "status": status,
        "content-type": header("content-type"),
        "content-language": header("content-language"),
        "retry-after": header("retry-after"),
        "ratelimit-policy": header("ratelimit-policy"),
        "body": String::from_utf8_lossy(body),
    });
    kept.to_string()
}

/// Every case answered, asked in `language` (as the service negotiates
/// it; `None`, no `Accept-Language`): its name, status, headers and body.
async fn answers(
    language: Option<&str>,
) -> Vec<(
    String,
    u16,
    actix_web::http::header::HeaderMap,
    actix_web::web::Bytes,
)> {
    use actix_web::test;
    let apps = [On::Default, On::Small, On::Quotas, On::Busy, On::Keys];
    let mut services = Vec::new();
    for on in apps {
        services.push((
            on,
            test::init_service(tank_rules::api::app(state(on))).await,
        ));
    }
    let default = &services[0].1;
    let war = get(default, "/v1/tank-war/initial").await.body;
    let cobi = get(default, "/v1/cobi-tank-wars/initial").await.body;
    let mut answered = Vec::new();
    for (i, Case { name, on, request }) in cases(&war, &cobi).into_iter().enumerate() {
        let app = &services
            .iter()
            .find(|(o, _)| *o == on)
            .expect("every app is made")
            .1;
        let mut request = request.insert_header(("x-request-id", format!("golden-{i}")));
        if let Some(language) = language {
            request = request.insert_header(("accept-language", language));
        }
        let request = request
            .peer_addr("192.0.2.1:1000".parse().expect("an address"))
            .to_request();
        let res = test::call_service(app, request).await;
        let (status, headers) = (res.status().as_u16(), res.headers().clone());
        let body = test::read_body(res).await;
        answered.push((name, status, headers, body));
    }
    answered
}

#[actix_web::test]
async fn english_answers_are_the_golden_ones() {
    let written: Vec<String> = answers(None)
        .await
        .iter()
        .map(|(name, status, headers, body)| line(name, *status, headers, body))
        .collect();
    let text = written.join("\n") + "\n";
    if std::env::var_os("GOLDEN_WRITE").is_some() {
        std::fs::write(FILE, &text).expect("the golden file is written");
        return;
    }
    let golden = std::fs::read_to_string(FILE).expect("tests/it/golden/en.jsonl");
    let mut differ = Vec::new();
    for (got, want) in text.lines().zip(golden.lines()) {
        if got != want {
            differ.push(format!("got  {got}\nwant {want}"));
        }
    }
    assert_eq!(
        text.lines().count(),
        golden.lines().count(),
        "the cases changed: write the file again (GOLDEN_WRITE=1) and review its diff"
    );
    assert!(
        differ.is_empty(),
        "{} answers differ:\n{}",
        differ.len(),
        differ.join("\n")
    );
}

/// The facts a detail names: its numbers and what it quotes in
/// backticks (but a template, `<placement> <side> <ply>`, whose words
/// each language says its own way).
fn facts(detail: &str) -> Vec<String> {
    let mut facts: Vec<String> = detail
        .split(|c: char| !c.is_ascii_digit())
        .filter(|n| !n.is_empty())
        .map(str::to_owned)
        .collect();
    let quoted = detail.split('`').skip(1).step_by(2);
    facts.extend(quoted.filter(|q| !q.contains('<')).map(str::to_owned));
    facts
}

/// Every golden problem asked in Czech: its detail is Czech (not the
/// English) and names every fact the English names (each number, each
/// quoted field, value or header).
#[actix_web::test]
async fn czech_details_say_as_much_as_english() {
    let english = std::fs::read_to_string(FILE).expect("tests/it/golden/en.jsonl");
    let english: Vec<Value> = english
        .lines()
        .map(|line| serde_json::from_str(line).expect("a golden line"))
        .collect();
    let mut checked = 0;
    let mut short = Vec::new();
    for (name, _, _, body) in answers(Some("cs")).await {
        let Some(golden) = english.iter().find(|line| line["case"] == name.as_str()) else {
            panic!("{name}: not in the golden file");
        };
        let golden: Value =
            serde_json::from_str(golden["body"].as_str().unwrap_or_default()).unwrap_or_default();
        let Some(en) = golden["detail"].as_str() else {
            continue;
        };
        let czech: Value = serde_json::from_slice(&body).unwrap_or_default();
        let cs = czech["detail"].as_str().unwrap_or_default();
        assert_ne!(cs, en, "{name}: the Czech detail is the English");
        let missing: Vec<String> = facts(en)
            .into_iter()
            .filter(|fact| !cs.contains(fact.as_str()))
            .collect();
        if !missing.is_empty() {
            short.push(format!("{name}: {missing:?}\n  en {en}\n  cs {cs}"));
        }
        checked += 1;
    }
    assert!(checked >= 60, "{checked} problems checked");
    assert!(short.is_empty(), "{}", short.join("\n"));
}
