//! The key of a cached answer ([`Key`]).

/// A cache key: the first 128 bits of the BLAKE3 digest of the canonical
/// request, so that every key has the same small size however large the
/// request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Key(pub u128);

impl Key {
    /// The key of a canonical request text.
    pub fn digest(canonical: &[u8]) -> Key {
        let hash = blake3::hash(canonical);
        let mut first = [0u8; 16];
        first.copy_from_slice(&hash.as_bytes()[..16]);
        Key(u128::from_le_bytes(first))
    }

    /// Lower-case hex, as other tiers spell it.
    pub fn to_hex(self) -> String {
        format!("{:032x}", self.0)
    }
}
