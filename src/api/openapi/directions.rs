//! Answers' schemas apart from requests'. A component schema that serves
//! both (a JSON-state game's state: sent in requests, where fields left
//! out take their defaults, and answered whole) keeps its optional fields
//! for requests, while answers refer to `<Name>Answer`, a copy that
//! requires every field: serde writes every field of these DTOs, and the
//! answer-against-document test (`tests/it/answers.rs`) holds the server
//! to it. Generated clients then read an answer's state without checking
//! for fields that are always there.

use std::collections::BTreeSet;

use serde_json::{json, Map, Value};

use super::refs::{each_object, operations_mut, SCHEMAS};
use crate::api::transport::schema::{reach, refs};

/// The suffix of an answer's copy of a schema that serves both ways.
const ANSWER: &str = "Answer";

/// Splits every schema that serves requests and answers and leaves a
/// field optional (and every one that refers to such a schema), and
/// points the answers at the copies.
pub fn split(doc: &mut Value) {
    let (requests, answers) = directions(doc);
    let schema = |name: &str| doc.pointer(&format!("/components/schemas/{name}"));
    // A schema that refers to a split one is split too, so that answers
    // reach only copies.
    let mut split = BTreeSet::new();
    while let Some(name) = requests.intersection(&answers).find(|name| {
        !split.contains(*name)
            && schema(name).is_some_and(|schema| {
                let mut named = BTreeSet::new();
                refs(schema, &mut named);
                has_optional(schema) || named.iter().any(|n| split.contains(n))
            })
    }) {
        split.insert(name.clone());
    }
    let copies: Vec<(String, Value)> = split
        .iter()
        .filter_map(|name| {
            let mut copy = schema(name)?.clone();
            copy["required"] = copy["properties"]
                .as_object()
                .map_or(json!([]), |p| p.keys().cloned().collect());
            point_at_copies(&mut copy, &split);
            Some((format!("{name}{ANSWER}"), copy))
        })
        .collect();
    for (_, _, op) in operations_mut(doc) {
        if let Some(responses) = op.get_mut("responses") {
            point_at_copies(responses, &split);
        }
    }
    let Some(Value::Object(schemas)) = doc.pointer_mut("/components/schemas") else {
        return;
    };
    for name in answers.difference(&requests) {
        if let Some(schema) = schemas.get_mut(name) {
            point_at_copies(schema, &split);
        }
    }
    schemas.extend(copies);
}

/// Whether an object schema lists a property it does not require.
fn has_optional(schema: &Value) -> bool {
    let required = schema["required"].as_array();
    let optional = |name: &String| !required.is_some_and(|r| r.iter().any(|n| n == name.as_str()));
    schema["properties"]
        .as_object()
        .is_some_and(|p| p.keys().any(optional))
}

/// Every `$ref` to a split schema in `value` pointed at its copy.
fn point_at_copies(value: &mut Value, split: &BTreeSet<String>) {
    each_object(value, &mut |object| {
        let copied = |to: &str| to.strip_prefix(SCHEMAS).is_some_and(|n| split.contains(n));
        match object.get_mut("$ref") {
            Some(Value::String(to)) if copied(to) => to.push_str(ANSWER),
            _ => {}
        }
    });
}

/// The component schemas requests reach (bodies, parameters) and those
/// answers reach (responses), following references.
fn directions(doc: &Value) -> (BTreeSet<String>, BTreeSet<String>) {
    let mut requests = BTreeSet::new();
    let mut answers = BTreeSet::new();
    let paths = doc["paths"].as_object().into_iter().flat_map(Map::values);
    for op in paths.filter_map(Value::as_object).flat_map(Map::values) {
        for part in ["requestBody", "parameters"] {
            if let Some(value) = op.get(part) {
                reach(doc, value, &mut requests);
            }
        }
        if let Some(responses) = op.get("responses") {
            reach(doc, responses, &mut answers);
        }
    }
    (requests, answers)
}

#[cfg(test)]
mod tests {
    use super::super::refs::SCHEMAS;
    use super::*;
    use serde_json::json;

    #[test]
    fn answers_get_a_copy_that_requires_every_field() {
        let mut doc = json!({
            "paths": {"/a": {"post": {
                "requestBody": {"content": {"application/json": {"schema": {"$ref": format!("{SCHEMAS}Req")}}}},
                "responses": {"200": {"content": {"application/json": {"schema": {"$ref": format!("{SCHEMAS}Res")}}}}},
            }}},
            "components": {"schemas": {
                "Req": {"type": "object", "required": ["state"], "properties": {"state": {"$ref": format!("{SCHEMAS}State")}}},
                "Res": {"type": "object", "required": ["state", "other"], "properties": {
                    "state": {"$ref": format!("{SCHEMAS}State")},
                    "other": {"$ref": format!("{SCHEMAS}Whole")},
                }},
                "State": {"type": "object", "required": ["a"], "properties": {
                    "a": {"type": "integer"}, "round": {"type": "integer"},
                    "cards": {"$ref": format!("{SCHEMAS}Cards")},
                }},
                "Cards": {"type": "object", "properties": {"P1": {"type": "integer"}}},
                "Whole": {"type": "object", "required": ["x"], "properties": {"x": {"type": "integer"}}},
            }},
        });
        split(&mut doc);
        let schemas = &doc["components"]["schemas"];
        assert_eq!(
            schemas["StateAnswer"]["required"],
            json!(["a", "round", "cards"])
        );
        assert_eq!(
            schemas["StateAnswer"]["properties"]["cards"]["$ref"],
            format!("{SCHEMAS}CardsAnswer")
        );
        assert_eq!(schemas["CardsAnswer"]["required"], json!(["P1"]));
        // The request keeps its schema; the answer points at the copy.
        assert_eq!(
            schemas["Req"]["properties"]["state"]["$ref"],
            format!("{SCHEMAS}State")
        );
        assert_eq!(
            schemas["Res"]["properties"]["state"]["$ref"],
            format!("{SCHEMAS}StateAnswer")
        );
        assert_eq!(schemas["State"]["required"], json!(["a"]));
        // A schema only answers use is not copied.
        assert!(schemas.get("WholeAnswer").is_none());
    }
}
