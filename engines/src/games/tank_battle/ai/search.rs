//! Iterative-deepening principal-variation search (negamax alpha-beta) with
//! a transposition table, killer and history move ordering, and a capture
//! quiescence search. The search stops cleanly on its time or node limit
//! and answers with the last depth it finished.

use std::time::{Duration, Instant};

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::super::state::State;
use super::super::{Layout, Move, Position, Role, Square};
use super::eval::{Evaluator, POINT};
use super::levels::recipe;
use super::tt::{Bound, Table};
use super::zobrist;
use crate::games::level::{choose_by_temperature, level_rng, Style};

/// A score beyond any evaluation: a won game, less the plies to reach it.
pub const WIN: i32 = 1_000_000;
const INFINITY: i32 = WIN + 1;
const MAX_PLY: usize = 96;
/// Captures looked at past the nominal depth.
const MAX_QUIESCENCE: u32 = 8;
/// Past this many captures, quiescence only looks at recaptures on the
/// square of the last capture: on a crowded board every tank may capture
/// along eight lines, and the full capture tree of a single ply grew to
/// millions of nodes.
const FULL_QUIESCENCE: u32 = 2;
/// Nodes between looks at the clock.
const CLOCK_INTERVAL: u64 = 1024;

/// What bounds one search (depth in plies, nodes in positions). Depth and
/// nodes always apply; with no time limit the search is a deterministic
/// function of position, limits and seed.
pub use crate::games::SearchLimits;

/// One of the best moves, as an analysis reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub mv: Move,
    /// Centipoints from the mover's point of view, as
    /// [`SearchResult::evaluation`].
    pub evaluation: i32,
    /// The principal variation, starting with `mv`.
    pub pv: Vec<Move>,
}

/// The answer of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play: the best one at full strength, a level's choice
    /// among the best otherwise.
    pub best: Move,
    /// Centipoints from the mover's point of view; beyond
    /// `WIN - 1000` in size, a forced win (or loss) was found.
    pub evaluation: i32,
    /// The last depth searched to the end (0 if none finished).
    pub depth: u32,
    pub nodes: u64,
    /// What each finished iteration found, shallowest first (the last is
    /// `depth`'s): a judge may value a position at a depth of its choice.
    pub iterations: Vec<Iteration>,
    /// The principal variation, starting with `best`.
    pub pv: Vec<Move>,
    /// The best moves with their exact values, best first: as many as the
    /// style asked for (or the position has).
    pub lines: Vec<Line>,
    pub elapsed: Duration,
}

/// What one finished iteration of the search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Iteration {
    pub depth: u32,
    /// Centipoints from the mover's point of view, as
    /// [`SearchResult::evaluation`].
    pub evaluation: i32,
    /// The principal variation, starting with the best move.
    pub pv: Vec<Move>,
    /// Positions searched when it finished (counting the iterations
    /// before it).
    pub nodes: u64,
    /// The move the search was asked to value exactly
    /// ([`search_judging`]): its value and line at this depth.
    pub kept: Option<Line>,
    /// Where two or more lines were asked: the second-best move and its
    /// exact value at this depth.
    pub runner_up: Option<(Move, i32)>,
}

/// A root move and what the last iteration found for it.
#[derive(Clone, Debug)]
struct RootMove {
    mv: Move,
    /// Exact when `exact`, else an upper bound.
    score: i32,
    exact: bool,
    pv: Vec<Move>,
}

/// Searches `pos` for the side to move at full strength. `None` when the
/// game is over.
pub fn search(state: &State, limits: SearchLimits, seed: u64) -> Option<SearchResult> {
    search_with(state, limits, seed, Style::FULL)
}

/// Searches `pos` for the side to move as `style` asks: at a level (its
/// recipe's budgets within `limits`, and its choice among the best moves
/// drawn with `seed`), reporting `style.lines` best moves. `None` when the
/// game is over.
pub fn search_with(
    state: &State,
    limits: SearchLimits,
    seed: u64,
    style: Style,
) -> Option<SearchResult> {
    let judging = Judging {
        deepening: Deepening::EveryDepth,
        kept: None,
    };
    deepen(state, limits, seed, style, judging)
}

/// Searches `pos` as [`search_with`] does (seed 0), for a review's judge:
/// `kept` (the move played there, if any) is valued exactly at every
/// depth, as the best move is, so that the two are compared within one
/// iteration ([`Iteration::kept`]). The judge reads the last two depths
/// finished: iterations that could not change what it reads are not run
/// ([`Deepening::EvenDepths`]), so that where a larger budget would
/// stop at the same depth ([`reads_further`]) it reads the same depths.
/// `None` when the game is over.
pub fn search_judging(
    state: &State,
    limits: SearchLimits,
    style: Style,
    kept: Option<Move>,
) -> Option<SearchResult> {
    let judging = Judging {
        deepening: Deepening::EvenDepths,
        kept,
    };
    deepen(state, limits, 0, style, judging)
}

/// Whether a judging search that ended where `result` did, within
/// `limits`, would have read further with `max_nodes` positions: the node
/// budget cut an iteration, or it stopped at an even depth (short of
/// `max_depth` and of a forced result) because the next even one was not
/// expected to fit, and with `max_nodes` it is.
pub fn reads_further(result: &SearchResult, limits: SearchLimits, max_nodes: u64) -> bool {
    result.iterations.last().is_some_and(|last| {
        let short = last.depth < limits.max_depth && last.evaluation.abs() <= WIN - MAX_PLY as i32;
        let cut = result.nodes >= limits.max_nodes;
        short
            && max_nodes > limits.max_nodes
            && (cut
                || (last.depth % 2 == 0
                    && last.depth + 2 <= limits.max_depth
                    && next_even_fits(&result.iterations, max_nodes)))
    })
}

/// How a search runs for its reader: which iterations, and which root
/// move besides the best it values exactly.
#[derive(Clone, Copy, Debug)]
struct Judging {
    deepening: Deepening,
    kept: Option<Move>,
}

/// Which iterations a search is worth running to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Deepening {
    /// Each depth in turn, until a limit stops the search (`ai-move`,
    /// `analyse`: the last depth finished plays).
    EveryDepth,
    /// As `EveryDepth`, but stopping after an even depth when the next
    /// even one is not expected to finish within the node budget: a
    /// reader of even depths only (the review's judge) would throw the
    /// odd iteration in between away. See [`next_even_fits`].
    EvenDepths,
}

/// Whether the even depth after the last finished iteration (an even
/// one) is expected to finish within `max_nodes`: the positions it will
/// have visited by then are predicted as the last even depth's times its
/// growth since the even depth before, at least `EVEN_GROWTH_MIN`, taken
/// at `EVEN_GROWTH_SHARE` (growth falls with depth: over the 1,338
/// positions of the review quality games, two plies more cost 48x from
/// depth 2 and 21x from depth 4 (medians), never under 3x from depth 4).
/// Measured at 1,000,000 positions there: of 1,212 searches that
/// finished depth 4, this stops 712 that would not have finished depth 6
/// and 13 that would have (at a share of 0.3: 429 and 4), and a review's
/// searches visit 35 % of the positions they did (BENCHMARKS, "Reviewing
/// a game").
fn next_even_fits(iterations: &[Iteration], max_nodes: u64) -> bool {
    let Some(last) = iterations.last() else {
        return true;
    };
    let growth = iterations
        .iter()
        .rev()
        .find(|it| it.depth + 2 == last.depth && it.nodes > 0)
        .map_or(EVEN_GROWTH_MIN, |before| {
            (EVEN_GROWTH_SHARE * last.nodes as f64 / before.nodes as f64).max(EVEN_GROWTH_MIN)
        });
    last.nodes as f64 * growth <= max_nodes as f64
}

/// The least growth in positions two plies deeper that [`next_even_fits`]
/// predicts.
const EVEN_GROWTH_MIN: f64 = 4.0;
/// The share of the last two plies' growth [`next_even_fits`] expects of
/// the next two.
const EVEN_GROWTH_SHARE: f64 = 0.5;

fn deepen(
    state: &State,
    limits: SearchLimits,
    seed: u64,
    style: Style,
    Judging { deepening, kept }: Judging,
) -> Option<SearchResult> {
    let start = Instant::now();
    let State {
        ref layout,
        position: ref pos,
        ..
    } = *state;
    if state.end_reason().is_some() {
        return None;
    }
    let moves = pos.legal_moves(layout);
    let recipe = style.level.map(recipe);
    let limits = match recipe {
        Some(recipe) => limits.within(recipe.depth, recipe.nodes),
        None => limits,
    };
    // A level that chooses among moves needs every move's exact value.
    let temperature = recipe.map_or(0, |r| r.temperature);
    let wanted = style.lines.max(1);
    let lines = if temperature > 0 { moves.len() } else { wanted };
    let mut root_moves: Vec<RootMove> = moves
        .into_iter()
        .map(|mv| RootMove {
            mv,
            score: -INFINITY,
            exact: false,
            pv: Vec::new(),
        })
        .collect();
    // The seed breaks ties: equal moves are searched in a seeded order and
    // the first best one is kept.
    root_moves.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
    let mut searcher = Searcher {
        layout,
        max_plies: state.policy.max_plies,
        eval: Evaluator::new(layout),
        tt: Table::new(table_size(limits)),
        killers: vec![[None; 2]; MAX_PLY + 1],
        history: vec![0; 2 * 121 * 121],
        pv: vec![Vec::new(); MAX_PLY + 2],
        nodes: 0,
        limits,
        deadline: limits.max_time.map(|t| start + t),
        stopped: false,
    };
    let mut best = SearchResult {
        best: root_moves.first().map(|r| r.mv)?,
        evaluation: 0,
        depth: 0,
        nodes: 0,
        iterations: Vec::new(),
        pv: Vec::new(),
        lines: Vec::new(),
        elapsed: Duration::ZERO,
    };
    let mut finished: Vec<RootMove> = Vec::new();
    for depth in 1..=limits.max_depth.min(MAX_PLY as u32 - 1) {
        let score = searcher.root(pos, &mut root_moves, (depth, lines), kept);
        if searcher.stopped {
            break;
        }
        let pv = searcher.pv.first().cloned().unwrap_or_default();
        if let Some(&first) = pv.first() {
            best.best = first;
        }
        best.evaluation = score;
        best.depth = depth;
        best.iterations.push(Iteration {
            depth,
            evaluation: score,
            pv: if pv.is_empty() {
                vec![best.best]
            } else {
                pv.clone()
            },
            nodes: searcher.nodes,
            kept: kept.and_then(|kept| {
                let root = root_moves.iter().find(|r| r.mv == kept && r.exact)?;
                Some(Line {
                    mv: root.mv,
                    evaluation: root.score,
                    pv: root.pv.clone(),
                })
            }),
            runner_up: (lines >= 2).then(|| runner_up(&root_moves)).flatten(),
        });
        best.pv = pv;
        finished = best_lines(&root_moves, lines);
        // A forced result is not going to change with more depth.
        if score.abs() > WIN - MAX_PLY as i32 {
            break;
        }
        if deepening == Deepening::EvenDepths
            && depth % 2 == 0
            && !next_even_fits(&best.iterations, limits.max_nodes)
        {
            break;
        }
        // A deeper iteration costs several times this one: do not start
        // one that cannot finish in time.
        if let (Some(deadline), Some(max_time)) = (searcher.deadline, limits.max_time) {
            if Instant::now() + max_time / 3 > deadline {
                break;
            }
        }
    }
    if best.pv.is_empty() {
        best.pv.push(best.best);
    }
    if finished.is_empty() {
        // Not even depth 1 finished: the one move known, unvalued.
        finished.push(RootMove {
            mv: best.best,
            score: best.evaluation,
            exact: true,
            pv: best.pv.clone(),
        });
    }
    if temperature > 0 {
        let values: Vec<f64> = finished.iter().map(|r| f64::from(r.score)).collect();
        let chosen = choose_by_temperature(&values, f64::from(temperature), &mut level_rng(seed))
            .and_then(|i| finished.get(i));
        if let Some(chosen) = chosen {
            best.best = chosen.mv;
            best.evaluation = chosen.score;
            best.pv = chosen.pv.clone();
        }
    }
    best.lines = finished
        .into_iter()
        .take(wanted)
        .map(|r| Line {
            mv: r.mv,
            evaluation: r.score,
            pv: r.pv,
        })
        .collect();
    best.nodes = searcher.nodes;
    best.elapsed = start.elapsed();
    Some(best)
}

/// The second-best root move of a finished iteration with its exact
/// value, if two are exact.
fn runner_up(moves: &[RootMove]) -> Option<(Move, i32)> {
    let second = best_lines(moves, 2).into_iter().nth(1)?;
    Some((second.mv, second.score))
}

/// The `n` best root moves of a finished iteration, best first, each with
/// its line (only exact values: the rest are bounds).
fn best_lines(moves: &[RootMove], n: usize) -> Vec<RootMove> {
    let mut exact: Vec<RootMove> = moves.iter().filter(|r| r.exact).cloned().collect();
    exact.sort_by_key(|r| std::cmp::Reverse(r.score));
    exact.truncate(n);
    for line in &mut exact {
        if line.pv.is_empty() {
            line.pv.push(line.mv);
        }
    }
    exact
}

/// Slots for the transposition table: about one per node the limits let
/// the search visit: some 2 million nodes a second, an effective branching
/// factor under 16 per ply.
fn table_size(limits: SearchLimits) -> usize {
    let by_time = limits
        .max_time
        .map_or(u64::MAX, |t| (t.as_millis() as u64).saturating_mul(2_000));
    let by_depth = 16u64.saturating_pow(limits.max_depth);
    by_time.min(by_depth).min(limits.max_nodes).min(1 << 21) as usize
}

struct Searcher<'a> {
    layout: &'a Layout,
    /// The end policy's ply limit: a position at it is finished.
    max_plies: Option<u64>,
    eval: Evaluator,
    tt: Table,
    killers: Vec<[Option<Move>; 2]>,
    /// [side][from][to] cut-off counts of quiet moves.
    history: Vec<i32>,
    /// Triangular principal-variation table: `pv[ply]` is the line from ply.
    pv: Vec<Vec<Move>>,
    nodes: u64,
    limits: SearchLimits<'a>,
    deadline: Option<Instant>,
    stopped: bool,
}

impl Searcher<'_> {
    fn out_of_budget(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.nodes >= self.limits.max_nodes {
            self.stopped = true;
        } else if self.nodes.is_multiple_of(CLOCK_INTERVAL) {
            self.stopped = self.limits.stop_requested()
                || self
                    .deadline
                    .is_some_and(|deadline| Instant::now() >= deadline);
        }
        self.stopped
    }

    /// Whether the end policy's ply limit finishes `pos`.
    fn at_ply_limit(&self, pos: &Position) -> bool {
        self.max_plies.is_some_and(|max| pos.ply() >= max)
    }

    /// The transposition table's key of `pos`: under a ply limit its value
    /// depends on the plies left, so the ply is part of it.
    fn key(&self, pos: &Position) -> u64 {
        let key = zobrist::hash(pos);
        match self.max_plies {
            Some(_) => key ^ zobrist::ply_key(pos.ply()),
            None => key,
        }
    }

    /// Value of a finished position for the side to move.
    fn terminal(&self, pos: &Position, ply: usize) -> i32 {
        let score = pos.score(self.layout);
        let us = pos.turn();
        let mine = score.side(us).total() as i32;
        let theirs = score.side(!us).total() as i32;
        match mine.cmp(&theirs) {
            std::cmp::Ordering::Greater => WIN - ply as i32,
            std::cmp::Ordering::Less => -WIN + ply as i32,
            std::cmp::Ordering::Equal => 0,
        }
    }

    /// One iteration over the root moves. The first `lines` of them get
    /// exact values (the search window at the root opens at the
    /// `lines`-th best value found so far); the rest only bounds, but for
    /// `kept`, always searched with the whole window. With one line and
    /// nothing kept this is plain principal-variation search.
    fn root(
        &mut self,
        pos: &Position,
        moves: &mut [RootMove],
        (depth, lines): (u32, usize),
        kept: Option<Move>,
    ) -> i32 {
        // The previous iteration's best move first, the rest by ordering
        // score; the sort is stable, so the seeded order breaks ties. The
        // same order whatever the lines: equal moves are then decided alike
        // with one line or many, and an analysis starts with the move a
        // single-line search plays.
        let previous = self.pv.first().and_then(|pv| pv.first()).copied();
        moves.sort_by_key(|r| std::cmp::Reverse(self.order_score(pos, r.mv, previous, 0)));
        let beta = INFINITY;
        let mut best_score = -INFINITY;
        let mut best_pv: Vec<Move> = Vec::new();
        // The exact values found so far, best first (at most `lines`).
        let mut top: Vec<i32> = Vec::with_capacity(lines.min(64));
        for root in moves.iter_mut() {
            let alpha = if top.len() < lines || Some(root.mv) == kept {
                -INFINITY
            } else {
                top.last().copied().unwrap_or(-INFINITY)
            };
            let mut child = *pos;
            child.play_unchecked(root.mv);
            let score = if alpha == -INFINITY {
                -self.negamax(&child, depth - 1, -beta, -alpha, 1)
            } else {
                let probe = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, 1);
                if probe > alpha && !self.stopped {
                    -self.negamax(&child, depth - 1, -beta, -alpha, 1)
                } else {
                    probe
                }
            };
            if self.stopped {
                return best_score;
            }
            root.score = score;
            root.exact = score > alpha;
            root.pv.clear();
            root.pv.push(root.mv);
            if root.exact {
                root.pv
                    .extend(self.pv.get(1).map(Vec::as_slice).unwrap_or_default());
                let at = top.partition_point(|&s| s >= score);
                top.insert(at, score);
                top.truncate(lines);
            }
            if score > best_score {
                best_score = score;
                best_pv.clone_from(&root.pv);
            }
        }
        if let Some(line) = self.pv.get_mut(0) {
            *line = best_pv;
        }
        best_score
    }

    fn negamax(
        &mut self,
        pos: &Position,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if let Some(line) = self.pv.get_mut(ply) {
            line.clear();
        }
        if self.out_of_budget() {
            return 0;
        }
        self.nodes += 1;
        if depth == 0 || ply >= MAX_PLY {
            return self.quiescence(pos, alpha, beta, ply, 0, None);
        }
        if self.at_ply_limit(pos) {
            return self.terminal(pos, ply);
        }
        let key = self.key(pos);
        let entry = self.tt.probe(key);
        let tt_move = entry.and_then(|e| e.best());
        if let Some(e) = entry {
            if u32::from(e.depth) >= depth {
                let score = from_tt(e.score, ply);
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if cut {
                    return score;
                }
            }
        }
        let mut moves = Vec::with_capacity(64);
        pos.legal_moves_into(self.layout, &mut moves);
        if moves.is_empty() {
            return self.terminal(pos, ply);
        }
        let mut scored: Vec<(i32, Move)> = moves
            .iter()
            .map(|&mv| {
                let hint = tt_move
                    .filter(|&(f, t)| f == mv.from && t == mv.to)
                    .map(|_| mv);
                (self.order_score(pos, mv, hint, ply), mv)
            })
            .collect();
        scored.sort_by_key(|&(s, _)| std::cmp::Reverse(s));

        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = None;
        for (i, &(_, mv)) in scored.iter().enumerate() {
            let mut child = *pos;
            child.play_unchecked(mv);
            let score = if i == 0 {
                -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1)
            } else {
                let probe = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, ply + 1);
                if probe > alpha && probe < beta && !self.stopped {
                    -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1)
                } else {
                    probe
                }
            };
            if self.stopped {
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    self.set_pv(ply, mv);
                }
            }
            if alpha >= beta {
                if !mv.is_capture() {
                    self.reward(pos, mv, depth, ply);
                }
                break;
            }
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt
            .store(key, depth, to_tt(best_score, ply), bound, best_move);
        best_score
    }

    fn quiescence(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qdepth: u32,
        last_capture: Option<Square>,
    ) -> i32 {
        if self.out_of_budget() {
            return 0;
        }
        self.nodes += 1;
        if !pos.has_legal_move(self.layout) || self.at_ply_limit(pos) {
            return self.terminal(pos, ply);
        }
        let stand = self.eval.evaluate(pos);
        if stand >= beta || qdepth >= MAX_QUIESCENCE {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut best = stand;
        // Captures alone (past FULL_QUIESCENCE, recaptures alone), in
        // generation order, then by victim (a stable sort).
        let mut moves = Vec::new();
        let on = if qdepth >= FULL_QUIESCENCE {
            // A recapture needs a capture before it.
            let Some(square) = last_capture else {
                return best;
            };
            Some(square)
        } else {
            None
        };
        pos.legal_captures_into(self.layout, on, &mut moves);
        moves.sort_by_key(|mv| std::cmp::Reverse(victim_value(*mv)));
        for mv in moves {
            let mut child = *pos;
            child.play_unchecked(mv);
            let score = -self.quiescence(&child, -beta, -alpha, ply + 1, qdepth + 1, Some(mv.to));
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// Higher first: the hinted (TT or PV) move, captures by victim,
    /// entries into the enemy base, killers, then history.
    fn order_score(&self, pos: &Position, mv: Move, hint: Option<Move>, ply: usize) -> i32 {
        if hint.is_some_and(|h| h.from == mv.from && h.to == mv.to) {
            return 1 << 30;
        }
        if mv.is_capture() {
            return (1 << 24) + victim_value(mv);
        }
        let enemy_base = self.layout.base(!pos.turn());
        if enemy_base.contains(mv.to) && !enemy_base.contains(mv.from) {
            return 1 << 23;
        }
        if let Some(killers) = self.killers.get(ply) {
            if killers[0] == Some(mv) {
                return 1 << 22;
            }
            if killers[1] == Some(mv) {
                return (1 << 22) - 1;
            }
        }
        self.history
            .get(history_index(pos, mv))
            .copied()
            .unwrap_or(0)
            .min((1 << 21) - 1)
    }

    fn reward(&mut self, pos: &Position, mv: Move, depth: u32, ply: usize) {
        if let Some(killers) = self.killers.get_mut(ply) {
            if killers[0] != Some(mv) {
                killers[1] = killers[0];
                killers[0] = Some(mv);
            }
        }
        if let Some(h) = self.history.get_mut(history_index(pos, mv)) {
            *h = h.saturating_add((depth * depth) as i32);
        }
    }

    /// `pv[ply]` = `mv` followed by `pv[ply + 1]`.
    fn set_pv(&mut self, ply: usize, mv: Move) {
        let tail = self.pv.get(ply + 1).cloned().unwrap_or_default();
        if let Some(line) = self.pv.get_mut(ply) {
            line.clear();
            line.push(mv);
            line.extend(tail);
        }
    }
}

fn victim_value(mv: Move) -> i32 {
    match mv.capture {
        Some(Role::Commander) => 3 * POINT,
        Some(Role::Tank) => 2 * POINT,
        None => 0,
    }
}

fn history_index(pos: &Position, mv: Move) -> usize {
    (pos.turn().index() * 121 + mv.from.index()) * 121 + mv.to.index()
}

/// Win scores are stored relative to the node, not the root.
fn to_tt(score: i32, ply: usize) -> i32 {
    if score > WIN - MAX_PLY as i32 * 2 {
        score + ply as i32
    } else if score < -WIN + MAX_PLY as i32 * 2 {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score > WIN - MAX_PLY as i32 * 2 {
        score - ply as i32
    } else if score < -WIN + MAX_PLY as i32 * 2 {
        score + ply as i32
    } else {
        score
    }
}
