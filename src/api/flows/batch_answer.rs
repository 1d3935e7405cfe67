//! A batch's answer, written a result at a time within its cap of bytes
//! and the bytes in flight: `{"results":[…]}`, or one result a line for
//! NDJSON.

use super::items::Written;
use crate::error::RequestError;
use crate::memory::Held;
use crate::text::Text;

/// The media type of a batch sent (and answered) one request a line.
pub const NDJSON: &str = "application/x-ndjson";

/// A batch's answer, written a result at a time: `{"results":[…]}` as
/// serde writes a [`BatchResponse`], or one result a line for NDJSON;
/// never more than its cap of bytes, its buffer's capacity included, and
/// that buffer held in flight.
pub(super) struct Answer {
    body: Capped,
    ndjson: bool,
    results: usize,
}

/// An answer's bytes, never more than `cap` of them (the buffer grows by
/// doubling up to the cap, not past it), its buffer held in flight as it
/// grows; a write that would pass the cap, or that the bytes in flight
/// have no room for, fails and writes nothing more.
struct Capped {
    bytes: Vec<u8>,
    cap: usize,
    held: Held,
    /// Why a write failed.
    stopped: Option<Overflow>,
}

impl std::io::Write for Capped {
    fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
        let len = self.bytes.len().saturating_add(data.len());
        if len > self.cap {
            self.stopped = Some(Overflow::Cap(self.cap));
            return Err(std::io::Error::other("the answer is full"));
        }
        if len > self.bytes.capacity() {
            let grown = len
                .max(self.bytes.capacity().saturating_mul(2))
                .min(self.cap);
            if self.held.grow_to(grown).is_err() {
                self.stopped = Some(Overflow::NoRoom);
                return Err(std::io::Error::other("no room in flight"));
            }
            self.bytes.reserve_exact(grown - self.bytes.len());
        }
        self.bytes.extend_from_slice(data);
        Ok(data.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Why a batch's answer was refused.
#[derive(Clone, Copy, Debug)]
pub(super) enum Overflow {
    /// It would pass this cap of bytes.
    Cap(usize),
    /// The bytes in flight have no room for it.
    NoRoom,
}

impl Overflow {
    /// The refusal, naming the request whose result passed the cap (its
    /// index; `usize::MAX` for the answer's closing bytes).
    pub(super) fn at(self, index: usize) -> RequestError {
        let Overflow::Cap(cap) = self else {
            return RequestError::NoRoom;
        };
        let field = match index {
            usize::MAX => "requests".to_owned(),
            index => format!("requests[{index}]"),
        };
        RequestError::limit_exceeded(
            Text::new("limit-answer-passed")
                .with("max", cap)
                .with("field", field.as_str()),
            &field,
        )
    }
}

impl Answer {
    /// An answer of at most `cap` bytes, held in flight by `held`.
    pub(super) fn new(ndjson: bool, cap: usize, held: Held) -> Answer {
        let mut body = Capped {
            bytes: Vec::new(),
            cap,
            held,
            stopped: None,
        };
        if !ndjson {
            // Within any cap a server may be given (a batch's answer is at
            // least this), and within the unit bytes are held in.
            body.bytes.extend_from_slice(b"{\"results\":[");
        }
        Answer {
            body,
            ndjson,
            results: 0,
        }
    }

    /// What is left of the cap.
    pub(super) fn room(&self) -> usize {
        self.body.cap.saturating_sub(self.body.bytes.len())
    }

    /// Why the last write failed.
    fn stopped(&self) -> Overflow {
        self.body.stopped.unwrap_or(Overflow::Cap(self.body.cap))
    }

    /// Writes one more result: `result` (an object's JSON text) named by
    /// `op`, its first field (what generated clients discriminate results
    /// by).
    pub(super) fn push(&mut self, op: &str, result: &Written) -> Result<(), Overflow> {
        use std::io::Write;
        let written = (|| {
            if !self.ndjson && self.results > 0 {
                self.body.write_all(b",")?;
            }
            let text = result.get();
            match text.strip_prefix('{') {
                Some(fields) => {
                    self.body.write_all(b"{\"op\":")?;
                    serde_json::to_writer(&mut self.body, op).map_err(std::io::Error::other)?;
                    let fields = fields.trim_start();
                    if !fields.starts_with('}') {
                        self.body.write_all(b",")?;
                    }
                    self.body.write_all(fields.as_bytes())?;
                }
                // Not an object (no endpoint answers one): as it is.
                None => self.body.write_all(text.as_bytes())?,
            }
            if self.ndjson {
                self.body.write_all(b"\n")?;
            }
            Ok::<(), std::io::Error>(())
        })();
        self.results += 1;
        written.map_err(|_| self.stopped())
    }

    /// The answer, what holds it in flight and its content type.
    pub(super) fn finish(mut self) -> Result<(Vec<u8>, Held, &'static str), Overflow> {
        use std::io::Write;
        if self.ndjson {
            return Ok((self.body.bytes, self.body.held, NDJSON));
        }
        if self.body.write_all(b"]}").is_err() {
            return Err(self.stopped());
        }
        Ok((self.body.bytes, self.body.held, "application/json"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::flows::batch::BatchResponse;
    use serde_json::Value;

    /// `fields` as an answer's text.
    fn written(fields: &Value) -> Written {
        serde_json::value::to_raw_value(fields).unwrap()
    }

    /// A batch's answer written a result at a time is what serde writes
    /// for the whole `BatchResponse` (each result named by its op, first),
    /// and one result a line for NDJSON.
    #[test]
    fn an_answer_written_a_result_at_a_time_is_serdes() {
        let results = [
            ("score", serde_json::json!({"score": {"white": 1}})),
            ("problem", serde_json::json!({"detail": "é \"quoted\"\n"})),
            ("apply", serde_json::json!({})),
            ("odd", serde_json::json!([])),
        ];
        let named = |(op, fields): &(&str, Value)| match fields {
            Value::Object(fields) => {
                let mut named = serde_json::Map::new();
                named.insert("op".to_owned(), Value::from(*op));
                named.extend(fields.clone());
                Value::Object(named)
            }
            other => other.clone(),
        };
        for count in 0..=results.len() {
            let some = &results[..count];
            let share = crate::memory::InFlight::new(1 << 20);
            let mut json = Answer::new(false, usize::MAX, share.none());
            let mut lines = Answer::new(true, usize::MAX, share.none());
            for (op, fields) in some {
                assert!(json.push(op, &written(fields)).is_ok());
                assert!(lines.push(op, &written(fields)).is_ok());
            }
            let whole = serde_json::to_vec(&BatchResponse {
                results: some.iter().map(named).collect(),
            })
            .unwrap();
            let (text, _, media) = json.finish().ok().unwrap();
            assert_eq!((text, media), (whole, "application/json"));
            let each: Vec<u8> = some
                .iter()
                .flat_map(|result| {
                    let mut line = serde_json::to_vec(&named(result)).unwrap();
                    line.push(b'\n');
                    line
                })
                .collect();
            let (text, _, media) = lines.finish().ok().unwrap();
            assert_eq!((text, media), (each, NDJSON));
        }
    }

    /// An answer the bytes in flight have no room for is refused as it
    /// grows past them, and gives back what it held.
    #[test]
    fn an_answer_without_room_in_flight_is_refused() {
        let share = crate::memory::InFlight::new(16 << 10);
        let result = written(&serde_json::json!({"moves": vec!["a1-a2"; 100]}));
        let mut answer = Answer::new(false, 1 << 20, share.none());
        let refused = loop {
            if let Err(overflow) = answer.push("legal-moves", &result) {
                break overflow;
            }
        };
        assert!(matches!(refused, Overflow::NoRoom), "{refused:?}");
        assert!(matches!(refused.at(3), RequestError::NoRoom));
        assert!(share.held() <= 16 << 10);
        drop(answer);
        assert_eq!(share.held(), 0);
    }

    /// An answer never holds more than its cap, its buffer's capacity
    /// included: the result that would pass it is refused, and the answer
    /// stays as it was before it.
    #[test]
    fn an_answer_never_holds_more_than_its_cap() {
        let fields = serde_json::json!({"moves": vec!["a1-a2"; 100]});
        let result = written(&fields);
        // `"op":"legal-moves",` and the result.
        let one = result.get().len() + 19;
        let share = crate::memory::InFlight::new(1 << 20);
        for cap in [one, one * 3 + 7, 10_000, 65_536] {
            for ndjson in [false, true] {
                let mut answer = Answer::new(ndjson, cap, share.none());
                let mut count = 0;
                while answer.push("legal-moves", &result).is_ok() {
                    count += 1;
                    assert!(answer.body.bytes.capacity() <= cap, "{cap}");
                }
                assert!(answer.body.bytes.capacity() <= cap, "{cap}");
                assert!(answer.body.bytes.len() <= cap, "{cap}");
                // As many results as fit, and not one more.
                let per = one + 1;
                assert!(count * per <= cap + 1, "{count} results in {cap}");
                assert!((count + 1) * per + 14 > cap, "{count} results in {cap}");
            }
        }
    }
}
