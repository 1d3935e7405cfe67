//! Who a request is from: its API key when keys are configured (looked up
//! by digest; wrong keys counted against the client's network, which is
//! shut out when over its allowance), else its address.

use std::net::IpAddr;
use std::time::Duration;

/// Who a request is from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Client {
    /// A client address (no keys configured), counted by its network
    /// ([`super::address::Proxies::network`]).
    Address(IpAddr),
    /// An API key, by its index in the keys file.
    Key(usize),
}

/// Why a request has no client.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unidentified {
    /// Keys are configured and the request presents none (401).
    MissingKey,
    /// The key presented is not one of the keys (401).
    UnknownKey,
    /// The request's client network presented too many wrong keys: its key
    /// attempts are refused, unread, until `retry_after` has passed (429).
    TooManyFailedAttempts {
        /// Wrong keys a minute a network may present.
        quota: u32,
        retry_after: Duration,
    },
}

/// The policy name of the failed key attempts in a 429's `RateLimit`
/// headers.
pub const FAILED_KEY_ATTEMPTS: &str = "failed key attempts";

impl Unidentified {
    /// The answer to a request without a client: 401, or 429 when its
    /// network is shut out for too many wrong keys.
    pub fn refusal(&self) -> crate::error::RequestError {
        use crate::error::{KeyPresented, RequestError};
        match self {
            Unidentified::MissingKey => RequestError::Unauthorized {
                known: KeyPresented::None,
            },
            Unidentified::UnknownKey => RequestError::Unauthorized {
                known: KeyPresented::Unknown,
            },
            Unidentified::TooManyFailedAttempts { quota, retry_after } => {
                RequestError::TooManyRequests {
                    class: FAILED_KEY_ATTEMPTS,
                    quota: *quota,
                    price: 1,
                    retry_after_secs: retry_after.as_secs_f64().ceil() as u64,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fair_use::{Class, FairUse, FairUseConfig, KeyEntry, KeysFile, Quotas, Verdict};

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    /// No `X-Forwarded-For` lines.
    fn none<'a>() -> std::iter::Empty<&'a [u8]> {
        std::iter::empty()
    }

    /// `X-Forwarded-For` lines, in order.
    fn lines<'a>(lines: &'a [&'a str]) -> impl DoubleEndedIterator<Item = &'a [u8]> {
        lines.iter().map(|line| line.as_bytes())
    }

    fn keyed(entries: Vec<KeyEntry>) -> FairUse {
        FairUse::new(FairUseConfig {
            keys: Some(KeysFile::from_entries(entries).unwrap()),
            ..FairUseConfig::default()
        })
    }

    fn allowed(fair_use: &FairUse, client: &Client) -> bool {
        matches!(
            fair_use.check_here(client, Class::Cheap, 1),
            Verdict::Allowed { .. }
        )
    }

    fn limited_quota(requests_per_minute: u32) -> Quotas {
        Quotas {
            requests_per_minute,
            searches_per_minute: 0,
        }
    }

    #[test]
    fn clients_are_their_address_or_their_key() {
        let open = FairUse::new(FairUseConfig {
            trusted_proxies: vec!["10.0.0.0/8".parse().unwrap()],
            ..FairUseConfig::default()
        });
        // An untrusted peer's header is ignored.
        assert_eq!(
            open.identify(Some(ip("1.2.3.4")), lines(&["9.9.9.9"]), None),
            Ok(Client::Address(ip("1.2.3.4")))
        );
        // Behind trusted proxies, the rightmost untrusted hop of all lines.
        assert_eq!(
            open.identify(
                Some(ip("10.0.0.2")),
                lines(&["6.6.6.6", "5.5.5.5, 10.0.0.9"]),
                None
            ),
            Ok(Client::Address(ip("5.5.5.5")))
        );
        assert!(open.is_trusted_peer(Some(ip("::ffff:10.0.0.2"))));
        assert!(!open.is_trusted_peer(Some(ip("1.2.3.4"))));
        let keyed = keyed(vec![
            KeyEntry::with_key("site", "secret-0123456789").requests_per_minute(2)
        ]);
        assert_eq!(
            keyed.identify(None, none(), None),
            Err(Unidentified::MissingKey)
        );
        assert_eq!(
            keyed.identify(None, none(), Some("nope")),
            Err(Unidentified::UnknownKey)
        );
        let client = keyed
            .identify(None, none(), Some("secret-0123456789"))
            .unwrap();
        assert_eq!(keyed.name(&client), "site");
        assert_eq!(
            keyed.fleet_id(&client).unwrap(),
            format!("k:{}", &blake3::hash(b"secret-0123456789").to_hex()[..32])
        );
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
    fn a_key_given_by_its_digest_is_the_key() {
        let hex = blake3::hash(b"digested-0123456789").to_hex().to_string();
        let keyed = keyed(vec![
            KeyEntry::with_key("plain", "plain-0123456789"),
            KeyEntry::with_digest("digested", &hex),
        ]);
        let client = keyed
            .identify(None, none(), Some("digested-0123456789"))
            .unwrap();
        assert_eq!(client, Client::Key(1));
        assert_eq!(keyed.name(&client), "digested");
        assert_eq!(
            keyed.identify(None, none(), Some(&hex)),
            Err(Unidentified::UnknownKey)
        );
    }

    #[test]
    fn an_ipv4_mapped_address_shares_its_ipv4_quota() {
        let limited = FairUse::new(FairUseConfig {
            defaults: limited_quota(2),
            trusted_proxies: vec!["10.0.0.0/8".parse().unwrap()],
            ..FairUseConfig::default()
        });
        let plain = limited.identify(Some(ip("4.4.4.4")), none(), None).unwrap();
        assert!(allowed(&limited, &plain));
        assert!(allowed(&limited, &plain));
        assert!(!allowed(&limited, &plain));
        // As the socket peer, and as a hop behind a trusted proxy.
        for client in [
            limited.identify(Some(ip("::ffff:4.4.4.4")), none(), None),
            limited.identify(Some(ip("10.0.0.1")), lines(&["::ffff:4.4.4.4"]), None),
            limited.identify(Some(ip("10.0.0.1")), lines(&["[::ffff:4.4.4.4]:99"]), None),
        ] {
            let client = client.unwrap();
            assert_eq!(client, Client::Address(ip("4.4.4.4")));
            assert!(!allowed(&limited, &client));
        }
    }

    #[test]
    fn too_many_wrong_keys_shut_an_address_out_even_with_the_right_key() {
        let keyed = keyed(vec![KeyEntry::with_key("site", "right-key-0123456789")]);
        let attacker = Some(ip("6.6.6.6"));
        for i in 0..30 {
            assert_eq!(
                keyed.identify(attacker, none(), Some(&format!("guess-{i}"))),
                Err(Unidentified::UnknownKey),
                "guess {i}"
            );
        }
        let limited = |answer: Result<Client, Unidentified>| match answer {
            Err(Unidentified::TooManyFailedAttempts { quota, retry_after }) => {
                assert_eq!(quota, 30);
                assert!(retry_after > Duration::ZERO && retry_after <= Duration::from_secs(60));
                true
            }
            _ => false,
        };
        assert!(limited(keyed.identify(attacker, none(), Some("guess-30"))));
        // Now even the right key is refused, unread, from that address (and
        // its IPv4-mapped form).
        assert!(limited(keyed.identify(
            attacker,
            none(),
            Some("right-key-0123456789")
        )));
        assert!(limited(keyed.identify(
            Some(ip("::ffff:6.6.6.6")),
            none(),
            Some("right-key-0123456789")
        )));
        // A missing key is still a plain 401.
        assert_eq!(
            keyed.identify(attacker, none(), None),
            Err(Unidentified::MissingKey)
        );
        // Other addresses are untouched.
        assert_eq!(
            keyed.identify(Some(ip("7.7.7.7")), none(), Some("right-key-0123456789")),
            Ok(Client::Key(0))
        );
        assert_eq!(
            keyed.identify(Some(ip("7.7.7.7")), none(), Some("guess")),
            Err(Unidentified::UnknownKey)
        );
        let refusal = keyed
            .identify(attacker, none(), Some("guess"))
            .unwrap_err()
            .refusal();
        assert!(
            matches!(
                refusal,
                crate::error::RequestError::TooManyRequests {
                    class: FAILED_KEY_ATTEMPTS,
                    quota: 30,
                    price: 1,
                    retry_after_secs: 1..=60
                }
            ),
            "{refusal:?}"
        );
        keyed.forget_idle_clients();
        assert!(limited(keyed.identify(
            attacker,
            none(),
            Some("right-key-0123456789")
        )));
    }

    #[test]
    fn missing_keys_are_not_guesses_and_zero_attempts_is_unlimited() {
        let keyed = keyed(vec![KeyEntry::with_key("site", "right-key-0123456789")]);
        for _ in 0..100 {
            assert_eq!(
                keyed.identify(Some(ip("6.6.6.6")), none(), None),
                Err(Unidentified::MissingKey)
            );
        }
        assert_eq!(
            keyed.identify(Some(ip("6.6.6.6")), none(), Some("guess")),
            Err(Unidentified::UnknownKey)
        );
        let unlimited = FairUse::new(FairUseConfig {
            keys: Some(
                KeysFile::from_entries(vec![KeyEntry::with_key("site", "right-key-0123456789")])
                    .unwrap(),
            ),
            failed_key_attempts_per_minute: 0,
            ..FairUseConfig::default()
        });
        for _ in 0..100 {
            assert_eq!(
                unlimited.identify(Some(ip("6.6.6.6")), none(), Some("guess")),
                Err(Unidentified::UnknownKey)
            );
        }
    }

    #[test]
    fn wrong_keys_are_counted_per_ipv6_prefix() {
        let keyed = keyed(vec![KeyEntry::with_key("site", "right-key-0123456789")]);
        let answers: Vec<Unidentified> = (0..31)
            .map(|i| {
                let peer = ip(&format!("2001:db8:1:2::{i:x}"));
                keyed
                    .identify(Some(peer), none(), Some("guess"))
                    .unwrap_err()
            })
            .collect();
        assert!(answers
            .iter()
            .take(30)
            .all(|a| *a == Unidentified::UnknownKey));
        assert!(matches!(
            answers.last(),
            Some(Unidentified::TooManyFailedAttempts { .. })
        ));
        assert_eq!(
            keyed.identify(Some(ip("2001:db8:1:3::1")), none(), Some("guess")),
            Err(Unidentified::UnknownKey)
        );
    }
}
