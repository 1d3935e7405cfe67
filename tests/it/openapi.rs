//! The committed OpenAPI document must be what the code generates, and it
//! must follow the rules that make generated clients typed (issue 25):
//! plain-string query parameters, game-prefixed schema names, discriminated
//! (or otherwise exclusive) `oneOf`s, `required` exactly for what is always
//! sent, enums for codes.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

#[test]
fn committed_openapi_matches_the_code() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/openapi/openapi.json");
    let committed = std::fs::read_to_string(path).unwrap_or_default();
    let generated = tank_rules::api::openapi::json();
    assert!(
        committed == generated,
        "openapi/openapi.json is out of date with the code; regenerate it with\n\n    \
         cargo run -- openapi > openapi/openapi.json\n"
    );
}

/// The document, as JSON.
fn document() -> Value {
    serde_json::from_str(&tank_rules::api::openapi::json()).unwrap()
}

/// The component schemas.
fn schemas(doc: &Value) -> &serde_json::Map<String, Value> {
    doc["components"]["schemas"].as_object().unwrap()
}

/// The component a `$ref` names.
fn ref_name(value: &Value) -> Option<&str> {
    value
        .get("$ref")?
        .as_str()?
        .strip_prefix("#/components/schemas/")
}

/// Every component `value` references, at any depth.
fn references<'a>(value: &'a Value, into: &mut Vec<&'a str>) {
    match value {
        Value::Object(object) => {
            into.extend(ref_name(value));
            object.values().for_each(|v| references(v, into));
        }
        Value::Array(items) => items.iter().for_each(|v| references(v, into)),
        _ => {}
    }
}

/// The components reachable from `roots`.
fn reachable<'a>(doc: &'a Value, roots: impl IntoIterator<Item = &'a Value>) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut stack = Vec::new();
    for root in roots {
        references(root, &mut stack);
    }
    while let Some(name) = stack.pop() {
        if seen.insert(name.to_owned()) {
            references(&doc["components"]["schemas"][name], &mut stack);
        }
    }
    seen
}

/// Every operation: path and object.
fn operations(doc: &Value) -> Vec<(&str, &Value)> {
    doc["paths"]
        .as_object()
        .unwrap()
        .iter()
        .flat_map(|(path, item)| {
            item.as_object()
                .unwrap()
                .values()
                .map(move |op| (path.as_str(), op))
        })
        .collect()
}

/// The components a request may carry, and those an answer may carry.
fn directions(doc: &Value) -> (BTreeSet<String>, BTreeSet<String>) {
    let ops = operations(doc);
    let requests = reachable(
        doc,
        ops.iter()
            .flat_map(|(_, op)| [&op["requestBody"], &op["parameters"]]),
    );
    let answers = reachable(doc, ops.iter().map(|(_, op)| &op["responses"]));
    (requests, answers)
}

/// A schema, its `$ref` followed.
fn resolve<'a>(doc: &'a Value, schema: &'a Value) -> &'a Value {
    match ref_name(schema) {
        Some(name) => resolve(doc, &doc["components"]["schemas"][name]),
        None => schema,
    }
}

#[test]
fn query_parameters_are_plain_strings() {
    let doc = document();
    let mut checked = 0;
    for (path, op) in operations(&doc) {
        for parameter in op["parameters"].as_array().into_iter().flatten() {
            let name = &parameter["name"];
            assert!(
                parameter.get("content").is_none(),
                "{path} {name}: a parameter is a plain value, not `content`"
            );
            let schema = resolve(&doc, &parameter["schema"]);
            assert_eq!(schema["type"], "string", "{path} {name}: {schema}");
            if parameter["in"] == "query" && path.ends_with("render.svg") && name == "state" {
                // A state travels as its JSON text.
                assert_eq!(schema["contentMediaType"], "application/json", "{path}");
                assert!(ref_name(&schema["contentSchema"]).is_some(), "{path}");
            }
            checked += 1;
        }
    }
    assert!(checked >= 8, "{checked} parameters");
}

#[test]
fn schema_names_carry_their_games_prefix() {
    const SHARED: &[&str] = &[
        "AiLimits",
        "AnnotateFormat",
        "AnnotationForced",
        "AnnotationForcedResult",
        "AnnotationLabel",
        "AnnotationLabelCounts",
        "AnnotationMoment",
        "AnnotationMomentKind",
        "AnnotationPlayer",
        "AnnotationUnjudged",
        "BatchProblem",
        "CompareClaim",
        "CompareDifference",
        "CompareExtra",
        "CompareListed",
        "CompareRequest",
        "CompareResponse",
        "CompareVerdict",
        "GameInfo",
        "GameRecordResult",
        "GamesResponse",
        "GridSquare",
        "Health",
        "Problem",
        "ProblemCode",
    ];
    let games: Vec<(&str, String)> = crate::common::games()
        .into_iter()
        .map(|id| (id, crate::common::schema_prefix(id)))
        .collect();
    assert_eq!(games[0].1, "TankBattle");
    let doc = document();
    for name in schemas(&doc).keys() {
        assert!(
            SHARED.contains(&name.as_str())
                || games
                    .iter()
                    .any(|(_, prefix)| name.starts_with(prefix.as_str())),
            "{name} names no game"
        );
    }
    // And a game's operations use only its own schemas and the shared ones.
    for (game, prefix) in &games {
        let ops = operations(&doc);
        let used = reachable(
            &doc,
            ops.iter()
                .filter(|(path, _)| path.starts_with(&format!("/v1/{game}/")))
                .map(|(_, op)| *op),
        );
        for name in used {
            assert!(
                name.starts_with(prefix.as_str()) || SHARED.contains(&name.as_str()),
                "{game} uses {name}"
            );
        }
    }
}

/// The properties an instance of `schema` must have, and whether it may
/// have others.
fn shape(schema: &Value) -> (BTreeSet<&str>, BTreeSet<&str>, bool) {
    let required = schema["required"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let listed = schema["properties"]
        .as_object()
        .into_iter()
        .flat_map(|p| p.keys().map(String::as_str))
        .collect();
    (required, listed, schema["additionalProperties"] == false)
}

#[test]
fn every_one_of_objects_is_discriminated_or_exclusive() {
    let doc = document();
    let mut discriminated = 0;
    let mut exclusive = 0;
    let mut visit = |schema: &Value, at: &str| {
        let Some(variants) = schema["oneOf"].as_array() else {
            return;
        };
        let objects: Vec<&Value> = variants.iter().map(|v| resolve(&doc, v)).collect();
        if !objects.iter().all(|v| v["type"] == "object") {
            return; // `null` or a value: an optional field, not a union
        }
        if let Some(tag) = schema["discriminator"]["propertyName"].as_str() {
            let mapping = schema["discriminator"]["mapping"].as_object().unwrap();
            assert_eq!(mapping.len(), variants.len(), "{at}");
            for (value, target) in mapping {
                let target = target.as_str().unwrap();
                let target = &doc["components"]["schemas"]
                    [target.trim_start_matches("#/components/schemas/")];
                assert!(shape(target).0.contains(tag), "{at}: {tag} not required");
                assert_eq!(target["properties"][tag]["const"], *value, "{at}");
            }
            discriminated += 1;
            return;
        }
        // Without a property to tell them apart, each pair of variants must
        // be told apart by a required property the other does not allow.
        for (i, a) in objects.iter().enumerate() {
            for b in &objects[i + 1..] {
                let (a_required, a_listed, a_closed) = shape(a);
                let (b_required, b_listed, b_closed) = shape(b);
                let apart = (b_closed && a_required.iter().any(|p| !b_listed.contains(p)))
                    || (a_closed && b_required.iter().any(|p| !a_listed.contains(p)));
                assert!(apart, "{at}: {a} and {b} can both match");
            }
        }
        exclusive += 1;
    };
    fn walk(value: &Value, at: &str, visit: &mut dyn FnMut(&Value, &str)) {
        match value {
            Value::Object(object) => {
                visit(value, at);
                for (key, inner) in object {
                    walk(inner, &format!("{at}/{key}"), visit);
                }
            }
            Value::Array(items) => items.iter().for_each(|v| walk(v, at, visit)),
            _ => {}
        }
    }
    walk(&doc, "", &mut visit);
    // The events of two games, the batch items and results of three:
    // discriminated (by `op`, so that every generator decodes a result to
    // its type); none left to be told apart by trying each.
    assert!(discriminated >= 8, "{discriminated} discriminated");
    assert_eq!(exclusive, 0, "{exclusive} exclusive");
}

#[test]
fn answers_require_what_they_always_send() {
    let doc = document();
    let (requests, answers) = directions(&doc);
    let mut optional = BTreeMap::new();
    for name in answers.difference(&requests) {
        let schema = &doc["components"]["schemas"][name];
        let (required, listed, _) = shape(schema);
        for property in listed.difference(&required) {
            let field = &schema["properties"][property];
            let nullable = field["type"]
                .as_array()
                .is_some_and(|t| t.contains(&Value::from("null")))
                || field["oneOf"]
                    .as_array()
                    .is_some_and(|v| v.iter().any(|v| v["type"] == "null"));
            // A field sent as null is always sent: it is required.
            assert!(
                !nullable,
                "{name}.{property} is sent as null but not required"
            );
            // One that is left out says when.
            let description = field["description"]
                .as_str()
                .or(resolve(&doc, field)["description"].as_str())
                .unwrap_or_default();
            assert!(
                description.contains("absent"),
                "{name}.{property}: say when it is absent ({description:?})"
            );
            optional.insert(format!("{name}.{property}"), ());
        }
    }
    assert!(optional.contains_key("TankBattleValidateResponse.move"));
}

#[test]
fn codes_are_enums() {
    let doc = document();
    let (requests, answers) = directions(&doc);
    let mut checked = 0;
    for name in answers.difference(&requests) {
        let schema = &doc["components"]["schemas"][name];
        // (Events' `kind` and batch items' `op` are their discriminators'
        // constants: see `every_one_of_objects_is_discriminated_or_exclusive`.)
        for property in ["code", "dir"] {
            let field = &schema["properties"][property];
            if field.is_null() {
                continue;
            }
            let field = resolve(&doc, field);
            let values = field["enum"]
                .as_array()
                .map(Vec::len)
                .or(field.get("const").map(|_| 1));
            assert!(
                values.is_some(),
                "{name}.{property} is not an enum: {field}"
            );
            checked += 1;
        }
    }
    let problem_codes = &doc["components"]["schemas"]["ProblemCode"]["enum"];
    for code in [
        "BAD_POSITION",
        "PATH_BLOCKED",
        "END_OF_TRACK",
        "MISSING_ORDER",
        "UNAUTHORIZED",
    ] {
        assert!(
            problem_codes.as_array().unwrap().contains(&code.into()),
            "{code}"
        );
    }
    assert!(checked >= 6, "{checked} code fields");
}

#[test]
fn operations_that_may_need_a_key_name_the_schemes() {
    let doc = document();
    let schemes = doc["components"]["securitySchemes"].as_object().unwrap();
    assert_eq!(schemes["ApiKey"]["name"], "X-Api-Key");
    assert_eq!(schemes["BearerKey"]["scheme"], "bearer");
    let mut open = 0;
    for (path, op) in operations(&doc) {
        let needs_key = op["responses"].get("401").is_some();
        // Every operation says (linters and generators ask it): the
        // operator's endpoints need nothing (`[]`).
        let security = op["security"]
            .as_array()
            .unwrap_or_else(|| panic!("{path}: no security"));
        assert_eq!(needs_key, !security.is_empty(), "{path}");
        if needs_key {
            // Anonymous too: a server run without keys takes any call.
            assert!(security.contains(&serde_json::json!({})), "{path}");
        } else {
            open += 1;
        }
    }
    assert!(
        open >= 3,
        "{open} operations without a key (healthz, readyz, metrics, …)"
    );
}

#[test]
fn answers_declare_the_headers_they_carry() {
    let doc = document();
    assert_eq!(doc["info"]["license"]["identifier"], "MIT OR Apache-2.0");
    let headers = doc["components"]["headers"].as_object().unwrap();
    for name in ["X-Request-Id", "RateLimit-Policy", "RateLimit"] {
        assert!(headers.contains_key(name), "{name}");
    }
    let mut checked = 0;
    for (path, op) in operations(&doc) {
        for (status, response) in op["responses"].as_object().unwrap() {
            let declared = &response["headers"];
            assert!(declared.get("X-Request-Id").is_some(), "{path} {status}");
            let quotas = path.starts_with("/v1/");
            assert_eq!(
                declared.get("RateLimit").is_some(),
                quotas,
                "{path} {status}"
            );
            // A refusal that says when to come back says it in a header
            // the client can read: over a quota, or every slot taken.
            if status == "429" || status == "503" {
                assert!(
                    declared.get("Retry-After").is_some(),
                    "{path} {status}: no Retry-After"
                );
            }
            checked += 1;
        }
    }
    assert!(checked > 100, "{checked} answers");
}
