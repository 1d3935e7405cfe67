//! tank-rules: a stateless rules engine for tank board games, served over
//! HTTP.
//!
//! - [`games`] holds the engines; they know nothing of HTTP;
//! - [`api`] is the actix-web layer, documented with utoipa;
//! - [`render`] draws game states as SVG (pure functions, no HTTP);
//! - [`limits`], [`cache`], [`metrics`] and [`config`] are shared by all
//!   games.

pub mod access_log;
pub mod api;
pub mod cache;
pub mod config;
pub mod error;
pub mod fair_use;
pub mod games;
pub mod limits;
pub mod metrics;
pub mod redis;
pub mod render;
