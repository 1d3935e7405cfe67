//! Finishing touches to the generated OpenAPI document that utoipa cannot
//! be told per field:
//!
//! - every integer gets the range the server really accepts. utoipa writes
//!   an unsigned Rust integer as `format: int32` or `int64` with
//!   `minimum: 0`, which claims a signed range: a `u32` field said `int32`
//!   while the server took values up to 2^32 - 1, and a `u64` (seeds, node
//!   limits) up to 2^64 - 1;
//! - objects that need at least some properties say so (`minProperties`;
//!   utoipa-gen 5.5 writes its `min_properties` attribute as
//!   `maxProperties`, so it is set here);
//! - a query parameter whose value is an object (a game state in
//!   `render.svg`) travels as JSON: it is described by `content`
//!   (`application/json` and the object's schema), not as a bare string.

use serde_json::Value;
use utoipa::openapi::OpenApi;

/// Component schemas and the fewest properties an instance has.
const MIN_PROPERTIES: &[(&str, u64)] = &[
    // Tank War `validate`: a pick for U, D or both.
    ("TankWarOptionalPicks", 1),
];

/// The finished document, as JSON.
pub fn finish(doc: &OpenApi) -> Value {
    let mut value = serde_json::to_value(doc).unwrap_or_default();
    tighten_integers(&mut value);
    for (name, min) in MIN_PROPERTIES {
        if let Some(schema) = value
            .pointer_mut(&format!("/components/schemas/{name}"))
            .and_then(Value::as_object_mut)
        {
            schema.insert("minProperties".to_owned(), (*min).into());
        }
    }
    if let Some(paths) = value.get_mut("paths").and_then(Value::as_object_mut) {
        paths
            .values_mut()
            .filter_map(Value::as_object_mut)
            .flat_map(|item| item.values_mut())
            .filter_map(|op| op.get_mut("parameters").and_then(Value::as_array_mut))
            .flatten()
            .for_each(json_query_parameter);
    }
    value
}

/// A query parameter whose schema is a reference to an object schema
/// (optionally or null) is sent as that object's JSON.
fn json_query_parameter(parameter: &mut Value) {
    let Some(parameter) = parameter.as_object_mut() else {
        return;
    };
    if parameter.get("in").and_then(Value::as_str) != Some("query") {
        return;
    }
    let reference = match parameter.get("schema") {
        Some(schema) if schema.get("$ref").is_some() => schema.clone(),
        Some(schema) => match schema.get("oneOf").and_then(Value::as_array) {
            Some(variants) => match variants.iter().find(|v| v.get("$ref").is_some()) {
                Some(reference) => serde_json::json!({"$ref": reference["$ref"]}),
                None => return,
            },
            None => return,
        },
        None => return,
    };
    parameter.remove("schema");
    let mut media = serde_json::json!({ "schema": reference });
    if let Some(example) = parameter.remove("example") {
        // The example was written as the JSON text the parameter carries.
        let example = example
            .as_str()
            .and_then(|text| serde_json::from_str(text).ok())
            .unwrap_or(example);
        media["example"] = example;
    }
    parameter.insert(
        "content".to_owned(),
        serde_json::json!({ "application/json": media }),
    );
}

/// Walks every schema: an integer with `minimum: 0` and a signed format is
/// an unsigned Rust integer; `int32` stands for up to `u32`, `int64` for
/// `u64`/`usize`.
fn tighten_integers(value: &mut Value) {
    match value {
        Value::Object(object) => {
            let integer = match object.get("type") {
                Some(Value::String(t)) => t == "integer",
                Some(Value::Array(types)) => types.iter().any(|t| t == "integer"),
                _ => false,
            };
            let unsigned = object.get("minimum").and_then(Value::as_f64) == Some(0.0);
            if integer && unsigned && !object.contains_key("maximum") {
                match object.get("format").and_then(Value::as_str) {
                    Some("int32") => {
                        object.insert("format".to_owned(), "int64".into());
                        object.insert("maximum".to_owned(), u32::MAX.into());
                    }
                    Some("int64") => {
                        object.remove("format");
                        object.insert("maximum".to_owned(), u64::MAX.into());
                    }
                    _ => {}
                }
            }
            object.values_mut().for_each(tighten_integers);
        }
        Value::Array(items) => items.iter_mut().for_each(tighten_integers),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsigned_integers_get_their_range() {
        let mut schema = serde_json::json!({"properties": {
            "a": {"type": "integer", "format": "int32", "minimum": 0},
            "b": {"type": ["integer", "null"], "format": "int64", "minimum": 0},
            "c": {"type": "integer", "format": "int64"},
            "d": {"type": "integer", "format": "int32", "minimum": 0, "maximum": 8}
        }});
        tighten_integers(&mut schema);
        let p = &schema["properties"];
        assert_eq!(p["a"]["format"], "int64");
        assert_eq!(p["a"]["maximum"], 4_294_967_295u64);
        assert!(p["b"].get("format").is_none());
        assert_eq!(p["b"]["maximum"], u64::MAX);
        assert_eq!(
            p["c"],
            serde_json::json!({"type": "integer", "format": "int64"})
        );
        assert_eq!(p["d"]["maximum"], 8);
    }
}
