//! The fuzz targets' invariants on stable, as property tests: every parser
//! takes any text without panicking, and what parses writes back to itself.

use proptest::prelude::*;
use tank_rules::games::tank_battle::{Layout, MoveText, Position, Setup, Square, STANDARD_TEXT};

/// Text built from pieces of the notations, plus arbitrary characters.
fn notation_text() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "11",
        "10",
        "9",
        "1",
        "0",
        "/",
        " ",
        "w",
        "b",
        "T",
        "C",
        "t",
        "c",
        ".",
        "#",
        "~",
        "W",
        "B",
        "a1",
        "k11",
        "-",
        "x",
        "X",
        "12",
        "007",
        "é",
        "\u{0}",
        "\n",
        "99999999999999999999999",
    ]);
    prop_oneof![
        prop::collection::vec(pieces, 0..60).prop_map(|p| p.concat()),
        any::<String>(),
        // Valid text with one character replaced.
        (any::<prop::sample::Index>(), any::<char>()).prop_map(|(i, c)| {
            let mut chars: Vec<char> = STANDARD_TEXT.chars().collect();
            let at = i.index(chars.len());
            chars[at] = c;
            chars.into_iter().collect()
        }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn tbn_parses_or_refuses(text in notation_text()) {
        if let Ok(setup) = text.parse::<Setup>() {
            prop_assert_eq!(setup.to_string().parse::<Setup>(), Ok(setup));
            let layout = Layout::STANDARD;
            if let Ok(pos) = Position::from_setup(setup, &layout) {
                prop_assert_eq!(pos.legal_moves(&layout).len() as u64, pos.count_legal_moves(&layout));
            }
        }
    }

    #[test]
    fn layouts_parse_or_refuse(text in notation_text()) {
        if let Ok(layout) = Layout::parse(&text) {
            prop_assert_eq!(Layout::parse(&layout.to_string()), Ok(layout));
            let start = Position::initial(&layout);
            prop_assert_eq!(Position::from_setup(start.to_setup(), &layout), Ok(start));
        }
    }

    #[test]
    fn moves_and_squares_parse_or_refuse(text in notation_text()) {
        if let Ok(sq) = text.parse::<Square>() {
            prop_assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
        }
        if let Ok(mv) = text.parse::<MoveText>() {
            let layout = Layout::STANDARD;
            if let Ok(legal) = Position::initial(&layout).validate(&layout, mv) {
                prop_assert_eq!(legal.to_string().parse::<MoveText>(), Ok(mv));
            }
        }
    }
}
