//! JSON Schema checks of request items (a batch's): each op's item
//! schema, compiled once from the service's document, and a broken item
//! answered as serde would name its field (`BAD_REQUEST`). The flows read
//! them from the services ([`BatchItems`]); the application compiles them
//! at start.

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use serde_json::{Map, Value};

use super::problem::RequestError;
use crate::text::Text;

/// Each game's [`ItemSchemas`], by game id; none in an application built
/// without the document (a test's), which then checks items by decoding
/// alone.
#[derive(Clone, Default)]
pub struct BatchItems(Arc<HashMap<String, ItemSchemas>>);

impl BatchItems {
    pub fn new(games: HashMap<String, ItemSchemas>) -> BatchItems {
        BatchItems(Arc::new(games))
    }

    /// The item schemas of `game`'s batch.
    pub fn of(&self, game: &str) -> Option<&ItemSchemas> {
        self.0.get(game)
    }
}

/// The JSON Schema of each op's request item, compiled from the service's
/// OpenAPI document: a JSON batch with an item that breaks its schema is
/// refused whole, as any body that breaks its schema. (What the schema
/// cannot say, a notation that does not add up or an illegal move, fails
/// the item alone.)
pub struct ItemSchemas(HashMap<String, jsonschema::Validator>);

impl ItemSchemas {
    /// The schemas of `variants` (each an op and a reference to its
    /// item's schema in `doc`'s components), compiled.
    ///
    /// Each validator keeps its root: the root holds only the schemas its
    /// item reaches ([`reachable`]), not the document's every component
    /// (25 copies of them were 10 MB of resident memory a copy of the
    /// service's document grew by).
    pub fn compile(doc: &Value, variants: impl Iterator<Item = (String, String)>) -> ItemSchemas {
        let mut validators = HashMap::new();
        for (op, variant) in variants {
            let needed = reachable(doc, &variant);
            let root = serde_json::json!({"components": {"schemas": needed}, "$ref": variant});
            match jsonschema::validator_for(&root) {
                Ok(validator) => {
                    validators.insert(op, validator);
                }
                Err(error) => {
                    tracing::error!(%error, op, "a batch item schema does not compile");
                }
            }
        }
        ItemSchemas(validators)
    }

    /// Whether `item` (its `op` included) is an instance of its op's
    /// schema; if not, the first field that breaks it, as a `BAD_REQUEST`.
    pub fn check(&self, op: &str, item: &Value) -> Result<(), RequestError> {
        let Some(validator) = self.0.get(op) else {
            return Ok(());
        };
        use jsonschema::error::ValidationErrorKind;
        validator.validate(item).map_err(|error| {
            let error = deepest(&error);
            let mut segments: Vec<String> = error
                .instance_path()
                .iter()
                .map(|s| s.to_string())
                .collect();
            // As serde names them: the unknown field itself, the missing
            // field itself.
            segments.extend(match error.kind() {
                ValidationErrorKind::AdditionalProperties { unexpected } => {
                    unexpected.first().cloned()
                }
                ValidationErrorKind::Required { property } => property.as_str().map(str::to_owned),
                _ => None,
            });
            let mut field = String::new();
            for segment in segments {
                match segment.parse::<usize>() {
                    Ok(index) => field.push_str(&format!("[{index}]")),
                    Err(_) if field.is_empty() => field.push_str(&segment),
                    Err(_) => field.push_str(&format!(".{segment}")),
                }
            }
            RequestError::bad_request(broken(op, error), (!field.is_empty()).then_some(&*field))
        })
    }
}

/// Where a `$ref` to a component schema points.
pub(crate) const SCHEMAS: &str = "#/components/schemas/";

/// The component schemas of `doc` that the one `reference` reaches
/// through `$ref`s, itself included; `None` when `doc` has none.
fn reachable(doc: &Value, reference: &str) -> Option<Map<String, Value>> {
    let schemas = doc.pointer("/components/schemas")?.as_object()?;
    let mut names = BTreeSet::new();
    reach(doc, &serde_json::json!({ "$ref": reference }), &mut names);
    let found = |name: String| schemas.get(&name).cloned().map(|schema| (name, schema));
    Some(names.into_iter().filter_map(found).collect())
}

/// Adds the component schemas of `doc` that `value` refers to, and
/// theirs, to `reached` (a name no schema has included).
pub(crate) fn reach(doc: &Value, value: &Value, reached: &mut BTreeSet<String>) {
    let mut named = BTreeSet::new();
    refs(value, &mut named);
    for name in named {
        if reached.insert(name.clone()) {
            if let Some(schema) = doc.pointer(&format!("/components/schemas/{name}")) {
                reach(doc, schema, reached);
            }
        }
    }
}

/// The component schemas `value` refers to directly.
pub(crate) fn refs(value: &Value, named: &mut BTreeSet<String>) {
    let reference = value.get("$ref").and_then(Value::as_str);
    if let Some(name) = reference.and_then(|reference| reference.strip_prefix(SCHEMAS)) {
        named.insert(name.to_owned());
    }
    match value {
        Value::Object(object) => object.values().for_each(|inner| refs(inner, named)),
        Value::Array(items) => items.iter().for_each(|inner| refs(inner, named)),
        _ => {}
    }
}

/// Calls `visit` on every object in `value`, at any depth, each before
/// the objects it holds.
pub fn each_object(value: &mut Value, visit: &mut dyn FnMut(&mut Map<String, Value>)) {
    match value {
        Value::Object(object) => {
            visit(object);
            object
                .values_mut()
                .for_each(|inner| each_object(inner, visit));
        }
        Value::Array(items) => items.iter_mut().for_each(|inner| each_object(inner, visit)),
        _ => {}
    }
}

/// The catalogues' `request-schema` for `error` in the `op` request: the
/// validator's words (English's), and the facts another language says it
/// by: the fault's kind, the field named, the value (quoted in part), and
/// what was expected or the limit.
fn broken(op: &str, error: &jsonschema::ValidationError) -> Text {
    use crate::text::quote;
    use jsonschema::error::{TypeKind, ValidationErrorKind as Kind};
    // The validator's words begin with the value at fault, as JSON: it is
    // quoted in part, as every value the client sent.
    let value = error.instance().to_string();
    let message = error.to_string();
    let message = match message.strip_prefix(value.as_str()) {
        Some(rest) => format!("{}{rest}", quote(&value)),
        None => crate::text::quotes_cut(&message, &['\'']),
    };
    let value = quote(&value).into_owned();
    // Each fault's own fact (the field named, what was expected, the
    // limit), set in its place among the others, which stay empty.
    let (fault, fact, said) = match error.kind() {
        Kind::Required { property } => {
            let name = property
                .as_str()
                .map_or_else(|| property.to_string(), str::to_owned);
            ("required", "name", name)
        }
        Kind::AdditionalProperties { unexpected } => {
            let names: Vec<_> = unexpected.iter().map(|name| quote(name)).collect();
            ("additional", "name", names.join(", "))
        }
        Kind::Type {
            kind: TypeKind::Single(kind),
        } => ("type", "expected", kind.to_string()),
        Kind::Enum { options } => ("enum", "expected", options.to_string()),
        Kind::Minimum { limit } => ("minimum", "limit", limit.to_string()),
        Kind::Maximum { limit } => ("maximum", "limit", limit.to_string()),
        Kind::MinLength { limit } => ("min-length", "limit", limit.to_string()),
        Kind::MaxLength { limit } => ("max-length", "limit", limit.to_string()),
        Kind::MinItems { limit } => ("min-items", "limit", limit.to_string()),
        Kind::MaxItems { limit } => ("max-items", "limit", limit.to_string()),
        Kind::Pattern { pattern } => ("pattern", "expected", pattern.clone()),
        _ => ("other", "name", String::new()),
    };
    Text::new("request-schema")
        .with("op", op)
        .with("error", message)
        .with("fault", fault)
        .with("name", "")
        .with("value", value)
        .with("expected", "")
        .with("limit", "")
        .with(fact, said)
}

/// The most precise error behind `error`: where a value matches none of
/// a `oneOf`'s variants (an optional field is null or its type), the
/// variant's error that reaches deepest into the value.
fn deepest<'a>(error: &'a jsonschema::ValidationError<'a>) -> &'a jsonschema::ValidationError<'a> {
    use jsonschema::error::ValidationErrorKind::{AnyOf, OneOfNotValid};
    match error.kind() {
        OneOfNotValid { context } | AnyOf { context } => context
            .iter()
            .flatten()
            .map(deepest)
            .max_by_key(|inner| inner.instance_path().iter().count())
            .unwrap_or(error),
        _ => error,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn doc() -> Value {
        let schemas = json!({
            "Item": {"type": "object", "properties": {
                "position": {"$ref": "#/components/schemas/Position"},
                "moves": {"type": "array", "items": {"$ref": "#/components/schemas/Move"}}
            }},
            "Position": {"anyOf": [{"$ref": "#/components/schemas/Square"}, {"type": "string"}]},
            "Move": {"type": "string"},
            "Square": {"type": "string", "pattern": "^[a-k]"},
            "Unrelated": {"$ref": "#/components/schemas/Move"}
        });
        json!({"components": {"schemas": schemas}})
    }

    #[test]
    fn an_item_root_holds_the_schemas_it_reaches_and_no_other() {
        let found = reachable(&doc(), "#/components/schemas/Item").unwrap();
        let names: Vec<&str> = found.keys().map(String::as_str).collect();
        assert_eq!(names, ["Item", "Move", "Position", "Square"]);
        assert!(reachable(&doc(), "#/components/schemas/Nothing").is_some_and(|m| m.is_empty()));
    }

    #[test]
    fn a_pruned_root_checks_items_as_the_whole_document_does() {
        let items = ItemSchemas::compile(
            &doc(),
            [("op".to_owned(), "#/components/schemas/Item".to_owned())].into_iter(),
        );
        assert!(items
            .check("op", &json!({"position": "a1", "moves": ["x"]}))
            .is_ok());
        assert!(items
            .check("op", &json!({"position": "a1", "moves": [3]}))
            .is_err());
        assert!(items.check("op", &json!({"position": 7})).is_err());
    }
}
