//! Who a request is from, by address: the peer, or — only when the peer is
//! a trusted proxy — the client its `X-Forwarded-For` names (every header
//! line, in order, walked from the right over trusted proxies; a hop that
//! does not parse ends the walk), and the network a client is counted by
//! (an IPv6 address by its prefix, an IPv4-mapped IPv6 address as its IPv4
//! address).

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use ipnet::IpNet;

/// The proxies whose `X-Forwarded-For` is believed, and how clients are
/// counted.
#[derive(Clone, Debug)]
pub struct Proxies {
    trusted: Vec<IpNet>,
    /// Leading bits of an IPv6 address that name its client (1..=128).
    ipv6_prefix_len: u8,
}

impl Proxies {
    /// `trusted` proxies; IPv6 clients counted by their first
    /// `ipv6_prefix_len` bits (held to 1..=128).
    pub fn new(trusted: Vec<IpNet>, ipv6_prefix_len: u8) -> Proxies {
        Proxies {
            trusted,
            ipv6_prefix_len: ipv6_prefix_len.clamp(1, 128),
        }
    }

    /// A request's client address (IPv4-mapped addresses as IPv4): the
    /// peer's; or, when the peer is a trusted proxy, the rightmost hop of
    /// `forwarded_for` (the `X-Forwarded-For` header lines, in the order
    /// they came) that is not a trusted proxy. A hop that does not parse
    /// ends the walk: the client is then the proxy that wrote it (the last
    /// trusted address walked over, or the peer); when every hop is a
    /// trusted proxy, the leftmost is.
    pub fn client<'a>(
        &self,
        peer: Option<IpAddr>,
        forwarded_for: impl DoubleEndedIterator<Item = &'a [u8]>,
    ) -> IpAddr {
        let peer = peer.map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |p| p.to_canonical());
        if !self.is_trusted(peer) {
            return peer;
        }
        let mut last = peer;
        for hop in forwarded_for
            .rev()
            .flat_map(|line| line.rsplit(|&b| b == b','))
        {
            match parse_hop(hop).map(|hop| hop.to_canonical()) {
                Some(hop) if self.is_trusted(hop) => last = hop,
                Some(hop) => return hop,
                None => return last,
            }
        }
        last
    }

    /// Whether `address` (IPv4-mapped as IPv4) is a trusted proxy.
    pub fn is_trusted(&self, address: IpAddr) -> bool {
        let address = address.to_canonical();
        self.trusted.iter().any(|net| net.contains(&address))
    }

    /// Whether any proxy is trusted.
    pub fn any_trusted(&self) -> bool {
        !self.trusted.is_empty()
    }

    /// The network a client address is counted by: an IPv4 address (or an
    /// IPv4-mapped one) itself, an IPv6 address its prefix (the other bits
    /// zero).
    pub fn network(&self, address: IpAddr) -> IpAddr {
        match address.to_canonical() {
            IpAddr::V4(v4) => IpAddr::V4(v4),
            IpAddr::V6(v6) => {
                let mask = u128::MAX << (128 - u32::from(self.ipv6_prefix_len));
                IpAddr::V6(Ipv6Addr::from(u128::from(v6) & mask))
            }
        }
    }

    /// How the fleet's counter names the network of `address`: `a:` and
    /// the IPv4 address, or the IPv6 prefix as a CIDR block.
    pub fn fleet_id(&self, address: IpAddr) -> String {
        match self.network(address) {
            IpAddr::V4(v4) => format!("a:{v4}"),
            IpAddr::V6(v6) => format!("a:{v6}/{}", self.ipv6_prefix_len),
        }
    }
}

/// One `X-Forwarded-For` hop (spaces and tabs around it ignored), in one
/// of the forms `a.b.c.d`, `a.b.c.d:port`, an IPv6 address, `[v6]` or
/// `[v6]:port` (a port being 1 to 5 digits, at most 65535). Anything else
/// does not parse: `unknown`, an obfuscated id (`_hidden`), an empty hop,
/// a port that is empty or not digits, a zone id. A bare IPv6 address is
/// only ever an address: `::1:80` is the address `::1:80`, never `::1`
/// with port 80 (a port on IPv6 needs brackets).
pub fn parse_hop(hop: &[u8]) -> Option<IpAddr> {
    let hop = std::str::from_utf8(hop).ok()?.trim_matches([' ', '\t']);
    if let Some(bracketed) = hop.strip_prefix('[') {
        let (v6, rest) = bracketed.split_once(']')?;
        if !rest.is_empty() {
            port(rest.strip_prefix(':')?)?;
        }
        return v6.parse::<Ipv6Addr>().ok().map(IpAddr::V6);
    }
    if let Ok(v6) = hop.parse::<Ipv6Addr>() {
        return Some(IpAddr::V6(v6));
    }
    let v4 = match hop.split_once(':') {
        Some((v4, digits)) => {
            port(digits)?;
            v4
        }
        None => hop,
    };
    v4.parse::<Ipv4Addr>().ok().map(IpAddr::V4)
}

/// A port: 1 to 5 ASCII digits, at most 65535.
fn port(digits: &str) -> Option<u16> {
    if digits.is_empty() || digits.len() > 5 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    fn proxies(trusted: &[&str]) -> Proxies {
        Proxies::new(trusted.iter().map(|n| n.parse().unwrap()).collect(), 64)
    }

    /// The header lines as they came.
    fn walk(proxies: &Proxies, peer: &str, lines: &[&str]) -> IpAddr {
        proxies.client(Some(ip(peer)), lines.iter().map(|l| l.as_bytes()))
    }

    #[test]
    fn hops_parse_in_the_documented_forms_only() {
        let table: &[(&str, Option<&str>)] = &[
            ("1.2.3.4", Some("1.2.3.4")),
            (" 1.2.3.4\t", Some("1.2.3.4")),
            ("1.2.3.4:80", Some("1.2.3.4")),
            ("1.2.3.4:0", Some("1.2.3.4")),
            ("1.2.3.4:65535", Some("1.2.3.4")),
            ("2001:db8::1", Some("2001:db8::1")),
            ("::ffff:4.4.4.4", Some("::ffff:4.4.4.4")),
            ("[2001:db8::1]", Some("2001:db8::1")),
            ("[2001:db8::1]:443", Some("2001:db8::1")),
            // An IPv6 address, never `::1` with a port.
            ("::1:80", Some("::1:80")),
            ("", None),
            ("   ", None),
            ("unknown", None),
            ("_hidden", None),
            ("_SEVKISEK", None),
            ("1.2.3.4:", None),
            ("1.2.3.4:+80", None),
            ("1.2.3.4:65536", None),
            ("1.2.3.4:123456", None),
            ("1.2.3.4:80:80", None),
            ("1.2.3.4 :80", None),
            ("1.2.3", None),
            ("01.2.3.4", None),
            ("1.2.3.256", None),
            ("1.2.3.4.5", None),
            ("[1.2.3.4]", None),
            ("[2001:db8::1]:", None),
            ("[2001:db8::1]80", None),
            ("[2001:db8::1", None),
            ("2001:db8::1]", None),
            ("fe80::1%eth0", None),
            ("[fe80::1%25eth0]:80", None),
            ("1.2.3.4 5.6.7.8", None),
            ("\"1.2.3.4\"", None),
        ];
        for (hop, expected) in table {
            assert_eq!(
                parse_hop(hop.as_bytes()),
                expected.map(ip),
                "{hop:?} should parse as {expected:?}"
            );
        }
        assert_eq!(parse_hop(b"1.2.3.\xff"), None);
    }

    #[test]
    fn the_client_is_the_rightmost_untrusted_hop_of_all_lines() {
        let behind = proxies(&["10.0.0.0/8"]);
        // One line, trusted hops walked over.
        assert_eq!(
            walk(&behind, "10.0.0.2", &["6.6.6.6, 5.5.5.5, 10.0.0.9"]),
            ip("5.5.5.5")
        );
        // Several lines, joined in order.
        assert_eq!(
            walk(
                &behind,
                "10.0.0.2",
                &["6.6.6.6", "5.5.5.5, 10.0.0.9", "10.0.0.8"]
            ),
            ip("5.5.5.5")
        );
        // The client's own line first, then the one its proxy appended:
        // the proxy's hop wins, whatever the client wrote.
        assert_eq!(
            walk(&behind, "10.0.0.2", &["9.9.9.9, 10.0.0.7", "5.5.5.5"]),
            ip("5.5.5.5")
        );
        // A hop with a port is its address.
        assert_eq!(
            walk(&behind, "10.0.0.2", &["[2001:db8::5]:1234", "10.0.0.3:80"]),
            ip("2001:db8::5")
        );
    }

    #[test]
    fn a_hop_that_does_not_parse_ends_the_walk_at_the_proxy_that_wrote_it() {
        let behind = proxies(&["10.0.0.0/8"]);
        // The peer wrote an unparsable hop: the client is the peer.
        assert_eq!(
            walk(&behind, "10.0.0.2", &["5.5.5.5, 1.2.3.x"]),
            ip("10.0.0.2")
        );
        // 10.0.0.9 wrote it: the client is 10.0.0.9, not 5.5.5.5.
        for bad in [
            "unknown",
            "",
            "1.2.3.4:",
            "_hidden",
            "1.2.3.7, 5.5.5.5:1234x",
        ] {
            let line = format!("5.5.5.5, {bad}, 10.0.0.9");
            assert_eq!(
                walk(&behind, "10.0.0.2", &[&line]),
                ip("10.0.0.9"),
                "{line}"
            );
        }
        // An empty line is an empty hop too.
        assert_eq!(
            walk(&behind, "10.0.0.2", &["5.5.5.5", "", "10.0.0.9"]),
            ip("10.0.0.9")
        );
        // Fresh unparsable prefixes do not make fresh clients.
        for i in 0..3 {
            let line = format!("1.2.3.{i}x, 5.5.5.5:1234");
            assert_eq!(walk(&behind, "10.0.0.2", &[&line]), ip("5.5.5.5"));
        }
    }

    #[test]
    fn all_trusted_hops_name_the_leftmost_and_untrusted_peers_are_believed_alone() {
        let behind = proxies(&["10.0.0.0/8"]);
        assert_eq!(
            walk(&behind, "10.0.0.2", &["10.0.0.4, 10.0.0.5", "10.0.0.6"]),
            ip("10.0.0.4")
        );
        assert_eq!(walk(&behind, "10.0.0.2", &[]), ip("10.0.0.2"));
        // An untrusted peer's header is ignored, even when it names a
        // trusted proxy.
        assert_eq!(walk(&behind, "1.2.3.4", &["9.9.9.9"]), ip("1.2.3.4"));
        assert_eq!(walk(&behind, "1.2.3.4", &["10.0.0.1"]), ip("1.2.3.4"));
        // No trusted proxies: every header is ignored.
        assert_eq!(
            walk(&proxies(&[]), "10.0.0.2", &["9.9.9.9"]),
            ip("10.0.0.2")
        );
        // No peer (a test request): the unspecified address.
        assert_eq!(behind.client(None, std::iter::empty()), ip("0.0.0.0"));
    }

    #[test]
    fn ipv4_mapped_addresses_are_their_ipv4_address() {
        let behind = proxies(&["10.0.0.0/8"]);
        // As the peer: trusted as 10.0.0.2, and the header is read.
        assert_eq!(
            walk(&behind, "::ffff:10.0.0.2", &["::ffff:4.4.4.4"]),
            ip("4.4.4.4")
        );
        assert_eq!(walk(&behind, "::ffff:4.4.4.4", &[]), ip("4.4.4.4"));
        // As a hop, a trusted proxy is walked over.
        assert_eq!(
            walk(&behind, "10.0.0.2", &["5.5.5.5, [::ffff:10.0.0.3]:80"]),
            ip("5.5.5.5")
        );
        assert_eq!(behind.network(ip("::ffff:4.4.4.4")), ip("4.4.4.4"));
        assert_eq!(behind.fleet_id(ip("::ffff:4.4.4.4")), "a:4.4.4.4");
    }

    #[test]
    fn ipv6_clients_are_counted_by_their_prefix() {
        let by_64 = proxies(&[]);
        let network = by_64.network(ip("2001:db8:1:2:aaaa:bbbb:cccc:dddd"));
        assert_eq!(network, ip("2001:db8:1:2::"));
        assert_eq!(by_64.network(ip("2001:db8:1:2::7")), network);
        assert_ne!(by_64.network(ip("2001:db8:1:3::7")), network);
        assert_eq!(by_64.fleet_id(ip("2001:db8:1:2::7")), "a:2001:db8:1:2::/64");
        assert_eq!(by_64.network(ip("4.4.4.4")), ip("4.4.4.4"));
        let by_48 = Proxies::new(Vec::new(), 48);
        assert_eq!(by_48.network(ip("2001:db8:1:2::7")), ip("2001:db8:1::"));
        let whole = Proxies::new(Vec::new(), 200);
        assert_eq!(whole.network(ip("2001:db8::7")), ip("2001:db8::7"));
        let widest = Proxies::new(Vec::new(), 0);
        assert_eq!(widest.network(ip("ffff:db8::7")), ip("8000::"));
    }
}
