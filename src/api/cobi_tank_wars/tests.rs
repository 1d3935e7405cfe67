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
