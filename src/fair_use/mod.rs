//! Fair use per client: who a request is from (its API key, or its address,
//! read from `X-Forwarded-For` only behind a trusted proxy) and whether
//! its quotas allow it, separately for cheap calls and for searches. The
//! limiters are GCRA: a quota of `q` a minute lets a burst of `q` through,
//! then one every `60/q` seconds. Each replica counts with `governor`;
//! with Redis ([`FairUse::count_in_fleet`]) the fleet counts together
//! ([`fleet`]), and a replica falls back to its own count whenever Redis
//! does not answer in time. Nothing here knows HTTP.

use std::collections::HashMap;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::path::Path;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::middleware::{StateInformationMiddleware, StateSnapshot};
use governor::state::keyed::DefaultKeyedStateStore;
use governor::state::{InMemoryState, NotKeyed};
use governor::{Quota, RateLimiter};
use ipnet::IpNet;
use serde::Deserialize;

pub mod fleet;

use fleet::{Decision, Fleet};

/// What a request spends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// Everything but searches.
    Cheap,
    /// AI searches and perft (a batch spends one per search it holds).
    Search,
}

impl Class {
    /// The policy's name in the `RateLimit` headers.
    pub const fn name(self) -> &'static str {
        match self {
            Class::Cheap => "requests",
            Class::Search => "searches",
        }
    }
}

/// Quotas a minute (0: unlimited).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
pub struct Quotas {
    #[serde(default)]
    pub requests_per_minute: u32,
    #[serde(default)]
    pub searches_per_minute: u32,
}

impl Quotas {
    fn of(self, class: Class) -> u32 {
        match class {
            Class::Cheap => self.requests_per_minute,
            Class::Search => self.searches_per_minute,
        }
    }
}

/// One entry of the API keys file.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeyEntry {
    /// The secret clients send (`X-Api-Key` or `Authorization: Bearer`).
    pub key: String,
    /// Who it belongs to (logs and metrics never show the key itself).
    pub name: String,
    /// Its quotas; the server's defaults where absent.
    #[serde(default)]
    pub requests_per_minute: Option<u32>,
    #[serde(default)]
    pub searches_per_minute: Option<u32>,
}

/// The API keys file: `{"keys": [{"key", "name", "requests_per_minute"?,
/// "searches_per_minute"?}, …]}`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeysFile {
    pub keys: Vec<KeyEntry>,
}

impl KeysFile {
    pub fn load(path: &Path) -> Result<KeysFile, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("API keys file {}: {e}", path.display()))?;
        let file: KeysFile = serde_json::from_str(&text)
            .map_err(|e| format!("API keys file {}: {e}", path.display()))?;
        if file.keys.iter().any(|k| k.key.is_empty()) {
            return Err(format!("API keys file {}: an empty key", path.display()));
        }
        Ok(file)
    }
}

/// How fair use is configured.
#[derive(Clone, Debug, Default)]
pub struct FairUseConfig {
    /// Quotas of a client without a key (or of a key without its own).
    pub defaults: Quotas,
    /// API keys; `None` for an open service.
    pub keys: Option<KeysFile>,
    /// Proxies whose `X-Forwarded-For` is believed.
    pub trusted_proxies: Vec<IpNet>,
}

type Keyed =
    RateLimiter<String, DefaultKeyedStateStore<String>, DefaultClock, StateInformationMiddleware>;
type Direct = RateLimiter<NotKeyed, InMemoryState, DefaultClock, StateInformationMiddleware>;

/// The limiters of one client class.
enum Limiter {
    Off,
    /// One state per client address.
    ByAddress(Arc<Keyed>, u32),
    /// A key's own state.
    Own(Arc<Direct>, u32),
}

impl Limiter {
    fn keyed(quota: u32) -> Limiter {
        match NonZeroU32::new(quota) {
            Some(q) => Limiter::ByAddress(
                Arc::new(RateLimiter::keyed(Quota::per_minute(q)).with_middleware()),
                quota,
            ),
            None => Limiter::Off,
        }
    }

    fn direct(quota: u32) -> Limiter {
        match NonZeroU32::new(quota) {
            Some(q) => Limiter::Own(
                Arc::new(RateLimiter::direct(Quota::per_minute(q)).with_middleware()),
                quota,
            ),
            None => Limiter::Off,
        }
    }
}

/// An API key's limiters.
struct Key {
    name: String,
    /// How the fleet's counter names it: a digest, never the key.
    fleet_id: String,
    cheap: Limiter,
    search: Limiter,
}

/// Who a request is from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Client {
    /// A client address (no keys configured).
    Address(IpAddr),
    /// An API key, by its index in the keys file.
    Key(usize),
}

/// Why a request has no client.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unidentified {
    MissingKey,
    UnknownKey,
}

/// A quota decision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// No quota applies.
    Unlimited,
    /// Within the quota: what is left of it, and when it is whole again.
    Allowed {
        policy: Policy,
        remaining: u32,
        reset: Duration,
    },
    /// Over the quota: when to try again.
    Limited {
        policy: Policy,
        retry_after: Duration,
    },
}

/// A quota as the `RateLimit-Policy` header names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Policy {
    pub class: Class,
    /// Requests a window.
    pub quota: u32,
    pub window: Duration,
}

/// Fair use of the service by its clients.
pub struct FairUse {
    cheap: Limiter,
    search: Limiter,
    keys: Option<(HashMap<String, usize>, Vec<Key>)>,
    trusted: Vec<IpNet>,
    /// The fleet's counter, when the replicas share Redis.
    fleet: OnceLock<Fleet>,
}

impl FairUse {
    pub fn new(config: FairUseConfig) -> FairUse {
        let keys = config.keys.map(|file| {
            let index = file
                .keys
                .iter()
                .enumerate()
                .map(|(i, k)| (k.key.clone(), i))
                .collect();
            let keys = file
                .keys
                .iter()
                .map(|k| Key {
                    name: k.name.clone(),
                    fleet_id: format!("k:{}", &blake3::hash(k.key.as_bytes()).to_hex()[..32]),
                    cheap: Limiter::direct(
                        k.requests_per_minute
                            .unwrap_or(config.defaults.requests_per_minute),
                    ),
                    search: Limiter::direct(
                        k.searches_per_minute
                            .unwrap_or(config.defaults.searches_per_minute),
                    ),
                })
                .collect();
            (index, keys)
        });
        FairUse {
            cheap: Limiter::keyed(config.defaults.of(Class::Cheap)),
            search: Limiter::keyed(config.defaults.of(Class::Search)),
            keys,
            trusted: config.trusted_proxies,
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

    /// Who a request is from: its key when keys are configured, else its
    /// address: the peer's, or the client's in `X-Forwarded-For` when the
    /// peer is a trusted proxy (the rightmost address that is not a trusted
    /// proxy).
    pub fn identify(
        &self,
        peer: Option<IpAddr>,
        forwarded_for: Option<&str>,
        key: Option<&str>,
    ) -> Result<Client, Unidentified> {
        if let Some((index, _)) = &self.keys {
            let key = key.ok_or(Unidentified::MissingKey)?;
            return index
                .get(key)
                .map(|&i| Client::Key(i))
                .ok_or(Unidentified::UnknownKey);
        }
        Ok(Client::Address(self.address(peer, forwarded_for)))
    }

    /// A request's client address: the peer's, or the client's in
    /// `X-Forwarded-For` when the peer is a trusted proxy (the rightmost
    /// address that is not a trusted proxy).
    pub fn address(&self, peer: Option<IpAddr>, forwarded_for: Option<&str>) -> IpAddr {
        let peer = peer.unwrap_or(IpAddr::from([0, 0, 0, 0]));
        if !self.is_trusted(peer) {
            return peer;
        }
        forwarded_for
            .into_iter()
            .flat_map(|list| list.rsplit(','))
            .filter_map(|hop| hop.trim().parse::<IpAddr>().ok())
            .find(|hop| !self.is_trusted(*hop))
            .unwrap_or(peer)
    }

    /// Whether a request's peer is one of the trusted proxies.
    pub fn is_trusted_peer(&self, peer: Option<IpAddr>) -> bool {
        !self.trusted.is_empty() && peer.is_some_and(|peer| self.is_trusted(peer))
    }

    fn is_trusted(&self, address: IpAddr) -> bool {
        self.trusted.iter().any(|net| net.contains(&address))
    }

    /// A name for logs: the key's name, or the address.
    pub fn name(&self, client: &Client) -> String {
        match client {
            Client::Address(address) => address.to_string(),
            Client::Key(i) => self
                .keys
                .as_ref()
                .and_then(|(_, keys)| keys.get(*i))
                .map_or_else(String::new, |k| k.name.clone()),
        }
    }

    /// How the fleet's counter names `client`.
    fn fleet_id(&self, client: &Client) -> Option<String> {
        match client {
            Client::Address(address) => Some(format!("a:{address}")),
            Client::Key(i) => self
                .keys
                .as_ref()
                .and_then(|(_, keys)| keys.get(*i))
                .map(|key| key.fleet_id.clone()),
        }
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
                retry_after,
            },
            Err(_) => local,
        }
    }

    /// Spends `n` of `client`'s `class` quota in this replica's count.
    fn check_here(&self, client: &Client, class: Class, n: u32) -> Verdict {
        let Some(n) = NonZeroU32::new(n) else {
            return Verdict::Unlimited;
        };
        let limiter = match client {
            Client::Key(i) => match self.keys.as_ref().and_then(|(_, keys)| keys.get(*i)) {
                Some(key) => match class {
                    Class::Cheap => &key.cheap,
                    Class::Search => &key.search,
                },
                None => return Verdict::Unlimited,
            },
            Client::Address(_) => match class {
                Class::Cheap => &self.cheap,
                Class::Search => &self.search,
            },
        };
        let (outcome, quota) = match (limiter, client) {
            (Limiter::Off, _) => return Verdict::Unlimited,
            (Limiter::ByAddress(l, q), Client::Address(a)) => {
                (l.check_key_n(&a.to_string(), n), *q)
            }
            (Limiter::Own(l, q), _) => (l.check_n(n), *q),
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
                retry_after: not_until.wait_time_from(DefaultClock::default().now()),
            },
            // More at once than the quota ever allows.
            Err(_) => Verdict::Limited {
                policy,
                retry_after: Duration::from_secs(60),
            },
        }
    }

    /// Forgets the clients whose quotas are whole again, so that the
    /// address table holds only recent clients.
    pub fn forget_idle_clients(&self) {
        for limiter in [&self.cheap, &self.search] {
            if let Limiter::ByAddress(l, _) = limiter {
                l.retain_recent();
                l.shrink_to_fit();
            }
        }
    }
}

impl Verdict {
    /// The 429 of a request over its quota: which quota, and when to retry.
    pub fn refusal(&self) -> Option<crate::error::RequestError> {
        match self {
            Verdict::Limited {
                policy,
                retry_after,
            } => Some(crate::error::RequestError::TooManyRequests {
                class: policy.class.name(),
                quota: policy.quota,
                retry_after_secs: retry_after.as_secs_f64().ceil() as u64,
            }),
            _ => None,
        }
    }

    /// The quota that decided, if one did.
    pub fn policy(&self) -> Option<Policy> {
        match self {
            Verdict::Unlimited => None,
            Verdict::Allowed { policy, .. } | Verdict::Limited { policy, .. } => Some(*policy),
        }
    }
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

    #[test]
    fn clients_are_their_address_or_their_key() {
        let open = FairUse::new(FairUseConfig {
            trusted_proxies: vec!["10.0.0.0/8".parse().unwrap()],
            ..FairUseConfig::default()
        });
        // An untrusted peer's header is ignored.
        assert_eq!(
            open.identify(Some(ip("1.2.3.4")), Some("9.9.9.9"), None),
            Ok(Client::Address(ip("1.2.3.4")))
        );
        // Behind trusted proxies, the rightmost untrusted hop.
        assert_eq!(
            open.identify(
                Some(ip("10.0.0.2")),
                Some("6.6.6.6, 5.5.5.5, 10.0.0.9"),
                None
            ),
            Ok(Client::Address(ip("5.5.5.5")))
        );
        let keyed = FairUse::new(FairUseConfig {
            keys: Some(KeysFile {
                keys: vec![KeyEntry {
                    key: "secret".into(),
                    name: "site".into(),
                    requests_per_minute: Some(2),
                    searches_per_minute: None,
                }],
            }),
            ..FairUseConfig::default()
        });
        assert_eq!(
            keyed.identify(None, None, None),
            Err(Unidentified::MissingKey)
        );
        assert_eq!(
            keyed.identify(None, None, Some("nope")),
            Err(Unidentified::UnknownKey)
        );
        let client = keyed.identify(None, None, Some("secret")).unwrap();
        assert_eq!(keyed.name(&client), "site");
        assert!(matches!(
            keyed.check_here(&client, Class::Cheap, 1),
            Verdict::Allowed { remaining: 1, .. }
        ));
        assert!(matches!(
            keyed.check_here(&client, Class::Cheap, 1),
            Verdict::Allowed { remaining: 0, .. }
        ));
        assert!(matches!(
            keyed.check_here(&client, Class::Cheap, 1),
            Verdict::Limited { .. }
        ));
        assert_eq!(
            keyed.check_here(&client, Class::Search, 1),
            Verdict::Unlimited
        );
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
            assert!(matches!(
                limited.check_here(&a, Class::Cheap, 1),
                Verdict::Allowed { .. }
            ));
        }
        match limited.check_here(&a, Class::Cheap, 1) {
            Verdict::Limited {
                retry_after,
                policy,
            } => {
                assert!(retry_after <= Duration::from_secs(20), "{retry_after:?}");
                assert_eq!(policy.quota, 3);
            }
            other => panic!("{other:?}"),
        }
        // Another client, and another class, are untouched.
        assert!(matches!(
            limited.check_here(&b, Class::Cheap, 1),
            Verdict::Allowed { .. }
        ));
        assert!(matches!(
            limited.check_here(&a, Class::Search, 1),
            Verdict::Allowed { .. }
        ));
        assert!(matches!(
            limited.check_here(&a, Class::Search, 1),
            Verdict::Limited { .. }
        ));
    }
}
