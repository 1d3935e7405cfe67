//! Tank Battle perft against shakmaty's chess perft, in one run, one
//! thread each, both bulk-counted (the last ply counts legal moves without
//! playing them).
//!
//! ```sh
//! cargo run --release --example perft_compare
//! ```

use std::time::Instant;

use shakmaty::{perft as chess_perft, Chess};
use tank_rules::games::tank_battle::{perft::perft, Layout, Position};

/// Reached from the start by the AI (depth 2) playing both sides for 24 plies.
const MIDDLEGAME: &str = "cttt7/2t8/2t8/11/8T2/11/2t8/10T/10T/8T1T/t8TC w 24";

fn rate(label: &str, depth: u32, run: impl Fn() -> u64) -> f64 {
    // Best of three, after a warm-up.
    run();
    let mut best = f64::INFINITY;
    let mut nodes = 0;
    for _ in 0..3 {
        let started = Instant::now();
        nodes = run();
        best = best.min(started.elapsed().as_secs_f64());
    }
    let per_second = nodes as f64 / best;
    println!(
        "{label:<32} perft({depth}) = {nodes:>11} in {best:.3} s: {:>7.1} M leaves/s",
        per_second / 1e6
    );
    per_second
}

fn main() {
    let layout = Layout::STANDARD;
    let start = Position::initial(&layout);
    // A middlegame reached by the AI playing both sides: open lines.
    let middle = tank_rules::games::tank_battle::parse_position(MIDDLEGAME, &layout);
    let tank = rate("Tank Battle, start position", 5, || {
        perft(&start, &layout, 5)
    });
    let tank_middle =
        middle.map(|pos| rate("Tank Battle, middlegame", 4, || perft(&pos, &layout, 4)));
    let chess = rate("chess (shakmaty), start position", 6, || {
        chess_perft(&Chess::default(), 6)
    });
    println!("Tank Battle start / chess leaf rate: {:.2}", tank / chess);
    match tank_middle {
        Ok(middle) => println!(
            "Tank Battle middlegame / chess leaf rate: {:.2}",
            middle / chess
        ),
        Err(e) => println!("middlegame position rejected: {e}"),
    }
}
