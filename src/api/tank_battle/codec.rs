//! Tank Battle's notations to the engine's types and back: a notation's
//! 400, the decoding of a request's position, layout, move and square, and
//! the score and status its answers report.

use super::dto::{AtPosition, Rules, ScorePair};
use crate::api::transport::problem::RequestError;
use crate::error::NotationKind;
use crate::games::tank_battle::{
    self as engine, EndPolicy, Layout, Move, MoveText, Notation, NotationFault, Outcome,
    ParseError, Position, Score, Side, Square, State, TankBattle,
};
use crate::games::Game;
use crate::limits::Limits;
use crate::text::Text;

/// The code of a notation's 400 (its title is the code's).
pub(super) fn notation_kind(notation: Notation) -> NotationKind {
    let code = match notation {
        Notation::Position => "BAD_POSITION",
        Notation::Layout => "BAD_LAYOUT",
        Notation::Move => "BAD_MOVE_NOTATION",
    };
    NotationKind { code }
}

/// A notation error as the 400 it is.
pub(super) fn notation(error: ParseError, field: &str, ply: Option<usize>) -> RequestError {
    RequestError::Notation {
        kind: notation_kind(error.notation),
        text: fault_text(&error.fault),
        field: field.to_owned(),
        ply,
    }
}

/// A position's broken invariant as a text of the catalogues.
pub(super) fn invalid_text(error: engine::PositionError) -> Text {
    use engine::PositionError as E;
    let (id, square) = match error {
        E::SquareTwice(sq) => ("invalid-tank-battle-square-twice", sq),
        E::TankOnMine(sq) => ("invalid-tank-battle-tank-on-mine", sq),
        E::TankOnContaminated(sq) => ("invalid-tank-battle-tank-on-contaminated", sq),
        E::SeveralCommanders(side) => {
            return Text::new("invalid-tank-battle-several-commanders").with("side", side.name())
        }
    };
    Text::new(id).with("square", square.name())
}

/// A notation's fault as a text of the catalogues: `notation-<fault>` and
/// the facts it names.
pub(super) fn fault_text(fault: &NotationFault) -> Text {
    let text = Text::new(format!("notation-{}", fault.name()));
    match fault {
        NotationFault::Fields => text,
        NotationFault::Side { found }
        | NotationFault::Ply { found }
        | NotationFault::PlyTooLarge { found }
        | NotationFault::Move { found }
        | NotationFault::Square { found } => text.quoting("found", found),
        NotationFault::Ranks { found } => text.with("found", *found),
        NotationFault::EmptyRun { rank, found } => text.with("rank", *rank).quoting("found", found),
        NotationFault::PieceCharacter { rank, found } => {
            text.with("rank", *rank).with("found", format!("{found:?}"))
        }
        NotationFault::RankWidth { rank, covers } => {
            text.with("rank", *rank).with("covers", *covers)
        }
        NotationFault::LayoutRows {
            found,
            name_like,
            standard,
        } => text
            .with("found", *found)
            .with("name", *standard)
            .with("name-like", if *name_like { "yes" } else { "no" }),
        NotationFault::LayoutRowLength { row, rank, found } => text
            .with("row", *row)
            .with("rank", *rank)
            .with("found", *found),
        NotationFault::LayoutCharacter { square, found } => text
            .with("square", square)
            .with("found", format!("{found:?}")),
        NotationFault::CommanderStarts { side, count } => text
            .with("side", side.name())
            .with("letter", if *side == Side::White { "W" } else { "B" })
            .with("count", *count),
    }
}

pub(super) fn decode_layout(text: Option<&str>) -> Result<Layout, RequestError> {
    match text {
        None => Ok(Layout::STANDARD),
        Some(text) => Layout::parse(text).map_err(|e| notation(e, "layout", None)),
    }
}

pub(super) fn decode_position(
    text: &str,
    layout: &Layout,
    field: &str,
) -> Result<Position, RequestError> {
    engine::parse_position(text, layout).map_err(|err| match err {
        engine::PositionParseError::Parse(error) => notation(error, field, None),
        engine::PositionParseError::Invalid(error) => {
            RequestError::invalid_position(invalid_text(error), field)
        }
    })
}

pub(super) fn decode_move(text: &str, field: &str) -> Result<MoveText, RequestError> {
    text.parse().map_err(|e| notation(e, field, None))
}

/// `render.svg`'s `arrows`: moves separated by commas, at most
/// [`Limits::RENDER_MAX_ARROWS`] (drawn as given, not played).
pub(super) fn decode_arrows(text: &str) -> Result<Vec<Move>, RequestError> {
    let count = text.split(',').count();
    if count > Limits::RENDER_MAX_ARROWS {
        return Err(RequestError::bad_query(
            Text::new("request-too-many-arrows")
                .with("param", "arrows")
                .with("count", count)
                .with("max", Limits::RENDER_MAX_ARROWS),
            Some("arrows"),
        ));
    }
    text.split(',')
        .map(|piece| decode_drawn(piece, "arrows"))
        .collect()
}

/// A move to draw, as given (not played: it captures nothing).
pub(super) fn decode_drawn(text: &str, field: &str) -> Result<Move, RequestError> {
    let MoveText { from, to } = decode_move(text, field)?;
    Ok(Move {
        from,
        to,
        capture: None,
    })
}

pub(super) fn decode_square(text: &str, field: &str) -> Result<Square, RequestError> {
    text.parse().map_err(|e| notation(e, field, None))
}

/// A request's position on its layout under its end policy (the server's
/// default when it names none).
pub(super) fn decode(request: &impl AtPosition, limits: &Limits) -> Result<State, RequestError> {
    let (position, layout, rules) = request.parts();
    let layout = decode_layout(layout)?;
    let position = decode_position(position, &layout, "position")?;
    Ok(State::new(layout, position).under(decode_rules(rules, limits)?))
}

/// A request's end policy: its `rules`, or the server's default.
pub(super) fn decode_rules(
    rules: Option<Rules>,
    limits: &Limits,
) -> Result<EndPolicy, RequestError> {
    let Some(Rules {
        max_plies,
        repetition,
    }) = rules
    else {
        return Ok(limits.tank_battle_rules);
    };
    if let Some(value) = max_plies.filter(|n| !(1..=EndPolicy::MAX_PLIES).contains(n)) {
        return Err(RequestError::bad_request(
            Text::new("request-rules-max-plies")
                .with("value", value)
                .with("max", EndPolicy::MAX_PLIES),
            Some("rules.max_plies"),
        ));
    }
    if let Some(value) = repetition.filter(|n| !(2..=EndPolicy::MAX_REPETITION).contains(n)) {
        return Err(RequestError::bad_request(
            Text::new("request-rules-repetition")
                .with("value", value)
                .with("max", EndPolicy::MAX_REPETITION),
            Some("rules.repetition"),
        ));
    }
    Ok(EndPolicy {
        max_plies,
        repetition,
    })
}

pub(super) fn score_pair(score: &Score) -> ScorePair {
    ScorePair {
        white: score.white.total(),
        black: score.black.total(),
    }
}

/// Whether the game is over, the winner, whether it is drawn, and what
/// ended it.
pub(super) fn status(state: &State) -> (bool, Option<Side>, bool, Option<engine::EndReason>) {
    let outcome = TankBattle::outcome(state);
    (
        outcome.is_some(),
        outcome.and_then(Outcome::winner),
        outcome == Some(Outcome::Draw),
        state.end_reason(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n;

    /// Every notation fault the engine finds, from real text.
    fn faults() -> Vec<NotationFault> {
        let positions = [
            "11/11 w",
            "11/11/11/11/11/11/11/11/11/11/10C x 0",
            "11/11 w 0",
            "11/11/11/11/11/11/11/11/11/11/10C w -1",
            "11/11/11/11/11/11/11/11/11/11/10C w 99999999999999999999999",
            "11/11/11/11/11/11/11/11/11/11/012 w 0",
            "11/11/11/11/11/11/11/11/11/11/10Z w 0",
            "11/11/11/11/11/11/11/11/11/11/9C w 0",
        ];
        let layouts = ["standrad", "./.", "...........", ".........."];
        let mut found: Vec<NotationFault> = Vec::new();
        found.extend(
            positions
                .iter()
                .filter_map(|t| t.parse::<engine::Setup>().err().map(|e| e.fault)),
        );
        found.extend(
            layouts
                .iter()
                .filter_map(|t| Layout::parse(t).err().map(|e| e.fault)),
        );
        let mut rows: Vec<String> = engine::STANDARD_TEXT
            .split('/')
            .map(str::to_owned)
            .collect();
        if let Some(row) = rows.get_mut(3) {
            row.replace_range(0..1, "?");
        }
        found.extend(Layout::parse(&rows.join("/")).err().map(|e| e.fault));
        let mut short: Vec<String> = engine::STANDARD_TEXT
            .split('/')
            .map(str::to_owned)
            .collect();
        if let Some(row) = short.get_mut(5) {
            row.pop();
        }
        found.extend(Layout::parse(&short.join("/")).err().map(|e| e.fault));
        let no_white = engine::STANDARD_TEXT.replace('W', "w");
        found.extend(Layout::parse(&no_white).err().map(|e| e.fault));
        found.extend("j4j".parse::<MoveText>().err().map(|e| e.fault));
        found.extend("l12".parse::<Square>().err().map(|e| e.fault));
        found
    }

    /// A broken invariant of a position likewise, each of them.
    #[test]
    fn every_broken_invariant_is_written_from_the_catalogue() {
        use engine::PositionError as E;
        let Ok(sq) = "e5".parse::<Square>() else {
            panic!("e5")
        };
        for error in [
            E::SquareTwice(sq),
            E::TankOnMine(sq),
            E::TankOnContaminated(sq),
            E::SeveralCommanders(engine::Side::White),
            E::SeveralCommanders(engine::Side::Black),
        ] {
            i18n::assert_english_and_czech(&invalid_text(error), &error.to_string());
        }
    }

    /// English answers say what the engine says (from `en.ftl`), Czech the
    /// same facts; every fault is exercised.
    #[test]
    fn every_notation_fault_is_written_from_the_catalogue() {
        let faults = faults();
        for name in NotationFault::NAMES {
            assert!(faults.iter().any(|f| f.name() == name), "no case of {name}");
        }
        for fault in &faults {
            i18n::assert_english_and_czech(&fault_text(fault), &fault.to_string());
        }
    }
}
