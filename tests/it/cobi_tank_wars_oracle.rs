//! Differential test of Cobi Tank Wars: an independent implementation of one
//! round, written from the rules text alone, is compared with the HTTP
//! service over many reproducible random positions and orders.
//!
//! The generator is a seeded SplitMix64 loop: set `COBI_ORACLE_SEED` to run
//! another series of cases; the failure report prints the seed, the case
//! number and the whole request.

use std::collections::BTreeMap;
use std::time::Instant;

use crate::common::{app_with, get, post, Reply};
use serde_json::{json, Map, Value};
use tank_rules::limits::Limits;

const BASE: &str = "/v1/cobi-tank-wars";

fn path(endpoint: &str) -> String {
    format!("{BASE}/{endpoint}")
}

// ---------------------------------------------------------------------------
// Random numbers
// ---------------------------------------------------------------------------

const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// The supply drop's generator: the first SplitMix64 output for `seed`.
fn splitmix64(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(GOLDEN);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The test's own generator (the same mixer, another stream).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let z = splitmix64(self.0);
        self.0 = self.0.wrapping_add(GOLDEN);
        z
    }

    /// Uniform in `0..n` (`n > 0`).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// Uniform in `lo..=hi`.
    fn range(&mut self, lo: i32, hi: i32) -> i32 {
        lo + self.below((hi - lo + 1) as usize) as i32
    }

    /// True with probability `percent` / 100.
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }

    fn shuffle<T>(&mut self, xs: &mut [T]) {
        for i in (1..xs.len()).rev() {
            let j = self.below(i + 1);
            xs.swap(i, j);
        }
    }
}

fn master_seed() -> u64 {
    std::env::var("COBI_ORACLE_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0xC0B1_7A4C)
}

// ---------------------------------------------------------------------------
// The oracle's model of a state
// ---------------------------------------------------------------------------

/// (column, row), both from 1.
type Sq = (i32, i32);

const PLAYERS: [&str; 2] = ["P1", "P2"];
const DIRS: [(&str, i32, i32); 4] = [("N", 0, 1), ("E", 1, 0), ("S", 0, -1), ("W", -1, 0)];

fn name(sq: Sq) -> String {
    format!("{}{}", char::from(b'a' + (sq.0 - 1) as u8), sq.1)
}

fn names(squares: &[Sq]) -> Value {
    Value::from(squares.iter().map(|&s| name(s)).collect::<Vec<_>>())
}

#[derive(Clone, Debug)]
struct Vehicle {
    id: String,
    owner: usize,
    sq: Sq,
    armor: i64,
    slot: i64,
}

#[derive(Clone, Debug)]
struct Game {
    cols: i32,
    rows: i32,
    first: usize,
    vehicles: Vec<Vehicle>,
    artillery: Vec<Sq>,
    support: Vec<Sq>,
    gunfire: Vec<Sq>,
    cards: [u64; 2],
    round: u64,
}

impl Game {
    fn to_json(&self) -> Value {
        let vehicles: Vec<Value> = self
            .vehicles
            .iter()
            .map(|v| {
                json!({"id": v.id, "owner": PLAYERS[v.owner], "square": name(v.sq),
                       "armor": v.armor, "slot": v.slot})
            })
            .collect();
        json!({
            "cols": self.cols,
            "rows": self.rows,
            "first": PLAYERS[self.first],
            "vehicles": vehicles,
            "artillery": names(&self.artillery),
            "support": names(&self.support),
            "gunfire": names(&self.gunfire),
            "support_cards": {"P1": self.cards[0], "P2": self.cards[1]},
            "round": self.round,
        })
    }

    fn on_board(&self, sq: Sq) -> bool {
        (1..=self.cols).contains(&sq.0) && (1..=self.rows).contains(&sq.1)
    }

    fn count(&self, player: usize) -> usize {
        self.vehicles.iter().filter(|v| v.owner == player).count()
    }

    /// (finished, winner, draw)
    fn outcome(&self) -> (bool, Option<usize>, bool) {
        match (self.count(0), self.count(1)) {
            (0, 0) => (true, None, true),
            (0, _) => (true, Some(1), false),
            (_, 0) => (true, Some(0), false),
            _ => (false, None, false),
        }
    }

    fn outcome_json(&self) -> Value {
        let (finished, winner, draw) = self.outcome();
        json!({"finished": finished, "winner": winner.map(|p| PLAYERS[p]), "draw": draw})
    }

    fn score(&self) -> Value {
        let armor = |p: usize| -> i64 {
            self.vehicles
                .iter()
                .filter(|v| v.owner == p)
                .map(|v| v.armor)
                .sum()
        };
        let (finished, winner, draw) = self.outcome();
        json!({
            "vehicles": {"P1": self.count(0), "P2": self.count(1)},
            "armor": {"P1": armor(0), "P2": armor(1)},
            "support_cards": {"P1": self.cards[0], "P2": self.cards[1]},
            "finished": finished,
            "winner": winner.map(|p| PLAYERS[p]),
            "draw": draw,
            // A game ends only when a side has lost every vehicle.
            "reason": finished.then_some("destroyed"),
            "score": {"P1": self.count(0), "P2": self.count(1)},
        })
    }

    fn legal_moves(&self, only: Option<usize>) -> Value {
        let finished = self.outcome().0;
        let mut out = Map::new();
        for (p, player) in PLAYERS.iter().enumerate() {
            if only.is_some_and(|o| o != p) {
                continue;
            }
            let mut per = Map::new();
            if !finished {
                for v in self.vehicles.iter().filter(|v| v.owner == p) {
                    let mut list = Vec::new();
                    for (dir, dc, dr) in DIRS {
                        for dist in 1..=3 {
                            let to = (v.sq.0 + dc * dist, v.sq.1 + dr * dist);
                            if self.on_board(to) {
                                let blocked =
                                    self.vehicles.iter().any(|o| o.id != v.id && o.sq == to);
                                list.push(json!({"dir": dir, "dist": dist, "to": name(to),
                                                 "blocked_now": blocked}));
                            }
                        }
                    }
                    per.insert(v.id.clone(), Value::from(list));
                }
            }
            out.insert((*player).to_owned(), Value::Object(per));
        }
        Value::Object(out)
    }
}

/// One player's orders: vehicle id -> (index into `DIRS`, distance).
type Plan = BTreeMap<String, (usize, i32)>;

/// Resolves one round of valid orders on a live game.
fn resolve(start: &Game, orders: &[Plan; 2], seed: u64) -> (Game, Vec<Value>) {
    let mut g = start.clone();
    let n = g.vehicles.len();
    let mut alive = vec![true; n];
    let mut events = Vec::new();

    // 1-3. Movement, slot by slot, `first` before the other player.
    for slot in 1..=3 {
        for p in [g.first, 1 - g.first] {
            let Some(i) = (0..n)
                .find(|&i| alive[i] && g.vehicles[i].owner == p && g.vehicles[i].slot == slot)
            else {
                continue;
            };
            let v = g.vehicles[i].clone();
            let (d, dist) = orders[p][&v.id];
            let (_, dc, dr) = DIRS[d];
            let to = (v.sq.0 + dc * dist, v.sq.1 + dr * dist);
            let on = g.on_board(to);
            let occupied = (0..n).any(|j| j != i && alive[j] && g.vehicles[j].sq == to);
            if !on || occupied {
                events.push(
                    json!({"kind": "cancelled", "vehicle": v.id, "at": name(v.sq),
                                   "to": if on { Value::from(name(to)) } else { Value::Null }}),
                );
                continue;
            }
            events.push(
                json!({"kind": "moved", "vehicle": v.id, "from": name(v.sq), "to": name(to)}),
            );
            let mut armor = v.armor;
            for k in 1..=dist {
                let s = (v.sq.0 + dc * k, v.sq.1 + dr * k);
                if let Some(pos) = g.artillery.iter().position(|&a| a == s) {
                    g.artillery.remove(pos);
                    armor = (armor - 1).max(0);
                    events
                        .push(json!({"kind": "artillery_hit", "vehicle": v.id, "square": name(s)}));
                }
            }
            g.vehicles[i].sq = to;
            g.vehicles[i].armor = armor;
            if armor == 0 {
                alive[i] = false;
                events.push(json!({"kind": "destroyed", "vehicle": v.id, "square": name(to)}));
            } else if let Some(pos) = g.support.iter().position(|&s| s == to) {
                g.support.remove(pos);
                g.cards[p] += 1;
                events.push(
                    json!({"kind": "support_taken", "vehicle": v.id, "square": name(to),
                                   "player": PLAYERS[p]}),
                );
            }
        }
    }

    // 4. Gunfire.
    let gunfire = std::mem::take(&mut g.gunfire);
    for &s in &gunfire {
        if let Some(i) = (0..n).find(|&i| alive[i] && g.vehicles[i].sq == s) {
            g.vehicles[i].armor -= 1;
            let id = g.vehicles[i].id.clone();
            events.push(json!({"kind": "gunfire_hit", "vehicle": id, "square": name(s)}));
            if g.vehicles[i].armor == 0 {
                alive[i] = false;
                events.push(json!({"kind": "destroyed", "vehicle": id, "square": name(s)}));
            }
        }
    }
    g.artillery.retain(|s| !gunfire.contains(s));
    g.support.retain(|s| !gunfire.contains(s));
    let mut keep = alive.iter();
    g.vehicles.retain(|_| *keep.next().unwrap());

    // 5. Supply drop.
    let mut free = Vec::new();
    for row in 1..=g.rows {
        for col in 1..=g.cols {
            let s = (col, row);
            if !g.vehicles.iter().any(|v| v.sq == s)
                && !g.artillery.contains(&s)
                && !g.support.contains(&s)
            {
                free.push(s);
            }
        }
    }
    if !free.is_empty() {
        let z = splitmix64(seed);
        let s = free[(z % free.len() as u64) as usize];
        g.support.push(s);
        events.push(json!({"kind": "supply_drop", "square": name(s)}));
    }

    // 6.
    g.round += 1;
    (g, events)
}

// ---------------------------------------------------------------------------
// Orders as sent (possibly broken)
// ---------------------------------------------------------------------------

#[derive(Clone, Debug)]
struct Orders([Vec<(String, Value)>; 2]);

impl Orders {
    fn to_json(&self) -> Value {
        let mut out = Map::new();
        for (player, entries) in PLAYERS.iter().zip(&self.0) {
            let mut per = Map::new();
            for (id, order) in entries {
                per.insert(id.clone(), order.clone());
            }
            out.insert((*player).to_owned(), Value::Object(per));
        }
        Value::Object(out)
    }

    /// The orders of a valid set, as the oracle reads them.
    fn plans(&self) -> [Plan; 2] {
        let plan = |entries: &Vec<(String, Value)>| -> Plan {
            entries
                .iter()
                .map(|(id, o)| {
                    let d = DIRS.iter().position(|(n, _, _)| o["dir"] == *n).unwrap();
                    (id.clone(), (d, o["dist"].as_i64().unwrap() as i32))
                })
                .collect()
        };
        [plan(&self.0[0]), plan(&self.0[1])]
    }
}

fn random_order(rng: &mut Rng) -> Value {
    json!({"dir": rng.pick(&DIRS).0, "dist": rng.range(1, 3)})
}

fn valid_orders(rng: &mut Rng, game: &Game) -> Orders {
    let mut sets: [Vec<(String, Value)>; 2] = [Vec::new(), Vec::new()];
    for v in &game.vehicles {
        let order = random_order(rng);
        sets[v.owner].push((v.id.clone(), order));
    }
    for set in &mut sets {
        rng.shuffle(set);
    }
    Orders(sets)
}

// ---------------------------------------------------------------------------
// Random positions
// ---------------------------------------------------------------------------

const ODD_IDS: [&str; 13] = [
    "",
    "tank",
    "P2-1",
    "P1",
    "ü-✓ 戦車",
    "a b",
    "\"quoted\"",
    "{}",
    "0",
    "-",
    "P1-1 ",
    "x/y\\z",
    "a-very-long-identifier-for-one-small-vehicle-0123456789",
];

fn board_size(rng: &mut Rng) -> (i32, i32) {
    match rng.below(10) {
        0 | 1 => (rng.range(2, 4), rng.range(2, 4)),
        2 => (2, rng.range(2, 26)),
        3 => (rng.range(2, 26), 2),
        4 | 5 => (8, 8),
        6 => (rng.range(20, 26), rng.range(20, 26)),
        _ => (rng.range(2, 26), rng.range(2, 26)),
    }
}

/// Squares of a random window of the board (most of the time a small one,
/// so that vehicles and tokens meet), or of the whole board.
fn region(rng: &mut Rng, cols: i32, rows: i32) -> Vec<Sq> {
    let (c0, r0, w, h) = if rng.chance(60) {
        let w = rng.range(2, 5).min(cols);
        let h = rng.range(2, 5).min(rows);
        (rng.range(1, cols - w + 1), rng.range(1, rows - h + 1), w, h)
    } else {
        (1, 1, cols, rows)
    };
    let mut out = Vec::new();
    for r in r0..r0 + h {
        for c in c0..c0 + w {
            out.push((c, r));
        }
    }
    out
}

fn tokens(rng: &mut Rng, area: &[Sq], cols: i32, rows: i32) -> Vec<Sq> {
    let density = *rng.pick(&[0u64, 0, 5, 15, 30, 60]);
    let area = if rng.chance(30) {
        region(rng, cols, rows)
    } else {
        area.to_vec()
    };
    let mut out: Vec<Sq> = area.into_iter().filter(|_| rng.chance(density)).collect();
    rng.shuffle(&mut out);
    out
}

fn random_game(rng: &mut Rng) -> Game {
    let (cols, rows) = board_size(rng);
    let mut counts = match rng.below(100) {
        0 => [0, 0],
        1..=3 => [0, rng.range(1, 3) as usize],
        4..=6 => [rng.range(1, 3) as usize, 0],
        7..=16 => [rng.range(0, 3) as usize, rng.range(0, 3) as usize],
        _ => [rng.range(1, 3) as usize, rng.range(1, 3) as usize],
    };
    let mut area = region(rng, cols, rows);
    if area.len() < counts[0] + counts[1] {
        area = region(rng, cols, rows);
    }
    while area.len() < counts[0] + counts[1] {
        let p = usize::from(counts[1] > counts[0]);
        counts[p] -= 1;
    }
    let mut places = area.clone();
    rng.shuffle(&mut places);
    let mut vehicles = Vec::new();
    let mut used_ids: Vec<String> = Vec::new();
    for (p, &count) in counts.iter().enumerate() {
        let mut slots = [1i64, 2, 3];
        rng.shuffle(&mut slots);
        for &slot in &slots[..count] {
            let mut id = if rng.chance(75) {
                format!("{}-{slot}", PLAYERS[p])
            } else {
                (*rng.pick(&ODD_IDS)).to_owned()
            };
            while used_ids.contains(&id) {
                id.push('#');
            }
            used_ids.push(id.clone());
            let armor = *rng.pick(&[1i64, 1, 2, 2, 3, 4]);
            vehicles.push(Vehicle {
                id,
                owner: p,
                sq: places.pop().unwrap(),
                armor,
                slot,
            });
        }
    }
    rng.shuffle(&mut vehicles);
    let artillery = tokens(rng, &area, cols, rows);
    let support = tokens(rng, &area, cols, rows);
    let gunfire = tokens(rng, &area, cols, rows);
    let number = |rng: &mut Rng| -> u64 {
        match rng.below(4) {
            0 => 0,
            1 => rng.below(5) as u64,
            2 => rng.below(1000) as u64,
            _ => rng.below(1_000_000_000) as u64,
        }
    };
    let cards = [number(rng), number(rng)];
    let round = number(rng);
    Game {
        cols,
        rows,
        first: rng.below(2),
        vehicles,
        artillery,
        support,
        gunfire,
        cards,
        round,
    }
}

/// `None`: the request leaves the seed out (it defaults to 0).
fn random_seed(rng: &mut Rng) -> Option<u64> {
    match rng.below(8) {
        0 => None,
        1 => Some(0),
        2 => Some(u64::MAX),
        3 => Some(rng.below(100) as u64),
        _ => Some(rng.next()),
    }
}

// ---------------------------------------------------------------------------
// Comparison
// ---------------------------------------------------------------------------

/// A state with vehicles sorted by id and token lists sorted.
fn canonical(state: &Value) -> Value {
    let mut s = state.clone();
    if let Some(vs) = s.get_mut("vehicles").and_then(Value::as_array_mut) {
        vs.sort_by_key(|v| v["id"].to_string());
    }
    for list in ["artillery", "support", "gunfire"] {
        if let Some(ts) = s.get_mut(list).and_then(Value::as_array_mut) {
            ts.sort_by_key(|t| t.to_string());
        }
    }
    s
}

fn reply_json(reply: &Reply) -> Value {
    json!({"status": reply.status.as_u16(), "body": reply.body})
}

/// Disagreements between the service and the oracle, reported at the end.
#[derive(Default)]
struct Diffs {
    seed: u64,
    found: Vec<(String, String)>,
}

impl Diffs {
    fn check(&mut self, what: &str, case: usize, request: &Value, expected: &Value, got: &Value) {
        if expected != got {
            let text = format!(
                "{what} (seed {}, case {case})\n  request:  {request}\n  expected: {expected}\n  got:      {got}",
                self.seed
            );
            self.found.push((what.to_owned(), text));
        }
    }

    fn finish(mut self) {
        if self.found.is_empty() {
            return;
        }
        let mut kinds: BTreeMap<String, usize> = BTreeMap::new();
        for (what, _) in &self.found {
            *kinds.entry(what.clone()).or_default() += 1;
        }
        let total = self.found.len();
        // The shortest reports first: they are the easiest to read.
        self.found.sort_by_key(|(_, text)| text.len());
        for (_, text) in self.found.iter().take(8) {
            eprintln!("{text}\n");
        }
        panic!("{total} disagreements with the oracle: {kinds:?}");
    }
}

fn problem_code(reply: &Reply) -> Value {
    json!({"status": reply.status.as_u16(), "content_type": reply.content_type,
           "code": reply.body["code"]})
}

fn expected_problem(status: u16, code: &str) -> Value {
    json!({"status": status, "content_type": "application/problem+json", "code": code})
}

// ---------------------------------------------------------------------------
// The tests
// ---------------------------------------------------------------------------

/// Hand-worked rounds: checks the oracle itself against the rules text.
#[test]
fn the_oracle_follows_the_rules_on_hand_worked_rounds() {
    assert_eq!(splitmix64(0), 0xE220_A839_7B1D_CDAF);
    let v = |id: &str, owner, sq, armor, slot| Vehicle {
        id: id.to_owned(),
        owner,
        sq,
        armor,
        slot,
    };
    // 4x4. P2 moves first. P2-1 (slot 1) b4 S 3 -> b1 passes over P1-2 at
    // b2; artillery on b3 and b1: armor 2 -> 0, destroyed on b1 (support on
    // b1 stays). P1-1 (slot 1) a1 E 2 -> c1 passes b1 (free again: P2-1 was
    // destroyed), takes nothing, takes support on c1. P1-2 (slot 2) b2 N 3:
    // off the board, cancelled. Gunfire on c1 hits P1-1 (armor 1 -> 0) and on
    // d4 hits nobody; the support token on d4 goes with it.
    let game = Game {
        cols: 4,
        rows: 4,
        first: 1,
        vehicles: vec![
            v("P1-1", 0, (1, 1), 1, 1),
            v("P1-2", 0, (2, 2), 3, 2),
            v("P2-1", 1, (2, 4), 2, 1),
        ],
        artillery: vec![(2, 1), (2, 3), (4, 4)],
        support: vec![(3, 1), (2, 1), (4, 4)],
        gunfire: vec![(3, 1), (4, 4)],
        cards: [5, 7],
        round: 3,
    };
    let orders = [
        Plan::from([("P1-1".into(), (1, 2)), ("P1-2".into(), (0, 3))]),
        Plan::from([("P2-1".into(), (2, 3))]),
    ];
    let (next, events) = resolve(&game, &orders, 0);
    // Free squares after the round: all but b2 (P1-2), b1 (support), d4
    // (artillery... removed by gunfire: free). 16 - 2 = 14 squares.
    let free: Vec<Sq> = (1..=4)
        .flat_map(|r| (1..=4).map(move |c| (c, r)))
        .filter(|s| *s != (2, 2) && *s != (2, 1))
        .collect();
    assert_eq!(free.len(), 14);
    let drop = free[(splitmix64(0) % 14) as usize];
    assert_eq!(
        Value::from(events),
        json!([
            {"kind": "moved", "vehicle": "P2-1", "from": "b4", "to": "b1"},
            {"kind": "artillery_hit", "vehicle": "P2-1", "square": "b3"},
            {"kind": "artillery_hit", "vehicle": "P2-1", "square": "b1"},
            {"kind": "destroyed", "vehicle": "P2-1", "square": "b1"},
            {"kind": "moved", "vehicle": "P1-1", "from": "a1", "to": "c1"},
            {"kind": "support_taken", "vehicle": "P1-1", "square": "c1", "player": "P1"},
            {"kind": "cancelled", "vehicle": "P1-2", "at": "b2", "to": null},
            {"kind": "gunfire_hit", "vehicle": "P1-1", "square": "c1"},
            {"kind": "destroyed", "vehicle": "P1-1", "square": "c1"},
            {"kind": "supply_drop", "square": name(drop)},
        ])
    );
    let mut support = vec!["b1".to_owned(), name(drop)];
    support.sort();
    assert_eq!(
        canonical(&next.to_json()),
        json!({"cols": 4, "rows": 4, "first": "P2",
               "vehicles": [{"id": "P1-2", "owner": "P1", "square": "b2", "armor": 3, "slot": 2}],
               "artillery": [], "support": support, "gunfire": [],
               "support_cards": {"P1": 6, "P2": 7}, "round": 4})
    );
    assert_eq!(
        next.outcome_json(),
        json!({"finished": true, "winner": "P1", "draw": false})
    );

    // Blocking: a vehicle may not end on another, whatever the order; armor
    // never goes below 0 while every artillery token on the path is taken.
    let game = Game {
        cols: 2,
        rows: 5,
        first: 0,
        vehicles: vec![v("A", 0, (1, 1), 1, 3), v("B", 1, (1, 3), 2, 2)],
        artillery: vec![(1, 2), (1, 3), (1, 4)],
        support: vec![],
        gunfire: vec![],
        cards: [0, 0],
        round: 0,
    };
    let orders = [
        Plan::from([("A".into(), (0, 2))]),
        Plan::from([("B".into(), (0, 2))]),
    ];
    // Slot 2 (B) before slot 3 (A): B a3 -> a5 takes a4 (armor 1). A a1 -> a3
    // takes a2 and a3 (the token under B's old square): 1 -> 0, destroyed.
    let (next, events) = resolve(&game, &orders, 5);
    assert_eq!(events[0]["vehicle"], "B");
    assert_eq!(events.len(), 7, "{events:?}");
    assert_eq!(
        events[3..6],
        [
            json!({"kind": "artillery_hit", "vehicle": "A", "square": "a2"}),
            json!({"kind": "artillery_hit", "vehicle": "A", "square": "a3"}),
            json!({"kind": "destroyed", "vehicle": "A", "square": "a3"}),
        ]
    );
    assert_eq!(next.vehicles.len(), 1);
    assert_eq!(next.vehicles[0].armor, 1);
    assert!(next.artillery.is_empty());
    let orders = [
        Plan::from([("A".into(), (0, 2))]),
        Plan::from([("B".into(), (2, 1))]),
    ];
    // B a3 S 1 -> a2 takes a2; A a1 N 2 -> a3 is free now: takes a3 only.
    let (next, events) = resolve(&game, &orders, 5);
    assert_eq!(
        events[..5],
        [
            json!({"kind": "moved", "vehicle": "B", "from": "a3", "to": "a2"}),
            json!({"kind": "artillery_hit", "vehicle": "B", "square": "a2"}),
            json!({"kind": "moved", "vehicle": "A", "from": "a1", "to": "a3"}),
            json!({"kind": "artillery_hit", "vehicle": "A", "square": "a3"}),
            json!({"kind": "destroyed", "vehicle": "A", "square": "a3"}),
        ]
    );
    assert_eq!(next.artillery, vec![(1, 4)]);
    let orders = [
        Plan::from([("A".into(), (0, 2))]),
        Plan::from([("B".into(), (1, 1))]),
    ];
    // B a3 E 1 -> b3; A a1 N 2 -> a3 now free.
    let (_, events) = resolve(&game, &orders, 5);
    assert_eq!(
        events[1],
        json!({"kind": "moved", "vehicle": "A", "from": "a1", "to": "a3"})
    );
    let orders = [
        Plan::from([("A".into(), (0, 2))]),
        Plan::from([("B".into(), (1, 3))]),
    ];
    // B's move is off the board: cancelled; A cannot end on a3.
    let (_, events) = resolve(&game, &orders, 5);
    assert_eq!(
        events[..2],
        [
            json!({"kind": "cancelled", "vehicle": "B", "at": "a3", "to": null}),
            json!({"kind": "cancelled", "vehicle": "A", "at": "a1", "to": "a3"}),
        ]
    );
}

#[actix_web::test]
async fn initial_state_matches_the_contract() {
    let app = app_with(Limits::default()).await;
    let reply = get(&app, &path("initial")).await;
    assert_eq!(reply.status, 200, "{reply:?}");
    let vehicle = |id: &str, owner: &str, square: &str, slot: u8| json!({"id": id, "owner": owner, "square": square, "armor": 3, "slot": slot});
    let expected = json!({
        "cols": 8, "rows": 8, "first": "P1",
        "vehicles": [
            vehicle("P1-1", "P1", "c1", 1), vehicle("P1-2", "P1", "d1", 2),
            vehicle("P1-3", "P1", "f1", 3), vehicle("P2-1", "P2", "f8", 1),
            vehicle("P2-2", "P2", "e8", 2), vehicle("P2-3", "P2", "c8", 3),
        ],
        "artillery": [], "support": [], "gunfire": [],
        "support_cards": {"P1": 0, "P2": 0}, "round": 0,
    });
    assert_eq!(canonical(&reply.body), canonical(&expected));
}

const LIVE_GAMES: usize = 1000;

/// Random positions and valid orders: `apply` (state, events, outcome),
/// `score` before and after, `validate`, and `legal-moves` on a share.
#[actix_web::test]
async fn random_rounds_agree_with_the_oracle() {
    let started = Instant::now();
    let app = app_with(Limits::default()).await;
    let seed = master_seed();
    let mut rng = Rng(seed);
    let mut diffs = Diffs {
        seed,
        ..Diffs::default()
    };
    let (mut applied, mut over, mut scored, mut legal, mut finishing, mut order_kept) =
        (0, 0, 0, 0, 0, 0);
    let mut event_kinds: BTreeMap<String, usize> = BTreeMap::new();
    for case in 0..LIVE_GAMES {
        let mut game = random_game(&mut rng);
        let rounds = 1 + rng.below(4);
        for round in 0..rounds {
            let case_id = case * 10 + round;
            let state = game.to_json();
            let request = json!({"state": state});
            let reply = post(&app, &path("score"), request.clone()).await;
            diffs.check(
                "score",
                case_id,
                &request,
                &json!({"status": 200, "body": game.score()}),
                &reply_json(&reply),
            );
            scored += 1;

            if rng.below(3) == 0 || game.outcome().0 {
                let only = match rng.below(3) {
                    0 => None,
                    p => Some(p - 1),
                };
                let mut request = json!({"state": state});
                if let Some(p) = only {
                    request["player"] = json!(PLAYERS[p]);
                }
                let reply = post(&app, &path("legal-moves"), request.clone()).await;
                diffs.check(
                    "legal-moves",
                    case_id,
                    &request,
                    &json!({"status": 200, "body": game.legal_moves(only)}),
                    &reply_json(&reply),
                );
                legal += 1;
            }

            let orders = valid_orders(&mut rng, &game);
            let request = json!({"state": state, "orders": orders.to_json()});
            let reply = post(&app, &path("validate"), request.clone()).await;
            if game.outcome().0 {
                let got = json!({"status": reply.status.as_u16(), "legal": reply.body["legal"],
                                 "has_game_over": reply.body["reasons"].as_array().is_some_and(|rs| rs.iter().any(|r| r["code"] == "GAME_OVER"))});
                diffs.check(
                    "validate (game over)",
                    case_id,
                    &request,
                    &json!({"status": 200, "legal": false, "has_game_over": true}),
                    &got,
                );
            } else {
                diffs.check(
                    "validate",
                    case_id,
                    &request,
                    &json!({"status": 200, "body": {"legal": true, "reasons": []}}),
                    &reply_json(&reply),
                );
            }

            let apply_seed = random_seed(&mut rng);
            let mut request = request;
            if let Some(s) = apply_seed {
                request["seed"] = json!(s);
            }
            let reply = post(&app, &path("apply"), request.clone()).await;
            if game.outcome().0 {
                diffs.check(
                    "apply (game over)",
                    case_id,
                    &request,
                    &expected_problem(422, "GAME_OVER"),
                    &problem_code(&reply),
                );
                over += 1;
                break;
            }
            let (next, events) = resolve(&game, &orders.plans(), apply_seed.unwrap_or(0));
            applied += 1;
            for e in &events {
                *event_kinds
                    .entry(e["kind"].as_str().unwrap().to_owned())
                    .or_default() += 1;
            }
            for situation in situations(&game, &events) {
                *event_kinds.entry(situation.to_owned()).or_default() += 1;
            }
            if reply.status != 200 {
                diffs.check(
                    "apply status",
                    case_id,
                    &request,
                    &json!({"status": 200}),
                    &reply_json(&reply),
                );
                break;
            }
            let got = &reply.body;
            diffs.check(
                "apply state",
                case_id,
                &request,
                &canonical(&next.to_json()),
                &canonical(&got["state"]),
            );
            diffs.check(
                "apply events",
                case_id,
                &request,
                &Value::from(events),
                &got["events"],
            );
            let outcome =
                json!({"finished": got["finished"], "winner": got["winner"], "draw": got["draw"]});
            diffs.check(
                "apply outcome",
                case_id,
                &request,
                &next.outcome_json(),
                &outcome,
            );
            if got["state"] == next.to_json() {
                order_kept += 1;
            }
            let request = json!({"state": next.to_json()});
            let reply = post(&app, &path("score"), request.clone()).await;
            diffs.check(
                "score after",
                case_id,
                &request,
                &json!({"status": 200, "body": next.score()}),
                &reply_json(&reply),
            );
            scored += 1;
            if next.outcome().0 {
                finishing += 1;
            }
            game = next;
        }
    }
    eprintln!(
        "cobi oracle: seed {seed}, {LIVE_GAMES} games, {applied} rounds applied ({finishing} finishing the game, \
{order_kept} with the exact documented list order), {over} GAME_OVER, {scored} scores, {legal} legal-moves; \
events {event_kinds:?}; {:?}",
        started.elapsed()
    );
    diffs.finish();
    assert!(applied >= 500, "only {applied} rounds applied");
    for situation in SITUATIONS {
        let seen = event_kinds.get(situation).copied().unwrap_or(0);
        assert!(seen >= 5, "{situation} seen {seen} times only");
    }
}

const SITUATIONS: [&str; 7] = [
    "~armor floor (more hits than armor)",
    "~board full (no supply drop)",
    "~blocked by a vehicle that moved this round",
    "~ends where a vehicle stood at the start",
    "~support under artillery at the destination",
    "~P2 first",
    "~passes over a vehicle",
];

/// Tricky situations a round met, to check that the generator reaches them.
fn situations(game: &Game, events: &[Value]) -> Vec<&'static str> {
    let mut out = Vec::new();
    let at_start = |sq: &Value| game.vehicles.iter().any(|v| name(v.sq) == *sq);
    for v in &game.vehicles {
        let hits = events
            .iter()
            .filter(|e| e["kind"] == "artillery_hit" && e["vehicle"] == v.id.as_str())
            .count();
        if hits as i64 > v.armor {
            out.push(SITUATIONS[0]);
        }
    }
    if !events.iter().any(|e| e["kind"] == "supply_drop") {
        out.push(SITUATIONS[1]);
    }
    for (i, e) in events.iter().enumerate() {
        if e["kind"] == "cancelled" && !e["to"].is_null() && !at_start(&e["to"]) {
            out.push(SITUATIONS[2]);
        }
        if e["kind"] == "moved" && at_start(&e["to"]) {
            out.push(SITUATIONS[3]);
        }
        if e["kind"] == "support_taken"
            && events[i - 1]["kind"] == "artillery_hit"
            && events[i - 1]["square"] == e["square"]
        {
            out.push(SITUATIONS[4]);
        }
        if e["kind"] == "moved" {
            let from = game
                .vehicles
                .iter()
                .find(|v| v.id == e["vehicle"])
                .unwrap()
                .sq;
            let to = e["to"].as_str().unwrap();
            let (_, dc, dr) = *DIRS
                .iter()
                .find(|(_, dc, dr)| (1..=3).any(|k| name((from.0 + dc * k, from.1 + dr * k)) == to))
                .unwrap();
            let dist = (1..=3)
                .find(|k| name((from.0 + dc * k, from.1 + dr * k)) == to)
                .unwrap();
            if (1..dist).any(|k| at_start(&json!(name((from.0 + dc * k, from.1 + dr * k))))) {
                out.push(SITUATIONS[6]);
            }
        }
    }
    if game.first == 1 {
        out.push(SITUATIONS[5]);
    }
    out
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Fault {
    Missing,
    NoSuch,
    BadDir,
    BadDist,
}

impl Fault {
    fn code(self) -> &'static str {
        match self {
            Fault::Missing => "MISSING_ORDER",
            Fault::NoSuch => "NO_SUCH_VEHICLE",
            Fault::BadDir => "BAD_DIRECTION",
            Fault::BadDist => "BAD_DISTANCE",
        }
    }
}

/// Plants `fault` in `orders`; false when the game has no place for it.
fn plant(rng: &mut Rng, game: &Game, orders: &mut Orders, fault: Fault) -> bool {
    let with_orders: Vec<usize> = (0..2).filter(|&p| !orders.0[p].is_empty()).collect();
    if fault != Fault::NoSuch && with_orders.is_empty() {
        return false;
    }
    match fault {
        Fault::Missing => {
            // Only a real vehicle's order: removing a planted unknown id
            // would undo that fault.
            let p = *rng.pick(&with_orders);
            let mine: Vec<usize> = (0..orders.0[p].len())
                .filter(|&i| {
                    let id = &orders.0[p][i].0;
                    game.vehicles.iter().any(|v| v.owner == p && v.id == *id)
                })
                .collect();
            if mine.is_empty() {
                return false;
            }
            orders.0[p].remove(*rng.pick(&mine));
        }
        Fault::NoSuch => {
            let p = rng.below(2);
            let others: Vec<&Vehicle> = game.vehicles.iter().filter(|v| v.owner != p).collect();
            let id = if !others.is_empty() && rng.chance(50) {
                rng.pick(&others).id.clone()
            } else {
                let mut id = (*rng.pick(&["ghost", "P1-4", "P2-9", "", "p1-1"])).to_owned();
                while game.vehicles.iter().any(|v| v.id == id) {
                    id.push('?');
                }
                id
            };
            if orders.0[p].iter().any(|(i, _)| *i == id) {
                return false;
            }
            let order = random_order(rng);
            let at = rng.below(orders.0[p].len() + 1);
            orders.0[p].insert(at, (id, order));
        }
        Fault::BadDir => {
            let p = *rng.pick(&with_orders);
            let i = rng.below(orders.0[p].len());
            orders.0[p][i].1["dir"] = json!(*rng.pick(&["X", "X", "NE", "north", ""]));
        }
        Fault::BadDist => {
            let p = *rng.pick(&with_orders);
            let i = rng.below(orders.0[p].len());
            orders.0[p][i].1["dist"] = json!(*rng.pick(&[0, 4, 0, 4, 7]));
        }
    }
    true
}

const BROKEN_CASES: usize = 400;

/// Orders with planted faults: 422 with the fault's code (any planted code
/// when several are), and `validate` lists it.
#[actix_web::test]
async fn broken_orders_are_refused_with_their_code() {
    let app = app_with(Limits::default()).await;
    let seed = master_seed() ^ 0xB40C;
    let mut rng = Rng(seed);
    let mut diffs = Diffs {
        seed,
        ..Diffs::default()
    };
    let mut tally: BTreeMap<String, usize> = BTreeMap::new();
    let all = [Fault::Missing, Fault::NoSuch, Fault::BadDir, Fault::BadDist];
    for case in 0..BROKEN_CASES {
        let mut game = random_game(&mut rng);
        let ended = rng.chance(12);
        if ended {
            // One side (or both) has no vehicle left.
            let p = rng.below(3);
            game.vehicles.retain(|v| p < 2 && v.owner != p);
        }
        let mut orders = valid_orders(&mut rng, &game);
        let wanted = match rng.below(10) {
            _ if ended && rng.chance(60) => 0,
            0 | 1 => 2 + rng.below(2),
            _ => 1,
        };
        let mut planted: Vec<&str> = Vec::new();
        if game.outcome().0 {
            planted.push("GAME_OVER");
        }
        for _ in 0..wanted {
            let fault = *rng.pick(&all);
            if plant(&mut rng, &game, &mut orders, fault) {
                planted.push(fault.code());
            }
        }
        if planted.is_empty() {
            continue;
        }
        let single = planted.len() == 1;
        let label = if single {
            planted[0].to_owned()
        } else {
            "several".to_owned()
        };
        *tally.entry(label).or_default() += 1;
        let mut request = json!({"state": game.to_json(), "orders": orders.to_json()});
        let reply = post(&app, &path("validate"), request.clone()).await;
        let listed: Vec<Value> = reply.body["reasons"]
            .as_array()
            .map(|rs| rs.iter().map(|r| r["code"].clone()).collect())
            .unwrap_or_default();
        let expected = json!({"status": 200, "legal": false, "lists_planted": true});
        let got = json!({"status": reply.status.as_u16(), "legal": reply.body["legal"],
                         "lists_planted": if single { listed.contains(&json!(planted[0])) }
                                          else { listed.iter().any(|c| planted.iter().any(|p| c == p)) }});
        diffs.check("validate (broken)", case, &request, &expected, &got);
        if let Some(s) = random_seed(&mut rng) {
            request["seed"] = json!(s);
        }
        let reply = post(&app, &path("apply"), request.clone()).await;
        let got = problem_code(&reply);
        let code = reply.body["code"].as_str().unwrap_or_default();
        let expected = if single || !planted.contains(&code) {
            expected_problem(422, planted[0])
        } else {
            expected_problem(422, code)
        };
        diffs.check("apply (broken)", case, &request, &expected, &got);
    }
    eprintln!("cobi broken orders: seed {seed}, {tally:?}");
    diffs.finish();
    for code in [
        "MISSING_ORDER",
        "NO_SUCH_VEHICLE",
        "BAD_DIRECTION",
        "BAD_DISTANCE",
        "GAME_OVER",
    ] {
        assert!(tally.get(code).copied().unwrap_or(0) >= 10, "{tally:?}");
    }
}

#[derive(Clone, Copy, Debug)]
enum Corruption {
    DuplicateId,
    SharedSquare,
    SlotOutOfRange,
    DuplicateSlot,
    ArmorZero,
    VehicleOffBoard,
    TokenOffBoard,
    DuplicateToken,
    FourVehicles,
    BoardTooSmall,
    BoardTooBig,
}

/// Breaks one rule of the state format; false when this game cannot carry
/// that fault.
fn corrupt(rng: &mut Rng, game: &mut Game, how: Corruption) -> bool {
    let n = game.vehicles.len();
    match how {
        Corruption::DuplicateId | Corruption::SharedSquare if n < 2 => return false,
        Corruption::DuplicateId => {
            let (i, j) = (rng.below(n), rng.below(n - 1));
            let j = if j >= i { j + 1 } else { j };
            game.vehicles[j].id = game.vehicles[i].id.clone();
        }
        Corruption::SharedSquare => {
            let (i, j) = (rng.below(n), rng.below(n - 1));
            let j = if j >= i { j + 1 } else { j };
            game.vehicles[j].sq = game.vehicles[i].sq;
        }
        Corruption::SlotOutOfRange | Corruption::ArmorZero | Corruption::VehicleOffBoard
            if n == 0 =>
        {
            return false
        }
        Corruption::SlotOutOfRange => {
            let i = rng.below(n);
            game.vehicles[i].slot = *rng.pick(&[0, 4, 4]);
        }
        Corruption::DuplicateSlot => {
            let Some(p) = (0..2).find(|&p| game.count(p) >= 2) else {
                return false;
            };
            let mine: Vec<usize> = (0..n).filter(|&i| game.vehicles[i].owner == p).collect();
            let slot = game.vehicles[mine[0]].slot;
            game.vehicles[mine[1]].slot = slot;
        }
        Corruption::ArmorZero => {
            let i = rng.below(n);
            game.vehicles[i].armor = 0;
        }
        Corruption::VehicleOffBoard => {
            let i = rng.below(n);
            if game.cols < 26 && rng.chance(50) {
                game.vehicles[i].sq.0 = game.cols + 1;
            } else {
                game.vehicles[i].sq.1 = game.rows + rng.range(1, 3);
            }
        }
        Corruption::TokenOffBoard => {
            let sq = if game.cols < 26 && rng.chance(50) {
                (game.cols + 1, rng.range(1, game.rows))
            } else {
                (rng.range(1, game.cols), game.rows + 1)
            };
            let list = match rng.below(3) {
                0 => &mut game.artillery,
                1 => &mut game.support,
                _ => &mut game.gunfire,
            };
            let at = rng.below(list.len() + 1);
            list.insert(at, sq);
        }
        Corruption::DuplicateToken => {
            let list = match rng.below(3) {
                0 => &mut game.artillery,
                1 => &mut game.support,
                _ => &mut game.gunfire,
            };
            if list.is_empty() {
                list.push((1, 1));
            }
            let sq = list[rng.below(list.len())];
            let at = rng.below(list.len() + 1);
            list.insert(at, sq);
        }
        Corruption::FourVehicles => {
            let p = rng.below(2);
            let mut free: Vec<Sq> = (1..=game.rows)
                .flat_map(|r| (1..=game.cols).map(move |c| (c, r)))
                .filter(|s| !game.vehicles.iter().any(|v| v.sq == *s))
                .collect();
            rng.shuffle(&mut free);
            let mut k = 0;
            while game.count(p) < 4 {
                let Some(sq) = free.pop() else {
                    return false;
                };
                k += 1;
                game.vehicles.push(Vehicle {
                    id: format!("extra-{k}"),
                    owner: p,
                    sq,
                    armor: 2,
                    slot: [1, 2, 3][k % 3],
                });
            }
        }
        Corruption::BoardTooSmall => {
            // Squeeze everything into column a (or row 1), then shrink.
            if rng.chance(50) {
                game.cols = 1;
                game.vehicles.truncate(1);
                for v in &mut game.vehicles {
                    v.sq.0 = 1;
                }
                for list in [&mut game.artillery, &mut game.support, &mut game.gunfire] {
                    list.retain(|s| s.0 == 1);
                }
            } else {
                game.rows = 1;
                game.vehicles.truncate(1);
                for v in &mut game.vehicles {
                    v.sq.1 = 1;
                }
                for list in [&mut game.artillery, &mut game.support, &mut game.gunfire] {
                    list.retain(|s| s.1 == 1);
                }
            }
        }
        Corruption::BoardTooBig => {
            if rng.chance(50) {
                game.cols = 27;
            } else {
                game.rows = 27;
            }
        }
    }
    true
}

const INVALID_CASES: usize = 330;

/// States that break the format rules: 400 `INVALID_POSITION` from every
/// endpoint that reads a state.
#[actix_web::test]
async fn invalid_states_are_refused() {
    let app = app_with(Limits::default()).await;
    let seed = master_seed() ^ 0x1A7A;
    let mut rng = Rng(seed);
    let mut diffs = Diffs {
        seed,
        ..Diffs::default()
    };
    let all = [
        Corruption::DuplicateId,
        Corruption::SharedSquare,
        Corruption::SlotOutOfRange,
        Corruption::DuplicateSlot,
        Corruption::ArmorZero,
        Corruption::VehicleOffBoard,
        Corruption::TokenOffBoard,
        Corruption::DuplicateToken,
        Corruption::FourVehicles,
        Corruption::BoardTooSmall,
        Corruption::BoardTooBig,
    ];
    let mut tally: BTreeMap<String, usize> = BTreeMap::new();
    for case in 0..INVALID_CASES {
        let how = all[case % all.len()];
        let mut game = random_game(&mut rng);
        if !corrupt(&mut rng, &mut game, how) {
            continue;
        }
        *tally.entry(format!("{how:?}")).or_default() += 1;
        let state = game.to_json();
        let orders = valid_orders(&mut rng, &game).to_json();
        let expected = expected_problem(400, "INVALID_POSITION");
        for (endpoint, request) in [
            (
                "apply",
                json!({"state": state, "orders": orders, "seed": 3}),
            ),
            ("validate", json!({"state": state, "orders": orders})),
            ("score", json!({"state": state})),
            ("legal-moves", json!({"state": state})),
        ] {
            let reply = post(&app, &path(endpoint), request.clone()).await;
            let what = format!("{endpoint} ({how:?})");
            diffs.check(&what, case, &request, &expected, &problem_code(&reply));
        }
    }
    eprintln!("cobi invalid states: seed {seed}, {tally:?}");
    diffs.finish();
    assert!(tally.len() == all.len(), "{tally:?}");
}

/// Requests of the wrong shape: 400 `BAD_REQUEST`.
#[actix_web::test]
async fn malformed_requests_are_bad_requests() {
    let app = app_with(Limits::default()).await;
    let state = get(&app, &path("initial")).await.body;
    let orders = json!({
        "P1": {"P1-1": {"dir": "N", "dist": 1}, "P1-2": {"dir": "N", "dist": 1}, "P1-3": {"dir": "N", "dist": 1}},
        "P2": {"P2-1": {"dir": "S", "dist": 1}, "P2-2": {"dir": "S", "dist": 1}, "P2-3": {"dir": "S", "dist": 1}},
    });
    let ok = post(
        &app,
        &path("apply"),
        json!({"state": state, "orders": orders}),
    )
    .await;
    assert_eq!(ok.status, 200, "{ok:?}");
    let mut no_cols = state.clone();
    no_cols.as_object_mut().unwrap().remove("cols");
    let mut armor_text = state.clone();
    armor_text["vehicles"][0]["armor"] = json!("3");
    for (endpoint, body) in [
        ("apply", json!({"state": state})),
        ("apply", json!({"orders": orders})),
        ("apply", json!({"state": 7, "orders": orders})),
        ("apply", json!({"state": state, "orders": "N"})),
        (
            "apply",
            json!({"state": state, "orders": orders, "seed": "1"}),
        ),
        (
            "apply",
            json!({"state": state, "orders": orders, "seed": -1}),
        ),
        ("apply", json!({"state": no_cols, "orders": orders})),
        ("score", json!({"state": armor_text})),
        ("score", json!([])),
        ("legal-moves", json!({"state": state, "player": 1})),
        ("validate", json!({"state": state})),
    ] {
        let reply = post(&app, &path(endpoint), body.clone()).await;
        assert_eq!(
            problem_code(&reply),
            expected_problem(400, "BAD_REQUEST"),
            "{endpoint} {body}: {reply:?}"
        );
    }
}
