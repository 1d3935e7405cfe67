//! Fair use per client: who a request is from (its API key, or its
//! address, read from `X-Forwarded-For` only behind a trusted proxy:
//! [`address`]) and whether its quotas allow it, separately for cheap
//! calls and for searches. The limiters are GCRA: a quota of `q` a minute
//! lets a burst of `q` through, then one every `60/q` seconds. Each
//! replica counts with `governor`; with Redis ([`FairUse::count_in_fleet`])
//! the fleet counts together ([`fleet`]), and a replica falls back to its
//! own count whenever Redis does not answer in time. API keys are held as
//! digests ([`keys`]); wrong keys are limited per client network
//! (`attempts.rs`). Nothing here knows HTTP but the refusals it names.

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::middleware::{StateInformationMiddleware, StateSnapshot};
use governor::state::keyed::DefaultKeyedStateStore;
use governor::state::{InMemoryState, NotKeyed};
use governor::{Quota, RateLimiter};
use ipnet::IpNet;

pub mod address;
mod attempts;
mod client;
pub mod fleet;
pub mod keys;
mod quota;
mod refund;

use address::Proxies;
use attempts::FailedAttempts;
pub use client::{Client, Unidentified, FAILED_KEY_ATTEMPTS};
use fleet::{Decision, Fleet};
use keys::KeyIndex;
pub use keys::{presented_key, ApiKey, KeyEntry, KeysError, KeysFile};
pub use quota::{policy_field, state_field, Class, Policy, Quotas, Verdict};
use refund::Shared;

/// How fair use is configured.
#[derive(Clone, Debug)]
pub struct FairUseConfig {
    /// Quotas of a client without a key (or of a key without its own).
    pub defaults: Quotas,
    /// API keys; `None` for an open service.
    pub keys: Option<KeysFile>,
    /// Proxies whose `X-Forwarded-For` is believed.
    pub trusted_proxies: Vec<IpNet>,
    /// Leading bits of an IPv6 address that name its client (1..=128).
    pub ipv6_prefix_len: u8,
    /// Wrong API keys a minute each client network may present before its
    /// key attempts are refused for a minute (0: unlimited).
    pub failed_key_attempts_per_minute: u32,
}

impl FairUseConfig {
    /// IPv6 clients are counted by their /64 unless told otherwise.
    pub const DEFAULT_IPV6_PREFIX_LEN: u8 = 64;
    /// Wrong API keys a minute a client network may present by default.
    pub const DEFAULT_FAILED_KEY_ATTEMPTS_PER_MINUTE: u32 = 30;
}

impl Default for FairUseConfig {
    /// No quotas, keys or trusted proxies; the default IPv6 prefix and
    /// failed key attempts.
    fn default() -> FairUseConfig {
        FairUseConfig {
            defaults: Quotas::default(),
            keys: None,
            trusted_proxies: Vec::new(),
            ipv6_prefix_len: FairUseConfig::DEFAULT_IPV6_PREFIX_LEN,
            failed_key_attempts_per_minute: FairUseConfig::DEFAULT_FAILED_KEY_ATTEMPTS_PER_MINUTE,
        }
    }
}

/// The states of a limiter with one state per client network.
type KeyedStates = Shared<DefaultKeyedStateStore<IpAddr>>;
/// A limiter with one state per client network.
type Keyed = RateLimiter<IpAddr, KeyedStates, DefaultClock, StateInformationMiddleware>;
/// The state of a key's own limiter.
type OwnState = Shared<InMemoryState>;
type Direct = RateLimiter<NotKeyed, OwnState, DefaultClock, StateInformationMiddleware>;

/// The limiters of one client class, with the states they count in (for
/// refunds) and their quota.
enum Limiter {
    Off,
    /// One state per client network.
    ByAddress(Arc<Keyed>, KeyedStates, u32),
    /// A key's own state.
    Own(Arc<Direct>, OwnState, u32),
}

impl Limiter {
    fn keyed(quota: u32) -> Limiter {
        match NonZeroU32::new(quota) {
            Some(q) => {
                let states = Shared(Arc::default());
                let limiter: Keyed = RateLimiter::new(
                    Quota::per_minute(q),
                    states.clone(),
                    DefaultClock::default(),
                );
                Limiter::ByAddress(Arc::new(limiter), states, quota)
            }
            None => Limiter::Off,
        }
    }

    fn direct(quota: u32) -> Limiter {
        match NonZeroU32::new(quota) {
            Some(q) => {
                let state = Shared(Arc::default());
                let limiter: Direct =
                    RateLimiter::new(Quota::per_minute(q), state.clone(), DefaultClock::default());
                Limiter::Own(Arc::new(limiter), state, quota)
            }
            None => Limiter::Off,
        }
    }
}

/// The API keys: their positions by digest, and their limiters.
struct Keys {
    index: KeyIndex,
    keys: Vec<Key>,
}

/// An API key's limiters.
struct Key {
    name: String,
    /// How the fleet's counter names it: a digest, never the key.
    fleet_id: String,
    cheap: Limiter,
    search: Limiter,
}

/// Fair use of the service by its clients.
pub struct FairUse {
    cheap: Limiter,
    search: Limiter,
    keys: Option<Keys>,
    /// Who is a trusted proxy, and how addresses are counted.
    proxies: Proxies,
    /// Wrong keys per client network.
    attempts: FailedAttempts,
    /// The fleet's counter, when the replicas share Redis.
    fleet: OnceLock<Fleet>,
}

impl FairUse {
    /// Fair use as configured; API keys are kept as their digests only.
    pub fn new(config: FairUseConfig) -> FairUse {
        let defaults = config.defaults;
        let keys = config.keys.map(|file| Keys {
            index: file.index(),
            keys: file
                .keys()
                .iter()
                .map(|k| Key {
                    name: k.name.clone(),
                    fleet_id: format!("k:{}", &hex32(&k.digest)),
                    cheap: Limiter::direct(
                        k.requests_per_minute
                            .unwrap_or(defaults.requests_per_minute),
                    ),
                    search: Limiter::direct(
                        k.searches_per_minute
                            .unwrap_or(defaults.searches_per_minute),
                    ),
                })
                .collect(),
        });
        FairUse {
            cheap: Limiter::keyed(defaults.of(Class::Cheap)),
            search: Limiter::keyed(defaults.of(Class::Search)),
            keys,
            proxies: Proxies::new(config.trusted_proxies, config.ipv6_prefix_len),
            attempts: FailedAttempts::new(config.failed_key_attempts_per_minute),
            fleet: OnceLock::new(),
        }
    }

    /// Counts the quotas for the whole fleet in Redis, through `link`
    /// (each replica still counts on its own, for when Redis does not
    /// answer); checks are counted in `metrics`.
    pub fn count_in_fleet(&self, link: crate::redis::Link, metrics: crate::metrics::Metrics) {
        let _ = self.fleet.set(Fleet::new(link, Some(metrics)));
    }

    /// Whether any quota applies at all (else requests need not be looked
    /// at).
    pub fn is_active(&self) -> bool {
        let any = |l: &Limiter| !matches!(l, Limiter::Off);
        self.keys.is_some() || any(&self.cheap) || any(&self.search)
    }

    /// A name for logs: the key's name, or the address.
    pub fn name(&self, client: &Client) -> String {
        match client {
            Client::Address(address) => address.to_string(),
            Client::Key(i) => self.key(*i).map_or_else(String::new, |k| k.name.clone()),
        }
    }

    /// How the fleet's counter names `client`.
    fn fleet_id(&self, client: &Client) -> Option<String> {
        match client {
            Client::Address(address) => Some(self.proxies.fleet_id(*address)),
            Client::Key(i) => self.key(*i).map(|key| key.fleet_id.clone()),
        }
    }

    /// The key at position `i`.
    fn key(&self, i: usize) -> Option<&Key> {
        self.keys.as_ref().and_then(|keys| keys.keys.get(i))
    }

    /// Spends `n` of `client`'s `class` quota, or says when it can: in
    /// the fleet's count when there is one and it answers in time, else
    /// in this replica's. (This replica counts either way, so that a
    /// fallback starts from what it saw.)
    pub async fn check(&self, client: &Client, class: Class, n: u32) -> Verdict {
        let local = self.check_here(client, class, n);
        let (Some(fleet), Some(policy)) = (self.fleet.get(), local.policy()) else {
            return local;
        };
        let Some(id) = self.fleet_id(client) else {
            return local;
        };
        if n > policy.quota {
            // More at once than the quota ever allows.
            return local;
        }
        match fleet.check(&id, class, policy.quota, n).await {
            Ok(Decision::Allowed { remaining, reset }) => Verdict::Allowed {
                policy,
                remaining,
                reset,
            },
            Ok(Decision::Limited { retry_after }) => Verdict::Limited {
                policy,
                price: n,
                retry_after,
            },
            Err(_) => local,
        }
    }

    /// Gives back `n` of `client`'s `class` quota, spent on work that
    /// never ran (a request answered 503): in this replica's count and in
    /// the fleet's. A Redis that does not answer keeps what it counted.
    pub async fn refund(&self, client: &Client, class: Class, n: u32) {
        let quota = match (self.limiter(client, class), client) {
            (Some(Limiter::ByAddress(_, states, q)), Client::Address(a)) => {
                let back = refund::interval(*q) * u64::from(n);
                refund::refund(states, &self.proxies.network(*a), back);
                *q
            }
            (Some(Limiter::Own(_, state, q)), _) => {
                let back = refund::interval(*q) * u64::from(n);
                refund::refund(state, &governor::state::NotKeyed::NonKey, back);
                *q
            }
            _ => return,
        };
        if let (Some(fleet), Some(id)) = (self.fleet.get(), self.fleet_id(client)) {
            let _ = fleet.refund(&id, class, quota, n).await;
        }
    }

    /// The limiter that counts `client`'s `class` quota.
    fn limiter(&self, client: &Client, class: Class) -> Option<&Limiter> {
        match client {
            Client::Key(i) => self.key(*i).map(|key| match class {
                Class::Cheap => &key.cheap,
                Class::Search => &key.search,
            }),
            Client::Address(_) => Some(match class {
                Class::Cheap => &self.cheap,
                Class::Search => &self.search,
            }),
        }
    }

    /// Spends `n` of `client`'s `class` quota in this replica's count.
    fn check_here(&self, client: &Client, class: Class, n: u32) -> Verdict {
        let Some(n) = NonZeroU32::new(n) else {
            return Verdict::Unlimited;
        };
        let Some(limiter) = self.limiter(client, class) else {
            return Verdict::Unlimited;
        };
        let (outcome, quota) = match (limiter, client) {
            (Limiter::Off, _) => return Verdict::Unlimited,
            (Limiter::ByAddress(l, _, q), Client::Address(a)) => {
                (l.check_key_n(&self.proxies.network(*a), n), *q)
            }
            (Limiter::Own(l, _, q), _) => (l.check_n(n), *q),
            (Limiter::ByAddress(..), Client::Key(_)) => return Verdict::Unlimited,
        };
        let policy = Policy {
            class,
            quota,
            window: Duration::from_secs(60),
        };
        let per_request = Duration::from_secs(60) / quota.max(1);
        match outcome {
            Ok(Ok(snapshot)) => allowed(policy, &snapshot, per_request),
            Ok(Err(not_until)) => Verdict::Limited {
                policy,
                price: n.get(),
                retry_after: not_until.wait_time_from(DefaultClock::default().now()),
            },
            // More at once than the quota ever allows.
            Err(_) => Verdict::Unaffordable {
                policy,
                price: n.get(),
            },
        }
    }

    /// Forgets the clients whose quotas (and allowance of wrong keys)
    /// are whole again, and the networks no longer shut out, so that the
    /// address tables hold only recent clients.
    pub fn forget_idle_clients(&self) {
        for limiter in [&self.cheap, &self.search] {
            if let Limiter::ByAddress(l, ..) = limiter {
                l.retain_recent();
                l.shrink_to_fit();
            }
        }
        self.attempts.forget_idle();
    }
}

impl FairUse {
    /// Who a request is from: its key when keys are configured, else its
    /// address ([`FairUse::address`]). `forwarded_for` are the
    /// `X-Forwarded-For` header lines in the order they came; `key` the
    /// key presented ([`super::presented_key`]). A wrong key counts against the
    /// client's network; once the network is over its allowance, its key
    /// attempts are refused without being looked at.
    pub fn identify<'a>(
        &self,
        peer: Option<IpAddr>,
        forwarded_for: impl DoubleEndedIterator<Item = &'a [u8]>,
        key: Option<&str>,
    ) -> Result<Client, Unidentified> {
        let Some(keys) = &self.keys else {
            return Ok(Client::Address(self.address(peer, forwarded_for)));
        };
        let key = key.ok_or(Unidentified::MissingKey)?;
        if !self.attempts.any_shut_out() {
            // The common path: no address to resolve for a right key.
            return match keys.index.find(key) {
                Some(i) => Ok(Client::Key(i)),
                None => Err(self.failed(self.address(peer, forwarded_for))),
            };
        }
        let address = self.address(peer, forwarded_for);
        if let Some(retry_after) = self.attempts.shut_out_for(self.proxies.network(address)) {
            return Err(Unidentified::TooManyFailedAttempts {
                quota: self.attempts.quota(),
                retry_after,
            });
        }
        keys.index
            .find(key)
            .map(Client::Key)
            .ok_or_else(|| self.failed(address))
    }

    /// Counts a wrong key from `address`: unknown, or over the allowance.
    fn failed(&self, address: IpAddr) -> Unidentified {
        match self.attempts.fail(self.proxies.network(address)) {
            None => Unidentified::UnknownKey,
            Some(retry_after) => {
                tracing::warn!(
                    client = %address,
                    network = %self.proxies.network(address),
                    quota = self.attempts.quota(),
                    "too many wrong API keys: key attempts refused for {} s",
                    retry_after.as_secs()
                );
                Unidentified::TooManyFailedAttempts {
                    quota: self.attempts.quota(),
                    retry_after,
                }
            }
        }
    }

    /// A request's client address (IPv4-mapped addresses as IPv4): the
    /// peer's, or, when the peer is a trusted proxy, the rightmost hop of
    /// the `X-Forwarded-For` lines (in the order they came) that is not a
    /// trusted proxy, the walk ending at a hop that does not parse
    /// ([`super::address::Proxies::client`]).
    pub fn address<'a>(
        &self,
        peer: Option<IpAddr>,
        forwarded_for: impl DoubleEndedIterator<Item = &'a [u8]>,
    ) -> IpAddr {
        self.proxies.client(peer, forwarded_for)
    }

    /// Whether a request's peer is one of the trusted proxies.
    pub fn is_trusted_peer(&self, peer: Option<IpAddr>) -> bool {
        self.proxies.any_trusted() && peer.is_some_and(|peer| self.proxies.is_trusted(peer))
    }
}

/// The first 128 bits of a digest in hex.
fn hex32(digest: &keys::Digest) -> String {
    use std::fmt::Write;
    digest
        .iter()
        .take(16)
        .fold(String::with_capacity(32), |mut hex, byte| {
            let _ = write!(hex, "{byte:02x}");
            hex
        })
}

fn allowed(policy: Policy, snapshot: &StateSnapshot, per_request: Duration) -> Verdict {
    let remaining = snapshot.remaining_burst_capacity();
    let used = policy.quota.saturating_sub(remaining);
    Verdict::Allowed {
        policy,
        remaining,
        reset: per_request * used,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    /// No `X-Forwarded-For` lines.
    fn none<'a>() -> std::iter::Empty<&'a [u8]> {
        std::iter::empty()
    }

    fn allowed(fair_use: &FairUse, client: &Client) -> bool {
        matches!(
            fair_use.check_here(client, Class::Cheap, 1),
            Verdict::Allowed { .. }
        )
    }

    #[test]
    fn quotas_are_per_client_and_per_class() {
        let limited = FairUse::new(FairUseConfig {
            defaults: Quotas {
                requests_per_minute: 3,
                searches_per_minute: 1,
            },
            ..FairUseConfig::default()
        });
        let a = Client::Address(ip("1.1.1.1"));
        let b = Client::Address(ip("2.2.2.2"));
        for _ in 0..3 {
            assert!(allowed(&limited, &a));
        }
        match limited.check_here(&a, Class::Cheap, 1) {
            Verdict::Limited {
                retry_after,
                policy,
                ..
            } => {
                assert!(retry_after <= Duration::from_secs(20), "{retry_after:?}");
                assert_eq!(policy.quota, 3);
            }
            other => panic!("{other:?}"),
        }
        // Another client, and another class, are untouched.
        assert!(allowed(&limited, &b));
        assert!(matches!(
            limited.check_here(&a, Class::Search, 1),
            Verdict::Allowed { .. }
        ));
        assert!(matches!(
            limited.check_here(&a, Class::Search, 1),
            Verdict::Limited { .. }
        ));
    }

    #[test]
    fn ipv6_clients_share_the_quota_of_their_prefix() {
        let limited = FairUse::new(FairUseConfig {
            defaults: Quotas {
                requests_per_minute: 5,
                searches_per_minute: 0,
            },
            ..FairUseConfig::default()
        });
        // Seven addresses of one /64 on a quota of five.
        let verdicts: Vec<bool> = (1..=7)
            .map(|i| {
                let client = limited
                    .identify(Some(ip(&format!("2001:db8:1:2::{i:x}"))), none(), None)
                    .unwrap();
                allowed(&limited, &client)
            })
            .collect();
        assert_eq!(verdicts, [true, true, true, true, true, false, false]);
        // Another /64 is another client.
        let other = Client::Address(ip("2001:db8:1:3::1"));
        assert!(allowed(&limited, &other));
        // A longer prefix counts finer.
        let by_128 = FairUse::new(FairUseConfig {
            defaults: Quotas {
                requests_per_minute: 1,
                searches_per_minute: 0,
            },
            ipv6_prefix_len: 128,
            ..FairUseConfig::default()
        });
        assert!(allowed(&by_128, &Client::Address(ip("2001:db8::1"))));
        assert!(allowed(&by_128, &Client::Address(ip("2001:db8::2"))));
        assert!(!allowed(&by_128, &Client::Address(ip("2001:db8::1"))));
    }
}
