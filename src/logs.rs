//! What keeps the service's logs readable under attack. actix-http writes
//! an ERROR line for each connection it gives up on (`stream error: …`,
//! one for every malformed request), before any key or quota is looked
//! at: a client could write the log as fast as it sends garbage. Those
//! lines ([`Quiet`], a layer of the subscriber) are not written but
//! counted, and one WARN an interval ([`spawn_summary`]) says how many
//! there were, with the first such line of the interval as an example.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use tracing::field::{Field, Visit};
use tracing::{Level, Metadata, Subscriber};
use tracing_subscriber::layer::{Context, Layer};

/// The lines counted since the last summary, and an example of the first.
static COUNT: AtomicU64 = AtomicU64::new(0);
static EXAMPLE: Mutex<Option<String>> = Mutex::new(None);

/// The longest example kept.
const EXAMPLE_CHARS: usize = 120;

/// What was counted since the last call, and the example line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counted {
    pub connection_lines: u64,
    pub example: Option<String>,
}

/// Takes the count (it starts again from zero).
pub fn take() -> Counted {
    let example = EXAMPLE.lock().ok().and_then(|mut e| e.take());
    Counted {
        connection_lines: COUNT.swap(0, Ordering::Relaxed),
        example,
    }
}

/// Whether a log event is one of actix-http's lines about one connection:
/// a warning or error of its HTTP/1 dispatcher, decoder or payload.
pub fn is_connection_line(metadata: &Metadata<'_>) -> bool {
    *metadata.level() <= Level::WARN && metadata.target().starts_with("actix_http::h1")
}

/// The subscriber's layer that keeps actix-http's per-connection lines
/// out of the log and counts them.
#[derive(Clone, Copy, Debug, Default)]
pub struct Quiet;

impl<S: Subscriber> Layer<S> for Quiet {
    fn event_enabled(&self, event: &tracing::Event<'_>, _: Context<'_, S>) -> bool {
        if !is_connection_line(event.metadata()) {
            return true;
        }
        COUNT.fetch_add(1, Ordering::Relaxed);
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
    if counted.connection_lines == 0 {
        return;
    }
    tracing::warn!(
        interval_secs = interval.as_secs(),
        connection_errors = counted.connection_lines,
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
            let counted = take();
            // At least: other tests of the library may count events of
            // their own meanwhile (the counts are the process's).
            assert!(counted.connection_lines >= 2_000, "{counted:?}");
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
