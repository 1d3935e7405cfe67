//! The middlewares that are features of the service rather than of HTTP:
//! fair use (API keys and quotas, [`fair_use`]), request metrics
//! ([`metrics`]) and CORS ([`cors`]).

pub mod cors;
pub mod fair_use;
pub mod metrics;
