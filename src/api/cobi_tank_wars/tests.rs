//! Tank Wars' face: its state's codec round trip and examples.

use super::*;

#[test]
fn states_round_trip() {
    let dto = CobiTankWars::encode_state(&State::initial());
    let back = CobiTankWars::decode_state(&dto, "state", &Limits::default()).unwrap();
    assert_eq!(back, State::initial());
    let example: StateDto = serde_json::from_value(example_state()).unwrap();
    assert!(CobiTankWars::decode_state(&example, "state", &Limits::default()).is_ok());
}

/// A legal order is written as `legal-moves` always wrote it: direction,
/// distance, destination, blocked, in that order (the engine's
/// `LegalOrder`, its order flattened).
#[test]
fn a_legal_order_is_written_in_its_fields_order() {
    let answer = CobiTankWars::run_legal_moves(
        json_state::LegalMovesRequest {
            state: CobiTankWars::encode_state(&State::initial()),
            player: Some(Player::P1),
        },
        &Limits::default(),
    )
    .unwrap();
    let text = serde_json::to_string(&answer).unwrap();
    assert!(
        text.starts_with(r#"{"P1":{"P1-1":[{"dir":"N","dist":1,"to":"c2","blocked_now":false},"#),
        "{text}"
    );
}
