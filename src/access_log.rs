//! The access log (`--access-log`, off by default: the balancer usually
//! logs): one line per request, written by a thread of its own. A worker
//! hands its line over a bounded channel and never waits: when the writer
//! falls behind and the channel is full, the line is dropped and counted
//! (`tank_rules_access_log_dropped_total`). Nothing here knows HTTP.

use std::io::Write;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender, TrySendError};
use std::time::{Duration, Instant};

use crate::metrics::Metrics;

/// Lines waiting for the writer, at most: about 2 MB of 200-byte lines.
const BACKLOG: usize = 10_000;

/// The workers' end of the access log. Cloning shares the writer.
#[derive(Clone)]
pub struct AccessLog {
    lines: SyncSender<String>,
    metrics: Metrics,
}

impl AccessLog {
    /// Starts the writer thread, writing to standard output.
    pub fn to_stdout(metrics: Metrics) -> std::io::Result<AccessLog> {
        AccessLog::start(std::io::stdout(), BACKLOG, metrics)
    }

    /// Starts a writer thread writing to `out`, `backlog` lines behind at
    /// most; it ends when every [`AccessLog`] is dropped.
    pub fn start(
        out: impl Write + Send + 'static,
        backlog: usize,
        metrics: Metrics,
    ) -> std::io::Result<AccessLog> {
        let (lines, received) = mpsc::sync_channel(backlog);
        std::thread::Builder::new()
            .name("access-log".to_owned())
            .spawn(move || write_lines(received, out))?;
        Ok(AccessLog { lines, metrics })
    }

    /// Hands `line` (without its newline) to the writer, or drops and
    /// counts it when the writer is behind.
    pub fn log(&self, line: String) {
        match self.lines.try_send(line) {
            Ok(()) => {}
            Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => {
                self.metrics.access_log_dropped();
            }
        }
    }
}

/// The most a batch of lines holds before it is written.
const BATCH_BYTES: usize = 64 * 1024;

/// The longest a line waits in a batch before it is written.
const BATCH_WAIT: Duration = Duration::from_millis(50);

/// Writes lines in batches: from a batch's first line, those that come
/// within [`BATCH_WAIT`] (or until [`BATCH_BYTES`]), in one write of whole
/// lines, so that a busy server makes a few writes a second rather than
/// one a request, and other writers of the same output (the log) never
/// land inside a line.
fn write_lines(received: Receiver<String>, mut out: impl Write) {
    let mut batch = Vec::with_capacity(BATCH_BYTES);
    while let Ok(line) = received.recv() {
        let due = Instant::now() + BATCH_WAIT;
        let mut next = Ok(line);
        let mut open = true;
        while let Ok(line) = next {
            batch.extend_from_slice(line.as_bytes());
            batch.push(b'\n');
            if batch.len() >= BATCH_BYTES {
                break;
            }
            next = received.recv_timeout(due.saturating_duration_since(Instant::now()));
            open = !matches!(next, Err(RecvTimeoutError::Disconnected));
        }
        if out.write_all(&batch).and_then(|()| out.flush()).is_err() || !open {
            return;
        }
        batch.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    /// A writer that keeps what it is given; it can be held up.
    #[derive(Clone, Default)]
    struct Kept(Arc<Mutex<Vec<u8>>>);

    impl Write for Kept {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            let mut kept = self.0.lock().map_err(|_| std::io::ErrorKind::Other)?;
            kept.extend_from_slice(buf);
            Ok(buf.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn lines_are_written_and_a_full_backlog_drops_and_counts() {
        let kept = Kept::default();
        let metrics = Metrics::new();
        // Hold the writer up: it blocks on its first write.
        let held = kept.0.lock().unwrap_or_else(|e| e.into_inner());
        let log =
            AccessLog::start(kept.clone(), 2, metrics.clone()).unwrap_or_else(|e| panic!("{e}"));
        // The writer takes the first line and, its batch due, blocks on
        // writing it; then the backlog fills.
        log.log("line 0".to_owned());
        std::thread::sleep(BATCH_WAIT * 4);
        for n in 1..10 {
            log.log(format!("line {n}"));
        }
        drop(held);
        drop(log);
        let dropped = || {
            let (rendered, _) = metrics.render().unwrap_or_default();
            rendered
                .lines()
                .find(|l| l.starts_with("tank_rules_access_log_dropped_total "))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<usize>().ok())
                .unwrap_or(0)
        };
        let text = || {
            String::from_utf8(kept.0.lock().map(|k| k.clone()).unwrap_or_default())
                .unwrap_or_default()
        };
        // The writer finishes what it took once it is let go.
        for _ in 0..400 {
            if text().lines().count() + dropped() == 10 {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        let (text, dropped) = (text(), dropped());
        let written = text.lines().count();
        assert!(text.starts_with("line 0\n"), "{text:?}");
        assert_eq!(
            written + dropped,
            10,
            "{written} written, {dropped} dropped"
        );
        assert!(
            dropped >= 6,
            "the backlog of 2 should drop the rest: {dropped}"
        );
    }
}
