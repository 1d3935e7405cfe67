//! What keeps the service's logs readable under attack. actix-http writes
//! an ERROR line for each connection it gives up on (`stream error: …`,
//! one for every malformed request), before any key or quota is looked
//! at: a client could write the log as fast as it sends garbage. Those
//! lines ([`Quiet`], a layer of the subscriber) are not written but
//! counted, with the connections the server itself refuses or drops
//! ([`count`]: heads too large or too slow, sends that time out), and one
//! WARN an interval ([`spawn_summary`]) says how many of each there were,
//! with the first such line of the interval as an example.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use tracing::field::{Field, Visit};
use tracing::{Level, Metadata, Subscriber};
use tracing_subscriber::layer::{Context, Layer};

/// What is counted rather than logged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// A line actix-http wrote about one connection (a malformed request,
    /// a connection reset while answering).
    Connection,
    /// A request head larger than `--max-head-bytes` (431).
    HeadTooLarge,
    /// A request head that did not arrive whole in time (408).
    HeadTimeout,
    /// A client that read nothing of its answer for `--send-timeout-secs`.
    SendTimeout,
}

const EVENTS: usize = 4;

impl Event {
    fn index(self) -> usize {
        match self {
            Event::Connection => 0,
            Event::HeadTooLarge => 1,
            Event::HeadTimeout => 2,
            Event::SendTimeout => 3,
        }
    }
}

/// The counts since the last summary, and an example of the first kind.
static COUNTS: [AtomicU64; EVENTS] = [const { AtomicU64::new(0) }; EVENTS];
static EXAMPLE: Mutex<Option<String>> = Mutex::new(None);

/// The longest example kept.
const EXAMPLE_CHARS: usize = 120;

/// Counts one `event`.
pub fn count(event: Event) {
    if let Some(counter) = COUNTS.get(event.index()) {
        counter.fetch_add(1, Ordering::Relaxed);
    }
}

/// What was counted since the last call, and the example line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counted {
    pub connection_lines: u64,
    pub heads_too_large: u64,
    pub head_timeouts: u64,
    pub send_timeouts: u64,
    pub example: Option<String>,
}

impl Counted {
    /// Whether nothing was counted.
    pub fn is_empty(&self) -> bool {
        self.connection_lines + self.heads_too_large + self.head_timeouts + self.send_timeouts == 0
    }
}

/// Takes the counts (they start again from zero).
pub fn take() -> Counted {
    let take = |event: Event| {
        COUNTS
            .get(event.index())
            .map_or(0, |c| c.swap(0, Ordering::Relaxed))
    };
    let example = EXAMPLE.lock().ok().and_then(|mut e| e.take());
    Counted {
        connection_lines: take(Event::Connection),
        heads_too_large: take(Event::HeadTooLarge),
        head_timeouts: take(Event::HeadTimeout),
        send_timeouts: take(Event::SendTimeout),
        example,
    }
}

/// Whether a log event is one of actix-http's lines about one connection:
/// a warning or error of its HTTP/1 dispatcher, decoder or payload.
pub fn is_connection_line(metadata: &Metadata<'_>) -> bool {
    *metadata.level() <= Level::WARN && metadata.target().starts_with("actix_http::h1")
}

/// The subscriber's layer that keeps actix-http's per-connection lines
/// out of the log and counts them ([`Event::Connection`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct Quiet;

impl<S: Subscriber> Layer<S> for Quiet {
    fn event_enabled(&self, event: &tracing::Event<'_>, _: Context<'_, S>) -> bool {
        if !is_connection_line(event.metadata()) {
            return true;
        }
        count(Event::Connection);
        if let Ok(mut example) = EXAMPLE.try_lock() {
            if example.is_none() {
                let mut message = Message(String::new());
                event.record(&mut message);
                let text: String = message.0.chars().take(EXAMPLE_CHARS).collect();
                *example = Some(format!("{}: {text}", event.metadata().target()));
            }
        }
        false
    }
}

/// An event's message, as text.
struct Message(String);

impl Visit for Message {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        if field.name() == "message" {
            self.0 = format!("{value:?}");
        }
    }
}

/// How often the summary is written at most.
pub const SUMMARY_INTERVAL: Duration = Duration::from_secs(10);

/// Writes one WARN line an `interval` when anything was counted in it, on
/// a thread of its own.
pub fn spawn_summary(interval: Duration) -> std::io::Result<()> {
    std::thread::Builder::new()
        .name("log-summary".to_owned())
        .spawn(move || loop {
            std::thread::sleep(interval);
            summarise(&take(), interval);
        })
        .map(|_| ())
}

/// The summary of `counted`, as one WARN line (none when nothing was).
pub fn summarise(counted: &Counted, interval: Duration) {
    if counted.is_empty() {
        return;
    }
    tracing::warn!(
        interval_secs = interval.as_secs(),
        connection_errors = counted.connection_lines,
        heads_too_large = counted.heads_too_large,
        head_timeouts = counted.head_timeouts,
        send_timeouts = counted.send_timeouts,
        example = counted.example.as_deref().unwrap_or(""),
        "connections refused or broken in the last {} s (counted, not logged one by one)",
        interval.as_secs()
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use tracing_subscriber::layer::SubscriberExt;

    /// A writer that keeps what is written.
    #[derive(Clone, Default)]
    struct Kept(std::sync::Arc<Mutex<Vec<u8>>>);

    impl std::io::Write for Kept {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            if let Ok(mut kept) = self.0.lock() {
                kept.extend_from_slice(buf);
            }
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn connection_lines_are_counted_and_summarised_not_written() {
        let kept = Kept::default();
        let writer = kept.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_writer(move || writer.clone())
            .with_ansi(false)
            .finish()
            .with(Quiet);
        tracing::subscriber::with_default(subscriber, || {
            let _ = take();
            for _ in 0..2_000 {
                tracing::error!(target: "actix_http::h1::dispatcher", "stream error: {}", "Parse(Header)");
            }
            tracing::info!(target: "actix_http::h1::dispatcher", "kept: not a warning");
            tracing::error!(target: "tank_rules::api", "kept: the service's own");
            count(Event::HeadTooLarge);
            let counted = take();
            // At least: other tests of the library may count events of
            // their own meanwhile (the counts are the process's).
            assert!(counted.connection_lines >= 2_000, "{counted:?}");
            assert!(counted.heads_too_large >= 1, "{counted:?}");
            assert_eq!(
                counted.example.as_deref(),
                Some("actix_http::h1::dispatcher: stream error: Parse(Header)")
            );
            summarise(&counted, SUMMARY_INTERVAL);
            summarise(&Counted::default(), SUMMARY_INTERVAL);
        });
        let written = String::from_utf8(kept.0.lock().unwrap().clone()).unwrap();
        let lines: Vec<&str> = written.lines().collect();
        assert_eq!(lines.len(), 3, "{written}");
        assert!(
            !written.contains("stream error: Parse(Header)\n"),
            "{written}"
        );
        assert!(lines[2].contains("connection_errors=2"), "{}", lines[2]);
        assert!(
            lines[2].contains("connections refused or broken"),
            "{}",
            lines[2]
        );
    }
}
