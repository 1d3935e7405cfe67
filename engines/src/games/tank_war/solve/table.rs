//! The default game's table: the value of every unfinished position the
//! default setup reaches within its first [`ROUNDS`] rounds, made once,
//! offline, by `engines/src/bin/tank_war_table.rs` (a solve of the whole game),
//! committed as `data/tank_war_default.table.zst` and built into the
//! binary. A position reached within `ROUNDS − 1` rounds is answered from
//! the table alone; from one later, the rest of the game is small enough
//! to solve within a request.
//!
//! The file is zstd-compressed; inside, in little-endian order: the magic
//! `TWTABLE1`, the engine version it was solved with, `ROUNDS`, the
//! number of positions, their packed keys ascending (each as the LEB128
//! difference from the one before), their values (`f32`), then the BLAKE3
//! hash of all that. A table of another engine version, or whose hash
//! does not match, is not used (and the tests fail).

use std::collections::{HashSet, VecDeque};
use std::sync::LazyLock;

use super::packed::{Key, Packed};
use crate::games::tank_war::ai::version::ENGINE_VERSION;
use crate::games::tank_war::state::{default_state, Position, Setup};

/// Rounds of the default game the table covers.
pub const ROUNDS: u32 = 7;

const MAGIC: &[u8; 8] = b"TWTABLE1";

/// The committed table, compressed.
static FILE: &[u8] = include_bytes!("../../../../../data/tank_war_default.table.zst");

static DEFAULT: LazyLock<(Setup, Position)> = LazyLock::new(default_state);
static DEFAULT_GAME: LazyLock<Option<Packed>> =
    LazyLock::new(|| Packed::new(&DEFAULT.0, &DEFAULT.1));
static BUILT_IN: LazyLock<Result<Table, UnusableTable>> = LazyLock::new(|| load(FILE));

/// Values of positions by packed key.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    keys: Vec<Key>,
    values: Vec<f32>,
    /// The engine version the table was solved with.
    pub engine_version: u32,
    pub rounds: u32,
}

/// Why a table file was not taken.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TableError {
    #[error("the file is not a zstd stream: {0}")]
    Compression(String),
    #[error("the file is not a Tank War table")]
    Magic,
    #[error("the file is cut short")]
    Truncated,
    #[error("the checksum does not match")]
    Checksum,
    #[error("the table was solved by engine version {0}, this is version {ENGINE_VERSION}")]
    Version(u32),
    #[error("the keys are not in ascending order")]
    Order,
}

/// Why a table file is not served: the server's refusal to start, naming
/// the file and how to make it again.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "the Tank War table built into this binary (data/tank_war_default.table.zst) is unusable: \
{0}; rebuild it with `cargo run --release --bin tank_war_table`, then the binary"
)]
pub struct UnusableTable(pub TableError);

/// Reads a table file as the server reads its built-in one
/// ([`Table::built_in`]).
pub fn load(file: &[u8]) -> Result<Table, UnusableTable> {
    Table::decode(file).map_err(UnusableTable)
}

impl Table {
    /// The default game's table built into the binary, decoded on first
    /// use. The server decodes it before it starts and refuses to start
    /// when it does not decode, so a search never answers the default game
    /// without it.
    pub fn built_in() -> Result<&'static Table, UnusableTable> {
        BUILT_IN.as_ref().map_err(Clone::clone)
    }

    /// Builds a table from keys and values (sorted here).
    pub fn new(mut entries: Vec<(Key, f32)>, rounds: u32) -> Table {
        entries.sort_unstable_by_key(|&(k, _)| k);
        entries.dedup_by_key(|&mut (k, _)| k);
        Table {
            keys: entries.iter().map(|&(k, _)| k).collect(),
            values: entries.iter().map(|&(_, v)| v).collect(),
            engine_version: ENGINE_VERSION,
            rounds,
        }
    }

    /// How many positions it holds.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The value of `key` for U, if the table holds it.
    pub fn get(&self, key: Key) -> Option<f64> {
        let i = self.keys.binary_search(&key).ok()?;
        self.values.get(i).map(|&v| f64::from(v))
    }

    /// Every (key, value), keys ascending.
    pub fn iter(&self) -> impl Iterator<Item = (Key, f64)> + '_ {
        self.keys
            .iter()
            .zip(&self.values)
            .map(|(&k, &v)| (k, f64::from(v)))
    }

    /// The uncompressed payload, its checksum appended.
    fn payload(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.keys.len() * 8 + 32);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&self.engine_version.to_le_bytes());
        out.extend_from_slice(&self.rounds.to_le_bytes());
        out.extend_from_slice(&(self.keys.len() as u64).to_le_bytes());
        let mut last = 0u128;
        for &k in &self.keys {
            let mut delta = k - last;
            last = k;
            loop {
                let byte = (delta & 0x7f) as u8;
                delta >>= 7;
                if delta == 0 {
                    out.push(byte);
                    break;
                }
                out.push(byte | 0x80);
            }
        }
        for v in &self.values {
            out.extend_from_slice(&v.to_le_bytes());
        }
        let hash = blake3::hash(&out);
        out.extend_from_slice(hash.as_bytes());
        out
    }

    /// The file: the payload, zstd-compressed (deterministic).
    pub fn encode(&self) -> std::io::Result<Vec<u8>> {
        zstd::encode_all(self.payload().as_slice(), 19)
    }

    /// The BLAKE3 checksum written in the file, in hex.
    pub fn checksum(&self) -> String {
        let payload = self.payload();
        let body = payload.len().saturating_sub(32);
        blake3::hash(payload.get(..body).unwrap_or_default())
            .to_hex()
            .to_string()
    }

    /// Reads a file written by [`Table::encode`].
    pub fn decode(file: &[u8]) -> Result<Table, TableError> {
        let payload = zstd::decode_all(file).map_err(|e| TableError::Compression(e.to_string()))?;
        let body = payload.len().checked_sub(32).ok_or(TableError::Truncated)?;
        let (data, hash) = payload.split_at(body);
        if blake3::hash(data).as_bytes() != hash {
            return Err(TableError::Checksum);
        }
        let mut reader = Reader(data);
        if reader.take(8)? != MAGIC {
            return Err(TableError::Magic);
        }
        let engine_version = reader.u32()?;
        if engine_version != ENGINE_VERSION {
            return Err(TableError::Version(engine_version));
        }
        let rounds = reader.u32()?;
        let count = usize::try_from(reader.u64()?).map_err(|_| TableError::Truncated)?;
        if count > data.len() {
            return Err(TableError::Truncated);
        }
        let mut keys = Vec::with_capacity(count);
        let mut last = 0u128;
        for _ in 0..count {
            let mut delta = 0u128;
            for shift in (0..128).step_by(7) {
                let byte = reader.take(1)?.first().copied().unwrap_or(0);
                delta |= u128::from(byte & 0x7f) << shift;
                if byte & 0x80 == 0 {
                    break;
                }
            }
            let key = last.checked_add(delta).ok_or(TableError::Order)?;
            if !keys.is_empty() && key <= last {
                return Err(TableError::Order);
            }
            keys.push(key);
            last = key;
        }
        let mut values = Vec::with_capacity(count);
        for _ in 0..count {
            values.push(f32::from_le_bytes(reader.array()?));
        }
        Ok(Table {
            keys,
            values,
            engine_version,
            rounds,
        })
    }
}

struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], TableError> {
        if self.0.len() < n {
            return Err(TableError::Truncated);
        }
        let (head, tail) = self.0.split_at(n);
        self.0 = tail;
        Ok(head)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], TableError> {
        self.take(N)?.try_into().map_err(|_| TableError::Truncated)
    }

    fn u32(&mut self) -> Result<u32, TableError> {
        Ok(u32::from_le_bytes(self.array()?))
    }

    fn u64(&mut self) -> Result<u64, TableError> {
        Ok(u64::from_le_bytes(self.array()?))
    }
}

/// The default setup compiled for the solver (it packs into 84 bits).
pub fn default_game() -> Option<&'static Packed> {
    DEFAULT_GAME.as_ref()
}

/// When `setup` is the default one, perhaps with some tanks gone (a state
/// lists only living tanks, in any order): for each of its tanks the
/// default setup's id, and `pos` in the default setup's terms.
pub fn on_default_setup(setup: &Setup, pos: &Position) -> Option<(Vec<usize>, Position)> {
    let (default, start) = &*DEFAULT;
    if setup.board != default.board || pos.territory.len() != start.territory.len() {
        return None;
    }
    let mut ids = Vec::with_capacity(setup.tanks.len());
    let mut at = vec![0; default.tanks.len()];
    let mut alive = vec![false; default.tanks.len()];
    for (id, tank) in setup.tanks.iter().enumerate() {
        let d = default.tanks.iter().position(|t| t == tank)?;
        if ids.contains(&d) {
            return None;
        }
        ids.push(d);
        *at.get_mut(d)? = *pos.at.get(id)?;
        *alive.get_mut(d)? = *pos.alive.get(id)?;
    }
    Some((
        ids,
        Position {
            at,
            alive,
            territory: pos.territory.clone(),
            round: pos.round,
            clock_ms: pos.clock_ms,
        },
    ))
}

/// The unfinished positions the default game reaches within `rounds`
/// rounds, each once, in the order they are first reached.
pub fn default_positions(rounds: u32) -> Vec<Key> {
    let Some((game, root)) = default_game().and_then(|g| Some((g, g.pack(&DEFAULT.1)?))) else {
        return Vec::new();
    };
    let mut seen = HashSet::from([root]);
    let mut order = vec![root];
    let mut queue = VecDeque::from([(root, 0)]);
    let mut picks = [Vec::new(), Vec::new()];
    while let Some((key, depth)) = queue.pop_front() {
        if depth == rounds || game.picks(key, &mut picks).is_some() {
            continue;
        }
        let [us, ds] = picks.clone();
        for &u in &us {
            for &d in &ds {
                let child = game.child(key, u, d);
                if game.picks(child, &mut picks).is_none() && seen.insert(child) {
                    order.push(child);
                    queue.push_back((child, depth + 1));
                }
            }
        }
    }
    order
}
