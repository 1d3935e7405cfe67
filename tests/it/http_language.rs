//! Czech and English (issue 41): `Accept-Language` chooses the language of
//! every human text — a problem's `title` and `detail`, a rule reason's
//! `message` — for every reason and problem code of the three games;
//! `q` weights honoured; `Content-Language` and `Vary` on every answer;
//! codes, fields and the OpenAPI document the same in every language.

use std::collections::BTreeSet;

use actix_web::body::MessageBody;
use actix_web::dev::{Service, ServiceResponse};
use actix_web::test::TestRequest;
use serde_json::{json, Value};
use tank_rules::api::transport::http_error::HttpError;
use tank_rules::i18n::{self, Lang};
use tank_rules::limits::Limits;

use crate::common::{app_with, get, send, Reply, INITIAL};

/// The human texts of an answer.
const TEXTS: [&str; 3] = ["title", "detail", "message"];
/// What differs between two requests whatever their language.
const PER_REQUEST: &str = "instance";

/// The answer with every human text taken out, and the codes in it.
fn without_texts(value: &Value, codes: &mut BTreeSet<String>) -> Value {
    match value {
        Value::Object(object) => Value::Object(
            object
                .iter()
                .filter(|(key, _)| !TEXTS.contains(&key.as_str()) && key.as_str() != PER_REQUEST)
                .map(|(key, inner)| {
                    if key == "code" {
                        codes.extend(inner.as_str().map(str::to_owned));
                    }
                    (key.clone(), without_texts(inner, codes))
                })
                .collect(),
        ),
        Value::Array(items) => {
            Value::Array(items.iter().map(|v| without_texts(v, codes)).collect())
        }
        other => other.clone(),
    }
}

/// Every human text of an answer, with the code of its object.
fn texts(value: &Value, found: &mut Vec<(String, String, String)>) {
    match value {
        Value::Object(object) => {
            let code = object.get("code").and_then(Value::as_str).unwrap_or("");
            for key in TEXTS {
                if let Some(text) = object.get(key).and_then(Value::as_str) {
                    found.push((code.to_owned(), key.to_owned(), text.to_owned()));
                }
            }
            object.values().for_each(|inner| texts(inner, found));
        }
        Value::Array(items) => items.iter().for_each(|inner| texts(inner, found)),
        _ => {}
    }
}

fn language_of(reply: &Reply) -> (&str, bool) {
    let language = reply
        .headers
        .get("content-language")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let varies = reply
        .headers
        .get_all("vary")
        .filter_map(|v| v.to_str().ok())
        .any(|v| v.to_ascii_lowercase().contains("accept-language"));
    (language, varies)
}

/// Sends `request` in English (no header) and in Czech, checks the two
/// answers differ only in their human texts, each of which is translated,
/// and answers the codes the answers carry.
async fn in_both<S, B>(app: &S, request: impl Fn() -> TestRequest) -> BTreeSet<String>
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let english = send(app, request()).await;
    let czech = send(app, request().insert_header(("accept-language", "cs-CZ"))).await;
    assert_eq!(language_of(&english), ("en", true), "{english:?}");
    assert_eq!(language_of(&czech), ("cs", true), "{czech:?}");
    assert_eq!(english.status, czech.status);
    let mut codes = BTreeSet::new();
    assert_eq!(
        without_texts(&english.body, &mut codes),
        without_texts(&czech.body, &mut BTreeSet::new()),
        "codes and fields are the same in every language"
    );
    let (mut en, mut cs) = (Vec::new(), Vec::new());
    texts(&english.body, &mut en);
    texts(&czech.body, &mut cs);
    assert_eq!(en.len(), cs.len());
    assert!(!cs.is_empty(), "{english:?}");
    for ((code, key, english), (_, _, czech)) in en.iter().zip(&cs) {
        assert_ne!(english, czech, "{code} {key} is not translated");
        assert!(!czech.is_empty());
        // What the English catalogue says of a rule is what the engines
        // write.
        if key == "message" {
            let rule = i18n::text(Lang::En, &format!("reason-{code}"), &[]).expect(code);
            assert!(english.starts_with(&rule), "{english:?} against {rule:?}");
        }
        // A problem type has one title a language, whichever game or
        // layer refused: its catalogue's.
        if key == "title" {
            for (lang, title) in [(Lang::En, english), (Lang::Cs, czech)] {
                let catalogue = i18n::text(lang, &format!("title-{code}"), &[]).expect(code);
                assert_eq!(title, &catalogue, "{lang:?} {code}");
            }
        }
    }
    codes
}

fn post_json(path: &'static str, body: Value) -> impl Fn() -> TestRequest {
    move || TestRequest::post().uri(path).set_json(body.clone())
}

/// Two commanders in the contaminated centre (f6 white, f7 black).
const COMMANDERS_IN_THE_CENTRE: &str = "11/t10/11/11/5c5/5C5/11/11/11/10T/11 w 0";
/// A white tank in Black's base (c10).
const IN_THE_ENEMY_BASE: &str = "c10/2T8/11/11/11/11/11/11/11/11/10C w 0";
/// A finished game (the rules' example).
const FINISHED: &str = "1C9/11/11/11/11/11/T10/1T9/11/9t1/9tc b 57";

#[actix_web::test]
async fn every_code_of_the_three_games_speaks_czech() {
    let app = app_with(Limits::default()).await;
    let mut seen = BTreeSet::new();
    // Tank Battle: each rule as a reason (validate) and as a problem
    // (apply), notations, invariants.
    let validate = "/v1/tank-battle/validate";
    let apply = "/v1/tank-battle/apply";
    let moves = [
        (INITIAL, "e5-e6"),
        (INITIAL, "a11-a10"),
        (INITIAL, "j4-i6"),
        (INITIAL, "k4-k3"),
        (INITIAL, "k1-k5"),
        (INITIAL, "j4-j7"),
        (INITIAL, "j4-f8"),
        (COMMANDERS_IN_THE_CENTRE, "f6-f7"),
        (IN_THE_ENEMY_BASE, "c10-e10"),
        (FINISHED, "b11-a11"),
    ];
    for (position, mv) in moves {
        let body = json!({"position": position, "move": mv});
        seen.extend(in_both(&app, post_json(validate, body.clone())).await);
        seen.extend(in_both(&app, post_json(apply, body)).await);
    }
    for body in [
        json!({"position": "nonsense", "move": "j4-j5"}),
        json!({"position": INITIAL, "move": "j4j"}),
        json!({"position": INITIAL, "layout": "x", "move": "j4-j5"}),
        json!({"position": "CC9/11/11/11/11/11/11/11/11/11/11 w 0", "move": "a11-a10"}),
        json!({"position": INITIAL, "move": "j4-j5", "extra": 1}),
    ] {
        seen.extend(in_both(&app, post_json(apply, body)).await);
    }
    let deep = json!({"position": INITIAL, "depth": 99});
    seen.extend(in_both(&app, post_json("/v1/tank-battle/perft", deep)).await);

    // The Tank War: each pick's reason, and as a problem.
    let initial = get(&app, "/v1/tank-war/initial").await.body;
    let mut short = initial.clone();
    short["tanks"][0]["track"] = json!(["a6"]);
    let mut crowded = initial.clone();
    for _ in 0..2 {
        let body = json!({"state": crowded, "moves": {"U": "RC", "D": "LC"}});
        crowded = send(&app, post_json("/v1/tank-war/apply", body)())
            .await
            .body["state"]
            .clone();
    }
    let mut over = initial.clone();
    over["clock_ms"] = json!({"U": 0, "D": 0});
    for (state, picks) in [
        (&initial, json!({"U": "QQ", "D": "LA"})),
        (&short, json!({"U": "RC", "D": "LA"})),
        (&crowded, json!({"U": "RC", "D": "LC"})),
        (&over, json!({"U": "LA", "D": "LA"})),
    ] {
        let body = json!({"state": state, "moves": picks});
        seen.extend(in_both(&app, post_json("/v1/tank-war/validate", body.clone())).await);
        seen.extend(in_both(&app, post_json("/v1/tank-war/apply", body)).await);
    }

    // Tank Wars: each order's reason, and as a problem.
    let state = get(&app, "/v1/cobi-tank-wars/initial").await.body;
    let order = |dir: &str, dist: i64| json!({"dir": dir, "dist": dist});
    let all = |dir: &str, dist: i64| {
        json!({
            "P1": {"P1-1": order(dir, dist), "P1-2": order(dir, dist), "P1-3": order(dir, dist)},
            "P2": {"P2-1": order(dir, dist), "P2-2": order(dir, dist), "P2-3": order(dir, dist)},
        })
    };
    let mut foreign = all("N", 1);
    foreign["P1"]["P2-1"] = order("N", 1);
    let mut bad = all("N", 1);
    bad["P1"]["P1-2"]["dir"] = json!("NE");
    bad["P2"]["P2-3"]["dist"] = json!(4);
    let mut finished = state.clone();
    finished["vehicles"] =
        json!([{"id": "x", "owner": "P1", "square": "a1", "armor": 1, "slot": 1}]);
    for (state, orders) in [
        (&state, json!({"P1": {}})),
        (&state, foreign),
        (&state, bad),
        (&finished, json!({"P1": {"x": order("N", 1)}})),
    ] {
        let body = json!({"state": state, "orders": orders});
        seen.extend(in_both(&app, post_json("/v1/cobi-tank-wars/validate", body.clone())).await);
        seen.extend(in_both(&app, post_json("/v1/cobi-tank-wars/apply", body)).await);
    }

    // The service's own refusals, for any game.
    seen.extend(in_both(&app, || TestRequest::get().uri("/v1/tank-battle/nothing")).await);
    seen.extend(in_both(&app, || TestRequest::put().uri("/v1/tank-battle/apply")).await);
    seen.extend(
        in_both(&app, || {
            TestRequest::post()
                .uri("/v1/tank-battle/apply")
                .insert_header(("content-type", "text/plain"))
                .set_payload("x")
        })
        .await,
    );

    let mut expected: BTreeSet<String> = [
        "BAD_REQUEST",
        "BAD_POSITION",
        "BAD_LAYOUT",
        "BAD_MOVE_NOTATION",
        "INVALID_POSITION",
        "LIMIT_EXCEEDED",
        "NOT_FOUND",
        "METHOD_NOT_ALLOWED",
        "UNSUPPORTED_MEDIA_TYPE",
    ]
    .map(str::to_owned)
    .into();
    let doc = get(&app, "/openapi.json").await.body;
    for reasons in [
        "TankBattleReasonCode",
        "TankWarPickCode",
        "CobiTankWarsOrderCode",
    ] {
        let codes = doc["components"]["schemas"][reasons]["enum"]
            .as_array()
            .expect(reasons);
        expected.extend(codes.iter().filter_map(Value::as_str).map(str::to_owned));
    }
    let missing: Vec<_> = expected.difference(&seen).collect();
    assert!(missing.is_empty(), "not seen in Czech: {missing:?}");
}

/// Every problem code the document lists has a title in every catalogue,
/// and every rule reason a message; every code another layer may answer
/// (the service's own) a sentence of its own in Czech, not the other
/// layer's English.
#[actix_web::test]
async fn every_code_the_document_lists_is_in_every_catalogue() {
    let app = app_with(Limits::default()).await;
    let doc = get(&app, "/openapi.json").await.body;
    let schemas = &doc["components"]["schemas"];
    let codes = |name: &str| -> Vec<String> {
        schemas[name]["enum"]
            .as_array()
            .expect(name)
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect()
    };
    let reasons: BTreeSet<String> = [
        "TankBattleReasonCode",
        "TankWarPickCode",
        "CobiTankWarsOrderCode",
    ]
    .iter()
    .flat_map(|name| codes(name))
    .collect();
    for lang in Lang::ALL {
        for code in codes("ProblemCode") {
            assert!(
                i18n::text(lang, &format!("title-{code}"), &[]).is_some(),
                "{lang:?} {code}"
            );
            if reasons.contains(&code) {
                assert!(
                    i18n::reason(lang, &code).is_some(),
                    "{lang:?} reason-{code}"
                );
            }
        }
    }
    let said = "the other layer's words";
    for status in 400..600 {
        let error = HttpError::other_layer(status, said.to_owned());
        let code = error.code();
        assert!(codes("ProblemCode").iter().any(|c| c == code), "{code}");
        assert_eq!(error.detail(Lang::En), said);
        let czech = error.detail(Lang::Cs);
        assert!(!czech.contains(said), "{code}: {czech}");
    }
}

#[actix_web::test]
async fn q_weights_choose_the_language() {
    let app = app_with(Limits::default()).await;
    let ask = |header: &'static str| {
        TestRequest::post()
            .uri("/v1/tank-battle/validate")
            .insert_header(("accept-language", header))
            .set_json(json!({"position": INITIAL, "move": "e5-e6"}))
    };
    for (header, lang) in [
        ("cs;q=0.2, en;q=0.9", "en"),
        ("en;q=0.2, cs;q=0.9", "cs"),
        ("de", "en"),
        ("de, cs;q=0.5", "cs"),
        ("cs-CZ", "cs"),
        ("*", "en"),
        ("cs;q=0", "en"),
    ] {
        let reply = send(&app, ask(header)).await;
        assert_eq!(language_of(&reply).0, lang, "{header}");
        let message = reply.body["reason"]["message"].as_str().unwrap_or_default();
        let expected = i18n::text(
            if lang == "cs" { Lang::Cs } else { Lang::En },
            "reason-NO_TANK_AT_FROM",
            &[],
        )
        .unwrap_or_default();
        assert!(message.starts_with(&expected), "{header}: {message}");
    }
}

/// Batches and NDJSON answers are translated too; the document is not.
#[actix_web::test]
async fn batches_speak_czech_and_the_document_does_not_change() {
    let app = app_with(Limits::default()).await;
    let batch = json!({"requests": [
        {"op": "validate", "position": INITIAL, "move": "e5-e6"},
        {"op": "apply", "position": INITIAL, "move": "a11-a10"},
    ]});
    let codes = in_both(&app, post_json("/v1/tank-battle/batch", batch)).await;
    assert!(codes.contains("NO_TANK_AT_FROM") && codes.contains("NOT_YOUR_TANK"));
    let lines = || {
        TestRequest::post()
            .uri("/v1/tank-battle/batch")
            .insert_header(("content-type", "application/x-ndjson"))
            .set_payload(format!(
                "{}\n{}\n",
                json!({"op": "validate", "position": INITIAL, "move": "e5-e6"}),
                json!({"op": "apply", "position": INITIAL, "move": "a11-a10"})
            ))
    };
    let english = send(&app, lines()).await.text;
    let czech = send(&app, lines().insert_header(("accept-language", "cs")))
        .await
        .text;
    assert_eq!(english.lines().count(), czech.lines().count());
    assert_ne!(english, czech);
    let rule = i18n::text(Lang::Cs, "reason-NOT_YOUR_TANK", &[]).unwrap_or_default();
    assert!(czech.contains(&rule), "{czech}");

    let document = |lang: Option<&'static str>| {
        let mut request = TestRequest::get().uri("/openapi.json");
        if let Some(lang) = lang {
            request = request.insert_header(("accept-language", lang));
        }
        request
    };
    let english = send(&app, document(None)).await;
    let czech = send(&app, document(Some("cs"))).await;
    assert_eq!(
        english.text, czech.text,
        "the document is the same in every language"
    );
}

/// Czech says as much as English (issue 51): a limit's refusal names what
/// was asked and the limit, a streamed review's last problem line and its
/// chart are written in the language asked, and a 404 quotes a long path
/// only in part, in either language.
#[actix_web::test]
async fn every_language_says_as_much_as_english() {
    let app = app_with(Limits {
        replay_max_moves: 2,
        ..Limits::default()
    })
    .await;
    let replay = post_json(
        "/v1/tank-battle/replay",
        json!({"moves": ["j4-j5", "a8-a7", "j5-j6"]}),
    );
    let english = send(&app, replay()).await;
    let czech = send(&app, replay().insert_header(("accept-language", "cs"))).await;
    for reply in [&english, &czech] {
        assert_eq!(reply.body["code"], "LIMIT_EXCEEDED", "{reply:?}");
        let detail = reply.body["detail"].as_str().unwrap_or_default();
        assert!(detail.contains('3') && detail.contains("(2)"), "{detail}");
    }
    assert_ne!(english.body["detail"], czech.body["detail"]);

    // A review cut by the server's time cap ends its stream with a
    // problem line in the language asked.
    let app = app_with(Limits {
        annotate_max_time_ms: 0,
        ..Limits::default()
    })
    .await;
    let stream = send(
        &app,
        TestRequest::post()
            .uri("/v1/tank-battle/annotate")
            .insert_header(("accept", "application/x-ndjson"))
            .insert_header(("accept-language", "cs"))
            .set_json(json!({"moves": ["j4-j5", "a8-a7"]})),
    )
    .await;
    let last: Value = stream
        .text
        .lines()
        .last()
        .and_then(|line| serde_json::from_str(line).ok())
        .unwrap_or(Value::Null);
    assert_eq!(last["code"], "SERVICE_BUSY", "{}", stream.text);
    let cut = i18n::write(
        Lang::Cs,
        &tank_rules::text::Text::new("detail-review-unfinished")
            .with("cap", 0u64)
            .with("retry", 1),
    );
    assert_eq!(last["detail"], cut.as_str());
    assert_eq!(
        last["title"],
        i18n::title(Lang::Cs, "SERVICE_BUSY").unwrap_or_default()
    );

    // The chart.
    let app = app_with(Limits::default()).await;
    let chart = send(
        &app,
        TestRequest::post()
            .uri("/v1/tank-battle/annotate")
            .insert_header(("accept", "image/svg+xml"))
            .insert_header(("accept-language", "cs"))
            .set_json(json!({"moves": ["j4-j5"], "limits": {"max_depth": 1}})),
    )
    .await;
    assert_eq!(chart.status, 200, "{chart:?}");
    let axis = i18n::text(Lang::Cs, "chart-axis", &[]).unwrap_or_default();
    assert!(chart.text.contains(&axis), "{}", chart.text);
    assert!(!chart.text.contains("chance to win"), "{}", chart.text);

    // A 20 KB path is quoted in part.
    let path = format!("/v1/{}", "x".repeat(20_000));
    for lang in ["en", "cs"] {
        let reply = send(
            &app,
            TestRequest::get()
                .uri(&path)
                .insert_header(("accept-language", lang)),
        )
        .await;
        assert_eq!(reply.status, 404);
        assert!(
            reply.text.len() < 1_000,
            "{lang}: {} bytes",
            reply.text.len()
        );
    }
}

/// `render.svg` in the asked language: its title, caption and tooltips
/// from that language's catalogue, labelled and tagged as such (the
/// `ETag` differs with the bytes, and the answer varies by
/// `Accept-Language`), for each game.
#[actix_web::test]
async fn pictures_speak_czech_when_asked() {
    let app = app_with(Limits::default()).await;
    for (path, english, czech) in [
        (
            "/v1/tank-battle/render.svg",
            "Tank Battle: ",
            "Tankový boj: ",
        ),
        ("/v1/tank-war/render.svg", "The Tank War: ", "Válka tanků: "),
        (
            "/v1/cobi-tank-wars/render.svg",
            "Tank Wars: ",
            "Tankové války: ",
        ),
    ] {
        let ask = |lang: &'static str| {
            TestRequest::get()
                .uri(path)
                .insert_header(("accept-language", lang))
        };
        let (en, cs) = (send(&app, ask("en")).await, send(&app, ask("cs")).await);
        for (reply, lang, title) in [(&en, "en", english), (&cs, "cs", czech)] {
            assert_eq!(reply.status, 200, "{path}");
            assert_eq!(language_of(reply), (lang, true), "{path}");
            assert!(
                reply.text.contains(&format!("<title>{title}")),
                "{path} {lang}: {}",
                reply.text.get(..400).unwrap_or(&reply.text)
            );
        }
        assert!(!cs.text.contains(english), "{path}");
        let tag = |reply: &Reply| reply.headers.get("etag").cloned();
        assert!(tag(&en).is_some() && tag(&en) != tag(&cs), "{path}");
        // A copy in one language is not current in the other.
        let Some(english_tag) = tag(&en) else {
            panic!("{path}: no ETag")
        };
        let again = send(
            &app,
            ask("cs").insert_header(("if-none-match", english_tag)),
        )
        .await;
        assert_eq!(again.status, 200, "{path}");
    }
}

/// A JSON document the operation cannot take says in Czech what it says
/// in English: where (the body, a query parameter; the field; the line
/// and column) and what (the fault, what came and what was
/// expected), from serde_json's classification.
#[actix_web::test]
async fn malformed_json_says_as_much_in_czech() {
    let app = app_with(Limits::default()).await;
    let raw = |body: &'static str| {
        move || {
            TestRequest::post()
                .uri("/v1/tank-battle/validate")
                .insert_header(("content-type", "application/json"))
                .set_payload(body)
        }
    };
    let state = "/v1/tank-war/render.svg?state=%7B%22round%22%3A%22x%22%7D";
    type Case = (
        Box<dyn Fn() -> TestRequest>,
        &'static [&'static str],
        &'static [&'static str],
    );
    let cases: [Case; 3] = [
        (
            Box::new(raw("{\"position\": \"x\",\n \"move\" 3}")),
            &["malformed JSON: expected `:` at line 2 column 9"],
            &["chybný JSON na řádku 2, ve sloupci 9: chybí `:`"],
        ),
        (
            Box::new(raw("{\"position\": 3, \"move\": \"a1-a2\"}")),
            &["field `position`: invalid type: integer `3`, expected a string at line 1 column 14"],
            &["pole `position`: neplatný typ: celé číslo `3`, očekáváno řetězec na řádku 1, ve sloupci 14"],
        ),
        (
            Box::new(move || TestRequest::get().uri(state)),
            &["query parameter `state`: ", "invalid type: string \"x\""],
            &["parametr dotazu `state`: ", "řetězec \"x\""],
        ),
    ];
    for (request, english, czech) in cases {
        let en = send(&app, request()).await;
        let cs = send(&app, request().insert_header(("accept-language", "cs"))).await;
        let detail = |reply: &Reply| {
            let problem = &reply.body;
            assert_eq!(problem["code"], "BAD_REQUEST", "{reply:?}");
            (
                problem["detail"].as_str().unwrap_or_default().to_owned(),
                problem["field"].clone(),
            )
        };
        let ((en_detail, en_field), (cs_detail, cs_field)) = (detail(&en), detail(&cs));
        assert_eq!(en_field, cs_field);
        for said in english {
            assert!(en_detail.contains(said), "{en_detail}");
        }
        for said in czech {
            assert!(cs_detail.contains(said), "{cs_detail}");
        }
        assert!(!cs_detail.contains("expected"), "{cs_detail}");
    }
}
