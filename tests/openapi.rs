//! The committed OpenAPI document must be what the code generates.

#[test]
fn committed_openapi_matches_the_code() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/openapi/openapi.json");
    let committed = std::fs::read_to_string(path).unwrap_or_default();
    let generated = tank_rules::api::openapi_json();
    assert!(
        committed == generated,
        "openapi/openapi.json is out of date with the code; regenerate it with\n\n    \
         cargo run -- openapi > openapi/openapi.json\n"
    );
}
