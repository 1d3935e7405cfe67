//! Tank Battle's corpus (SPEC 2): legal-move cases with each move's
//! result, illegal-move cases for every reason code, perft counts and
//! playthroughs of seeded random games.
//!
//! Positions come from two seeded sources: random games from the initial
//! position (what play reaches) and random placements (what play rarely
//! reaches: commanders in the contaminated centre, tanks locked in a
//! base, finished games); some on a layout other than the standard one.
//! A case's tags are the rules that shape its answer: for a position, the
//! reasons its side's tanks' lines are refused and what its legal moves
//! do (capture, cross the centre, end the game).

use std::collections::BTreeSet;

use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

use super::tag::Tag;
use crate::games::tank_battle::{
    perft, Layout, Move, MoveText, Position, Reason, Side, Square, STANDARD_NAME, STANDARD_TEXT,
};

/// Bumped when an answer of the rules changes (never for the AI's).
pub const RULES_VERSION: u32 = 1;

/// The rule tags, each with its sentence (SPEC 2.2-2.5).
pub const TAGS: [Tag; 10] = [
    Tag {
        name: "slide",
        source: "SPEC 2.4",
        rule: "A move slides one own tank 1..10 squares in one of the 8 directions (rank, file or diagonal).",
    },
    Tag {
        name: "mine",
        source: "SPEC 2.5 rule 1",
        rule: "A tank may not enter or pass a mine.",
    },
    Tag {
        name: "no-jumping",
        source: "SPEC 2.5 rule 2",
        rule: "A tank may not pass over any tank, own or enemy.",
    },
    Tag {
        name: "contaminated",
        source: "SPEC 2.5 rule 3",
        rule: "A normal tank may not enter or pass a contaminated square; a commander may.",
    },
    Tag {
        name: "capture",
        source: "SPEC 2.5 rule 4",
        rule: "Capture: a move whose destination holds an enemy tank (normal or commander) removes it. The destination may not hold an own tank.",
    },
    Tag {
        name: "no-capture-contaminated",
        source: "SPEC 2.5 rule 5",
        rule: "No capture on a contaminated square. A tank on a contaminated square therefore cannot be captured.",
    },
    Tag {
        name: "locked-in-base",
        source: "SPEC 2.5 rule 6",
        rule: "A tank standing on a square of the opponent's base is locked in: every square its move passes or enters must also be in the opponent's base. It may still capture inside that base.",
    },
    Tag {
        name: "end",
        source: "SPEC 2.5 rule 7",
        rule: "The game ends after a move when, for either side, every remaining tank of that side stands in the opponent's base (a side with no tanks left counts), or when the side to move has no legal move. Nothing else ends the game.",
    },
    Tag {
        name: "scoring",
        source: "SPEC 2.5 rule 8",
        rule: "Score, for each side: 3 for its commander on the opponent's commander start; 2 for its commander elsewhere in the opponent's base; 2 for each normal tank in the opponent's base; 1 for each other surviving tank. At the end the higher score wins; equal scores are a draw.",
    },
    Tag {
        name: "layout",
        source: "SPEC 2.2",
        rule: "Layouts are data: any 11x11 layout can be submitted.",
    },
];

/// A layout other than the standard one: other mines, a smaller centre,
/// smaller bases.
const OTHER_LAYOUT: &str = "Bbbb......./bbb....#.../bb.~~....../...~~..#.../..#......../....~~~..../........#../...#..~~.../......~~.ww/...#...wwww/.......wwwW";

/// The tag of the rule a reason code enforces.
fn tag_of(reason: Reason) -> &'static str {
    match reason {
        Reason::GameOver => "end",
        Reason::NoTankAtFrom | Reason::NotYourTank | Reason::NotALine => "slide",
        Reason::Mine => "mine",
        Reason::Contaminated => "contaminated",
        Reason::LockedInEnemyBase => "locked-in-base",
        Reason::PathBlocked => "no-jumping",
        Reason::OwnTankAtTo => "capture",
        Reason::CaptureInContaminated => "no-capture-contaminated",
    }
}

/// A position and the layout it is played on (`None`: the standard one).
struct Board {
    position: Position,
    layout: Layout,
    layout_text: Option<&'static str>,
}

impl Board {
    fn layout_field(&self) -> &'static str {
        self.layout_text.unwrap_or(STANDARD_NAME)
    }

    /// The rules that shape the legal moves of the side to move.
    fn tags(&self) -> BTreeSet<&'static str> {
        let mut tags = BTreeSet::from(["slide"]);
        if self.layout_text.is_some() {
            tags.insert("layout");
        }
        if self.position.is_finished(&self.layout) {
            tags.insert("end");
            return tags;
        }
        for (from, to) in lines(&self.position) {
            match self.position.validate(&self.layout, MoveText { from, to }) {
                Ok(mv) => {
                    if mv.capture.is_some() {
                        tags.insert("capture");
                    }
                    if self.crosses_contaminated(mv) {
                        tags.insert("contaminated");
                    }
                    let mut next = self.position;
                    next.play_unchecked(mv);
                    if next.is_finished(&self.layout) {
                        tags.insert("end");
                    }
                }
                Err(illegal) => {
                    tags.insert(tag_of(illegal.reason));
                }
            }
        }
        tags
    }

    fn crosses_contaminated(&self, mv: Move) -> bool {
        let Some((df, dr)) = mv.from.direction_to(mv.to) else {
            return false;
        };
        let mut square = mv.from;
        while square != mv.to {
            match square.offset(df, dr) {
                Some(next) => square = next,
                None => return false,
            }
            if self.layout.contaminated().contains(square) {
                return true;
            }
        }
        false
    }
}

/// Every line from a tank of the side to move: 8 directions, 1..10
/// squares, on the board.
fn lines(position: &Position) -> Vec<(Square, Square)> {
    let mut lines = Vec::new();
    for from in Square::all() {
        if position
            .piece_at(from)
            .is_none_or(|p| p.side != position.turn())
        {
            continue;
        }
        for (df, dr) in DIRECTIONS {
            let mut square = from;
            while let Some(next) = square.offset(df, dr) {
                lines.push((from, next));
                square = next;
            }
        }
    }
    lines
}

const DIRECTIONS: [(i8, i8); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

/// What `apply` answers after `mv` (the position, the capture, the end
/// and the score), as the service writes it.
fn result(board: &Board, mv: Move) -> Value {
    let mut next = board.position;
    next.play_unchecked(mv);
    let captured = mv.capture.map(|role| {
        json!({"square": mv.to.to_string(), "kind": role.name(), "side": (!board.position.turn()).name()})
    });
    json!({
        "move": mv.to_string(),
        "position": next.to_string(),
        "captured": captured,
        "finished": next.is_finished(&board.layout),
        "winner": next.outcome(&board.layout).and_then(|o| o.winner()).map(Side::name),
        "draw": next.outcome(&board.layout).is_some_and(|o| o.winner().is_none()),
        "score": score(&next, &board.layout),
    })
}

fn score(position: &Position, layout: &Layout) -> Value {
    let score = position.score(layout);
    json!({"white": score.white.total(), "black": score.black.total()})
}

/// The positions of the corpus, from seeded random games and random
/// placements, on the standard layout and on [`OTHER_LAYOUT`].
fn boards(rng: &mut ChaCha8Rng) -> Vec<Board> {
    let mut boards = Vec::new();
    for layout_text in [None, Some(OTHER_LAYOUT)] {
        let Ok(layout) = Layout::parse(layout_text.unwrap_or(STANDARD_TEXT)) else {
            continue;
        };
        let (games, placements) = if layout_text.is_none() {
            (6, 30)
        } else {
            (2, 12)
        };
        for _ in 0..games {
            let mut position = Position::initial(&layout);
            for ply in 0..240 {
                if ply % 40 == 17 {
                    boards.push(Board {
                        position,
                        layout,
                        layout_text,
                    });
                }
                let moves = position.legal_moves(&layout);
                let Some(&mv) = moves.choose(rng) else {
                    break;
                };
                position.play_unchecked(mv);
            }
        }
        let mut made = 0;
        while made < placements {
            let placing = match made % 6 {
                1 => Placing::Home(Side::White),
                3 => Placing::Centre,
                4 => Placing::Home(Side::Black),
                _ => Placing::Anywhere,
            };
            if let Some(position) = placement(rng, &layout, placing) {
                boards.push(Board {
                    position,
                    layout,
                    layout_text,
                });
                made += 1;
            }
        }
    }
    boards
}

/// How a random placement places its tanks.
#[derive(Clone, Copy)]
enum Placing {
    /// Anywhere a tank may stand.
    Anywhere,
    /// One side's tanks all in the other's base: a finished game.
    Home(Side),
    /// Both commanders in the contaminated centre.
    Centre,
    /// A commander and one or two tanks a side, anywhere.
    Sparse,
}

/// A random placement: a commander and a few tanks a side, placed as
/// `placing` says on squares they may stand on; `None` when the draw
/// breaks an invariant.
fn placement(rng: &mut ChaCha8Rng, layout: &Layout, placing: Placing) -> Option<Position> {
    let mut cells = [None::<char>; 121];
    for side in Side::ALL {
        let [commander, tank] = match side {
            Side::White => ['C', 'T'],
            Side::Black => ['c', 't'],
        };
        let home = matches!(placing, Placing::Home(s) if s == side);
        let tanks = if home || matches!(placing, Placing::Sparse) {
            rng.random_range(0..3)
        } else {
            rng.random_range(1..8)
        };
        for (i, letter) in std::iter::once(commander)
            .chain(std::iter::repeat_n(tank, tanks))
            .enumerate()
        {
            let is_commander = i == 0;
            let candidates: Vec<Square> = Square::all()
                .filter(|&square| {
                    let free = cells.get(square.index()).is_some_and(Option::is_none);
                    let contaminated = layout.contaminated().contains(square);
                    let allowed =
                        free && !layout.mines().contains(square) && (is_commander || !contaminated);
                    match placing {
                        _ if !allowed => false,
                        Placing::Home(_) if home => layout.base(!side).contains(square),
                        Placing::Centre if is_commander => contaminated,
                        _ => true,
                    }
                })
                .collect();
            let square = *candidates.choose(rng)?;
            if let Some(cell) = cells.get_mut(square.index()) {
                *cell = Some(letter);
            }
        }
    }
    let mut placement = String::new();
    for rank in (0..11u8).rev() {
        let mut empty = 0;
        for file in 0..11u8 {
            let square = Square::from_coords(file, rank)?;
            match cells.get(square.index()).copied().flatten() {
                Some(letter) => {
                    if empty > 0 {
                        placement.push_str(&empty.to_string());
                        empty = 0;
                    }
                    placement.push(letter);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            placement.push_str(&empty.to_string());
        }
        if rank > 0 {
            placement.push('/');
        }
    }
    let side = if rng.random_bool(0.5) { 'w' } else { 'b' };
    let ply = rng.random_range(0..200u32);
    let setup = format!("{placement} {side} {ply}").parse().ok()?;
    Position::from_setup(setup, layout).ok()
}

fn legal_case(id: usize, board: &Board) -> Value {
    let moves = board.position.legal_moves_file_major(&board.layout);
    let mut tags = board.tags();
    if !moves.is_empty() {
        // Each result carries the score.
        tags.insert("scoring");
    }
    json!({
        "id": format!("legal-{id:03}"),
        "kind": "legal",
        "position": board.position.to_string(),
        "layout": board.layout_field(),
        "tags": tags,
        "moves": moves.iter().map(Move::to_string).collect::<Vec<_>>(),
        "results": moves.iter().map(|&mv| result(board, mv)).collect::<Vec<_>>(),
    })
}

/// Illegal moves, [`ILLEGAL_EACH`] a reason code, each from another
/// position: every line of the side to move, then moves from squares
/// without its tanks and moves off a line.
fn illegal_cases(boards: &[Board]) -> Vec<Value> {
    let mut cases = Vec::new();
    for reason in Reason::ALL {
        let mut found = 0;
        for board in boards {
            if found == ILLEGAL_EACH {
                break;
            }
            let attempt = attempts(&board.position).into_iter().find_map(|text| {
                let illegal = board.position.validate(&board.layout, text).err()?;
                (illegal.reason == reason).then_some((text, illegal))
            });
            let Some((text, illegal)) = attempt else {
                continue;
            };
            found += 1;
            let mut tags = BTreeSet::from([tag_of(reason)]);
            if board.layout_text.is_some() {
                tags.insert("layout");
            }
            cases.push(json!({
                "id": format!("illegal-{}-{found}", reason.code().to_ascii_lowercase().replace('_', "-")),
                "kind": "illegal",
                "position": board.position.to_string(),
                "layout": board.layout_field(),
                "tags": tags,
                "move": notation(&board.position, text),
                "reason": reason.code(),
                "square": illegal.square.map(|s| s.to_string()),
            }));
        }
    }
    cases
}

/// An attempted move as a client writes it: `x` between the squares
/// when an enemy tank stands on the destination, `-` otherwise.
fn notation(position: &Position, text: MoveText) -> String {
    let enemy = position
        .piece_at(text.to)
        .is_some_and(|p| p.side != position.turn());
    let separator = if enemy { 'x' } else { '-' };
    format!("{}{separator}{}", text.from, text.to)
}

/// Illegal-move cases a reason code.
const ILLEGAL_EACH: usize = 6;

/// The moves tried for illegal cases: the side's lines, then a move from
/// each square without one of its tanks, then off-line moves and a move
/// to the same square.
fn attempts(position: &Position) -> Vec<MoveText> {
    let mut attempts: Vec<MoveText> = lines(position)
        .into_iter()
        .map(|(from, to)| MoveText { from, to })
        .collect();
    for from in Square::all() {
        let own = position
            .piece_at(from)
            .is_some_and(|p| p.side == position.turn());
        if !own {
            if let Some(to) = from.offset(0, 1).or_else(|| from.offset(0, -1)) {
                attempts.push(MoveText { from, to });
            }
        } else {
            if let Some(to) = from.offset(1, 2).or_else(|| from.offset(-1, -2)) {
                attempts.push(MoveText { from, to });
            }
            attempts.push(MoveText { from, to: from });
        }
    }
    attempts
}

fn perft_cases(boards: &[Board]) -> Vec<Value> {
    let mut cases = Vec::new();
    let standard = Layout::STANDARD;
    let initial = Board {
        position: Position::initial(&standard),
        layout: standard,
        layout_text: None,
    };
    let mut chosen: Vec<(&Board, u32)> = (1..=3).map(|depth| (&initial, depth)).collect();
    chosen.extend(boards.iter().step_by(7).map(|board| (board, 2)));
    chosen.extend(boards.iter().skip(3).step_by(13).map(|board| (board, 3)));
    for (id, (board, depth)) in chosen.into_iter().enumerate() {
        let nodes = perft::perft(&board.position, &board.layout, depth);
        cases.push(json!({
            "id": format!("perft-{:03}", id + 1),
            "kind": "perft",
            "position": board.position.to_string(),
            "layout": board.layout_field(),
            "tags": board.tags(),
            "depth": depth,
            "nodes": nodes,
        }));
    }
    cases
}

/// Whole games of seeded random legal moves: each step's move, the
/// position after it and the score; the end and its winner. Three start
/// from the initial position (a random game rarely ends: they stop after
/// [`PLAYTHROUGH_PLIES`]), three from sparse placements, played to the
/// end; one of each pair of the latter on [`OTHER_LAYOUT`].
fn playthroughs(rng: &mut ChaCha8Rng) -> Vec<Value> {
    let mut cases = Vec::new();
    let starts = [
        (None, false),
        (None, false),
        (Some(OTHER_LAYOUT), false),
        (None, true),
        (None, true),
        (Some(OTHER_LAYOUT), true),
    ];
    for (layout_text, sparse) in starts {
        let Ok(layout) = Layout::parse(layout_text.unwrap_or(STANDARD_TEXT)) else {
            continue;
        };
        let start = if sparse {
            let mut drawn = None;
            while drawn.is_none() {
                drawn =
                    placement(rng, &layout, Placing::Sparse).filter(|p| !p.is_finished(&layout));
            }
            drawn
        } else {
            Some(Position::initial(&layout))
        };
        let Some(start) = start else {
            continue;
        };
        let mut position = start;
        let mut tags = BTreeSet::from(["slide", "scoring"]);
        if layout_text.is_some() {
            tags.insert("layout");
        }
        let most = if sparse {
            10 * PLAYTHROUGH_PLIES
        } else {
            PLAYTHROUGH_PLIES
        };
        let mut steps = Vec::new();
        while steps.len() < most {
            let moves = position.legal_moves(&layout);
            let Some(&mv) = moves.choose(rng) else {
                break;
            };
            if mv.capture.is_some() {
                tags.insert("capture");
            }
            position.play_unchecked(mv);
            steps.push(json!({
                "move": mv.to_string(),
                "position": position.to_string(),
                "score": score(&position, &layout),
            }));
        }
        let outcome = position.outcome(&layout);
        if outcome.is_some() {
            tags.insert("end");
        }
        cases.push(json!({
            "id": format!("playthrough-{:03}", cases.len() + 1),
            "kind": "playthrough",
            "start": start.to_string(),
            "layout": layout_text.unwrap_or(STANDARD_NAME),
            "tags": tags,
            "steps": steps,
            "finished": outcome.is_some(),
            "winner": outcome.and_then(|o| o.winner()).map(Side::name),
            "draw": outcome.is_some_and(|o| o.winner().is_none()),
        }));
    }
    cases
}

/// The most moves of a playthrough from the initial position (a tenth of
/// a sparse one's).
const PLAYTHROUGH_PLIES: usize = 160;

/// The corpus: the header, then the cases.
pub fn corpus() -> Vec<Value> {
    let mut rng = ChaCha8Rng::seed_from_u64(53);
    let boards = boards(&mut rng);
    let mut lines = vec![json!({"header": {
        "game": "tank-battle",
        "rules_version": RULES_VERSION,
        "notation": {
            "position": "TBN (SPEC 2.3), canonical",
            "move": "<from>-<to> or <from>x<to> (SPEC 2.4), canonical",
            "layout": "\"standard\" or a layout string (SPEC 2.2)",
        },
        "kinds": {
            "legal": "moves: the legal moves, sorted by from square (file, then rank) then to; results: what apply answers after each (position, captured, finished, winner, draw, score)",
            "illegal": "move is refused with reason (a code of SPEC 2.6) at square (null when none)",
            "perft": "nodes: perft(depth) of position (SPEC 2.7)",
            "playthrough": "steps from start: each move, the position and the score after it; finished, winner and draw after the last",
        },
        "reasons": Reason::ALL.map(Reason::code),
        "tags": TAGS.map(Tag::header),
    }})];
    lines.extend(boards.iter().enumerate().map(|(i, b)| legal_case(i + 1, b)));
    lines.extend(illegal_cases(&boards));
    lines.extend(perft_cases(&boards));
    lines.extend(playthroughs(&mut rng));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every tag and every reason code is exercised by at least 5 cases.
    #[test]
    fn every_tag_and_reason_has_five_cases() {
        let cases = corpus();
        let count = |f: &dyn Fn(&Value) -> bool| cases.iter().filter(|c| f(c)).count();
        for tag in TAGS {
            let n = count(&|c| {
                c["tags"]
                    .as_array()
                    .is_some_and(|t| t.iter().any(|t| t == tag.name))
            });
            assert!(n >= 5, "tag {}: {n} cases", tag.name);
        }
        for reason in Reason::ALL {
            let n = count(&|c| c["reason"] == reason.code());
            assert!(n >= 5, "{}: {n} cases", reason.code());
        }
        let perft: u64 = cases.iter().filter_map(|c| c["nodes"].as_u64()).sum();
        assert!(perft < 20_000_000, "{perft} perft nodes");
    }

    /// The tags are the closed list.
    #[test]
    fn tags_are_the_listed_ones() {
        for case in corpus().iter().skip(1) {
            for tag in case["tags"].as_array().into_iter().flatten() {
                assert!(TAGS.iter().any(|t| tag == t.name), "{tag} in {case}");
            }
        }
    }
}
