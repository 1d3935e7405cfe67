//! Move and square notation: no panic; a parsed move validates against the
//! start position without panicking, and legal moves write canonically.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tank_rules::games::tank_battle::{Layout, MoveText, Position, Square};

fuzz_target!(|text: &str| {
    if let Ok(sq) = text.parse::<Square>() {
        assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
    }
    let Ok(mv) = text.parse::<MoveText>() else { return };
    let layout = Layout::STANDARD;
    let pos = Position::initial(&layout);
    if let Ok(legal) = pos.validate(&layout, mv) {
        let canonical = legal.to_string();
        assert_eq!(canonical.parse::<MoveText>(), Ok(mv));
    }
});
