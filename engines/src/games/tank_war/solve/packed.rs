//! A position packed into 128 bits, and the rules played on it: what the
//! exact solver walks instead of [`Position`] (no allocation per round).
//!
//! The bits hold what decides the rest of a game: the owner of each square
//! some track passes through (1 for D), then for each tank its alive bit and
//! its index along its track (0 for a destroyed tank, whose place no longer
//! matters). The round number and the clocks are left out: a solve charges
//! no time, so they change nothing that follows. The default setup takes
//! 84 bits (36 squares, 12 tanks of 1 + 3 bits); a setup that needs more
//! than 128 is not solved exactly.

use crate::games::tank_war::state::{Player, Position, Setup};

/// A packed position.
pub type Key = u128;

/// What never changes about a tank, in the solver's terms.
#[derive(Clone, Debug)]
struct Tank {
    owner: Player,
    /// The squares of its track, as square ids.
    track: Vec<u8>,
    /// For each index along the track, the squares its gun covers there
    /// (one bit per square id; squares off every track hold no tank).
    fire: Vec<u128>,
    /// Where its alive bit is; its track index takes the next `bits` bits.
    shift: u32,
    bits: u32,
}

/// A setup compiled for the solver.
#[derive(Clone, Debug)]
pub struct Packed {
    tanks: Vec<Tank>,
    /// The board index of each square id (the squares on some track).
    squares: Vec<usize>,
    /// Squares on no track, whose owner never changes: U's count, D's.
    fixed: [usize; 2],
    /// Bits of the territory: one per square id.
    territory_mask: u128,
}

/// How a finished game ended, for U: 1 a win, 0 a draw, −1 a loss.
pub type Result = f64;

impl Packed {
    /// Compiles `setup` as `pos` has it (its territory decides the fixed
    /// squares); `None` when a position would need more than 128 bits.
    pub fn new(setup: &Setup, pos: &Position) -> Option<Packed> {
        let board = setup.board;
        let mut id_of = vec![None; board.len()];
        let mut squares = Vec::new();
        for tank in &setup.tanks {
            for &cell in &tank.track {
                let slot = id_of.get_mut(board.index(cell))?;
                if slot.is_none() {
                    *slot = Some(u8::try_from(squares.len()).ok()?);
                    squares.push(board.index(cell));
                }
            }
        }
        // A position holds a bit a square: past 128 squares (a fire mask's
        // bit and the territory's) it cannot be packed.
        if squares.len() > 128 {
            return None;
        }
        let mut shift = u32::try_from(squares.len()).ok()?;
        let mut tanks = Vec::with_capacity(setup.tanks.len());
        for tank in &setup.tanks {
            let track: Vec<u8> = tank
                .track
                .iter()
                .map(|&c| id_of.get(board.index(c)).copied().flatten())
                .collect::<Option<_>>()?;
            let fire = tank
                .track
                .iter()
                .map(|&cell| {
                    tank.kind
                        .pattern()
                        .iter()
                        .filter_map(|&(dc, dr)| cell.offset(board, dc, dr))
                        .filter_map(|c| id_of.get(board.index(c)).copied().flatten())
                        .fold(0u128, |mask, id| mask | 1 << id)
                })
                .collect();
            let bits = usize::BITS - (track.len().max(1) - 1).leading_zeros();
            tanks.push(Tank {
                owner: tank.owner,
                track,
                fire,
                shift,
                bits,
            });
            shift = shift.checked_add(1 + bits)?;
        }
        if shift > 128 {
            return None;
        }
        let mut fixed = [0, 0];
        for (index, owner) in pos.territory.iter().enumerate() {
            if id_of.get(index).copied().flatten().is_none() {
                fixed[owner.index()] += 1;
            }
        }
        let territory_mask = (1u128 << squares.len()) - 1;
        Some(Packed {
            tanks,
            squares,
            fixed,
            territory_mask,
        })
    }

    /// The bits a position takes.
    pub fn bits(&self) -> u32 {
        self.tanks
            .last()
            .map_or(self.squares.len() as u32, |t| t.shift + 1 + t.bits)
    }

    /// Packs `pos` (of the setup this was compiled from).
    pub fn pack(&self, pos: &Position) -> Option<Key> {
        self.pack_tanks(pos, (0..self.tanks.len()).map(|id| (id, id)))
    }

    /// Packs `pos`, of a setup whose tank `i` is this one's tank `ids[i]`
    /// (the same board, its tanks a subset of these in any order).
    pub fn pack_as(&self, pos: &Position, ids: &[u8]) -> Option<Key> {
        self.pack_tanks(pos, ids.iter().map(|&id| usize::from(id)).enumerate())
    }

    /// Packs the territory of `pos` and its tanks given as (index in
    /// `pos`, id here).
    fn pack_tanks(
        &self,
        pos: &Position,
        tanks: impl Iterator<Item = (usize, usize)>,
    ) -> Option<Key> {
        let mut key = 0u128;
        for (id, &board_index) in self.squares.iter().enumerate() {
            if *pos.territory.get(board_index)? == Player::D {
                key |= 1 << id;
            }
        }
        for (index, id) in tanks {
            let tank = self.tanks.get(id)?;
            if *pos.alive.get(index)? {
                let at = *pos.at.get(index)?;
                if at >= tank.track.len() {
                    return None;
                }
                key |= (1 | (at as u128) << 1) << tank.shift;
            }
        }
        Some(key)
    }

    /// `pos` with `key`'s tanks and territory (its round and clocks kept;
    /// a destroyed tank at index 0).
    pub fn unpack(&self, key: Key, pos: &Position) -> Position {
        let mut out = pos.clone();
        for (id, &board_index) in self.squares.iter().enumerate() {
            if let Some(owner) = out.territory.get_mut(board_index) {
                *owner = if key >> id & 1 == 1 {
                    Player::D
                } else {
                    Player::U
                };
            }
        }
        for (id, tank) in self.tanks.iter().enumerate() {
            if let (Some(alive), Some(at)) = (out.alive.get_mut(id), out.at.get_mut(id)) {
                *alive = Self::alive(tank, key);
                *at = Self::at(tank, key);
            }
        }
        out
    }

    fn alive(tank: &Tank, key: Key) -> bool {
        key >> tank.shift & 1 == 1
    }

    fn at(tank: &Tank, key: Key) -> usize {
        (key >> (tank.shift + 1) & ((1u128 << tank.bits) - 1)) as usize
    }

    /// The square id of a living tank.
    fn square(tank: &Tank, key: Key) -> u8 {
        tank.track.get(Self::at(tank, key)).copied().unwrap_or(0)
    }

    /// Squares holding a living tank.
    fn occupied(&self, key: Key) -> u128 {
        self.tanks
            .iter()
            .filter(|t| Self::alive(t, key))
            .fold(0, |mask, t| mask | 1 << Self::square(t, key))
    }

    /// Each player's pickable tanks (setup order) into `picks`, and the
    /// result for U when the game is over (a player has none).
    pub fn picks(&self, key: Key, picks: &mut [Vec<u8>; 2]) -> Option<Result> {
        let occupied = self.occupied(key);
        for list in picks.iter_mut() {
            list.clear();
        }
        for (id, tank) in self.tanks.iter().enumerate() {
            if !Self::alive(tank, key) {
                continue;
            }
            let free = tank
                .track
                .get(Self::at(tank, key) + 1)
                .is_some_and(|&next| occupied >> next & 1 == 0);
            if let (true, Some(list)) = (free, picks.get_mut(tank.owner.index())) {
                list.push(id as u8);
            }
        }
        if picks.iter().all(|list| !list.is_empty()) {
            return None;
        }
        let mut tanks = [0usize; 2];
        for tank in self.tanks.iter().filter(|t| Self::alive(t, key)) {
            tanks[tank.owner.index()] += 1;
        }
        let d_squares = (key & self.territory_mask).count_ones() as usize;
        let squares = [
            self.fixed[0] + self.squares.len() - d_squares,
            self.fixed[1] + d_squares,
        ];
        let order = tanks[0].cmp(&tanks[1]).then(squares[0].cmp(&squares[1]));
        Some(order as i8 as f64)
    }

    /// The position after a round in which U picks tank `u` and D tank `d`
    /// (both pickable in `key`): the moving phase, then the firing phase.
    pub fn child(&self, key: Key, u: u8, d: u8) -> Key {
        let (Some(tu), Some(td)) = (
            self.tanks.get(usize::from(u)),
            self.tanks.get(usize::from(d)),
        ) else {
            return key;
        };
        let next = |t: &Tank| t.track.get(Self::at(t, key) + 1).copied().unwrap_or(0);
        let targets = [next(tu), next(td)];
        let contested = targets[0] == targets[1];
        let mut out = key;
        for (player, tank, target) in [(Player::U, tu, targets[0]), (Player::D, td, targets[1])] {
            let d_owns = key >> target & 1 == 1;
            if contested && d_owns != (player == Player::D) {
                continue;
            }
            out += 1 << (tank.shift + 1);
            match player {
                Player::U => out &= !(1 << target),
                Player::D => out |= 1 << target,
            }
        }
        // Everyone fires at once; then the hit tanks are removed.
        let mut fire = [0u128; 2];
        for tank in self.tanks.iter().filter(|t| Self::alive(t, out)) {
            let at = Self::at(tank, out);
            fire[tank.owner.index()] |= tank.fire.get(at).copied().unwrap_or(0);
        }
        let mut after = out;
        for tank in self.tanks.iter().filter(|t| Self::alive(t, out)) {
            let enemy = fire[tank.owner.other().index()];
            if enemy >> Self::square(tank, out) & 1 == 1 {
                after &= !(((1u128 << (tank.bits + 1)) - 1) << tank.shift);
            }
        }
        after
    }
}
