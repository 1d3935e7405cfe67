//! How requests and answers travel, for every route: the JSON body
//! extractor and JSON answers ([`json`]), large answers handed over in
//! pieces ([`pieces`]), query strings ([`query`]), and the strict reading
//! they use ([`strict`], their faults by kind: [`json_fault`]),
//! HTTP's own errors beside the domain's ([`http_error`]), problem+json
//! for every error ([`problem`]), HTTP hygiene
//! ([`hygiene`]: `HEAD`, `Connection: close`, `Expect` ([`expect`]),
//! other layers' errors),
//! compression of large answers ([`compression`]), request ids
//! ([`request_id`]), what a request matched ([`route`]), JSON Schema
//! checks of batch items ([`schema`]), static files compressed once
//! ([`assets`]), SVG answers with entity tags
//! ([`svg`]) and every answer's `Vary` ([`vary`]).

pub mod assets;
pub mod compression;
pub mod expect;
pub mod http_error;
pub mod hygiene;
pub mod json;
pub mod json_fault;
pub mod pieces;
pub mod problem;
pub mod query;
pub mod request_id;
pub mod route;
pub mod schema;
pub mod strict;
pub mod svg;
pub mod vary;
