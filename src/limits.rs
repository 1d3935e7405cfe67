//! Server-side limits that bound the work one request can cause.

/// Limits applied to every request; set from the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Largest accepted request body, in bytes.
    pub body_bytes: usize,
    /// Deepest perft a request may ask for.
    pub perft_max_depth: u32,
    /// Most positions one perft request may expand (generate moves for).
    pub perft_max_nodes: u64,
}

impl Limits {
    pub const DEFAULT_BODY_BYTES: usize = 64 * 1024;
    pub const DEFAULT_PERFT_MAX_DEPTH: u32 = 5;
    pub const DEFAULT_PERFT_MAX_NODES: u64 = 10_000_000;
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            body_bytes: Limits::DEFAULT_BODY_BYTES,
            perft_max_depth: Limits::DEFAULT_PERFT_MAX_DEPTH,
            perft_max_nodes: Limits::DEFAULT_PERFT_MAX_NODES,
        }
    }
}
