//! What a claim's comparison finds: values that differ at their JSON
//! pointers, and the moves missing from a list and extra in it, at most
//! [`LISTED_MAX`] of each.

use serde_json::Value;

use super::dto::{Difference, Verdict, LISTED_MAX};

// A verdict gathers what its comparison finds, at most [`LISTED_MAX`] of
// each kind.
impl Verdict {
    /// Whether the comparison found nothing.
    pub(super) fn is_empty(&self) -> bool {
        self.missing.is_empty() && self.extra.is_empty() && self.differences.is_empty()
    }

    pub(super) fn differ(
        &mut self,
        field: &str,
        expected: Option<&Value>,
        claimed: Option<&Value>,
    ) {
        if self.differences.len() < LISTED_MAX {
            self.differences.push(Difference {
                field: field.to_owned(),
                expected: expected.cloned(),
                claimed: claimed.cloned(),
            });
        } else {
            self.more += 1;
        }
    }
}

/// Takes the value at `pointer` out of `value` (an object's field, or an
/// object's object's field).
pub(super) fn take(value: &mut Value, pointer: &str) -> Option<Value> {
    let (parent, key) = pointer.rsplit_once('/')?;
    let key = key.replace("~1", "/").replace("~0", "~");
    value.pointer_mut(parent)?.as_object_mut()?.remove(&key)
}

/// `key` written as a JSON pointer's token.
pub fn token(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// Every value of `claimed` that differs from `expected`'s, at its JSON
/// pointer (`at`): objects field by field (the service's order, then the
/// claim's own fields), arrays item by item, numbers by value.
pub(super) fn diff(expected: &Value, claimed: &Value, at: &mut String, found: &mut Verdict) {
    match (expected, claimed) {
        (Value::Object(ours), Value::Object(theirs)) => {
            let mark = at.len();
            for (key, value) in ours {
                at.push('/');
                at.push_str(&token(key));
                match theirs.get(key) {
                    Some(their) => diff(value, their, at, found),
                    None => found.differ(at, Some(value), None),
                }
                at.truncate(mark);
            }
            for (key, value) in theirs.iter().filter(|(key, _)| !ours.contains_key(*key)) {
                at.push('/');
                at.push_str(&token(key));
                found.differ(at, None, Some(value));
                at.truncate(mark);
            }
        }
        (Value::Array(ours), Value::Array(theirs)) => {
            let mark = at.len();
            for index in 0..ours.len().max(theirs.len()) {
                at.push('/');
                at.push_str(&index.to_string());
                match (ours.get(index), theirs.get(index)) {
                    (Some(value), Some(their)) => diff(value, their, at, found),
                    (value, their) => found.differ(at, value, their),
                }
                at.truncate(mark);
            }
        }
        (Value::Number(ours), Value::Number(theirs)) if !same_number(ours, theirs) => {
            found.differ(at, Some(expected), Some(claimed));
        }
        (Value::Number(_), Value::Number(_)) => {}
        _ if expected != claimed => found.differ(at, Some(expected), Some(claimed)),
        _ => {}
    }
}

/// Whether two numbers are the same: integers exactly, else by value
/// (`2` and `2.0` are).
fn same_number(ours: &serde_json::Number, theirs: &serde_json::Number) -> bool {
    match (ours.as_i128(), theirs.as_i128()) {
        (Some(ours), Some(theirs)) => ours == theirs,
        _ => ours.as_f64() == theirs.as_f64(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn differences(expected: Value, claimed: Value) -> Vec<(String, Option<Value>, Option<Value>)> {
        let mut found = Verdict::default();
        diff(&expected, &claimed, &mut String::new(), &mut found);
        found
            .differences
            .into_iter()
            .map(|d| (d.field, d.expected, d.claimed))
            .collect()
    }

    #[test]
    fn a_diff_names_each_differing_value_at_its_pointer() {
        assert!(differences(json!({"a": [1, {"b": 2.0}]}), json!({"a": [1, {"b": 2}]})).is_empty());
        let (big, next) = (json!(u64::MAX - 1), json!(u64::MAX));
        assert_eq!(differences(big.clone(), next.clone()).len(), 1);
        assert_eq!(differences(json!(-3), json!(-3.0)), []);
        assert_eq!(
            differences(
                json!({"a": [1, 2], "b/c": "x", "d": true}),
                json!({"a": [1], "b/c": "y", "e": null})
            ),
            [
                ("/a/1".to_owned(), Some(json!(2)), None),
                ("/b~1c".to_owned(), Some(json!("x")), Some(json!("y"))),
                ("/d".to_owned(), Some(json!(true)), None),
                ("/e".to_owned(), None, Some(json!(null))),
            ]
        );
    }

    #[test]
    fn at_most_the_cap_are_listed_and_the_rest_counted() {
        let mut found = Verdict::default();
        let many: Vec<u32> = (0..100).collect();
        diff(&json!(many), &json!([]), &mut String::new(), &mut found);
        assert_eq!(
            (found.differences.len(), found.more),
            (LISTED_MAX, 100 - LISTED_MAX)
        );
    }

    #[test]
    fn taking_a_list_removes_it_from_its_object() {
        let mut answer = json!({"P1": {"P1-2": [1], "a/b": [2]}, "count": 3});
        assert_eq!(take(&mut answer, "/P1/P1-2"), Some(json!([1])));
        assert_eq!(
            take(&mut answer, &format!("/P1/{}", token("a/b"))),
            Some(json!([2]))
        );
        assert_eq!(take(&mut answer, "/missing/x"), None);
        assert_eq!(answer, json!({"P1": {}, "count": 3}));
    }
}
