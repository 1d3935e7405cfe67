//! The seal on every AI answer the shared tier writes to Redis: a keyed
//! BLAKE3 MAC, so that a value written by anyone else who can reach Redis
//! (without the fleet's secret) is never served.
//!
//! A stored value is the 32-byte tag followed by the answer's bytes. The
//! tag is BLAKE3 in keyed mode, its key derived from the secret
//! (`blake3::derive_key` with [`CONTEXT`]), over the Redis key's name and
//! the answer, framed so that no two (name, answer) pairs hash the same
//! bytes: the name's length (8 bytes, little-endian), the name, the
//! answer. A value is therefore good for one key only: moved to another
//! key it fails. During a rotation, a value sealed with the previous
//! secret is still taken. Tags are compared in constant time
//! (`blake3::Hash`'s equality).
//!
//! The secrets ([`Secret`]) never show themselves: their `Debug` is
//! `Secret(hidden)`, and no error here holds their bytes.

use std::path::Path;

/// The context of the key derivation: this purpose, in this service, in
/// this format. A new framing of the tag takes a new context.
const CONTEXT: &str = "tank-rules 2026-11 shared AI cache answer MAC v1";

/// A secret as configured (`--redis-secret`, or the contents of
/// `--redis-secret-file`). Its `Debug` never shows it; whether it is long
/// enough is decided by [`Seal::new`].
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(Vec<u8>);

impl Secret {
    /// The fewest bytes a secret may have.
    pub const MIN_BYTES: usize = 16;

    /// A secret of `bytes`, as they are.
    pub fn new(bytes: impl Into<Vec<u8>>) -> Secret {
        Secret(bytes.into())
    }

    /// The secret a file holds: its bytes, without trailing line ends
    /// (`\n`, `\r\n`), as `echo` or an editor leaves them. The error names
    /// the file, never its contents.
    pub fn read(path: &Path) -> std::io::Result<Secret> {
        let mut bytes = std::fs::read(path)?;
        while matches!(bytes.last(), Some(b'\n' | b'\r')) {
            bytes.pop();
        }
        Ok(Secret(bytes))
    }

    /// How many bytes it has.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The key of the tags, derived from the secret, when it is long
    /// enough.
    fn key(&self) -> Result<[u8; 32], TooShort> {
        if self.0.len() < Secret::MIN_BYTES {
            return Err(TooShort {
                bytes: self.0.len(),
            });
        }
        Ok(blake3::derive_key(CONTEXT, &self.0))
    }
}

/// As a command-line or environment value: the text's bytes.
impl std::str::FromStr for Secret {
    type Err = std::convert::Infallible;

    fn from_str(text: &str) -> Result<Secret, Self::Err> {
        Ok(Secret::new(text.as_bytes()))
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(hidden)")
    }
}

/// A secret too short to be one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("it has {bytes} bytes; a secret needs {} or more", Secret::MIN_BYTES)]
pub struct TooShort {
    pub bytes: usize,
}

/// Which secret [`Seal::new`] refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WeakSecret {
    #[error("the secret is too short: {0}")]
    Current(TooShort),
    #[error("the previous secret is too short: {0}")]
    Previous(TooShort),
}

/// Why a stored value is not taken. No variant holds the value or a
/// secret.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Broken {
    #[error("{bytes} bytes, shorter than a tag")]
    NoTag { bytes: usize },
    #[error("its tag is not this key's and this answer's under the secret (nor the previous one)")]
    WrongTag,
}

/// The keys of the tags: the current secret's, which seals and opens, and
/// during a rotation the previous one's, which only opens. Holds derived
/// keys, not the secrets; its `Debug` shows neither.
#[derive(Clone)]
pub struct Seal {
    current: [u8; 32],
    previous: Option<[u8; 32]>,
}

impl std::fmt::Debug for Seal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Seal")
            .field("previous", &self.previous.is_some())
            .finish_non_exhaustive()
    }
}

impl Seal {
    /// Bytes of a tag, before the answer.
    pub const TAG_BYTES: usize = blake3::OUT_LEN;

    /// The seal of `current`, also opening what `previous` sealed; each
    /// must have [`Secret::MIN_BYTES`] or more.
    pub fn new(current: &Secret, previous: Option<&Secret>) -> Result<Seal, WeakSecret> {
        Ok(Seal {
            current: current.key().map_err(WeakSecret::Current)?,
            previous: previous
                .map(|secret| secret.key().map_err(WeakSecret::Previous))
                .transpose()?,
        })
    }

    /// Whether a previous secret is accepted (a rotation is under way).
    pub fn has_previous(&self) -> bool {
        self.previous.is_some()
    }

    /// The value to store under `name`: the tag, then `answer`.
    pub fn seal(&self, name: &str, answer: &[u8]) -> Vec<u8> {
        let mut value = Vec::with_capacity(Seal::TAG_BYTES + answer.len());
        value.extend_from_slice(tag(&self.current, name, answer).as_bytes());
        value.extend_from_slice(answer);
        value
    }

    /// The answer `value`, read from under `name`, holds when its tag is
    /// right for them under the current secret or the previous one.
    pub fn open<'v>(&self, name: &str, value: &'v [u8]) -> Result<&'v [u8], Broken> {
        let Some((found, answer)) = value.split_first_chunk::<{ Seal::TAG_BYTES }>() else {
            return Err(Broken::NoTag { bytes: value.len() });
        };
        // `blake3::Hash`'s equality is constant-time.
        let found = blake3::Hash::from_bytes(*found);
        let good = std::iter::once(&self.current)
            .chain(self.previous.as_ref())
            .any(|key| tag(key, name, answer) == found);
        if good {
            Ok(answer)
        } else {
            Err(Broken::WrongTag)
        }
    }
}

/// The tag of `answer` under `name`: keyed BLAKE3 over the name's length
/// (8 bytes, little-endian), the name and the answer.
fn tag(key: &[u8; 32], name: &str, answer: &[u8]) -> blake3::Hash {
    blake3::Hasher::new_keyed(key)
        .update(&(name.len() as u64).to_le_bytes())
        .update(name.as_bytes())
        .update(answer)
        .finalize()
}

#[cfg(test)]
mod tests {
    use super::*;

    const NAME: &str = "tank-rules:ai:00112233445566778899aabbccddeeff";
    const ANSWER: &[u8] = br#"{"take":2,"time_ms":3,"cached":true}"#;

    fn secret(text: &str) -> Secret {
        Secret::new(text.as_bytes())
    }

    fn seal(current: &str, previous: Option<&str>) -> Seal {
        Seal::new(&secret(current), previous.map(secret).as_ref()).unwrap()
    }

    #[test]
    fn the_right_secret_opens_what_it_sealed() {
        let seal = seal("0123456789abcdef-one", None);
        let value = seal.seal(NAME, ANSWER);
        assert_eq!(value.len(), Seal::TAG_BYTES + ANSWER.len());
        assert_eq!(value.get(Seal::TAG_BYTES..), Some(ANSWER));
        assert_eq!(seal.open(NAME, &value), Ok(ANSWER));
        // An empty answer too.
        assert_eq!(seal.open(NAME, &seal.seal(NAME, b"")), Ok(&b""[..]));
    }

    #[test]
    fn another_secret_does_not() {
        let value = seal("0123456789abcdef-one", None).seal(NAME, ANSWER);
        let other = seal("0123456789abcdef-two", None);
        assert_eq!(other.open(NAME, &value), Err(Broken::WrongTag));
        // Nor does a value with no tag at all, as anyone could write it.
        assert_eq!(other.open(NAME, ANSWER), Err(Broken::WrongTag));
    }

    #[test]
    fn the_previous_secret_opens_during_a_rotation_and_never_seals() {
        let old = seal("0123456789abcdef-old", None);
        let rotating = seal("0123456789abcdef-new", Some("0123456789abcdef-old"));
        assert!(rotating.has_previous() && !old.has_previous());
        let before = old.seal(NAME, ANSWER);
        assert_eq!(rotating.open(NAME, &before), Ok(ANSWER));
        // What it seals is the new secret's: the old one cannot open it,
        // a server past the rotation can.
        let after = rotating.seal(NAME, ANSWER);
        assert_eq!(old.open(NAME, &after), Err(Broken::WrongTag));
        let done = seal("0123456789abcdef-new", None);
        assert_eq!(done.open(NAME, &after), Ok(ANSWER));
        // And once the previous secret is dropped, its values are not.
        assert_eq!(done.open(NAME, &before), Err(Broken::WrongTag));
    }

    #[test]
    fn a_value_moved_to_another_key_is_refused() {
        let seal = seal("0123456789abcdef-one", None);
        let value = seal.seal(NAME, ANSWER);
        let other = "tank-rules:ai:ffeeddccbbaa99887766554433221100";
        assert_eq!(seal.open(other, &value), Err(Broken::WrongTag));
        assert_eq!(
            seal.open("other-prefix:ai:0011", &value),
            Err(Broken::WrongTag)
        );
        // The name's length is framed: bytes moved from the end of the
        // name to the start of the answer make another tag.
        let (name, answer) = ("ai:1", &b"2{}"[..]);
        let moved = seal.seal(name, answer);
        let mut shifted = moved.clone();
        shifted.truncate(Seal::TAG_BYTES);
        shifted.extend_from_slice(b"12{}");
        assert_eq!(seal.open("ai:", &shifted), Err(Broken::WrongTag));
    }

    #[test]
    fn a_value_cut_grown_or_changed_is_refused() {
        let seal = seal("0123456789abcdef-one", None);
        let value = seal.seal(NAME, ANSWER);
        for cut in [0, 1, Seal::TAG_BYTES - 1] {
            assert_eq!(
                seal.open(NAME, &value[..cut]),
                Err(Broken::NoTag { bytes: cut }),
                "{cut}"
            );
        }
        for cut in [Seal::TAG_BYTES, Seal::TAG_BYTES + 1, value.len() - 1] {
            assert_eq!(
                seal.open(NAME, &value[..cut]),
                Err(Broken::WrongTag),
                "{cut}"
            );
        }
        let mut grown = value.clone();
        grown.push(b' ');
        assert_eq!(seal.open(NAME, &grown), Err(Broken::WrongTag));
        for at in [0, Seal::TAG_BYTES - 1, Seal::TAG_BYTES, value.len() - 1] {
            let mut changed = value.clone();
            changed[at] ^= 1;
            assert_eq!(seal.open(NAME, &changed), Err(Broken::WrongTag), "{at}");
        }
    }

    #[test]
    fn a_short_secret_is_refused_and_no_secret_is_shown() {
        let short = secret("fifteen-bytes!!");
        assert_eq!(short.len(), 15);
        assert_eq!(
            Seal::new(&short, None).err(),
            Some(WeakSecret::Current(TooShort { bytes: 15 }))
        );
        let good = secret("sixteen-bytes!!!");
        assert!(Seal::new(&good, None).is_ok());
        assert_eq!(
            Seal::new(&good, Some(&short)).err(),
            Some(WeakSecret::Previous(TooShort { bytes: 15 }))
        );
        let error = Seal::new(&short, None).err().map(|e| e.to_string());
        assert!(error.is_some_and(|e| !e.contains("fifteen") && e.contains("15 bytes")));
        for shown in [
            format!("{good:?}"),
            format!("{:?}", Seal::new(&good, Some(&good)).unwrap()),
        ] {
            assert!(!shown.contains("sixteen"), "{shown}");
        }
    }

    #[test]
    fn a_secret_file_loses_its_line_end() {
        let dir = std::env::temp_dir().join(format!("seal-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for (contents, secret) in [
            (&b"0123456789abcdef\n"[..], &b"0123456789abcdef"[..]),
            (b"0123456789abcdef\r\n", b"0123456789abcdef"),
            (b"0123456789abcdef", b"0123456789abcdef"),
            (
                b" \x00\xff0123456789abcdef \n\n",
                b" \x00\xff0123456789abcdef ",
            ),
        ] {
            let path = dir.join("secret");
            std::fs::write(&path, contents).unwrap();
            assert_eq!(Secret::read(&path).unwrap(), Secret::new(secret));
        }
        let missing = Secret::read(&dir.join("missing"));
        assert!(missing.is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The tag is pinned: another framing or context would make every
    /// stored value of a running fleet unreadable, so it changes only with
    /// [`CONTEXT`].
    #[test]
    fn the_tag_is_the_one_the_fleet_knows() {
        let seal = seal("0123456789abcdef", None);
        let key = blake3::derive_key(CONTEXT, b"0123456789abcdef");
        let mut framed = (NAME.len() as u64).to_le_bytes().to_vec();
        framed.extend_from_slice(NAME.as_bytes());
        framed.extend_from_slice(ANSWER);
        let expected = blake3::keyed_hash(&key, &framed);
        assert_eq!(
            seal.seal(NAME, ANSWER).get(..Seal::TAG_BYTES),
            Some(&expected.as_bytes()[..])
        );
    }
}
