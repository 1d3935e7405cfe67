//! Property tests of the Tank Battle engine through its public API.
//!
//! Positions come from random playouts on the standard layout, from random
//! custom layouts with random placements, and from playouts on random
//! custom layouts. The engine is compared with [`Model`], a small
//! independent implementation of docs/TANK-BATTLE.md's "Rules as implemented" written here from the text
//! of the rules: it reads the position and the layout from their notation
//! and walks every move square by square.

use std::fmt;

use proptest::prelude::*;
use tank_rules::games::tank_battle::perft::{divide, perft};
use tank_rules::games::tank_battle::*;

// ---------------------------------------------------------------------------
// The independent model.
// ---------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Tank {
    side: Side,
    commander: bool,
}

/// Board index `rank * 11 + file`, both 0-based; coordinates of it.
fn coords(index: usize) -> (i32, i32) {
    ((index % 11) as i32, (index / 11) as i32)
}

fn index(file: i32, rank: i32) -> usize {
    (rank * 11 + file) as usize
}

fn square(index: usize) -> Square {
    Square::from_coords((index % 11) as u8, (index / 11) as u8).expect("on the board")
}

fn enemy(side: Side) -> Side {
    match side {
        Side::White => Side::Black,
        Side::Black => Side::White,
    }
}

#[derive(Clone, PartialEq, Eq, Debug)]
struct Model {
    /// Layout characters (`. # ~ w W b B`) by board index.
    terrain: Vec<char>,
    tanks: Vec<Option<Tank>>,
    turn: Side,
    ply: u64,
}

/// docs/TANK-BATTLE.md rule 7, points by source: (commander on start, commander
/// elsewhere in base, tanks in base, other tanks).
type Points = (u32, u32, u32, u32);

impl Model {
    /// Reads layout notation and TBN, independently of the engine's parsers.
    fn read(layout_text: &str, tbn: &str) -> Model {
        let rows: Vec<&str> = layout_text.split('/').collect();
        assert_eq!(rows.len(), 11, "{layout_text}");
        let mut terrain = vec!['?'; 121];
        for (row, text) in rows.iter().enumerate() {
            let chars: Vec<char> = text.chars().collect();
            assert_eq!(chars.len(), 11, "{layout_text}");
            for (file, c) in chars.into_iter().enumerate() {
                terrain[index(file as i32, 10 - row as i32)] = c;
            }
        }
        let fields: Vec<&str> = tbn.split(' ').collect();
        assert_eq!(fields.len(), 3, "{tbn}");
        let ranks: Vec<&str> = fields[0].split('/').collect();
        assert_eq!(ranks.len(), 11, "{tbn}");
        let mut tanks = vec![None; 121];
        for (row, text) in ranks.iter().enumerate() {
            let rank = 10 - row as i32;
            let mut file = 0i32;
            let mut digits = String::new();
            for c in text.chars().chain(std::iter::once('|')) {
                if c.is_ascii_digit() {
                    digits.push(c);
                    continue;
                }
                if !digits.is_empty() {
                    file += digits.parse::<i32>().unwrap();
                    digits.clear();
                }
                let tank = match c {
                    'T' => Tank {
                        side: Side::White,
                        commander: false,
                    },
                    'C' => Tank {
                        side: Side::White,
                        commander: true,
                    },
                    't' => Tank {
                        side: Side::Black,
                        commander: false,
                    },
                    'c' => Tank {
                        side: Side::Black,
                        commander: true,
                    },
                    '|' => break,
                    other => panic!("unexpected {other:?} in {tbn}"),
                };
                tanks[index(file, rank)] = Some(tank);
                file += 1;
            }
            assert_eq!(file, 11, "{tbn}");
        }
        let turn = match fields[1] {
            "w" => Side::White,
            "b" => Side::Black,
            other => panic!("side {other}"),
        };
        Model {
            terrain,
            tanks,
            turn,
            ply: fields[2].parse().unwrap(),
        }
    }

    /// Canonical TBN, written independently of the engine.
    fn tbn(&self) -> String {
        let mut ranks = Vec::new();
        for rank in (0..11).rev() {
            let mut text = String::new();
            let mut empty = 0;
            for file in 0..11 {
                match self.tanks[index(file, rank)] {
                    None => empty += 1,
                    Some(tank) => {
                        if empty > 0 {
                            text += &empty.to_string();
                            empty = 0;
                        }
                        text.push(match (tank.side, tank.commander) {
                            (Side::White, false) => 'T',
                            (Side::White, true) => 'C',
                            (Side::Black, false) => 't',
                            (Side::Black, true) => 'c',
                        });
                    }
                }
            }
            if empty > 0 {
                text += &empty.to_string();
            }
            ranks.push(text);
        }
        let side = if self.turn == Side::White { 'w' } else { 'b' };
        format!("{} {side} {}", ranks.join("/"), self.ply)
    }

    fn in_base(&self, at: usize, side: Side) -> bool {
        match side {
            Side::White => matches!(self.terrain[at], 'w' | 'W'),
            Side::Black => matches!(self.terrain[at], 'b' | 'B'),
        }
    }

    fn commander_start(&self, side: Side) -> usize {
        let mark = if side == Side::White { 'W' } else { 'B' };
        self.terrain.iter().position(|&c| c == mark).unwrap()
    }

    /// The reasons' order (docs/TANK-BATTLE.md), but GAME_OVER.
    fn walk(&self, from: usize, to: usize) -> Result<Option<Role>, (Reason, Option<usize>)> {
        let Some(mover) = self.tanks[from] else {
            return Err((Reason::NoTankAtFrom, Some(from)));
        };
        if mover.side != self.turn {
            return Err((Reason::NotYourTank, Some(from)));
        }
        let (f0, r0) = coords(from);
        let (f1, r1) = coords(to);
        let (df, dr) = (f1 - f0, r1 - r0);
        if (df, dr) == (0, 0) || !(df == 0 || dr == 0 || df.abs() == dr.abs()) {
            return Err((Reason::NotALine, None));
        }
        let steps = df.abs().max(dr.abs());
        let locked = self.in_base(from, enemy(mover.side));
        for k in 1..=steps {
            let at = index(f0 + k * df.signum(), r0 + k * dr.signum());
            let ground = self.terrain[at];
            if ground == '#' {
                return Err((Reason::Mine, Some(at)));
            }
            if ground == '~' && !mover.commander {
                return Err((Reason::Contaminated, Some(at)));
            }
            if locked && !self.in_base(at, enemy(mover.side)) {
                return Err((Reason::LockedInEnemyBase, Some(at)));
            }
            if let Some(other) = self.tanks[at] {
                if at != to {
                    return Err((Reason::PathBlocked, Some(at)));
                }
                if other.side == mover.side {
                    return Err((Reason::OwnTankAtTo, Some(at)));
                }
                if ground == '~' {
                    return Err((Reason::CaptureInContaminated, Some(at)));
                }
            }
        }
        Ok(self.tanks[to].map(|t| {
            if t.commander {
                Role::Commander
            } else {
                Role::Tank
            }
        }))
    }

    /// Every (from, to) that passes steps 2 to 5.
    fn walk_moves(&self) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for from in 0..121 {
            for to in 0..121 {
                if self.walk(from, to).is_ok() {
                    out.push((from, to));
                }
            }
        }
        out
    }

    fn count(&self, side: Side) -> usize {
        self.tanks
            .iter()
            .flatten()
            .filter(|t| t.side == side)
            .count()
    }

    /// Rule 7, first half: every remaining tank of `side` is in the
    /// opponent's base (true with no tanks left).
    fn home(&self, side: Side) -> bool {
        (0..121).all(|at| match self.tanks[at] {
            Some(t) if t.side == side => self.in_base(at, enemy(side)),
            _ => true,
        })
    }

    fn finished(&self) -> bool {
        self.home(Side::White) || self.home(Side::Black) || self.walk_moves().is_empty()
    }

    fn validate(
        &self,
        finished: bool,
        from: usize,
        to: usize,
    ) -> Result<Option<Role>, (Reason, Option<usize>)> {
        if finished {
            return Err((Reason::GameOver, None));
        }
        self.walk(from, to)
    }

    fn apply(&self, from: usize, to: usize) -> Model {
        let mut next = self.clone();
        next.tanks[to] = next.tanks[from].take();
        next.turn = enemy(self.turn);
        next.ply += 1;
        next
    }

    fn points(&self, side: Side) -> Points {
        let mut points = (0, 0, 0, 0);
        for at in 0..121 {
            let Some(t) = self.tanks[at] else { continue };
            if t.side != side {
                continue;
            }
            if !self.in_base(at, enemy(side)) {
                points.3 += 1;
            } else if !t.commander {
                points.2 += 2;
            } else if at == self.commander_start(enemy(side)) {
                points.0 += 3;
            } else {
                points.1 += 2;
            }
        }
        points
    }
}

// ---------------------------------------------------------------------------
// Strategies.
// ---------------------------------------------------------------------------

#[derive(Clone)]
struct Case {
    /// The layout text the case was built from.
    layout_text: String,
    layout: Layout,
    pos: Position,
}

impl fmt::Debug for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "layout {} position {}", self.layout_text, self.pos)
    }
}

impl Case {
    fn model(&self) -> Model {
        Model::read(&self.layout_text, &self.pos.to_string())
    }
}

fn playout(layout_text: String, picks: &[u32]) -> Case {
    let layout = Layout::parse(&layout_text).expect("layout");
    let mut pos = Position::initial(&layout);
    for &pick in picks {
        let moves = pos.legal_moves(&layout);
        if moves.is_empty() {
            break;
        }
        pos.play_unchecked(moves[pick as usize % moves.len()]);
    }
    Case {
        layout_text,
        layout,
        pos,
    }
}

/// (a) 0..60 random legal moves from the standard initial position.
fn standard_playout() -> impl Strategy<Value = Case> {
    prop::collection::vec(any::<u32>(), 0..60)
        .prop_map(|picks| playout(STANDARD_TEXT.into(), &picks))
}

/// Layout text with random mines, contaminated and base squares, exactly
/// one `W` and one `B`. The density of each terrain varies from layout to
/// layout (up to 60% mines, so that some positions have no legal move).
fn random_layout_text() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(0u32..100, 121),
        (0u32..60, 0u32..30, 0u32..20, 0u32..20),
        0usize..121,
        0usize..121,
    )
        .prop_filter("distinct commander starts", |(_, _, w, b)| w != b)
        .prop_map(|(cells, (mines, contaminated, white, black), w, b)| {
            let mut chars: Vec<char> = cells
                .iter()
                .map(|&c| {
                    if c < mines {
                        '#'
                    } else if c < mines + contaminated {
                        '~'
                    } else if c < mines + contaminated + white {
                        'w'
                    } else if c < mines + contaminated + white + black {
                        'b'
                    } else {
                        '.'
                    }
                })
                .collect();
            chars[w] = 'W';
            chars[b] = 'B';
            (0..11)
                .rev()
                .map(|rank| chars[rank * 11..rank * 11 + 11].iter().collect::<String>())
                .collect::<Vec<_>>()
                .join("/")
        })
}

/// (b) A random custom layout with up to ~20 tanks a side placed at random
/// (at most one commander a side, no tank on a mine, no normal tank on a
/// contaminated square), random side to move and ply.
fn random_placement() -> impl Strategy<Value = Case> {
    (
        random_layout_text(),
        prop::collection::vec((0usize..121, 0u8..10), 0..44),
        any::<bool>(),
        0u64..10_000,
    )
        .prop_map(|(layout_text, pieces, black, ply)| {
            let layout = Layout::parse(&layout_text).expect("layout");
            let terrain: Vec<char> =
                Model::read(&layout_text, "11/11/11/11/11/11/11/11/11/11/11 w 0").terrain;
            let mut model = Model {
                terrain,
                tanks: vec![None; 121],
                turn: if black { Side::Black } else { Side::White },
                ply,
            };
            let mut commanders = [false; 2];
            for (at, kind) in pieces {
                let tank = match kind {
                    0..=3 => Tank {
                        side: Side::White,
                        commander: false,
                    },
                    4..=7 => Tank {
                        side: Side::Black,
                        commander: false,
                    },
                    8 => Tank {
                        side: Side::White,
                        commander: true,
                    },
                    _ => Tank {
                        side: Side::Black,
                        commander: true,
                    },
                };
                let ground = model.terrain[at];
                let side = tank.side as usize;
                if model.tanks[at].is_some()
                    || ground == '#'
                    || (ground == '~' && !tank.commander)
                    || (tank.commander && commanders[side])
                {
                    continue;
                }
                commanders[side] |= tank.commander;
                model.tanks[at] = Some(tank);
            }
            let text = model.tbn();
            let pos = parse_position(&text, &layout).unwrap_or_else(|e| panic!("{text}: {e}"));
            Case {
                layout_text,
                layout,
                pos,
            }
        })
}

/// (c) Random playouts from the initial position of a random layout.
fn custom_playout() -> impl Strategy<Value = Case> {
    (
        random_layout_text(),
        prop::collection::vec(any::<u32>(), 0..40),
    )
        .prop_map(|(text, picks)| playout(text, &picks))
}

/// (d) Positions where the side to move may have no legal move: its tank
/// stands boxed in by mines, contaminated squares and its own tanks, the
/// opponent's tanks are placed at random.
fn boxed_in() -> impl Strategy<Value = Case> {
    (
        random_layout_text(),
        (1i32..10, 1i32..10),
        prop::collection::vec(0u8..12, 8),
        0u8..4,
        prop::collection::vec(0usize..121, 1..6),
        any::<bool>(),
    )
        .prop_map(|(text, (file, rank), around, commander, others, black)| {
            let mut model = Model::read(&text, "11/11/11/11/11/11/11/11/11/11/11 w 0");
            let us = if black { Side::Black } else { Side::White };
            model.turn = us;
            model.ply = 7;
            let center = index(file, rank);
            model.terrain[center] = '.';
            model.tanks[center] = Some(Tank {
                side: us,
                commander: commander == 0,
            });
            let steps = [
                (-1, -1),
                (0, -1),
                (1, -1),
                (-1, 0),
                (1, 0),
                (-1, 1),
                (0, 1),
                (1, 1),
            ];
            for ((df, dr), kind) in steps.into_iter().zip(around) {
                let at = index(file + df, rank + dr);
                match kind {
                    0..=7 => model.terrain[at] = '#',
                    8..=10 => model.terrain[at] = '~',
                    _ => {
                        model.terrain[at] = '.';
                        model.tanks[at] = Some(Tank {
                            side: us,
                            commander: false,
                        });
                    }
                }
            }
            for at in others {
                if model.tanks[at].is_none() && !matches!(model.terrain[at], '#' | '~') {
                    model.tanks[at] = Some(Tank {
                        side: enemy(us),
                        commander: false,
                    });
                }
            }
            model
        })
        .prop_filter("one commander start each", |model| {
            model.terrain.iter().filter(|&&c| c == 'W').count() == 1
                && model.terrain.iter().filter(|&&c| c == 'B').count() == 1
        })
        .prop_map(|model| {
            let layout_text = (0..11)
                .rev()
                .map(|rank| {
                    model.terrain[rank * 11..rank * 11 + 11]
                        .iter()
                        .collect::<String>()
                })
                .collect::<Vec<_>>()
                .join("/");
            let layout = Layout::parse(&layout_text).expect("layout");
            let text = model.tbn();
            let pos = parse_position(&text, &layout).unwrap_or_else(|e| panic!("{text}: {e}"));
            Case {
                layout_text,
                layout,
                pos,
            }
        })
}

fn any_case() -> impl Strategy<Value = Case> {
    prop_oneof![
        3 => standard_playout(),
        3 => random_placement(),
        3 => custom_playout(),
        1 => boxed_in(),
    ]
}

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        ..ProptestConfig::default()
    }
}

fn all_pairs() -> impl Iterator<Item = (Square, Square)> {
    Square::all().flat_map(|from| Square::all().map(move |to| (from, to)))
}

// ---------------------------------------------------------------------------
// Properties.
// ---------------------------------------------------------------------------

proptest! {
    #![proptest_config(config(256))]

    /// Every generated move validates as the same canonical move; every
    /// other from-to pair of the 121x121 is refused; and `validate` gives
    /// the reason and square the model derives from docs/TANK-BATTLE.md.
    #[test]
    fn legal_moves_match_validate_and_the_spec(case in any_case()) {
        let Case { layout, pos, .. } = &case;
        let model = case.model();
        let finished = model.finished();
        let moves = pos.legal_moves(layout);
        for (from, to) in all_pairs() {
            let got = pos.validate(layout, MoveText { from, to });
            let generated = moves.iter().find(|m| m.from == from && m.to == to);
            match generated {
                Some(m) => prop_assert_eq!(got, Ok(*m)),
                None => prop_assert!(got.is_err(), "{}-{} validates but is not generated: {:?}", from, to, got),
            }
            let expected = model
                .validate(finished, from.index(), to.index())
                .map(|capture| Move { from, to, capture })
                .map_err(|(reason, at)| IllegalMove { reason, square: at.map(square) });
            prop_assert_eq!(got, expected, "{}-{}", from, to);
        }
        // No duplicates, and the canonical notation parses back.
        for (i, m) in moves.iter().enumerate() {
            prop_assert!(!moves[i + 1..].iter().any(|n| n.from == m.from && n.to == m.to));
            let text = m.to_string();
            let sep = if m.capture.is_some() { 'x' } else { '-' };
            prop_assert_eq!(&text, &format!("{}{}{}", m.from, sep, m.to));
            let parsed: MoveText = text.parse().unwrap();
            prop_assert_eq!(parsed, MoveText { from: m.from, to: m.to });
        }
        if finished {
            prop_assert!(moves.is_empty());
        }
    }

    /// legal_moves, count_legal_moves, perft(1), legal_moves_from and the
    /// model agree on the number of moves; divide sums to perft.
    #[test]
    fn move_counts_agree(case in any_case()) {
        let Case { layout, pos, .. } = &case;
        let model = case.model();
        let moves = pos.legal_moves(layout);
        let expected = if model.finished() { 0 } else { model.walk_moves().len() };
        prop_assert_eq!(moves.len(), expected);
        prop_assert_eq!(pos.count_legal_moves(layout), expected as u64);
        prop_assert_eq!(perft(pos, layout, 1), expected as u64);
        prop_assert_eq!(perft(pos, layout, 0), 1);
        let mut from_each = 0;
        for from in Square::all() {
            let part = pos.legal_moves_from(layout, from);
            prop_assert!(part.iter().all(|m| m.from == from));
            let direct: Vec<Move> = moves.iter().copied().filter(|m| m.from == from).collect();
            prop_assert_eq!(&part, &direct);
            from_each += part.len();
        }
        prop_assert_eq!(from_each, moves.len());
        let parts = divide(pos, layout, 2, u64::MAX).unwrap();
        prop_assert_eq!(parts.len(), moves.len());
        let sum: u64 = parts.iter().map(|(_, n)| n).sum();
        prop_assert_eq!(sum, perft(pos, layout, 2));
    }

    /// Applying each legal move: the side flips, the ply grows by one, the
    /// result is the model's, and TBN -> parse is the identity.
    #[test]
    fn apply_round_trips_through_tbn(case in any_case()) {
        let Case { layout, pos, .. } = &case;
        let model = case.model();
        for m in pos.legal_moves(layout) {
            let (child, played) = pos.play(layout, MoveText::from(m)).unwrap();
            prop_assert_eq!(played, m);
            let mut unchecked = *pos;
            unchecked.play_unchecked(m);
            prop_assert_eq!(unchecked, child);
            prop_assert_eq!(child.turn(), enemy(pos.turn()));
            prop_assert_eq!(child.ply(), pos.ply() + 1);
            let text = child.to_string();
            prop_assert_eq!(&text, &model.apply(m.from.index(), m.to.index()).tbn());
            let reparsed = parse_position(&text, layout).unwrap();
            prop_assert_eq!(reparsed, child);
            prop_assert_eq!(reparsed.to_string(), text.clone());
            let setup: Setup = text.parse().unwrap();
            prop_assert_eq!(setup, child.to_setup());
            prop_assert_eq!(Position::from_setup(setup, layout), Ok(child));
        }
    }

    /// Rule 7's invariant: a move never adds a tank, the mover never loses
    /// one, and the opponent loses exactly one on a capture.
    #[test]
    fn tank_counts_never_grow(case in any_case()) {
        let Case { layout, pos, .. } = &case;
        let us = pos.turn();
        let them = enemy(us);
        for m in pos.legal_moves(layout) {
            let (child, _) = pos.play(layout, MoveText::from(m)).unwrap();
            prop_assert_eq!(child.tanks(us).count(), pos.tanks(us).count());
            let lost = pos.tanks(them).count() - child.tanks(them).count();
            prop_assert_eq!(lost, u32::from(m.capture.is_some()));
            prop_assert!(child.commanders().count() <= pos.commanders().count());
            prop_assert_eq!(
                pos.commanders().count() - child.commanders().count(),
                u32::from(m.capture == Some(Role::Commander))
            );
            // The mover's piece is on `to` with its role.
            let piece = child.piece_at(m.to).unwrap();
            prop_assert_eq!(piece.side, us);
            prop_assert_eq!(Some(piece.role), pos.piece_at(m.from).map(|p| p.role));
            prop_assert_eq!(child.piece_at(m.from), None);
        }
    }

    /// Layout notation and TBN round-trip, and TBN is what the model reads.
    #[test]
    fn notation_round_trips(case in any_case()) {
        let Case { layout_text, layout, pos } = &case;
        prop_assert_eq!(&layout.to_string(), layout_text);
        prop_assert_eq!(Layout::parse(&layout.to_string()), Ok(*layout));
        let setup = pos.to_setup();
        let text = setup.to_string();
        prop_assert_eq!(&text, &pos.to_string());
        prop_assert_eq!(text.parse::<Setup>(), Ok(setup));
        prop_assert_eq!(Position::from_setup(setup, layout), Ok(*pos));
        prop_assert_eq!(parse_position(&text, layout), Ok(*pos));
        prop_assert_eq!(&case.model().tbn(), &text);
        prop_assert_eq!(setup.turn, pos.turn());
        prop_assert_eq!(setup.ply, pos.ply());
        for side in Side::ALL {
            prop_assert_eq!(setup.tanks[side.index()], pos.tanks(side));
            prop_assert_eq!(setup.commanders[side.index()], pos.tanks(side) & pos.commanders());
        }
        // Terrain accessors agree with the notation.
        for sq in Square::all() {
            let c = layout_text.split('/').nth(10 - sq.rank() as usize).unwrap().as_bytes()[sq.file() as usize];
            let expected = match c {
                b'.' => Terrain::Open,
                b'#' => Terrain::Mine,
                b'~' => Terrain::Contaminated,
                b'w' | b'W' => Terrain::Base(Side::White),
                _ => Terrain::Base(Side::Black),
            };
            prop_assert_eq!(layout.terrain(sq), expected);
            prop_assert_eq!(layout.mines().contains(sq), c == b'#');
            prop_assert_eq!(layout.contaminated().contains(sq), c == b'~');
            prop_assert_eq!(layout.base(Side::White).contains(sq), c == b'w' || c == b'W');
            prop_assert_eq!(layout.base(Side::Black).contains(sq), c == b'b' || c == b'B');
            prop_assert_eq!(layout.commander_start(Side::White) == sq, c == b'W');
            prop_assert_eq!(layout.commander_start(Side::Black) == sq, c == b'B');
        }
    }

    /// The score's breakdown sums to its total and matches rule 8; the
    /// outcome is Some exactly when the game is finished (rule 7), and
    /// names the higher score.
    #[test]
    fn score_and_outcome(case in any_case()) {
        let Case { layout, pos, .. } = &case;
        let model = case.model();
        let score = pos.score(layout);
        for side in Side::ALL {
            let s = score.side(side);
            prop_assert_eq!(
                s.total(),
                s.commander_on_start + s.commander_in_base + s.tanks_in_base + s.tanks_on_field
            );
            prop_assert_eq!(
                (s.commander_on_start, s.commander_in_base, s.tanks_in_base, s.tanks_on_field),
                model.points(side)
            );
            // Every surviving tank scores at least 1.
            prop_assert!(s.total() as usize >= model.count(side));
        }
        let finished = pos.is_finished(layout);
        prop_assert_eq!(finished, model.finished());
        prop_assert_eq!(pos.outcome(layout).is_some(), finished);
        if let Some(outcome) = pos.outcome(layout) {
            let (w, b) = (score.white.total(), score.black.total());
            let expected = if w > b {
                Outcome::Winner(Side::White)
            } else if b > w {
                Outcome::Winner(Side::Black)
            } else {
                Outcome::Draw
            };
            prop_assert_eq!(outcome, expected);
        }
    }
}
