//! The request flows, written once for every game against
//! [`GameApi`](super::game::GameApi): the simple ones (`legal-moves`,
//! `validate`, `apply`, `score`: [`simple`]), `replay` ([`replay`]),
//! `ai-move` with its cache key and cache tiers ([`ai`]; what a request
//! asks and an answer keeps: [`ask`]), `batch` with its dispatch
//! ([`batch`]; its answer: [`batch_answer`]; its searches' shared time:
//! [`budget`]), `compare`, another
//! engine's claims checked ([`compare`]), `render.svg` ([`render`]) and `annotate`, a game reviewed ([`annotate`]; its answer:
//! [`annotation`], its entries' forced results: [`forced`]); `puzzles`, a
//! reviewed game's only moves ([`puzzles`]); both streamed as NDJSON by
//! [`stream`].

pub mod ai;
pub mod annotate;
pub mod annotate_line;
pub mod annotation;
pub mod ask;
pub mod batch;
mod batch_answer;
pub mod budget;
pub mod compare;
pub mod forced;
pub mod items;
pub mod puzzles;
pub mod record;
pub mod render;
pub mod replay;
pub mod simple;
mod stream;
