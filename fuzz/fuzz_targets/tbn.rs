//! TBN parsing: no panic; what parses writes back to the same setup; a
//! valid position on the standard layout survives move generation, play
//! and scoring.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tank_rules::games::tank_battle::{Layout, Position, Setup};

fuzz_target!(|text: &str| {
    let Ok(setup) = text.parse::<Setup>() else { return };
    let written = setup.to_string();
    assert_eq!(written.parse::<Setup>().as_ref(), Ok(&setup), "{written}");
    let layout = Layout::STANDARD;
    let Ok(pos) = Position::from_setup(setup, &layout) else { return };
    let moves = pos.legal_moves(&layout);
    assert_eq!(moves.len() as u64, pos.count_legal_moves(&layout));
    for mv in moves.iter().take(8) {
        let mut child = pos;
        child.play_unchecked(*mv);
        let _ = child.score(&layout);
        let _ = child.outcome(&layout);
    }
});
