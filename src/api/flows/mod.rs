//! The request flows, written once for every game against
//! [`GameApi`](super::game::GameApi): the simple ones (`legal-moves`,
//! `validate`, `apply`, `score`: [`simple`]), `replay` ([`replay`]),
//! `ai-move` with its cache key and cache tiers ([`ai`]), `batch` with its
//! budget and dispatch ([`batch`]) and `render.svg` ([`render`]).

pub mod ai;
pub mod batch;
pub mod render;
pub mod replay;
pub mod simple;
