//! An answer streamed as NDJSON from work on the blocking pool (a review's
//! entries, a game's puzzles): the work holds its slot, writes its lines
//! through a [`Sink`], and stops when its deadline passes or the client
//! leaves (the stream dropped).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use actix_web::web::Bytes;
use serde::Serialize;
use tokio::sync::mpsc::Sender;

use crate::api::services::RaiseOnDrop;

/// How long a blocked stream waits between tries to hand a line on.
const SEND_RETRY: Duration = Duration::from_millis(2);

/// Where the work's lines go, and its stop flag.
pub(super) struct Sink {
    lines: Sender<Bytes>,
    /// Raised at the deadline and when the client leaves.
    pub(super) stop: Arc<AtomicBool>,
}

impl Sink {
    /// Hands `line` (written as JSON, its newline added) to the stream's
    /// reader, waiting while the client reads slowly, but never past the
    /// stop flag (a blocked send wakes then); whether it was handed on.
    /// (The connection's own send deadline closes a client that stops
    /// reading, which drops the stream and raises the flag.)
    pub(super) fn send(&self, line: &impl Serialize) -> bool {
        use tokio::sync::mpsc::error::TrySendError;
        let Ok(mut bytes) = serde_json::to_vec(line) else {
            return false;
        };
        bytes.push(b'\n');
        let mut bytes = Bytes::from(bytes);
        loop {
            match self.lines.try_send(bytes) {
                Ok(()) => return true,
                Err(TrySendError::Closed(_)) => return false,
                Err(TrySendError::Full(back)) => {
                    if self.stop.load(Ordering::Relaxed) {
                        return false;
                    }
                    bytes = back;
                    std::thread::sleep(SEND_RETRY);
                }
            }
        }
    }
}

/// Runs `work` on the blocking pool holding `slot`, its lines streamed as
/// it writes them; the stop flag is raised at `deadline` and when the
/// stream is dropped.
pub(super) fn spawn_lines<S: Send + 'static>(
    slot: S,
    deadline: Instant,
    work: impl FnOnce(&Sink) + Send + 'static,
) -> impl futures_util::Stream<Item = Result<Bytes, actix_web::Error>> {
    let stop = Arc::new(AtomicBool::new(false));
    let (lines, mut receiver) = tokio::sync::mpsc::channel::<Bytes>(16);
    let timer = stop.clone();
    actix_web::rt::spawn(async move {
        tokio::time::sleep_until(deadline.into()).await;
        timer.store(true, Ordering::Relaxed);
    });
    let sink = Sink {
        lines,
        stop: stop.clone(),
    };
    actix_web::rt::task::spawn_blocking(move || {
        let _slot = slot;
        work(&sink);
    });
    // Named in the closure so that the stream owns it: the flag is raised
    // when the stream is dropped (the client left).
    let raise_on_drop = RaiseOnDrop(stop);
    futures_util::stream::poll_fn(move |cx| {
        let _owned = &raise_on_drop;
        receiver.poll_recv(cx).map(|line| line.map(Ok))
    })
}
