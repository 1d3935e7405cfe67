//! The per-request layers, run by one middleware ([`layers`]): besides the
//! transport's (hygiene, compression, request ids), the features of the
//! service: fair use (API keys and quotas, [`fair_use`]), request metrics
//! ([`metrics`]) and CORS ([`cors`]).

pub mod cors;
pub mod fair_use;
pub mod layers;
pub mod metrics;
