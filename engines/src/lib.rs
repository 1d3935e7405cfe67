//! The rules engines of tank-rules: Tank Battle, The Tank War and Tank
//! Wars, each behind the one [`games::Game`] trait, with their notations,
//! searches and the review's judge. A crate of their own so that Cargo
//! holds what the service's architecture says: the engines know nothing
//! of HTTP (this crate depends on no HTTP, Redis or logging crate); the
//! service (`tank-rules`) is built on top of them.

pub mod games;
