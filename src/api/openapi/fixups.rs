//! Finishing touches to the generated OpenAPI document that utoipa cannot
//! be told per field, each a rule applied to the whole document:
//!
//! - every integer gets the range the server really accepts. utoipa writes
//!   an unsigned Rust integer as `format: int32` or `int64` with
//!   `minimum: 0`, which claims a signed range: a `u32` field said `int32`
//!   while the server took values up to 2^32 - 1, and a `u64` (seeds, node
//!   limits) up to 2^64 - 1;
//! - a signed integer's format is said as bounds too (`int64`: ±2^63);
//! - objects that need at least some properties say so (`minProperties`;
//!   utoipa-gen 5.5 writes its `min_properties` attribute as
//!   `maxProperties`, so it is set here);
//! - an optional parameter is left out, never null;
//! - a query parameter is a plain string with its notation's schema (a
//!   TBN, a square), or, when its value is an object (a game state in
//!   `render.svg`), a string of JSON: `contentMediaType` and
//!   `contentSchema` say which, so a client sends the text as it is;
//! - an internally tagged enum (events, with `kind`) is a `oneOf` of named
//!   variants with a `discriminator`, so clients get one type a variant;
//! - a game's `batch` is typed from the game's own operations: each
//!   request item is one of their request bodies with `op` (discriminated
//!   by `op`), each result one of their answers or a `Problem`;
//! - every object says it has no properties beyond those listed (the
//!   server refuses unknown request fields and answers none);
//! - a schema that serves requests and answers and leaves fields optional
//!   (a state) is split: answers require every field ([`directions`]);
//! - every 2xx JSON answer shows the service's own answer to the
//!   operation's request example (`openapi/answers.json`);
//! - the operations that may answer 401 name the API key schemes
//!   (`X-Api-Key` or a bearer token), optional unless the server is run
//!   with keys.

use serde_json::{json, Map, Value};

use super::directions;
use super::refs::{each_object, operations_mut, ref_name, reference, SCHEMAS};
use crate::api::flows::batch;
use crate::limits::Limits;
use crate::operations::Operation;
use utoipa::openapi::OpenApi;

/// The finished document, as JSON.
pub fn finish(doc: &OpenApi) -> Value {
    let mut value = serde_json::to_value(doc).unwrap_or_default();
    tighten_integers(&mut value);
    // Tank War `validate`: a pick for U, D or both.
    if let Some(Value::Object(schema)) =
        value.pointer_mut("/components/schemas/TankWarOptionalPicks")
    {
        schema.insert("minProperties".to_owned(), 1.into());
    }
    let schemas = value["components"]["schemas"].clone();
    for parameter in operations_mut(&mut value)
        .filter_map(|(_, _, op)| op.get_mut("parameters").and_then(Value::as_array_mut))
        .flatten()
    {
        query_parameter(parameter, &schemas);
        not_null(parameter);
    }
    if let Some(Value::Object(schemas)) = value.pointer_mut("/components/schemas") {
        name_tagged_variants(schemas);
    }
    type_batches(&mut value);
    if let Some(schemas) = value.pointer_mut("/components/schemas") {
        close_objects(schemas);
    }
    directions::split(&mut value);
    show_answers(&mut value);
    secure(&mut value);
    declare_headers(&mut value);
    value
}

/// The service's own answers (`openapi/answers.json`: operation → its
/// 2xx JSON answer to the operation's request example), as each such
/// answer's example, so Swagger UI shows a real answer rather than one it
/// makes up from the schema. `tests/it/openapi_examples.rs` writes the
/// file from the service and checks it against it.
fn show_answers(doc: &mut Value) {
    const ANSWERS: &str = include_str!("../../../openapi/answers.json");
    let Ok(Value::Object(answers)) = serde_json::from_str::<Value>(ANSWERS) else {
        return;
    };
    for (path, method, op) in operations_mut(doc) {
        let Some(answer) = answers.get(&format!("{} {path}", method.to_uppercase())) else {
            continue;
        };
        let Some(Value::Object(responses)) = op.get_mut("responses") else {
            continue;
        };
        for (_, response) in responses.iter_mut().filter(|(s, _)| s.starts_with('2')) {
            if let Some(Value::Object(media)) = response.pointer_mut("/content/application~1json") {
                media.insert("example".to_owned(), answer.clone());
            }
        }
    }
}

/// The headers answers carry: `X-Request-Id` on every answer; on the
/// `/v1` operations, `RateLimit-Policy` and `RateLimit` when the server
/// has quotas (and on its 401s and 429s).
fn declare_headers(doc: &mut Value) {
    if let Some(Value::Object(components)) = doc.get_mut("components") {
        components.insert(
            "headers".to_owned(),
            json!({
                "X-Request-Id": {
                    "description": "The request's own `X-Request-Id` when it is well-formed (letters, digits, `.`, `_`, `-`, `:`; at most 64 characters), else one the server made; a problem names it as its `instance`.",
                    "schema": {"type": "string", "maxLength": 64},
                },
                "RateLimit-Policy": {
                    "description": "Sent when the server has quotas: the quota the request spent, as `\"<requests|searches>\";q=<quota>;w=<window seconds>` (IETF draft-ietf-httpapi-ratelimit-headers).",
                    "schema": {"type": "string"},
                },
                "RateLimit": {
                    "description": "Sent when the server has quotas: what is left of it, as `\"<requests|searches>\";r=<remaining>;t=<seconds to its reset>`.",
                    "schema": {"type": "string"},
                },
            }),
        );
    }
    for (path, _, op) in operations_mut(doc) {
        let names = if path.starts_with("/v1/") {
            &["X-Request-Id", "RateLimit-Policy", "RateLimit"][..]
        } else {
            &["X-Request-Id"]
        };
        let Some(Value::Object(responses)) = op.get_mut("responses") else {
            continue;
        };
        for response in responses.values_mut().filter_map(Value::as_object_mut) {
            let Value::Object(headers) = response.entry("headers").or_insert_with(|| json!({}))
            else {
                continue;
            };
            for name in names {
                let header = json!({"$ref": format!("#/components/headers/{name}")});
                headers.insert((*name).to_owned(), header);
            }
        }
    }
}

/// A query parameter whose schema names a component (optionally or
/// null): a string notation is that schema itself; an object (a state)
/// travels as its JSON text.
fn query_parameter(parameter: &mut Value, schemas: &Value) {
    let Some(parameter) = parameter.as_object_mut() else {
        return;
    };
    if parameter.get("in").and_then(Value::as_str) != Some("query") {
        return;
    }
    let schema = parameter.get("schema");
    let variants = || schema?.get("oneOf")?.as_array()?.iter().find_map(ref_name);
    let named = schema.and_then(ref_name).or_else(variants);
    let Some(name) = named.map(str::to_owned) else {
        return;
    };
    let is_object = schemas.get(&name).and_then(|s| s.get("type")) == Some(&json!("object"));
    // Every query parameter is bounded (it is part of the request head,
    // whose largest size is made from these).
    let schema = if is_object {
        json!({
            "type": "string",
            "contentMediaType": "application/json",
            "contentSchema": reference(&name),
            "maxLength": Limits::QUERY_STATE_MAX_CHARS,
        })
    } else {
        let mut schema = reference(&name);
        schema["maxLength"] = json!(Limits::QUERY_NOTATION_MAX_CHARS);
        schema
    };
    parameter.insert("schema".to_owned(), schema);
}

/// A parameter is left out when it has no value, never null: an optional
/// `T` is a `T`.
fn not_null(parameter: &mut Value) {
    let Some(types) = parameter.pointer_mut("/schema/type") else {
        return;
    };
    if let Value::Array(list) = types {
        list.retain(|t| t != "null");
        if let [only] = list.as_mut_slice() {
            *types = only.take();
        }
    }
}

/// The property every variant of `variants` has as a required,
/// single-valued string, with each variant's value: the tag of an
/// internally tagged enum.
fn tag_of(variants: &[Value]) -> Option<(String, Vec<String>)> {
    let required = variants.first()?.get("required")?.as_array()?;
    required.iter().filter_map(Value::as_str).find_map(|tag| {
        let values = variants.iter().map(|variant| {
            let required = variant.get("required")?.as_array()?.contains(&json!(tag));
            let tagged = required && variant.get("$ref").is_none();
            match variant
                .pointer(&format!("/properties/{tag}/enum"))?
                .as_array()?
                .as_slice()
            {
                [Value::String(value)] if tagged => Some(value.clone()),
                _ => None,
            }
        });
        Some((tag.to_owned(), values.collect::<Option<_>>()?))
    })
}

/// `FooBar` from `foo_bar` or `foo-bar`.
fn pascal_case(text: &str) -> String {
    text.split(['_', '-'])
        .map(|word| {
            let mut chars = word.chars();
            chars
                .next()
                .map(|first| first.to_ascii_uppercase().to_string() + chars.as_str())
                .unwrap_or_default()
        })
        .collect()
}

/// Each internally tagged enum (a `oneOf` of inline objects told apart by
/// a single-valued property) becomes a `oneOf` of named variants, its tag
/// a `const`, with a `discriminator`: `TankWarEvent` → `TankWarEventMove`, ….
fn name_tagged_variants(schemas: &mut Map<String, Value>) {
    let mut added = Vec::new();
    for (name, schema) in schemas.iter_mut() {
        let Some(variants) = schema.get("oneOf").and_then(Value::as_array) else {
            continue;
        };
        let Some((tag, values)) = tag_of(variants) else {
            continue;
        };
        let mut refs = Vec::new();
        let mut mapping = Map::new();
        for (variant, value) in variants.iter().zip(&values) {
            let mut variant = variant.clone();
            variant[&"properties"][&tag] = json!({"type": "string", "const": value});
            let variant_name = format!("{name}{}", pascal_case(value));
            mapping.insert(value.clone(), json!(format!("{SCHEMAS}{variant_name}")));
            refs.push(reference(&variant_name));
            added.push((variant_name, variant));
        }
        schema["oneOf"] = Value::Array(refs);
        schema["discriminator"] = json!({"propertyName": tag, "mapping": mapping});
    }
    schemas.extend(added);
}

/// Types each game's `batch` from its operations. A request item is one
/// of the game's JSON operations' request bodies with `op`, the
/// operation's name (`<Game>Batch<Op>`); a result is the operation's
/// answer with `op` (`<Game>Batch<Op>Result`), or a problem with `op`
/// `problem` (`BatchProblem`): both discriminated by `op`, so that every
/// generator decodes each to its type.
fn type_batches(doc: &mut Value) {
    let batches: Vec<(String, String)> = operations_mut(doc)
        .filter(|(path, method, _)| path.ends_with(Operation::Batch.path()) && method == "post")
        .filter_map(|(path, _, op)| {
            let body = op.pointer("/requestBody/content/application~1json/schema")?;
            Some((path, ref_name(body)?.to_owned()))
        })
        .collect();
    let problem = doc
        .pointer(&format!("/components/schemas/{PROBLEM}"))
        .map(|problem| {
            with_op(
                problem,
                (batch::PROBLEM, "The request failed"),
                "A request's problem document, `op` `problem` (`field` located in the batch).",
            )
        });
    let mut typed = Vec::new();
    for (path, request) in batches {
        let Some(prefix) = request.strip_suffix("BatchRequest").map(str::to_owned) else {
            continue;
        };
        let base = path.trim_end_matches(Operation::Batch.path());
        let ops = doc
            .pointer(&format!(
                "/components/schemas/{request}/properties/requests/items/properties/op/enum"
            ))
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let mut items = Vec::new();
        let mut mapping = Map::new();
        let mut results = Vec::new();
        let mut result_mapping = Map::from_iter([(
            batch::PROBLEM.to_owned(),
            json!(format!("{SCHEMAS}{BATCH_PROBLEM}")),
        )]);
        for op in ops.iter().filter_map(Value::as_str) {
            let operation = format!("/paths/{}/post", pointer_escape(&format!("{base}/{op}")));
            let schema_of = |pointer: &str| {
                let name = doc
                    .pointer(&format!("{operation}{pointer}"))
                    .and_then(ref_name)?;
                doc.pointer(&format!("/components/schemas/{name}"))
            };
            if let Some(body) = schema_of("/requestBody/content/application~1json/schema") {
                let description = format!("A `{op}` request: `op` and the fields of its body.");
                let item_name = format!("{prefix}Batch{}", pascal_case(op));
                mapping.insert(op.to_owned(), json!(format!("{SCHEMAS}{item_name}")));
                let op = (op, "The operation to run");
                items.push((item_name, with_op(body, op, &description)));
            }
            if let Some(answer) = schema_of("/responses/200/content/application~1json/schema") {
                let description = format!("A `{op}` answer: `op` and its 200 body.");
                let result_name = format!("{prefix}Batch{}Result", pascal_case(op));
                result_mapping.insert(op.to_owned(), json!(format!("{SCHEMAS}{result_name}")));
                let op = (op, "The operation that answered");
                results.push((result_name, with_op(answer, op, &description)));
            }
        }
        let response_name = format!("{prefix}BatchResponse");
        let mut refs = vec![reference(BATCH_PROBLEM)];
        refs.extend(results.iter().map(|(name, _)| reference(name)));
        let response = json!({
            "type": "object",
            "description": "The answers of a batch, one per request, in request order.",
            "required": ["results"],
            "properties": {"results": {
                "type": "array",
                "description": "Each request's answer, `op` first: the operation's 200 body with \
        `op` its name, or the problem document it would answer (`status`, `code`, …) with `op` \
        `problem` and `field` prefixed by `requests[i].` (just `requests[i]` when the operation \
        names no field).",
                "items": {
                    "oneOf": refs,
                    "discriminator": {"propertyName": "op", "mapping": result_mapping},
                },
            }},
        });
        let refs: Vec<Value> = items.iter().map(|(name, _)| reference(name)).collect();
        typed.extend(items);
        typed.extend(results);
        typed.push((response_name.clone(), response));
        if let Some(items) = doc.pointer_mut(&format!(
            "/components/schemas/{request}/properties/requests/items"
        )) {
            *items = json!({
                "oneOf": refs,
                "discriminator": {"propertyName": "op", "mapping": mapping},
            });
        }
        let answer = format!(
            "/paths/{}/post/responses/200/content/application~1json/schema",
            pointer_escape(&path)
        );
        if let Some(schema) = doc.pointer_mut(&answer) {
            *schema = reference(&response_name);
        }
    }
    if let Some(Value::Object(schemas)) = doc.pointer_mut("/components/schemas") {
        schemas.extend(typed);
        if let Some(problem) = problem {
            schemas.insert(BATCH_PROBLEM.to_owned(), problem);
        }
        schemas.remove("BatchResponse");
    }
}

/// The name of the problem schema, and of a batch's problem result.
const PROBLEM: &str = "Problem";
const BATCH_PROBLEM: &str = "BatchProblem";

/// `schema` (an object: every request body and answer is) with `op`
/// first among its properties, always `op`, and required; without its
/// example (which has no `op`).
fn with_op(schema: &Value, (op, what): (&str, &str), description: &str) -> Value {
    let op_property = json!({"type": "string", "const": op, "description": what});
    let mut item = schema.clone();
    let mut properties = Map::from_iter([("op".to_owned(), op_property)]);
    properties.extend(
        schema["properties"]
            .as_object()
            .cloned()
            .unwrap_or_default(),
    );
    item["properties"] = Value::Object(properties);
    let required = schema["required"].as_array().into_iter().flatten().cloned();
    item["required"] = std::iter::once(json!("op")).chain(required).collect();
    if let Some(object) = item.as_object_mut() {
        object.remove("example");
        object.remove("examples");
    }
    item["description"] = json!(description);
    item
}

/// `text` as one token of a JSON pointer.
fn pointer_escape(text: &str) -> String {
    text.replace('~', "~0").replace('/', "~1")
}

/// Every object schema with listed properties, at any depth, allows no
/// others.
fn close_objects(value: &mut Value) {
    each_object(value, &mut |object| {
        if object.contains_key("properties") && !object.contains_key("additionalProperties") {
            object.insert("additionalProperties".to_owned(), false.into());
        }
    });
}

/// The API key schemes, and the security of every operation: for those
/// that document a 401, anonymous (a server run without keys), or a key in
/// `X-Api-Key`, or a bearer token; for the others none (`[]`).
fn secure(doc: &mut Value) {
    for (_, _, op) in operations_mut(doc) {
        op["security"] = if op.pointer("/responses/401").is_some() {
            json!([{}, {"ApiKey": []}, {"BearerKey": []}])
        } else {
            // The operator's endpoints (health, metrics, the catalogue):
            // never behind a key.
            json!([])
        };
    }
    if let Some(Value::Object(components)) = doc.get_mut("components") {
        components.insert(
            "securitySchemes".to_owned(),
            json!({
                "ApiKey": {
                    "type": "apiKey",
                    "in": "header",
                    "name": "X-Api-Key",
                    "description": "An API key of the server's `--api-keys-file`; needed only when the server is run with keys.",
                },
                "BearerKey": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "The same API key as a bearer token (`Authorization: Bearer <key>`).",
                },
            }),
        );
    }
}

/// Walks every schema: an integer with `minimum: 0` and a signed format is
/// an unsigned Rust integer; `int32` stands for up to `u32`, `int64` for
/// `u64`/`usize`.
fn tighten_integers(value: &mut Value) {
    each_object(value, &mut |object| {
        let integer = |t: &Value| {
            t == "integer" || t.as_array().is_some_and(|t| t.contains(&json!("integer")))
        };
        if !object.get("type").is_some_and(integer) {
            return;
        }
        let unsigned = object.get("minimum").and_then(Value::as_f64) == Some(0.0)
            && !object.contains_key("maximum");
        // A signed format's range is said as bounds too: a validator that
        // treats formats as annotations still refuses what the server
        // cannot read.
        let (format, min, max): (_, Value, Value) =
            match (object.get("format").and_then(Value::as_str), unsigned) {
                (Some("int32"), true) => (Some("int64"), 0.into(), u32::MAX.into()),
                (Some("int64"), true) => (None, 0.into(), u64::MAX.into()),
                (Some("int32"), false) => (Some("int32"), i32::MIN.into(), i32::MAX.into()),
                (Some("int64"), false) => (Some("int64"), i64::MIN.into(), i64::MAX.into()),
                _ => return,
            };
        match format {
            Some(format) => object.insert("format".to_owned(), format.into()),
            None => object.remove("format"),
        };
        object.entry("minimum").or_insert(min);
        object.entry("maximum").or_insert(max);
    });
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
            serde_json::json!({"type": "integer", "format": "int64",
                "minimum": i64::MIN, "maximum": i64::MAX})
        );
        assert_eq!(p["d"]["maximum"], 8);
    }
}
