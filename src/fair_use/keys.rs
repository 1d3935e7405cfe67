//! API keys: the keys file, held as BLAKE3 digests from the moment it is
//! loaded (a presented key is hashed and looked up by its digest, never
//! compared as text), and the key a request presents (`X-Api-Key`, or
//! `Authorization: Bearer` in any casing).

use std::collections::HashMap;
use std::path::Path;

use serde::Deserialize;

/// The BLAKE3 digest of an API key.
pub type Digest = [u8; 32];

/// Keys shorter than this many bytes are warned about at start.
pub const SHORT_KEY_BYTES: usize = 16;

/// One entry of the API keys file, as written: the key itself (`key`) or
/// its BLAKE3 digest in hex (`key_blake3`), exactly one of them.
#[derive(Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeyEntry {
    /// The secret clients send (`X-Api-Key` or `Authorization: Bearer`).
    #[serde(default)]
    pub key: Option<String>,
    /// The BLAKE3 digest of the secret, 64 hex digits (so that the file
    /// need not hold the key).
    #[serde(default)]
    pub key_blake3: Option<String>,
    /// Who it belongs to (logs and metrics never show the key itself).
    pub name: String,
    /// Its quotas; the server's defaults where absent.
    #[serde(default)]
    pub requests_per_minute: Option<u32>,
    #[serde(default)]
    pub searches_per_minute: Option<u32>,
}

impl std::fmt::Debug for KeyEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KeyEntry")
            .field("name", &self.name)
            .field("key", &self.key.as_ref().map(|_| "<hidden>"))
            .field("key_blake3", &self.key_blake3.as_ref().map(|_| "<hidden>"))
            .field("requests_per_minute", &self.requests_per_minute)
            .field("searches_per_minute", &self.searches_per_minute)
            .finish()
    }
}

impl KeyEntry {
    /// An entry holding the key itself, with the server's quotas.
    pub fn with_key(name: &str, key: &str) -> KeyEntry {
        KeyEntry {
            key: Some(key.to_owned()),
            name: name.to_owned(),
            ..KeyEntry::default()
        }
    }

    /// An entry holding the key's BLAKE3 digest in hex, with the server's
    /// quotas.
    pub fn with_digest(name: &str, key_blake3: &str) -> KeyEntry {
        KeyEntry {
            key_blake3: Some(key_blake3.to_owned()),
            name: name.to_owned(),
            ..KeyEntry::default()
        }
    }

    /// The same entry with its own requests quota.
    pub fn requests_per_minute(self, quota: u32) -> KeyEntry {
        KeyEntry {
            requests_per_minute: Some(quota),
            ..self
        }
    }
}

/// What is wrong with an API keys file.
#[derive(Debug, thiserror::Error)]
pub enum KeysError {
    #[error("cannot read it: {0}")]
    Read(#[from] std::io::Error),
    #[error("not a keys file: {0}")]
    Json(JsonFault),
    #[error("key {name:?} has neither `key` nor `key_blake3`")]
    NoKey { name: String },
    #[error("key {name:?} has both `key` and `key_blake3`: give one")]
    BothKeys { name: String },
    #[error("key {name:?} is empty")]
    EmptyKey { name: String },
    #[error("key {name:?}: `key_blake3` is not 64 hex digits")]
    BadDigest { name: String },
    #[error("keys {first:?} and {second:?} are the same key")]
    Duplicate { first: String, second: String },
}

/// Where a keys file stops being one, and what kind of fault it is, but
/// not the value found there: serde's own message quotes the value (`invalid
/// type: string "…"`, `unknown field `…``), and in a keys file a value, or
/// a field's name written in the wrong place, may be a key.
#[derive(Debug)]
pub struct JsonFault {
    /// What is wrong: not JSON, cut short, or not what a keys file holds.
    what: &'static str,
    /// Where, as a path (`keys[2].requests_per_minute`): array indices and
    /// the file's own field names only; any other name is `?`.
    at: String,
    line: usize,
    column: usize,
}

impl std::fmt::Display for JsonFault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} at {} (line {}, column {}; the value there is not shown, as it may be a key)",
            self.what, self.at, self.line, self.column
        )
    }
}

impl JsonFault {
    /// The fault of `inner`, found at `path`, without its message.
    fn of(path: Option<&serde_path_to_error::Path>, inner: &serde_json::Error) -> JsonFault {
        use serde_json::error::Category;
        use serde_path_to_error::Segment;
        let what = match inner.classify() {
            Category::Io => "cannot read it",
            Category::Syntax => "not JSON",
            Category::Eof => "cut short",
            Category::Data => "not what a keys file holds",
        };
        let mut at = String::from("the top");
        for (i, segment) in path.into_iter().flat_map(|p| p.iter()).enumerate() {
            if i == 0 {
                at.clear();
            }
            match segment {
                Segment::Seq { index } => at.push_str(&format!("[{index}]")),
                Segment::Map { key } if FIELDS.contains(&key.as_str()) => {
                    if !at.is_empty() {
                        at.push('.');
                    }
                    at.push_str(key);
                }
                Segment::Map { .. } | Segment::Enum { .. } | Segment::Unknown => at.push_str(".?"),
            }
        }
        JsonFault {
            what,
            at,
            line: inner.line(),
            column: inner.column(),
        }
    }
}

/// The field names a keys file has: the only names a [`JsonFault`] shows.
const FIELDS: &[&str] = &[
    "keys",
    "key",
    "key_blake3",
    "name",
    "requests_per_minute",
    "searches_per_minute",
];

/// One API key as held: its digest, never the key.
#[derive(Clone, Debug)]
pub struct ApiKey {
    /// Who it belongs to.
    pub name: String,
    /// The BLAKE3 digest of the key.
    pub digest: Digest,
    /// Its quotas; the server's defaults where absent.
    pub requests_per_minute: Option<u32>,
    pub searches_per_minute: Option<u32>,
    /// Whether the key was given in the file and is shorter than
    /// [`SHORT_KEY_BYTES`] (unknown for a key given by its digest).
    pub short: bool,
}

/// The API keys file, loaded: `{"keys": [{"key" | "key_blake3", "name",
/// "requests_per_minute"?, "searches_per_minute"?}, …]}`, every key held
/// as its digest.
#[derive(Clone, Debug, Default)]
pub struct KeysFile {
    keys: Vec<ApiKey>,
}

/// The file as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Written {
    keys: Vec<KeyEntry>,
}

impl KeysFile {
    /// Reads and checks the keys file at `path`.
    pub fn load(path: &Path) -> Result<KeysFile, KeysError> {
        let text = std::fs::read_to_string(path)?;
        let parsed = KeysFile::parse(&text);
        wipe(text);
        parsed
    }

    /// Reads and checks a keys file's text.
    pub fn parse(text: &str) -> Result<KeysFile, KeysError> {
        let mut reader = serde_json::Deserializer::from_str(text);
        let written: Written = serde_path_to_error::deserialize(&mut reader)
            .map_err(|e| KeysError::Json(JsonFault::of(Some(e.path()), e.inner())))?;
        reader
            .end()
            .map_err(|e| KeysError::Json(JsonFault::of(None, &e)))?;
        KeysFile::from_entries(written.keys)
    }

    /// Checks `entries` (each exactly one of `key` and `key_blake3`, no
    /// key twice) and digests their keys, dropping the keys themselves.
    pub fn from_entries(entries: Vec<KeyEntry>) -> Result<KeysFile, KeysError> {
        let mut keys: Vec<ApiKey> = Vec::with_capacity(entries.len());
        let mut seen: HashMap<Digest, usize> = HashMap::with_capacity(entries.len());
        for entry in entries {
            let KeyEntry {
                key,
                key_blake3,
                name,
                requests_per_minute,
                searches_per_minute,
            } = entry;
            let (digest, short) = match (key, key_blake3) {
                (Some(key), None) => {
                    if key.is_empty() {
                        return Err(KeysError::EmptyKey { name });
                    }
                    let digest = digest(&key);
                    let short = key.len() < SHORT_KEY_BYTES;
                    wipe(key);
                    (digest, short)
                }
                (None, Some(hex)) => match parse_digest(&hex) {
                    Some(digest) => (digest, false),
                    None => return Err(KeysError::BadDigest { name }),
                },
                (Some(key), Some(_)) => {
                    wipe(key);
                    return Err(KeysError::BothKeys { name });
                }
                (None, None) => return Err(KeysError::NoKey { name }),
            };
            if let Some(&first) = seen.get(&digest) {
                let first = keys.get(first).map(|k| k.name.clone()).unwrap_or_default();
                return Err(KeysError::Duplicate {
                    first,
                    second: name,
                });
            }
            seen.insert(digest, keys.len());
            keys.push(ApiKey {
                name,
                digest,
                requests_per_minute,
                searches_per_minute,
                short,
            });
        }
        Ok(KeysFile { keys })
    }

    /// The keys, in the file's order.
    pub fn keys(&self) -> &[ApiKey] {
        &self.keys
    }

    /// How many keys there are.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The names of the keys shorter than [`SHORT_KEY_BYTES`] (of those
    /// given in the file: a digest's key has no known length).
    pub fn short_keys(&self) -> Vec<&str> {
        self.keys
            .iter()
            .filter(|k| k.short)
            .map(|k| k.name.as_str())
            .collect()
    }

    /// The index of digests to positions, for look-ups.
    pub(super) fn index(&self) -> KeyIndex {
        KeyIndex(
            self.keys
                .iter()
                .enumerate()
                .map(|(i, k)| (k.digest, i))
                .collect(),
        )
    }
}

/// The keys' positions by digest.
pub(super) struct KeyIndex(foldhash::HashMap<Digest, usize>);

impl KeyIndex {
    /// The position of the presented key, found by its digest.
    pub(super) fn find(&self, presented: &str) -> Option<usize> {
        self.0.get(&digest(presented)).copied()
    }
}

/// The BLAKE3 digest of `key`.
pub fn digest(key: &str) -> Digest {
    *blake3::hash(key.as_bytes()).as_bytes()
}

/// 64 hex digits (either case) as a digest.
fn parse_digest(hex: &str) -> Option<Digest> {
    if hex.len() != 64 {
        return None;
    }
    blake3::Hash::from_hex(hex).ok().map(|h| *h.as_bytes())
}

/// Overwrites a secret before its memory is given back (best effort: a
/// copy made elsewhere, by the file reader or the JSON parser, is not
/// reached).
fn wipe(secret: String) {
    let mut bytes = secret.into_bytes();
    bytes.fill(0);
    std::hint::black_box(&bytes);
}

/// The key a request presents: `X-Api-Key`'s value when it has one, else
/// the credentials of `Authorization: Bearer <key>` (the scheme in any
/// casing, then one or more spaces). Spaces and tabs around a key are
/// ignored; an empty key is no key; another scheme presents none.
pub fn presented_key<'a>(
    x_api_key: Option<&'a [u8]>,
    authorization: Option<&'a [u8]>,
) -> Option<&'a str> {
    let text = |value: &'a [u8]| std::str::from_utf8(value).ok();
    let own = x_api_key
        .and_then(text)
        .map(|key| key.trim_matches([' ', '\t']))
        .filter(|key| !key.is_empty());
    own.or_else(|| {
        let (scheme, credentials) = authorization.and_then(text)?.split_once(' ')?;
        if !scheme.eq_ignore_ascii_case("bearer") {
            return None;
        }
        let key = credentials
            .trim_start_matches(' ')
            .trim_end_matches([' ', '\t']);
        (!key.is_empty()).then_some(key)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(key: &str) -> String {
        blake3::hash(key.as_bytes()).to_hex().to_string()
    }

    #[test]
    fn keys_are_held_as_digests_of_a_key_or_given_as_one() {
        let file = KeysFile::parse(&format!(
            r#"{{"keys": [
                {{"key": "a-long-enough-secret", "name": "plain"}},
                {{"key_blake3": "{}", "name": "digested", "requests_per_minute": 7}}
            ]}}"#,
            hex("another-long-secret").to_uppercase()
        ))
        .unwrap();
        let index = file.index();
        assert_eq!(index.find("a-long-enough-secret"), Some(0));
        assert_eq!(index.find("another-long-secret"), Some(1));
        assert_eq!(index.find("another-long-secreT"), None);
        assert_eq!(index.find(&hex("another-long-secret")), None);
        assert_eq!(file.keys()[1].requests_per_minute, Some(7));
        assert_eq!(file.len(), 2);
        // Nothing held shows a key.
        let shown = format!("{file:?}");
        assert!(!shown.contains("secret"), "{shown}");
        let entry = KeyEntry::with_key("n", "a-long-enough-secret");
        assert!(!format!("{entry:?}").contains("secret"));
    }

    #[test]
    fn each_entry_has_exactly_one_key_and_no_key_is_given_twice() {
        let both = KeyEntry {
            key_blake3: Some(hex("k")),
            ..KeyEntry::with_key("both", "k")
        };
        let refused = |entries: Vec<KeyEntry>| KeysFile::from_entries(entries).unwrap_err();
        assert!(matches!(
            refused(vec![both]),
            KeysError::BothKeys { name } if name == "both"
        ));
        let neither = KeyEntry {
            name: "neither".into(),
            ..KeyEntry::default()
        };
        assert!(matches!(
            refused(vec![neither]),
            KeysError::NoKey { name } if name == "neither"
        ));
        assert!(matches!(
            refused(vec![KeyEntry::with_key("empty", "")]),
            KeysError::EmptyKey { name } if name == "empty"
        ));
        for bad in ["abc", &hex("k")[1..], &format!("{}g", &hex("k")[1..])] {
            assert!(matches!(
                refused(vec![KeyEntry::with_digest("bad", bad)]),
                KeysError::BadDigest { name } if name == "bad"
            ));
        }
        // The same key twice, as a key and as its digest.
        let error = refused(vec![
            KeyEntry::with_key("first", "same-key-0123456789"),
            KeyEntry::with_key("other", "other-key-0123456789"),
            KeyEntry::with_digest("second", &hex("same-key-0123456789")),
        ]);
        assert!(
            matches!(&error, KeysError::Duplicate { first, second } if first == "first" && second == "second"),
            "{error}"
        );
        assert!(!error.to_string().contains("same-key"), "{error}");
        // Unknown fields are refused.
        assert!(matches!(
            KeysFile::parse(r#"{"keys": [{"key": "k", "name": "n", "kye": 1}]}"#),
            Err(KeysError::Json(_))
        ));
    }

    /// serde's messages quote what they found (`invalid type: string
    /// "…"`, `unknown field `…``): a keys file's error says where, never
    /// what (issue 50: a malformed file echoed a key at start).
    #[test]
    fn a_malformed_keys_file_is_named_by_where_never_by_a_value() {
        let key = "k-0123456789-secret-abcdef";
        let files = [
            format!(r#"{{"keys": ["{key}"]}}"#),
            format!(
                r#"{{"keys": [{{"key": "{key}", "name": "n", "requests_per_minute": "{key}"}}]}}"#
            ),
            format!(r#"{{"keys": [{{"{key}": 1}}]}}"#),
            format!(r#"{{"keys": [{{"name": "n", "key": ["{key}"]}}]}}"#),
            format!(r#"{{"keys": [{{"key": "{key}", "name": "n"}},]}}"#),
            format!(r#"{{"keys": [{{"key": "{key}", "name": "n"}}]}} {key}"#),
            format!(r#"{{"keys": [{{"key": "{key}"#),
            format!(r#"{{"{key}": []}}"#),
        ];
        for text in &files {
            let error = KeysFile::parse(text).unwrap_err();
            let shown = format!("{error} {error:?}");
            assert!(!shown.contains("secret"), "{text}: {shown}");
            assert!(matches!(error, KeysError::Json(_)), "{text}: {shown}");
        }
        let error = KeysFile::parse(&format!(
            r#"{{"keys": [{{"key": "k-1", "name": "a"}}, {{"key": "{key}", "name": "b", "searches_per_minute": "{key}"}}]}}"#
        ))
        .unwrap_err()
        .to_string();
        assert!(error.contains("keys[1].searches_per_minute"), "{error}");
        assert!(error.contains("line 1"), "{error}");
        let error = KeysFile::parse(&files[2]).unwrap_err().to_string();
        assert!(error.contains("keys[0]"), "{error}");
    }

    #[test]
    fn short_keys_are_reported_by_name() {
        let file = KeysFile::from_entries(vec![
            KeyEntry::with_key("short", "15-bytes-secret"),
            KeyEntry::with_key("long", "16-bytes-secret!"),
            KeyEntry::with_digest("digested", &hex("x")),
        ])
        .unwrap();
        assert_eq!(file.short_keys(), vec!["short"]);
    }

    #[test]
    fn a_key_is_presented_in_x_api_key_or_as_a_bearer_in_any_casing() {
        fn key<'a>(x: Option<&'a str>, auth: Option<&'a str>) -> Option<&'a str> {
            presented_key(x.map(str::as_bytes), auth.map(str::as_bytes))
        }
        assert_eq!(key(Some("k-1"), None), Some("k-1"));
        assert_eq!(key(Some("k-1"), Some("Bearer k-2")), Some("k-1"));
        for auth in [
            "Bearer k-2",
            "bearer k-2",
            "BEARER k-2",
            "bEaReR k-2",
            "Bearer   k-2",
            "Bearer k-2 ",
        ] {
            assert_eq!(key(None, Some(auth)), Some("k-2"), "{auth:?}");
        }
        // An empty X-Api-Key is none: Authorization is read.
        assert_eq!(key(Some(""), Some("bearer k-2")), Some("k-2"));
        for auth in [
            "Basic azph",
            "Bearer",
            "Bearer ",
            "Bearerk-2",
            "Bearer\tk-2",
            "Bearers k-2",
            "k-2",
            "",
        ] {
            assert_eq!(key(None, Some(auth)), None, "{auth:?}");
        }
        assert_eq!(key(None, None), None);
        assert_eq!(key(Some("  "), None), None);
        assert_eq!(presented_key(Some(b"k\xff"), None), None);
    }
}
