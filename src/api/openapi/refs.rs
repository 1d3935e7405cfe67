//! References between the document's component schemas, as the
//! document's finishing touches ([`super::fixups`], [`super::directions`])
//! read and write them.

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
