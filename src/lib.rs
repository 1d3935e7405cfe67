//! tank-rules: a stateless rules engine for tank board games, served over
//! HTTP.
//!
//! - [`games`] holds the engines (no HTTP);
//! - [`api`] is the actix-web layer, documented with utoipa.

pub mod games;
