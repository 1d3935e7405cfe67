//! The AI's version: part of every cached answer's key and of the solved
//! table's header (a table of another version is refused).

/// Bumped whenever the search changes what it answers; part of cache keys.
pub const ENGINE_VERSION: u32 = 6;
