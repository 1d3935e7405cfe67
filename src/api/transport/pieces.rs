//! A large answer handed to its connection a piece at a time
//! ([`Pieces`]): actix copies each piece its body yields into the
//! connection's write buffer, so an answer yielded whole (2 MB) would sit
//! in the buffer of a client that stops reading. In pieces of
//! [`ANSWER_PIECE_BYTES`], a connection holds at most its write buffer
//! and one piece; the rest stays in the answer, whose bytes are held in
//! flight ([`Held`]) until its last piece has gone.

use std::pin::Pin;
use std::task::{Context, Poll};

use actix_web::body::{BodySize, MessageBody};
use actix_web::web::Bytes;

use crate::api::transport::problem::HttpError;
use crate::memory::{Held, InFlight, ANSWER_PIECE_BYTES};

/// `answer` with `body`: as it is when small, else held in flight and
/// handed over in pieces, or refused (503) when the bytes in flight have
/// no room for it.
pub fn answer(
    mut answer: actix_web::HttpResponseBuilder,
    body: Vec<u8>,
    in_flight: &InFlight,
) -> Result<actix_web::HttpResponse, HttpError> {
    if body.len() <= ANSWER_PIECE_BYTES {
        return Ok(answer.body(body));
    }
    let held = in_flight.hold(body.len())?;
    Ok(answer.body(Pieces::new(body, Some(held))))
}

/// An answer's bytes, yielded in pieces of at most
/// [`ANSWER_PIECE_BYTES`] (each a view of the same buffer: nothing is
/// copied), holding its bytes in flight until it is dropped.
pub struct Pieces {
    bytes: Bytes,
    _held: Option<Held>,
}

impl Pieces {
    /// `bytes`, held in flight by `held` (none for a static answer, which
    /// the process holds anyway).
    pub fn new(bytes: impl Into<Bytes>, held: Option<Held>) -> Pieces {
        Pieces {
            bytes: bytes.into(),
            _held: held,
        }
    }
}

impl MessageBody for Pieces {
    type Error = std::convert::Infallible;

    fn size(&self) -> BodySize {
        BodySize::Sized(self.bytes.len() as u64)
    }

    fn poll_next(
        self: Pin<&mut Self>,
        _: &mut Context<'_>,
    ) -> Poll<Option<Result<Bytes, Self::Error>>> {
        let this = self.get_mut();
        if this.bytes.is_empty() {
            return Poll::Ready(None);
        }
        let take = this.bytes.len().min(ANSWER_PIECE_BYTES);
        Poll::Ready(Some(Ok(this.bytes.split_to(take))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::InFlight;

    #[actix_web::test]
    async fn an_answer_goes_in_pieces_and_gives_its_bytes_back_when_gone() {
        let share = InFlight::new(1 << 20);
        let answer: Vec<u8> = (0..20_000u32).map(|i| i as u8).collect();
        let held = share.hold(answer.len()).unwrap();
        let mut body = Pieces::new(answer.clone(), Some(held));
        assert_eq!(body.size(), BodySize::Sized(20_000));
        let mut pieces = Vec::new();
        while let Some(piece) = std::future::poll_fn(|cx| Pin::new(&mut body).poll_next(cx)).await {
            pieces.push(piece.unwrap());
        }
        let sizes: Vec<usize> = pieces.iter().map(Bytes::len).collect();
        assert_eq!(
            sizes,
            [
                ANSWER_PIECE_BYTES,
                ANSWER_PIECE_BYTES,
                20_000 - 2 * ANSWER_PIECE_BYTES
            ]
        );
        assert_eq!(pieces.concat(), answer);
        assert_eq!(share.held(), 20 << 10);
        drop(body);
        assert_eq!(share.held(), 0);
    }
}
