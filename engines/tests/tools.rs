//! The engine tools start and say how they are used. (Also why this test
//! exists beside the engines' unit tests: a package's integration tests
//! make `cargo test` build its binaries, so CI's scripts find
//! `target/debug/tank_war_exact_check` where `cargo test` left it.)

use std::process::Command;

#[test]
fn every_tool_answers_its_help() {
    let tools = [
        ("exploit", env!("CARGO_BIN_EXE_exploit")),
        ("ladder", env!("CARGO_BIN_EXE_ladder")),
        ("selfplay", env!("CARGO_BIN_EXE_selfplay")),
        (
            "tank_war_exact_check",
            env!("CARGO_BIN_EXE_tank_war_exact_check"),
        ),
        ("tank_war_table", env!("CARGO_BIN_EXE_tank_war_table")),
    ];
    for (name, path) in tools {
        let output = Command::new(path).arg("--help").output().unwrap();
        let usage = String::from_utf8_lossy(&output.stdout);
        assert!(output.status.success(), "{name} --help: {output:?}");
        assert!(usage.contains("Usage:"), "{name} --help: {usage}");
    }
}
