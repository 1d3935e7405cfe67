//! References between the document's component schemas, as the
//! document's finishing touches ([`super::fixups`], [`super::directions`])
//! read and write them, and the operations that refer to them.

use serde_json::{json, Value};

pub(crate) use crate::api::transport::schema::{each_object, SCHEMAS};

/// The component a `$ref` names.
pub fn ref_name(reference: &Value) -> Option<&str> {
    reference.get("$ref")?.as_str()?.strip_prefix(SCHEMAS)
}

/// A reference to the component `name`.
pub fn reference(name: &str) -> Value {
    json!({ "$ref": format!("{SCHEMAS}{name}") })
}

/// Every operation of the document: its path, method and object.
pub fn operations_mut(doc: &mut Value) -> impl Iterator<Item = (String, String, &mut Value)> {
    doc.get_mut("paths")
        .and_then(Value::as_object_mut)
        .into_iter()
        .flat_map(|paths| paths.iter_mut())
        .filter_map(|(path, item)| Some((path.clone(), item.as_object_mut()?)))
        .flat_map(|(path, item)| {
            item.iter_mut()
                .map(move |(method, op)| (path.clone(), method.clone(), op))
        })
}
