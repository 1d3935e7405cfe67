//! Tank Battle's notations to the engine's types and back: a notation's
//! 400, the decoding of a request's position, layout, move and square, and
//! the score and status its answers report.

use super::{ScorePair, SideName};
use crate::api::transport::problem::ApiError;
use crate::error::NotationKind;
use crate::games::tank_battle::{
    self as engine, Layout, MoveText, Notation, Outcome, ParseError, Position, Score, Square,
    State, TankBattle,
};
use crate::games::Game;

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
pub(super) fn notation(error: ParseError, field: &str, ply: Option<usize>) -> ApiError {
    ApiError::Notation {
        kind: notation_kind(error.notation),
        detail: error.to_string(),
        field: field.to_owned(),
        ply,
    }
}

pub(super) fn decode_layout(text: Option<&str>) -> Result<Layout, ApiError> {
    match text {
        None => Ok(Layout::STANDARD),
        Some(text) => Layout::parse(text).map_err(|e| notation(e, "layout", None)),
    }
}

pub(super) fn decode_position(
    text: &str,
    layout: &Layout,
    field: &str,
) -> Result<Position, ApiError> {
    engine::parse_position(text, layout).map_err(|err| match err {
        engine::PositionParseError::Parse(error) => notation(error, field, None),
        engine::PositionParseError::Invalid(error) => ApiError::invalid_position(error, field),
    })
}

pub(super) fn decode_move(text: &str, field: &str) -> Result<MoveText, ApiError> {
    text.parse().map_err(|e| notation(e, field, None))
}

pub(super) fn decode_square(text: &str, field: &str) -> Result<Square, ApiError> {
    text.parse().map_err(|e| notation(e, field, None))
}

pub(super) fn decode(position: &str, layout: Option<&str>) -> Result<State, ApiError> {
    let layout = decode_layout(layout)?;
    let position = decode_position(position, &layout, "position")?;
    Ok(State { layout, position })
}

pub(super) fn score_pair(score: &Score) -> ScorePair {
    ScorePair {
        white: score.white.total(),
        black: score.black.total(),
    }
}

/// Whether the game is over, the winner, whether it is drawn.
pub(super) fn status(state: &State) -> (bool, Option<SideName>, bool) {
    let outcome = TankBattle::outcome(state);
    (
        outcome.is_some(),
        outcome.and_then(Outcome::winner).map(SideName::from),
        outcome == Some(Outcome::Draw),
    )
}
