//! The memory budget (`--memory-budget-mib`): what the process may hold
//! at its worst, checked once at start. The budget less what the process
//! holds idle (read from `/proc/self/status` once its state is built, and
//! each HTTP worker's own), the AI cache (`--cache-mib`) and every search
//! slot's table at its largest is what requests may take: a third of it
//! holds the bytes in flight, all connections together (bodies being
//! read, answers being written and waiting to be sent: [`InFlight`]), and
//! the rest the connections, each [`per_connection_bytes`] (its buffers
//! with a head at the cap and a full write buffer). A `--max-connections`
//! left at its default is lowered to fit; one given that does not fit is
//! refused.

mod in_flight;

pub use in_flight::{Held, InFlight, NoRoom};

use thiserror::Error;

/// What a connection holds at its worst, apart from its head: actix's
/// dispatcher, its write buffer, the task, the socket's registration and
/// the connection's accounting, and what the allocator keeps of their
/// churn. Measured with `scripts/hostile.py`: connections each holding a
/// head at the cap, 8 KiB, cost 18 to 25 KiB each.
pub const CONNECTION_BASE_BYTES: u64 = 16 << 10;

/// What one HTTP worker holds of its own (its runtime, its instance of
/// the application, the 128 requests and heads actix keeps for reuse,
/// small since `hygiene::unpin_headers`; the OpenAPI document's bytes are
/// shared, not the worker's): 1.6 MB measured (anonymous memory idle with 1, 2 and 4
/// workers: 25.0, 26.7 and 29.9 MB; 5.1 MB a worker while each kept its
/// own copy of the document for Swagger UI).
pub const WORKER_BYTES: u64 = 2 << 20;

/// The most an HTTP/1 connection's write buffer holds before the server
/// flushes it (actix's `h1_write_buffer_size`).
pub const WRITE_BUFFER_BYTES: usize = 8 << 10;

/// The most of an answer handed to a connection at once: a larger answer
/// is handed over in pieces of this size, so that a client that stops
/// reading makes its connection hold at most its write buffer and one
/// piece, and the rest of the answer stays in flight, counted.
pub const ANSWER_PIECE_BYTES: usize = 8 << 10;

/// The most of a request head actix-http reads before it answers 431
/// (its decoder's `MAX_BUFFER_SIZE`): a connection's read buffer holds at
/// most this much unparsed.
pub const HEAD_BUFFER_BYTES: usize = 128 << 10;

/// What one connection may take at its worst: its base (which holds an
/// empty write buffer), a head at actix-http's cap and a full write
/// buffer with one piece of an answer.
pub fn per_connection_bytes() -> u64 {
    let writes = (WRITE_BUFFER_BYTES + ANSWER_PIECE_BYTES) as u64 - (8 << 10);
    CONNECTION_BASE_BYTES + HEAD_BUFFER_BYTES as u64 + writes
}

/// What the budget is spent on, in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spending {
    /// `--memory-budget-mib`.
    pub budget: u64,
    /// What the process holds once its state is built (resident memory
    /// the kernel cannot reclaim), its HTTP workers' own included.
    pub idle: u64,
    /// The AI cache at its largest.
    pub cache: u64,
    /// Every search slot's table at its largest.
    pub searches: u64,
    /// One connection at its worst.
    pub per_connection: u64,
}

impl Spending {
    /// What is left for requests: the bytes in flight and the
    /// connections.
    pub fn for_requests(&self) -> u64 {
        self.budget
            .saturating_sub(self.idle)
            .saturating_sub(self.cache)
            .saturating_sub(self.searches)
    }

    /// The bytes in flight, all connections together: a third of what is
    /// left for requests.
    pub fn in_flight(&self) -> u64 {
        self.for_requests() / 3
    }

    /// What is left for connections.
    pub fn for_connections(&self) -> u64 {
        self.for_requests() - self.in_flight()
    }

    /// How many connections fit.
    pub fn connections(&self) -> u64 {
        self.for_connections() / self.per_connection.max(1)
    }
}

impl std::fmt::Display for Spending {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mib = |bytes: u64| bytes as f64 / f64::from(1 << 20);
        write!(
            f,
            "budget {:.0} MiB − idle with the workers {:.1} MiB − AI cache {:.0} MiB − search tables {:.0} MiB \
= {:.1} MiB for requests: {:.1} MiB for bodies and answers in flight, {:.1} MiB for connections at {:.1} KiB each",
            mib(self.budget),
            mib(self.idle),
            mib(self.cache),
            mib(self.searches),
            mib(self.for_requests()),
            mib(self.in_flight()),
            mib(self.for_connections()),
            self.per_connection as f64 / 1024.0
        )
    }
}

/// A `--max-connections` given that the budget cannot hold.
#[derive(Debug, Error, PartialEq, Eq)]
#[error(
    "--max-connections {wanted} does not fit in --memory-budget-mib: {spending}, so at most \
{fits} connections; lower --max-connections or raise the budget"
)]
pub struct OverBudget {
    pub wanted: usize,
    pub fits: usize,
    pub spending: Spending,
}

/// The connections the server may hold: `wanted` when it fits;
/// else, when `wanted` is the default (`explicit` false), as many as fit
/// (at least one); else refused.
pub fn connections(
    spending: &Spending,
    wanted: usize,
    explicit: bool,
) -> Result<usize, OverBudget> {
    let fits = usize::try_from(spending.connections()).unwrap_or(usize::MAX);
    if wanted <= fits {
        return Ok(wanted);
    }
    if explicit {
        return Err(OverBudget {
            wanted,
            fits,
            spending: *spending,
        });
    }
    Ok(fits.max(1))
}

/// The process's resident memory the kernel cannot reclaim (anonymous
/// and shared memory, not the binary's pages), from `/proc/self/status`;
/// `None` where there is none to read.
pub fn resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    resident_in(&status)
}

/// [`resident_bytes`] of a `/proc/<pid>/status` text.
fn resident_in(status: &str) -> Option<u64> {
    let field = |name: &str| {
        status.lines().find_map(|line| {
            let rest = line.strip_prefix(name)?.strip_prefix(':')?;
            let kib = rest.trim().strip_suffix("kB")?.trim().parse::<u64>().ok()?;
            Some(kib * 1024)
        })
    };
    Some(field("RssAnon")? + field("RssShmem").unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIB: u64 = 1 << 20;

    fn spending(per_connection: u64) -> Spending {
        Spending {
            budget: 256 * MIB,
            idle: 64 * MIB,
            cache: 32 * MIB,
            searches: 64 * MIB,
            per_connection,
        }
    }

    #[test]
    fn connections_fit_the_budget_or_are_lowered_or_refused() {
        let s = spending(16 << 10);
        assert_eq!(s.for_requests(), 96 * MIB);
        // A third in flight, the rest for connections.
        assert_eq!(s.in_flight(), 32 * MIB);
        assert_eq!(s.for_connections(), 64 * MIB);
        assert_eq!(s.connections(), 4_096);
        assert_eq!(connections(&s, 4_096, true), Ok(4_096));
        let s = spending(32 << 10);
        assert_eq!(s.connections(), 2_048);
        // The default is lowered; an explicit figure is refused, naming the
        // figures.
        assert_eq!(connections(&s, 4_096, false), Ok(2_048));
        let refused = connections(&s, 4_096, true).unwrap_err();
        assert_eq!(refused.fits, 2_048);
        let text = refused.to_string();
        for figure in [
            "4096",
            "2048",
            "256 MiB",
            "workers 64.0 MiB",
            "32 MiB",
            "64 MiB",
            "96.0 MiB for requests",
            "32.0 MiB for bodies and answers in flight",
            "32.0 KiB",
        ] {
            assert!(text.contains(figure), "{figure}: {text}");
        }
        // Nothing left: one connection still.
        let s = Spending {
            budget: 100 * MIB,
            ..spending(24 << 10)
        };
        assert_eq!(connections(&s, 4_096, false), Ok(1));
    }

    #[test]
    fn a_connection_costs_its_base_actix_s_head_buffer_and_a_piece() {
        // The base, the head, and the write buffer's growth past the
        // base's empty one: a full buffer and a piece of an answer.
        assert_eq!(
            per_connection_bytes(),
            CONNECTION_BASE_BYTES + (128 << 10) + (8 << 10)
        );
    }

    #[test]
    fn resident_memory_is_anonymous_and_shared() {
        let status = "Name:\ttank-rules\nVmRSS:\t   90540 kB\nRssAnon:\t   63040 kB\n\
RssFile:\t   15500 kB\nRssShmem:\t       4 kB\n";
        assert_eq!(resident_in(status), Some((63_040 + 4) * 1024));
        assert_eq!(resident_in("VmRSS: 1 kB\n"), None);
        if cfg!(target_os = "linux") {
            assert!(resident_bytes().is_some_and(|b| b > 0));
        }
    }
}
