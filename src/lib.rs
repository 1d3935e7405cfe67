//! tank-rules: a stateless rules engine for tank board games, served over
//! HTTP.
//!
//! - [`games`] holds the engines, a crate of their own
//!   (`tank-rules-engines`, re-exported here): they know nothing of HTTP;
//! - [`api`] is the actix-web layer, documented with utoipa;
//! - [`render`] draws game states as SVG (pure functions, no HTTP);
//! - [`i18n`] holds the languages answers speak and their catalogues;
//! - [`server`] runs the application on actix's HTTP/1 server;
//! - [`config`] reads the command line;
//! - [`operations`] is every game's operations, once: paths, prices,
//!   pools;
//! - [`limits`], [`slots`], [`memory`], [`cache`], [`metrics`], [`logs`],
//!   [`fair_use`], [`redis`], [`access_log`] and [`error`] are the shared
//!   pieces below the HTTP layer.

pub mod access_log;
pub mod api;
pub mod cache;
pub mod config;
pub mod conformance;
pub mod error;
pub mod fair_use;
pub use tank_rules_engines::games;
pub mod i18n;
pub mod limits;
pub mod logs;
pub mod memory;
pub mod metrics;
pub mod operations;
pub mod redis;
pub mod render;
pub mod server;
pub mod slots;
pub mod text;
