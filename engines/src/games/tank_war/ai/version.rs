//! The AI's version: part of every cached answer's key and of the solved
//! table's header (a table of another version is refused).

/// The solver's version: bumped whenever the game's solved values change;
/// part of the solved table's header.
pub const ENGINE_VERSION: u32 = 6;

/// What `ai-move` answers: bumped whenever the AI's answers change (the
/// solver's version or the strategy it plays from the solved values); part
/// of cache keys. 7: a strategy spread over every pick that guarantees the
/// value, whichever equilibrium the solver found; 8: elsewhere the mixed
/// equilibrium the simplex finds with the picks in their ids' order,
/// whatever order the seed gave them.
pub const AI_VERSION: u32 = 100 * ENGINE_VERSION + 8;
