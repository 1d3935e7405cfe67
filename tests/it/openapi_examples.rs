//! Every 2xx JSON answer the OpenAPI document shows is the service's: the
//! answer, with the default limits, to the operation's own request example
//! (its body's example, or its parameters' examples). So Swagger UI's
//! "Example Value" is a real answer, never one made up from the schema.
//!
//! The answers are data, `openapi/answers.json` (operation → answer),
//! which the document takes its examples from. `ANSWERS_WRITE=1 cargo test
//! --test it openapi_examples` writes it afresh from the service's answers
//! (then regenerate the document: `cargo run -- openapi >
//! openapi/openapi.json`).

use std::collections::BTreeMap;

use actix_web::test::TestRequest;
use serde_json::Value;
use tank_rules::limits::Limits;

use crate::common::{app_with, send};

/// Members of an answer that depend on the machine or on earlier
/// requests: compared as present, not by value.
const MASKED: [&str; 2] = ["time_ms", "cached"];

const ANSWERS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/openapi/answers.json");

/// The document as the code generates it.
fn document() -> Value {
    serde_json::from_str(&tank_rules::api::openapi::json()).unwrap()
}

/// The example a media type or the schema it names gives.
fn example_of(doc: &Value, media: &Value) -> Option<Value> {
    if let Some(example) = media.get("example") {
        return Some(example.clone());
    }
    let name = media["schema"]["$ref"]
        .as_str()?
        .strip_prefix("#/components/schemas/")?;
    doc["components"]["schemas"][name].get("example").cloned()
}

/// An operation with a 2xx JSON answer: its key (`POST /v1/…`), the
/// request its examples make, and the answer's media type in the document.
struct Answered {
    key: String,
    request: TestRequest,
    shown: Option<Value>,
}

fn answered(doc: &Value) -> Vec<Answered> {
    let mut found = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let json_answers: Vec<&Value> = op["responses"]
                .as_object()
                .into_iter()
                .flatten()
                .filter(|(status, _)| status.starts_with('2'))
                .filter_map(|(_, answer)| answer["content"].get("application/json"))
                .collect();
            let Some(media) = json_answers.first() else {
                continue;
            };
            let key = format!("{} {path}", method.to_uppercase());
            let request = match method.as_str() {
                "get" => {
                    let query = crate::common::example_query(op);
                    let uri = match query.is_empty() {
                        true => path.clone(),
                        false => format!("{path}?{query}"),
                    };
                    TestRequest::get().uri(&uri)
                }
                "post" => {
                    let body = op["requestBody"]["content"]
                        .get("application/json")
                        .and_then(|media| example_of(doc, media))
                        .unwrap_or_else(|| panic!("{key}: its request has no example"));
                    TestRequest::post().uri(path).set_json(body)
                }
                other => panic!("{key}: a {other} with a JSON answer"),
            };
            found.push(Answered {
                key,
                request,
                shown: media.get("example").cloned(),
            });
        }
    }
    found
}

/// `answer` with the masked members' values replaced, at every depth.
fn masked(mut answer: Value) -> Value {
    fn walk(value: &mut Value) {
        match value {
            Value::Object(members) => {
                for (name, member) in members.iter_mut() {
                    if MASKED.contains(&name.as_str()) {
                        *member = Value::String("(masked)".to_owned());
                    } else {
                        walk(member);
                    }
                }
            }
            Value::Array(items) => items.iter_mut().for_each(walk),
            _ => {}
        }
    }
    walk(&mut answer);
    answer
}

#[actix_web::test]
async fn every_json_answer_the_document_shows_is_the_services_answer_to_its_example() {
    let doc = document();
    let app = app_with(Limits::default()).await;
    let write = std::env::var("ANSWERS_WRITE").is_ok();
    let mut answers = BTreeMap::new();
    let operations = answered(&doc);
    assert!(
        operations.len() >= 30,
        "only {} operations",
        operations.len()
    );
    for Answered {
        key,
        request,
        shown,
    } in operations
    {
        let reply = send(&app, request).await;
        assert!(
            reply.status.is_success(),
            "{key}: its example answered {}: {}",
            reply.status,
            reply.text
        );
        let answer: Value = serde_json::from_str(&reply.text)
            .unwrap_or_else(|e| panic!("{key}: not JSON ({e}): {}", reply.text));
        if !write {
            let shown = shown.unwrap_or_else(|| panic!("{key}: the document shows no answer"));
            assert_eq!(
                masked(shown),
                masked(answer.clone()),
                "{key}: the document shows another answer than the service's; \
                 ANSWERS_WRITE=1 cargo test --test it openapi_examples, then regenerate the document"
            );
        }
        answers.insert(key, answer);
    }
    if write {
        let text = serde_json::to_string_pretty(&answers).unwrap();
        std::fs::write(ANSWERS, text + "\n").unwrap();
    }
}
