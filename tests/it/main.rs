//! Every integration test in one crate, so the service is linked once
//! (the layout of rust-analyzer and matklad's "Delete Cargo Integration
//! Tests"). Each module is one former test file.

mod allocations;
mod answers;
mod architecture;
mod architecture_doc;
mod cache_weight;
mod cobi_tank_wars_oracle;
mod common;
mod conformance;
mod container;
mod deploy_config;
mod engine_props;
mod golden;
mod http_ai_levels;
mod http_annotate;
mod http_batch;
mod http_board;
mod http_bounds;
mod http_cobi_tank_wars;
mod http_compare;
mod http_compare_divide;
mod http_connections;
mod http_contract;
mod http_end_policy;
mod http_expect;
mod http_fair_use;
mod http_front_door;
mod http_hostile;
mod http_language;
mod http_limits;
mod http_ops;
mod http_play;
mod http_pricing;
mod http_render;
mod http_request_id;
mod http_tank_battle;
mod http_tank_war;
mod links;
mod modules;
mod openapi;
mod openapi_examples;
mod parse_props;
mod readme;
mod shared_cache;
mod tank_war_props;
