//! Layout parsing: no panic; what parses writes back to the same layout,
//! and its start position is valid on it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tank_rules::games::tank_battle::{Layout, Position};

fuzz_target!(|text: &str| {
    let Ok(layout) = Layout::parse(text) else { return };
    let written = layout.to_string();
    assert_eq!(Layout::parse(&written), Ok(layout));
    let start = Position::initial(&layout);
    assert_eq!(Position::from_setup(start.to_setup(), &layout), Ok(start));
    let _ = start.legal_moves(&layout);
});
