//! The per-request layers, run by one middleware ([`layers`]): besides the
//! transport's (hygiene, compression, request ids), the features of the
//! service: fair use (API keys and quotas, [`fair_use`]), request metrics
//! ([`metrics`]), CORS ([`cors`]) and the answer's language
//! ([`language`]).

pub mod cors;
pub mod fair_use;
pub mod language;
pub mod layers;
pub mod metrics;
