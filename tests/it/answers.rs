//! Every answer is what the document says it is (issue 39): each request
//! example of the document sent to the application, and a random sample
//! of real answers of every operation of every game (positions reached by
//! random legal play, legal and illegal requests, problems included), each
//! validated against the schema the document declares for its status and
//! content type, `$ref`s resolved against the document's components. And
//! every `example` of a schema is an instance of that schema.
//!
//! The answer is what serde writes, one writer for each (no hand-written
//! fast path), so this checks the writer against the document; a
//! deliberately wrong answer is shown to fail the check.

use std::collections::{BTreeMap, HashMap};

use actix_web::body::MessageBody;
use actix_web::dev::{Service, ServiceResponse};
use actix_web::test::TestRequest;
use serde_json::{json, Value};
use tank_rules::limits::Limits;

use crate::common::{app_with, encode, send, Reply, INITIAL};

/// Real answers sampled for each operation of each game.
const SAMPLES: usize = 30;

/// SplitMix64: a fixed-seed sample, the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// The generated document, its schemas compiled on demand, and how many
/// answers of each operation were checked, by status.
struct Document {
    doc: Value,
    validators: HashMap<String, jsonschema::Validator>,
    checked: BTreeMap<String, BTreeMap<u16, usize>>,
}

impl Document {
    fn new() -> Document {
        Document {
            doc: serde_json::from_str(&tank_rules::api::openapi::json()).unwrap(),
            validators: HashMap::new(),
            checked: BTreeMap::new(),
        }
    }

    /// `schema` (a part of the document at `pointer`) as a validator whose
    /// `$ref`s resolve against the document's components.
    fn validator(&mut self, pointer: &str) -> &jsonschema::Validator {
        let doc = &self.doc;
        self.validators
            .entry(pointer.to_owned())
            .or_insert_with(|| compile(doc, &doc.pointer(pointer).unwrap().clone()))
    }

    /// Why `instance` is not an instance of the schema at `pointer`, if it
    /// is not.
    fn errors(&mut self, pointer: &str, instance: &Value) -> Option<String> {
        let errors: Vec<String> = self
            .validator(pointer)
            .iter_errors(instance)
            .map(|e| format!("at `{}`: {e}", e.instance_path()))
            .collect();
        (!errors.is_empty()).then(|| errors.join("; "))
    }

    /// Checks `reply`, the answer of `method path`, against the document:
    /// its status is documented, with its content type, and its body is an
    /// instance of the schema declared for them (an image: an SVG).
    fn check(&mut self, method: &str, path: &str, reply: &Reply) -> Result<(), String> {
        let operation = format!("/paths/{}/{method}", escape(path));
        let status = reply.status.as_u16();
        let response = format!("{operation}/responses/{status}");
        let Some(declared) = self.doc.pointer(&response) else {
            return Err(format!(
                "{method} {path}: status {status} undocumented: {reply:?}"
            ));
        };
        let Some(content) = declared.get("content").and_then(Value::as_object) else {
            if !reply.text.is_empty() {
                return Err(format!(
                    "{method} {path} {status}: a body where none is documented"
                ));
            }
            self.count(method, path, status);
            return Ok(());
        };
        let media = reply.content_type.split(';').next().unwrap_or_default();
        let key = content
            .keys()
            .find(|k| **k == reply.content_type || k.split(';').next() == Some(media))
            .cloned()
            .ok_or_else(|| {
                format!(
                    "{method} {path} {status}: content type {:?} undocumented",
                    reply.content_type
                )
            })?;
        if media == "application/x-ndjson" {
            // Each line a JSON object of the review's line schema: the
            // documented one, or (where the document types the stream as
            // text, for generated clients) `annotate`'s.
            let mut schema = format!("{response}/content/{}/schema", escape(&key));
            if self
                .doc
                .pointer(&schema)
                .and_then(|s| s.get("$ref"))
                .is_none()
            {
                let review = path.trim_end_matches(".ndjson");
                schema = format!(
                    "/paths/{}/{method}/responses/{status}/content/application~1x-ndjson/schema",
                    escape(review)
                );
            }
            for line in reply.text.lines().filter(|l| !l.is_empty()) {
                let body: Value = serde_json::from_str(line).map_err(|e| {
                    format!("{method} {path} {status}: a line not JSON ({e}): {line}")
                })?;
                if let Some(errors) = self.errors(&schema, &body) {
                    return Err(format!(
                        "{method} {path} {status}: {errors}\n  line: {body}"
                    ));
                }
            }
        } else if media.ends_with("json") {
            let body: Value = serde_json::from_str(&reply.text)
                .map_err(|e| format!("{method} {path} {status}: not JSON ({e}): {reply:?}"))?;
            let schema = format!("{response}/content/{}/schema", escape(&key));
            if let Some(errors) = self.errors(&schema, &body) {
                return Err(format!(
                    "{method} {path} {status}: {errors}\n  answer: {body}"
                ));
            }
        } else if media == "image/svg+xml" && !reply.text.contains("<svg") {
            return Err(format!("{method} {path} {status}: not an SVG"));
        }
        self.count(method, path, status);
        Ok(())
    }

    fn count(&mut self, method: &str, path: &str, status: u16) {
        *self
            .checked
            .entry(format!("{} {path}", method.to_uppercase()))
            .or_default()
            .entry(status)
            .or_default() += 1;
    }

    /// Every operation: method and path.
    fn operations(&self) -> Vec<(String, String)> {
        let mut ops = Vec::new();
        for (path, item) in self.doc["paths"].as_object().unwrap() {
            for method in item.as_object().unwrap().keys() {
                ops.push((method.clone(), path.clone()));
            }
        }
        ops
    }

    /// Asserts that every operation of `game` had at least `n` answers
    /// checked, a 200 among them.
    fn assert_sampled(&self, game: &str, n: usize) {
        let prefix = format!("/v1/{game}/");
        let mut seen = 0;
        for (method, path) in self.operations() {
            if !path.starts_with(&prefix) {
                continue;
            }
            let key = format!("{} {path}", method.to_uppercase());
            let counts = self.checked.get(&key).cloned().unwrap_or_default();
            let total: usize = counts.values().sum();
            assert!(total >= n, "{key}: {total} answers checked ({counts:?})");
            assert!(
                counts.contains_key(&200),
                "{key}: no 200 checked ({counts:?})"
            );
            seen += 1;
        }
        assert!(seen >= 8, "{game}: {seen} operations");
    }
}

/// A validator of `schema`, part of `doc`: the schema with the document's
/// components beside it, so that `#/components/...` resolves.
fn compile(doc: &Value, schema: &Value) -> jsonschema::Validator {
    let mut root = match schema {
        Value::Object(object) => object.clone(),
        other => panic!("not a schema object: {other}"),
    };
    root.insert("components".to_owned(), doc["components"].clone());
    jsonschema::validator_for(&Value::Object(root))
        .unwrap_or_else(|e| panic!("{schema} does not compile: {e}"))
}

/// A JSON pointer segment.
fn escape(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}

/// The app, the document, the sample, with the answers checked as they
/// come.
struct Client<'a, S> {
    app: &'a S,
    doc: Document,
    failures: Vec<String>,
}

impl<S, B> Client<'_, S>
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    async fn send(&mut self, method: &str, path: &str, req: TestRequest) -> Reply {
        let reply = send(self.app, req).await;
        let route = path.split('?').next().unwrap_or(path);
        if let Err(failure) = self.doc.check(method, route, &reply) {
            self.failures.push(failure);
        }
        reply
    }

    async fn post(&mut self, path: &str, body: Value) -> Reply {
        let req = TestRequest::post().uri(path).set_json(body);
        self.send("post", path, req).await
    }

    async fn get(&mut self, path: &str) -> Reply {
        let req = TestRequest::get().uri(path);
        self.send("get", path, req).await
    }

    fn assert_clean(&self) {
        assert!(
            self.failures.is_empty(),
            "{} answers not as documented:\n{}",
            self.failures.len(),
            self.failures.join("\n")
        );
    }
}

/// The request examples of an operation: its media type's `examples` and
/// `example`, and the `example` of its body's schema.
fn request_examples(doc: &Value, op: &Value) -> Vec<Value> {
    let mut examples = Vec::new();
    let Some(media) = op.pointer("/requestBody/content/application~1json") else {
        return examples;
    };
    if let Some(named) = media.get("examples").and_then(Value::as_object) {
        examples.extend(named.values().filter_map(|e| e.get("value").cloned()));
    }
    examples.extend(media.get("example").cloned());
    let mut schema = &media["schema"];
    while let Some(name) = schema["$ref"].as_str() {
        schema = doc.pointer(name.trim_start_matches('#')).unwrap();
    }
    examples.extend(schema.get("example").cloned());
    examples
}

/// (a) Every request example of the document, sent to its operation, is
/// answered (successfully) as the document says; so are a broken body, a
/// body of the wrong type and a wrong method (problems); and every query
/// example of a `GET`.
#[actix_rt::test]
async fn every_example_is_answered_as_documented() {
    let app = app_with(Limits::default()).await;
    let mut client = Client {
        app: &app,
        doc: Document::new(),
        failures: Vec::new(),
    };
    let doc = client.doc.doc.clone();
    let mut examples = 0;
    for (method, path) in client.doc.operations() {
        let op = &doc["paths"][&path][&method];
        match method.as_str() {
            "post" => {
                let found = request_examples(&doc, op);
                if path.starts_with("/v1/") {
                    assert!(!found.is_empty(), "POST {path} has no request example");
                }
                for example in found {
                    let reply = client.post(&path, example.clone()).await;
                    assert!(
                        reply.status.is_success(),
                        "POST {path} {example}: {reply:?}"
                    );
                    examples += 1;
                }
                // Problems: not an object of the body's schema, not JSON.
                let reply = client.post(&path, json!({})).await;
                assert_eq!(reply.status, 400, "POST {path} {{}}: {reply:?}");
                let req = TestRequest::post()
                    .uri(&path)
                    .insert_header(("content-type", "application/json"))
                    .set_payload("{\"position\":");
                let reply = client.send("post", &path, req).await;
                assert_eq!(reply.status, 400, "POST {path} broken JSON: {reply:?}");
                let req = TestRequest::post()
                    .uri(&path)
                    .insert_header(("content-type", "text/plain"))
                    .set_payload("{}");
                client.send("post", &path, req).await;
            }
            "get" => {
                let query = crate::common::example_query(op);
                let reply = client.get(&path).await;
                assert!(reply.status.is_success(), "GET {path}: {reply:?}");
                if !query.is_empty() {
                    let reply = client.get(&format!("{path}?{query}")).await;
                    assert!(reply.status.is_success(), "GET {path} examples: {reply:?}");
                    examples += 1;
                }
                if path.starts_with("/v1/") {
                    // An unknown query parameter: a problem.
                    client.get(&format!("{path}?no_such_parameter=1")).await;
                }
            }
            other => panic!("{other} {path}: no requests made for this method"),
        }
        // Another method: 405, a problem.
        let req = TestRequest::put().uri(&path).set_json(json!({}));
        let reply = client.send(&method, &path, req).await;
        assert_eq!(reply.status, 405, "PUT {path}: {reply:?}");
    }
    client.assert_clean();
    assert!(examples >= 25, "{examples} examples sent");
    // Every operation of every game was answered, a 200 and a problem
    // checked.
    for game in crate::common::games() {
        client.doc.assert_sampled(game, 2);
    }
}

/// Every `example` (and `examples` item) of a schema of the components, at
/// any depth, is an instance of the schema it stands in; so is each
/// parameter's example and each media type's.
#[test]
fn schema_examples_are_instances_of_their_schemas() {
    let mut doc = Document::new();
    let mut found = Vec::new();
    let schemas = doc.doc["components"]["schemas"]
        .as_object()
        .unwrap()
        .clone();
    for name in schemas.keys() {
        schema_examples(
            &doc.doc,
            &format!("/components/schemas/{}", escape(name)),
            &mut found,
        );
    }
    let paths = doc.doc["paths"].as_object().unwrap().clone();
    for (path, item) in &paths {
        for (method, op) in item.as_object().unwrap() {
            let at = format!("/paths/{}/{method}", escape(path));
            for (i, parameter) in op["parameters"]
                .as_array()
                .into_iter()
                .flatten()
                .enumerate()
            {
                if let Some(example) = parameter.get("example") {
                    let schema = format!("{at}/parameters/{i}/schema");
                    let example = match doc.doc.pointer(&format!("{schema}/contentSchema")) {
                        // A JSON value carried as its text.
                        Some(_) => serde_json::from_str(example.as_str().unwrap()).unwrap(),
                        None => example.clone(),
                    };
                    let schema = match doc.doc.pointer(&format!("{schema}/contentSchema")) {
                        Some(_) => format!("{schema}/contentSchema"),
                        None => schema,
                    };
                    found.push((schema, example));
                }
            }
            if let Some(media) = op.pointer("/requestBody/content/application~1json") {
                let schema = format!("{at}/requestBody/content/application~1json/schema");
                for named in media["examples"]
                    .as_object()
                    .into_iter()
                    .flat_map(|e| e.values())
                {
                    found.push((schema.clone(), named["value"].clone()));
                }
                if let Some(example) = media.get("example") {
                    found.push((schema.clone(), example.clone()));
                }
            }
        }
    }
    let mut failures = Vec::new();
    for (schema, example) in &found {
        if let Some(errors) = doc.errors(schema, example) {
            failures.push(format!("{schema}: {errors}\n  example: {example}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} examples break their schema:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(found.len() >= 100, "{} examples", found.len());
}

/// The examples of the schema at `at` and of the schemas within it:
/// (schema pointer with the example left out, example).
fn schema_examples(doc: &Value, at: &str, found: &mut Vec<(String, Value)>) {
    let Some(Value::Object(schema)) = doc.pointer(at) else {
        return;
    };
    if let Some(example) = schema.get("example") {
        found.push((at.to_owned(), example.clone()));
    }
    for example in schema
        .get("examples")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        found.push((at.to_owned(), example.clone()));
    }
    for keyword in [
        "items",
        "additionalProperties",
        "propertyNames",
        "contentSchema",
        "not",
    ] {
        schema_examples(doc, &format!("{at}/{keyword}"), found);
    }
    for keyword in ["oneOf", "anyOf", "allOf", "prefixItems"] {
        for i in 0..schema
            .get(keyword)
            .and_then(Value::as_array)
            .map_or(0, Vec::len)
        {
            schema_examples(doc, &format!("{at}/{keyword}/{i}"), found);
        }
    }
    for name in schema
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flat_map(|p| p.keys())
    {
        schema_examples(doc, &format!("{at}/properties/{}", escape(name)), found);
    }
}

/// The check can fail: a real answer with a field removed, one added, or
/// one of the wrong type; a problem without its code; an undocumented
/// status or content type.
#[actix_rt::test]
async fn a_wrong_answer_fails_the_check() {
    let app = app_with(Limits::default()).await;
    let mut doc = Document::new();
    let path = "/v1/tank-battle/legal-moves";
    let reply = send(
        &app,
        TestRequest::post()
            .uri(path)
            .set_json(json!({"position": INITIAL})),
    )
    .await;
    doc.check("post", path, &reply).unwrap();
    let with = |change: &dyn Fn(&mut Value)| {
        let mut body = reply.body.clone();
        change(&mut body);
        Reply {
            status: reply.status,
            content_type: reply.content_type.clone(),
            headers: reply.headers.clone(),
            text: body.to_string(),
            body,
        }
    };
    type Change<'a> = &'a dyn Fn(&mut Value);
    let wrong: [(&str, Change); 5] = [
        ("count removed", &|b| {
            b.as_object_mut().unwrap().remove("count");
        }),
        ("a field added", &|b| b["extra"] = json!(1)),
        ("a move's capture removed", &|b| {
            b["moves"][0].as_object_mut().unwrap().remove("capture");
        }),
        ("a square as a number", &|b| {
            b["moves"][0]["from"] = json!(4)
        }),
        ("a count below zero", &|b| b["count"] = json!(-1)),
    ];
    for (what, change) in wrong {
        assert!(doc.check("post", path, &with(change)).is_err(), "{what}");
    }
    let mut problem =
        with(&|b| *b = json!({"type": "about:blank", "title": "t", "status": 400, "detail": "d"}));
    problem.status = actix_web::http::StatusCode::BAD_REQUEST;
    problem.content_type = "application/problem+json".to_owned();
    assert!(
        doc.check("post", path, &problem).is_err(),
        "a problem without its code"
    );
    problem.text = json!({"type": "about:blank", "title": "t", "status": 400, "detail": "d", "code": "BAD_REQUEST"}).to_string();
    doc.check("post", path, &problem).unwrap();
    problem.content_type = "application/json".to_owned();
    assert!(
        doc.check("post", path, &problem).is_err(),
        "a problem as plain JSON"
    );
    problem.status = actix_web::http::StatusCode::IM_A_TEAPOT;
    problem.content_type = "application/problem+json".to_owned();
    assert!(
        doc.check("post", path, &problem).is_err(),
        "an undocumented status"
    );
}

/// `steps` and then `last`.
fn with_last<T: Clone + Into<Value>>(steps: &[T], last: Value) -> Vec<Value> {
    let mut all: Vec<Value> = steps.iter().cloned().map(Into::into).collect();
    all.push(last);
    all
}

// (b) Real answers: a random sample of each operation of each game, in
// positions reached by random legal play from the start.

/// Tank Battle: positions after 0 to 120 random legal plies (a few played
/// to 400, to meet finished games); in each, every operation asked with a
/// legal and an illegal request.
#[actix_rt::test]
async fn sampled_tank_battle_answers_are_as_documented() {
    let app = app_with(Limits::default()).await;
    let mut client = Client {
        app: &app,
        doc: Document::new(),
        failures: Vec::new(),
    };
    let mut rng = Rng(39);
    let game = "/v1/tank-battle";
    let files = "abcdefghijk".as_bytes();
    let random_square =
        |rng: &mut Rng| format!("{}{}", files[rng.below(11)] as char, 1 + rng.below(11));
    for sample in 0..SAMPLES {
        // A position by random legal play.
        let plies = if sample % 10 == 9 {
            400
        } else {
            rng.below(121)
        };
        let mut position = INITIAL.to_owned();
        let mut played: Vec<String> = Vec::new();
        for _ in 0..plies {
            let reply = client
                .post(
                    &format!("{game}/legal-moves"),
                    json!({"position": position}),
                )
                .await;
            let moves = reply.body["moves"].as_array().cloned().unwrap_or_default();
            if moves.is_empty() {
                break;
            }
            let mv = rng.pick(&moves)["move"].as_str().unwrap().to_owned();
            let reply = client
                .post(
                    &format!("{game}/apply"),
                    json!({"position": position, "move": mv}),
                )
                .await;
            assert_eq!(reply.status, 200, "{reply:?}");
            position = reply.body["position"].as_str().unwrap().to_owned();
            played.push(mv);
        }
        let reply = client
            .post(
                &format!("{game}/legal-moves"),
                json!({"position": position}),
            )
            .await;
        let moves = reply.body["moves"].as_array().cloned().unwrap_or_default();
        let legal = (!moves.is_empty()).then(|| rng.pick(&moves).clone());
        let legal_move = legal.as_ref().map_or("a1-a2".to_owned(), |m| {
            m["move"].as_str().unwrap().to_owned()
        });
        let from = legal.as_ref().map_or(random_square(&mut rng), |m| {
            m["from"].as_str().unwrap().to_owned()
        });
        let illegal = format!("{}-{}", random_square(&mut rng), random_square(&mut rng));
        let requests = [
            ("legal-moves", json!({"position": position, "from": from})),
            (
                "legal-moves",
                json!({"position": position, "from": random_square(&mut rng), "layout": "standard"}),
            ),
            (
                "validate",
                json!({"position": position, "move": legal_move}),
            ),
            ("validate", json!({"position": position, "move": illegal})),
            ("apply", json!({"position": position, "move": legal_move})),
            ("apply", json!({"position": position, "move": illegal})),
            ("score", json!({"position": position})),
            ("replay", json!({"moves": played})),
            (
                "replay",
                json!({"moves": with_last(&played, json!(illegal))}),
            ),
            (
                "ai-move",
                json!({"position": position, "level": 1, "seed": sample}),
            ),
            (
                "ai-move",
                json!({"position": position, "level": 1, "seed": sample}),
            ),
            (
                "ai-move",
                json!({"position": position, "limits": {"max_depth": 1}, "multipv": 3}),
            ),
            (
                "perft",
                json!({"position": position, "depth": 1 + sample % 2, "divide": sample % 3 == 0}),
            ),
            (
                "annotate",
                json!({"moves": played, "limits": {"max_nodes": 10000}}),
            ),
            (
                "annotate.ndjson",
                json!({"moves": played, "limits": {"max_nodes": 10000}}),
            ),
            (
                "annotate.svg",
                json!({"moves": played, "limits": {"max_nodes": 10000}}),
            ),
            (
                "annotate",
                json!({"moves": with_last(&played, json!(illegal)), "limits": {"max_nodes": 10000}}),
            ),
            (
                "puzzles",
                json!({"moves": played, "limits": {"max_nodes": 10000}, "max_puzzles": 3}),
            ),
            (
                "puzzles",
                json!({"moves": with_last(&played, json!(illegal)), "limits": {"max_nodes": 10000}}),
            ),
            (
                "puzzles.ndjson",
                json!({"moves": played, "limits": {"max_nodes": 10000}, "max_puzzles": 3}),
            ),
        ];
        let mut batch = Vec::new();
        let mut claims = Vec::new();
        for (op, body) in &requests {
            let reply = client.post(&format!("{game}/{op}"), body.clone()).await;
            claims.push(claim_of(op, body, &reply));
            // (A batch holds at most four searches: its three `ai-move`s.)
            if !["perft", "puzzles", "puzzles.ndjson"].contains(op) && !op.starts_with("annotate") {
                let mut item = body.clone();
                item["op"] = json!(op);
                batch.push(item);
            }
        }
        client
            .post(&format!("{game}/batch"), json!({"requests": batch}))
            .await;
        compare_claims(&mut client, game, claims, sample).await;
        // Bodies that break their schema: asked alone (a batch with one is
        // refused whole).
        for (op, body) in [
            ("validate", json!({"position": position, "move": "z9-j5"})),
            ("score", json!({"position": "11/11 w 0"})),
        ] {
            client.post(&format!("{game}/{op}"), body).await;
        }
        let query = format!(
            "position={}&last_move={}&moves_from={from}",
            encode(&position),
            encode(&legal_move)
        );
        client.get(&format!("{game}/render.svg?{query}")).await;
        client.get(&format!("{game}/initial?layout=standard")).await;
    }
    client.assert_clean();
    client.doc.assert_sampled("tank-battle", SAMPLES);
}

/// Tank War: states after 0 to 12 random rounds (legal picks of both
/// players, as `legal-moves` lists them).
#[actix_rt::test]
async fn sampled_tank_war_answers_are_as_documented() {
    let app = app_with(Limits::default()).await;
    let mut client = Client {
        app: &app,
        doc: Document::new(),
        failures: Vec::new(),
    };
    let mut rng = Rng(40);
    let game = "/v1/tank-war";
    let initial = client.get(&format!("{game}/initial")).await.body;
    for sample in 0..SAMPLES {
        let rounds = rng.below(13);
        let mut state = initial.clone();
        let mut played: Vec<Value> = Vec::new();
        for _ in 0..rounds {
            let Some(picks) = tank_war_picks(&mut client, &mut rng, &state).await else {
                break;
            };
            let reply = client
                .post(
                    &format!("{game}/apply"),
                    json!({"state": state, "moves": picks}),
                )
                .await;
            assert_eq!(reply.status, 200, "{reply:?}");
            state = reply.body["state"].clone();
            played.push(picks);
            if reply.body["finished"] == true {
                break;
            }
        }
        let picks = tank_war_picks(&mut client, &mut rng, &state).await;
        let legal = picks.clone().unwrap_or(json!({"U": "LA", "D": "RC"}));
        let player = if rng.below(2) == 0 { "U" } else { "D" };
        let elapsed = json!({"U": rng.below(200_000), "D": rng.below(2000)});
        let requests = [
            ("legal-moves", json!({"state": state})),
            ("legal-moves", json!({"state": state, "player": player})),
            ("validate", json!({"state": state, "moves": legal})),
            (
                "validate",
                json!({"state": state, "moves": {player: legal[player]}}),
            ),
            (
                "validate",
                json!({"state": state, "moves": {"U": "ZZ", "D": legal["D"]}}),
            ),
            ("apply", json!({"state": state, "moves": legal})),
            (
                "apply",
                json!({"state": state, "moves": legal, "elapsed_ms": elapsed}),
            ),
            (
                "apply",
                json!({"state": state, "moves": {"U": "ZZ", "D": "RC"}}),
            ),
            ("score", json!({"state": state})),
            ("replay", json!({"rounds": played})),
            (
                "replay",
                json!({"rounds": with_last(&played, json!({"U": "ZZ", "D": "RC"}))}),
            ),
            (
                "ai-move",
                json!({"state": state, "player": player, "level": 1, "seed": sample}),
            ),
            (
                "ai-move",
                json!({"state": state, "player": player, "level": 1, "seed": sample}),
            ),
            (
                "ai-move",
                json!({"state": state, "player": player, "limits": {"max_depth": 1}}),
            ),
            ("annotate", json!({"rounds": played})),
            ("annotate.ndjson", json!({"rounds": played})),
            ("annotate.svg", json!({"rounds": played})),
            (
                "annotate",
                json!({"rounds": with_last(&played, json!({"U": "ZZ", "D": "RC"}))}),
            ),
        ];
        let mut batch = Vec::new();
        let mut claims = Vec::new();
        for (op, body) in &requests {
            let reply = client.post(&format!("{game}/{op}"), body.clone()).await;
            claims.push(claim_of(op, body, &reply));
            // (A batch holds at most four searches: its `ai-move`s.)
            if op.starts_with("annotate") {
                continue;
            }
            let mut item = body.clone();
            item["op"] = json!(op);
            batch.push(item);
        }
        client
            .post(&format!("{game}/batch"), json!({"requests": batch}))
            .await;
        compare_claims(&mut client, game, claims, sample).await;
        client
            .get(&format!(
                "{game}/render.svg?state={}",
                encode(&state.to_string())
            ))
            .await;
        client.get(&format!("{game}/initial")).await;
    }
    client.assert_clean();
    client.doc.assert_sampled("tank-war", SAMPLES);
}

/// A claim of the answer a request just got: its 200 body, or its
/// problem's status and code (and a replay's ply); `None` for the AI's
/// operations, which a compare does not take.
fn claim_of(op: &str, body: &Value, reply: &Reply) -> Option<Value> {
    if op == "ai-move" || op.starts_with("puzzles") || op.starts_with("annotate") {
        return None;
    }
    let answer = if reply.status == 200 {
        reply.body.clone()
    } else {
        let mut problem = json!({"status": reply.status.as_u16(), "code": reply.body["code"]});
        if let Some(ply) = reply.body.get("ply") {
            problem["ply"] = ply.clone();
        }
        problem
    };
    Some(json!({"op": op, "request": body, "answer": answer}))
}

/// `compare` of the answers a sample got (each claim agrees), and of one
/// of them claimed wrong (every other sample).
async fn compare_claims<S, B>(
    client: &mut Client<'_, S>,
    game: &str,
    claims: Vec<Option<Value>>,
    sample: usize,
) where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let mut claims: Vec<Value> = claims.into_iter().flatten().collect();
    if sample % 2 == 1 {
        if let Some(first) = claims.first_mut() {
            first["answer"] = json!({"wrong": true});
        }
    }
    let reply = client
        .post(&format!("{game}/compare"), json!({"claims": claims}))
        .await;
    assert_eq!(reply.status, 200, "{reply:?}");
    assert_eq!(reply.body["agree"], sample.is_multiple_of(2), "{reply:?}");
}

/// Legal picks of both players, as `legal-moves` lists them (none when
/// either has none).
async fn tank_war_picks<S, B>(
    client: &mut Client<'_, S>,
    rng: &mut Rng,
    state: &Value,
) -> Option<Value>
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let reply = client
        .post("/v1/tank-war/legal-moves", json!({"state": state}))
        .await;
    let of = |player: &str| reply.body[player].as_array().cloned().unwrap_or_default();
    let (u, d) = (of("U"), of("D"));
    if u.is_empty() || d.is_empty() {
        return None;
    }
    Some(json!({"U": rng.pick(&u), "D": rng.pick(&d)}))
}

/// Cobi's Tank Wars: states after 0 to 10 random rounds (for every vehicle
/// one of the orders `legal-moves` lists, and a seed).
#[actix_rt::test]
async fn sampled_cobi_tank_wars_answers_are_as_documented() {
    let app = app_with(Limits::default()).await;
    let mut client = Client {
        app: &app,
        doc: Document::new(),
        failures: Vec::new(),
    };
    let mut rng = Rng(41);
    let game = "/v1/cobi-tank-wars";
    let initial = client.get(&format!("{game}/initial")).await.body;
    for sample in 0..SAMPLES {
        let rounds = rng.below(11);
        let mut state = initial.clone();
        let mut played: Vec<Value> = Vec::new();
        for _ in 0..rounds {
            let Some(orders) = cobi_orders(&mut client, &mut rng, &state).await else {
                break;
            };
            let seed = rng.next() >> 12;
            let reply = client
                .post(
                    &format!("{game}/apply"),
                    json!({"state": state, "orders": orders, "seed": seed}),
                )
                .await;
            assert_eq!(reply.status, 200, "{reply:?}");
            state = reply.body["state"].clone();
            played.push(json!({"orders": orders, "seed": seed}));
            if reply.body["finished"] == true {
                break;
            }
        }
        let orders = cobi_orders(&mut client, &mut rng, &state).await;
        let legal = orders.clone().unwrap_or(json!({}));
        let player = if rng.below(2) == 0 { "P1" } else { "P2" };
        // Illegal: a distance of 4 for one vehicle, one vehicle left out.
        let mut far = legal.clone();
        let mut missing = legal.clone();
        if let Some(vehicles) = far[player].as_object_mut() {
            if let Some(order) = vehicles.values_mut().next() {
                order["dist"] = json!(4);
                order["dir"] = json!("Q");
            }
        }
        if let Some(vehicles) = missing[player].as_object_mut() {
            let first = vehicles.keys().next().cloned();
            first.map(|id| vehicles.remove(&id));
        }
        let requests = [
            ("legal-moves", json!({"state": state})),
            ("legal-moves", json!({"state": state, "player": player})),
            ("validate", json!({"state": state, "orders": legal})),
            ("validate", json!({"state": state, "orders": far})),
            ("validate", json!({"state": state, "orders": missing})),
            (
                "apply",
                json!({"state": state, "orders": legal, "seed": sample}),
            ),
            ("apply", json!({"state": state, "orders": missing})),
            ("score", json!({"state": state})),
            ("replay", json!({"rounds": played})),
            ("replay", json!({"rounds": played, "start": initial})),
            (
                "replay",
                json!({"rounds": with_last(&played, json!({"orders": far}))}),
            ),
            (
                "annotate",
                json!({"rounds": played, "limits": {"max_nodes": 2000}}),
            ),
            (
                "annotate.ndjson",
                json!({"rounds": played, "limits": {"max_nodes": 2000}}),
            ),
            (
                "annotate.svg",
                json!({"rounds": played, "limits": {"max_nodes": 2000}}),
            ),
            (
                "annotate",
                json!({"rounds": with_last(&played, json!({"orders": far})), "limits": {"max_nodes": 2000}}),
            ),
            (
                "ai-move",
                json!({"state": state, "player": player, "level": 1, "seed": sample}),
            ),
            (
                "ai-move",
                json!({"state": state, "player": player, "level": 1, "seed": sample}),
            ),
            (
                "ai-move",
                json!({"state": state, "player": player, "level": 1, "multipv": 2, "gunfire_tokens": 2}),
            ),
            (
                "puzzles",
                json!({"rounds": played, "limits": {"max_nodes": 2000}, "max_puzzles": 3}),
            ),
            (
                "puzzles",
                json!({"rounds": with_last(&played, json!({"orders": far})), "limits": {"max_nodes": 2000}}),
            ),
            (
                "puzzles.ndjson",
                json!({"rounds": played, "limits": {"max_nodes": 2000}, "max_puzzles": 3}),
            ),
        ];
        let mut batch = Vec::new();
        let mut claims = Vec::new();
        for (op, body) in &requests {
            let reply = client.post(&format!("{game}/{op}"), body.clone()).await;
            claims.push(claim_of(op, body, &reply));
            // (A batch holds at most four searches: its `ai-move`s.)
            if op.starts_with("annotate") || op.starts_with("puzzles") {
                continue;
            }
            let mut item = body.clone();
            item["op"] = json!(op);
            batch.push(item);
        }
        client
            .post(&format!("{game}/batch"), json!({"requests": batch}))
            .await;
        compare_claims(&mut client, game, claims, sample).await;
        client
            .get(&format!(
                "{game}/render.svg?state={}",
                encode(&state.to_string())
            ))
            .await;
        client.get(&format!("{game}/initial")).await;
    }
    client.assert_clean();
    client.doc.assert_sampled("cobi-tank-wars", SAMPLES);
}

/// For every vehicle of both players one of the orders `legal-moves`
/// lists (none when a player has no vehicles left).
async fn cobi_orders<S, B>(
    client: &mut Client<'_, S>,
    rng: &mut Rng,
    state: &Value,
) -> Option<Value>
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let reply = client
        .post("/v1/cobi-tank-wars/legal-moves", json!({"state": state}))
        .await;
    let mut orders = json!({});
    for player in ["P1", "P2"] {
        let vehicles = reply.body[player].as_object()?;
        if vehicles.is_empty() {
            return None;
        }
        for (id, listed) in vehicles {
            let listed = listed.as_array()?;
            if listed.is_empty() {
                return None;
            }
            let order = rng.pick(listed);
            orders[player][id] = json!({"dir": order["dir"], "dist": order["dist"]});
        }
    }
    Some(orders)
}
