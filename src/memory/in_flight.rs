//! The bytes requests hold in flight, all connections together: bodies
//! being read, answers being written and answers waiting to be sent. One
//! share of the memory budget ([`super::Spending::in_flight`]) holds them
//! all; a body or an answer takes its bytes from it as it grows ([`Held`]),
//! and gives them back when it is dropped (a body once parsed, an answer
//! once its last byte has gone to the connection). What cannot be held is
//! refused at once (503 `SERVICE_BUSY`, [`NoRoom`]): memory never grows past
//! the share, and nothing waits on it.
//!
//! Counted in KiB: a few atomic operations a body or answer, not one a
//! byte.

use std::sync::Arc;

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// The unit bytes are held in.
const UNIT: usize = 1 << 10;

/// The share of memory bytes in flight are held from.
#[derive(Clone, Debug)]
pub struct InFlight {
    units: Arc<Semaphore>,
    total: usize,
}

/// Bytes held from [`InFlight`], given back when dropped.
#[derive(Debug)]
pub struct Held {
    units: Arc<Semaphore>,
    permit: Option<OwnedSemaphorePermit>,
}

/// No room left in flight for what was asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("no room in flight for {bytes} more bytes")]
pub struct NoRoom {
    pub bytes: usize,
}

/// The units that hold `bytes`.
fn units(bytes: usize) -> usize {
    bytes.div_ceil(UNIT)
}

impl InFlight {
    /// What a server whose budget was not measured at start holds in
    /// flight (an application built alone, in tests): about a third of
    /// what the default budget leaves for requests.
    pub const DEFAULT_BYTES: u64 = 32 << 20;

    /// A share of `bytes` (at most what a semaphore counts).
    pub fn new(bytes: u64) -> InFlight {
        let total = usize::try_from(bytes / UNIT as u64)
            .unwrap_or(usize::MAX)
            .min(Semaphore::MAX_PERMITS);
        InFlight {
            units: Arc::new(Semaphore::new(total)),
            total,
        }
    }

    /// The share's size, in bytes.
    pub fn bytes(&self) -> u64 {
        self.total as u64 * UNIT as u64
    }

    /// What is held now, in bytes.
    pub fn held(&self) -> u64 {
        (self.total - self.units.available_permits()) as u64 * UNIT as u64
    }

    /// Nothing held yet, to grow.
    pub fn none(&self) -> Held {
        Held {
            units: self.units.clone(),
            permit: None,
        }
    }

    /// `bytes` held, or [`NoRoom`].
    pub fn hold(&self, bytes: usize) -> Result<Held, NoRoom> {
        let mut held = self.none();
        held.grow_to(bytes)?;
        Ok(held)
    }
}

impl Held {
    /// What it holds, in bytes (whole KiB).
    pub fn bytes(&self) -> usize {
        self.permit.as_ref().map_or(0, |p| p.num_permits() * UNIT)
    }

    /// Holds at least `bytes` in all, or [`NoRoom`] (holding what it held).
    pub fn grow_to(&mut self, bytes: usize) -> Result<(), NoRoom> {
        let have = self
            .permit
            .as_ref()
            .map_or(0, OwnedSemaphorePermit::num_permits);
        let more = units(bytes).saturating_sub(have);
        if more == 0 {
            return Ok(());
        }
        let more_permits = u32::try_from(more).map_err(|_| NoRoom { bytes })?;
        let taken = self
            .units
            .clone()
            .try_acquire_many_owned(more_permits)
            .map_err(|_| NoRoom { bytes: more * UNIT })?;
        match &mut self.permit {
            Some(permit) => permit.merge(taken),
            None => self.permit = Some(taken),
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_is_held_is_given_back_when_dropped_and_never_passes_the_share() {
        let share = InFlight::new(10 << 10);
        assert_eq!(share.bytes(), 10 << 10);
        let mut body = share.hold(1).unwrap();
        assert_eq!(body.bytes(), 1 << 10);
        body.grow_to(3000).unwrap();
        assert_eq!(body.bytes(), 3 << 10);
        // Growing to less holds as much as before.
        body.grow_to(10).unwrap();
        assert_eq!(share.held(), 3 << 10);
        let answer = share.hold(7 << 10).unwrap();
        assert_eq!(share.held(), 10 << 10);
        assert_eq!(share.hold(1).unwrap_err(), NoRoom { bytes: 1 << 10 });
        // A refused growth keeps what was held.
        assert!(body.grow_to(5 << 10).is_err());
        assert_eq!(body.bytes(), 3 << 10);
        drop(answer);
        assert_eq!(share.held(), 3 << 10);
        drop(body);
        assert_eq!(share.held(), 0);
        let mut none = share.none();
        assert_eq!(none.bytes(), 0);
        none.grow_to(10 << 10).unwrap();
        assert_eq!(share.held(), 10 << 10);
    }
}
