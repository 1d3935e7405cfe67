//! The shipped configurations read against the service's caps (issue 71:
//! with `timeout server` equal to the 30 s review cap and `retry-on
//! all-retryable-errors`, HAProxy gave up on a review just before its
//! answer and ran it again on the next replica, the client waiting 60 s
//! or more):
//!
//! - HAProxy (`deploy/haproxy/haproxy.cfg`) waits for a replica's answer
//!   longer than the longest a replica may take, at the default caps
//!   ([`Limits::default`]) and at those the Kubernetes Deployment and the
//!   compose file run with (their environment read as the server reads
//!   it), and retries only requests no replica has begun (`retry-on
//!   conn-failure`);
//! - the Deployment and the compose file give requests in flight, at
//!   SIGTERM, longer than that answer to finish, and kill the process
//!   only after they had it;
//! - the Deployment trusts `X-Forwarded-For` from a narrow range only
//!   (the balancer's own addresses, never a whole private network).
//!
//! Each check returns what it finds wrong, and a test feeds it the
//! configuration of issue 71 to show it is found.

use std::path::Path;
use std::time::Duration;

use clap::{CommandFactory, Parser};
use tank_rules::config::Cli;
use tank_rules::limits::Limits;

fn read(path: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(root.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// What the proxy allows above [`longest_answer`]: the judge's last
/// search stopping after the review's deadline and the answer written,
/// on a loaded replica.
const MARGIN: Duration = Duration::from_secs(5);

/// The longest a replica may keep a client waiting for the first byte of
/// an answer, or between two bytes of a streamed one, at `limits`: a
/// review runs up to its time cap after waiting for a slot of the long
/// pool; `ai-move` and a batch's (or a compare's) searches share at most
/// the AI time cap, each waiting for its slot. (Perft and replays are
/// bounded by work, not time, far below.)
fn longest_answer(limits: &Limits) -> Duration {
    let wait = Duration::from_millis(limits.search_wait_ms);
    let review = Duration::from_millis(limits.annotate_max_time_ms) + wait;
    let searches = u32::try_from(limits.batch_max_searches.max(1)).unwrap_or(u32::MAX);
    let batch = Duration::from_millis(limits.ai_max_time_ms) + wait * searches;
    review.max(batch)
}

// ------------------------------------------------------------- HAProxy ---

/// The directives of an HAProxy configuration: (section, words), the
/// section its keyword and name (`defaults`, `backend replicas`), comments
/// left out.
fn haproxy_directives(cfg: &str) -> Vec<(String, Vec<String>)> {
    const SECTIONS: [&str; 6] = [
        "global",
        "defaults",
        "frontend",
        "backend",
        "listen",
        "resolvers",
    ];
    let mut section = String::new();
    let mut out = Vec::new();
    for line in cfg.lines() {
        let line = line.split('#').next().unwrap_or("");
        let words: Vec<String> = line.split_whitespace().map(str::to_owned).collect();
        let Some(first) = words.first() else { continue };
        if !line.starts_with([' ', '\t']) && SECTIONS.contains(&first.as_str()) {
            section = words.join(" ");
            continue;
        }
        out.push((section.clone(), words));
    }
    out
}

/// An HAProxy time: a number, in milliseconds unless a unit follows
/// (`us`, `ms`, `s`, `m`, `h`, `d`).
fn haproxy_time(text: &str) -> Option<Duration> {
    let digits = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let n: u64 = text[..digits].parse().ok()?;
    Some(match &text[digits..] {
        "us" => Duration::from_micros(n),
        "" | "ms" => Duration::from_millis(n),
        "s" => Duration::from_secs(n),
        "m" => Duration::from_secs(n * 60),
        "h" => Duration::from_secs(n * 3600),
        "d" => Duration::from_secs(n * 86_400),
        _ => return None,
    })
}

/// The `retry-on` keywords that retry only a request no server has
/// begun: the connection could not be made, so nothing was sent (HAProxy's
/// default); `none` retries nothing. Every other one (`empty-response`,
/// `junk-response`, `response-timeout`, `0rtt-rejected`, status codes,
/// `all-retryable-errors`) retries a request a replica had, which may have
/// run, may be running still, or may have killed it.
const SAFE_RETRIES: [&str; 2] = ["conn-failure", "none"];

/// What is wrong with HAProxy configuration `cfg` for replicas running at
/// `limits` (`label` names them in the findings).
fn haproxy_problems(cfg: &str, limits: &Limits, label: &str) -> Vec<String> {
    let directives = haproxy_directives(cfg);
    let needed = longest_answer(limits) + MARGIN;
    let mut problems = Vec::new();
    let timeouts: Vec<(&String, Option<Duration>)> = directives
        .iter()
        .filter(|(_, w)| w.len() >= 3 && w[0] == "timeout" && w[1] == "server")
        .map(|(section, w)| (section, haproxy_time(&w[2])))
        .collect();
    let mut backends: Vec<&String> = directives
        .iter()
        .map(|(section, _)| section)
        .filter(|s| s.starts_with("backend") || s.starts_with("listen"))
        .collect();
    backends.dedup();
    for backend in &backends {
        // A backend's own timeout, else the defaults'.
        let own = timeouts.iter().find(|(s, _)| s == backend);
        let inherited = timeouts.iter().find(|(s, _)| s.starts_with("defaults"));
        if own.or(inherited).is_none() {
            problems.push(format!(
                "{backend}: no `timeout server` (HAProxy then waits forever)"
            ));
        }
    }
    for (section, timeout) in &timeouts {
        match timeout {
            Some(t) if *t >= needed => {}
            Some(t) => problems.push(format!(
                "{section}: `timeout server` {t:?} is not above the longest answer at {label} \
                 ({:?}) plus {MARGIN:?}: {needed:?} or more",
                longest_answer(limits)
            )),
            None => problems.push(format!("{section}: `timeout server` does not parse")),
        }
    }
    for (section, w) in directives.iter().filter(|(_, w)| w[0] == "retry-on") {
        let unsafe_ones: Vec<&String> = w[1..]
            .iter()
            .filter(|k| !SAFE_RETRIES.contains(&k.as_str()))
            .collect();
        if !unsafe_ones.is_empty() {
            problems.push(format!(
                "{section}: `retry-on` retries requests a replica has begun: {unsafe_ones:?} \
                 (only {SAFE_RETRIES:?} may be named)"
            ));
        }
    }
    problems
}

// ------------------------------------------------- manifests' settings ---

/// The environment a Kubernetes manifest gives its containers: each
/// `- name: X` followed by `value: …` (a `valueFrom`, a secret, is left
/// out), comments left out.
fn k8s_env(yaml: &str) -> Vec<(String, String)> {
    let mut env = Vec::new();
    let mut name: Option<String> = None;
    for line in yaml.lines().map(str::trim) {
        if line.starts_with('#') {
            continue;
        }
        if let Some(n) = line.strip_prefix("- name:") {
            name = Some(unquote(n));
        } else if let Some(v) = line.strip_prefix("value:") {
            if let Some(n) = name.take() {
                env.push((n, unquote(v)));
            }
        } else if !line.is_empty() {
            name = None;
        }
    }
    env
}

/// The `environment:` map of the compose file's `tank-rules` service.
fn compose_env(yaml: &str) -> Vec<(String, String)> {
    let mut env = Vec::new();
    let mut inside = false;
    for line in yaml.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with('#') || trimmed.is_empty() {
            continue;
        }
        if trimmed == "environment:" {
            inside = true;
            continue;
        }
        // The map's entries are indented further than `environment:`.
        if inside && line.starts_with("      ") {
            if let Some((k, v)) = trimmed.split_once(':') {
                env.push((k.trim().to_owned(), unquote(v)));
            }
        } else {
            inside = false;
        }
    }
    env
}

fn unquote(text: &str) -> String {
    text.trim().trim_matches('"').to_owned()
}

/// The server's configuration from `env` (as the server reads its
/// environment: each `TANK_RULES_…` variable is its flag's), the
/// defaults elsewhere. Values compose fills in at start (`${…}`) are left
/// out.
fn configured(env: &[(String, String)]) -> Cli {
    let command = Cli::command();
    let mut args = vec!["tank-rules".to_owned()];
    for (name, value) in env {
        if value.contains("${") {
            continue;
        }
        let flag = command
            .get_arguments()
            .find(|a| a.get_env().is_some_and(|e| e == name.as_str()))
            .and_then(|a| a.get_long());
        match flag {
            Some(long) => args.extend([format!("--{long}"), value.clone()]),
            None => assert!(
                !name.starts_with("TANK_RULES_"),
                "{name} is set but is no flag's variable"
            ),
        }
    }
    Cli::try_parse_from(&args).unwrap_or_else(|e| panic!("{args:?}: {e}"))
}

/// A YAML scalar `key: value` at any depth, the first.
fn yaml_scalar<'a>(yaml: &'a str, key: &str) -> Option<&'a str> {
    yaml.lines()
        .map(str::trim)
        .filter(|l| !l.starts_with('#'))
        .find_map(|l| l.strip_prefix(key)?.strip_prefix(':'))
        .map(|v| v.split('#').next().unwrap_or("").trim())
}

/// What is wrong with a manifest's drain: its requests in flight at
/// SIGTERM (`shutdown`, the server's) must have longer than the longest
/// answer, and the process be killed (`grace` after SIGTERM, `pre_stop`
/// before it counted in) only after.
fn drain_problems(
    label: &str,
    limits: &Limits,
    shutdown: Duration,
    grace: Duration,
    pre_stop: Duration,
) -> Vec<String> {
    let needed = longest_answer(limits) + MARGIN;
    let mut problems = Vec::new();
    if shutdown < needed {
        problems.push(format!(
            "{label}: requests in flight get {shutdown:?} after SIGTERM, less than the longest \
             answer ({:?}) plus {MARGIN:?}: a review begun just before would be dropped",
            longest_answer(limits)
        ));
    }
    if grace <= pre_stop + shutdown {
        problems.push(format!(
            "{label}: killed {grace:?} after it is told to stop, not after the preStop \
             ({pre_stop:?}) and the drain ({shutdown:?})"
        ));
    }
    problems
}

/// The shortest IPv4 and IPv6 prefixes `TANK_RULES_TRUSTED_PROXIES` may
/// name: a balancer's own addresses (a node's pod range at most), never a
/// network other pods share.
const NARROWEST_V4: u8 = 24;
const NARROWEST_V6: u8 = 64;

fn trusted_problems(label: &str, cli: &Cli) -> Vec<String> {
    cli.serve
        .trusted_proxies
        .iter()
        .filter(|net| match net {
            ipnet::IpNet::V4(n) => n.prefix_len() < NARROWEST_V4,
            ipnet::IpNet::V6(n) => n.prefix_len() < NARROWEST_V6,
        })
        .map(|net| {
            format!(
                "{label}: trusts X-Forwarded-For from {net}, wider than a /{NARROWEST_V4} \
                 (IPv6 /{NARROWEST_V6}): any peer in it picks its client address"
            )
        })
        .collect()
}

struct Deployment {
    cli: Cli,
    grace: Duration,
    pre_stop: Duration,
}

fn deployment() -> Deployment {
    let yaml = read("deploy/k8s/deployment.yaml");
    let cli = configured(&k8s_env(&yaml));
    let grace = yaml_scalar(&yaml, "terminationGracePeriodSeconds")
        .and_then(|v| v.parse().ok())
        .map(Duration::from_secs)
        .expect("deployment.yaml: terminationGracePeriodSeconds");
    // `command: ["sleep", "5"]`
    let pre_stop = yaml_scalar(&yaml, "command")
        .and_then(|v| v.split('"').nth(3))
        .and_then(|v| v.parse().ok())
        .map(Duration::from_secs)
        .expect("deployment.yaml: the preStop sleep");
    Deployment {
        cli,
        grace,
        pre_stop,
    }
}

struct Compose {
    cli: Cli,
    grace: Duration,
}

fn compose() -> Compose {
    let yaml = read("docker-compose.yml");
    let cli = configured(&compose_env(&yaml));
    let grace = yaml_scalar(&yaml, "stop_grace_period")
        .and_then(haproxy_time)
        .expect("docker-compose.yml: stop_grace_period");
    Compose { cli, grace }
}

fn assert_none(problems: Vec<String>) {
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
}

#[test]
fn haproxy_waits_longer_than_the_longest_answer_and_retries_no_begun_request() {
    let cfg = read("deploy/haproxy/haproxy.cfg");
    let mut problems = haproxy_problems(&cfg, &Limits::default(), "the default caps");
    // The same replicas as the shipped manifests run them.
    let limits = deployment().cli.serve.limits();
    problems.extend(haproxy_problems(
        &cfg,
        &limits,
        "deploy/k8s/deployment.yaml's caps",
    ));
    let limits = compose().cli.serve.limits();
    problems.extend(haproxy_problems(&cfg, &limits, "docker-compose.yml's caps"));
    assert_none(problems);
    // What it checks against, at the defaults: the review's 30 s cap.
    assert_eq!(
        longest_answer(&Limits::default()),
        Duration::from_millis(
            Limits::DEFAULT_ANNOTATE_MAX_TIME_MS + Limits::DEFAULT_SEARCH_WAIT_MS
        )
    );
}

/// The edge the replicas rely on (issue 74): a head cap that holds the
/// longest request line the document allows with 4 KiB of header fields,
/// a deadline for every request head, a send deadline, and every error
/// file it names present and problem+json.
#[test]
fn haproxy_is_the_edge_the_replicas_rely_on() {
    let cfg = read("deploy/haproxy/haproxy.cfg");
    let directives = haproxy_directives(&cfg);
    let value = |section: &str, key: &[&str]| -> Option<String> {
        directives.iter().find_map(|(s, words)| {
            (s == section && words.len() > key.len() && words.iter().zip(key).all(|(w, k)| w == k))
                .then(|| words[key.len()].clone())
        })
    };
    let size = |key: &str| -> usize {
        value("global", &[key])
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("global: no {key}"))
    };
    let head_cap = size("tune.bufsize") - size("tune.maxrewrite");
    assert!(
        head_cap >= Limits::LONGEST_REQUEST_LINE + (4 << 10),
        "the proxy's head cap {head_cap} B does not hold the longest request line \
{} B with 4 KiB of fields",
        Limits::LONGEST_REQUEST_LINE
    );
    for key in [["timeout", "http-request"], ["timeout", "client"]] {
        let time = value("defaults", &key).and_then(|t| haproxy_time(&t));
        assert!(
            time.is_some_and(|t| t <= Duration::from_secs(60)),
            "{key:?}: {time:?}"
        );
    }
    let files: Vec<&Vec<String>> = directives
        .iter()
        .filter(|(_, words)| words.first().is_some_and(|w| w == "errorfile"))
        .map(|(_, words)| words)
        .collect();
    assert!(files.len() >= 5, "{files:?}");
    for words in files {
        let (status, file) = (&words[1], &words[2]);
        let text = read(&format!("deploy/haproxy/{file}"));
        let (head, body) = text.split_once("\r\n\r\n").expect("a head and a body");
        assert!(
            head.starts_with(&format!("HTTP/1.1 {status} ")),
            "{file}: {head}"
        );
        assert!(
            head.contains("Content-Type: application/problem+json"),
            "{file}"
        );
        assert!(
            head.contains(&format!("Content-Length: {}", body.len())),
            "{file}"
        );
        let problem: serde_json::Value = serde_json::from_str(body).expect(file);
        assert_eq!(problem["status"].to_string(), *status, "{file}");
        let code = problem["code"].as_str().unwrap_or_default();
        assert!(
            tank_rules::api::transport::http_error::SERVICE_CODES.contains(&code),
            "{file}: {code}"
        );
    }
}

#[test]
fn the_manifests_drain_longer_than_the_longest_answer() {
    let d = deployment();
    let shutdown = Duration::from_secs(d.cli.serve.shutdown_timeout_secs);
    let mut problems = drain_problems(
        "deploy/k8s/deployment.yaml",
        &d.cli.serve.limits(),
        shutdown,
        d.grace,
        d.pre_stop,
    );
    let c = compose();
    let shutdown = Duration::from_secs(c.cli.serve.shutdown_timeout_secs);
    problems.extend(drain_problems(
        "docker-compose.yml",
        &c.cli.serve.limits(),
        shutdown,
        c.grace,
        Duration::ZERO,
    ));
    assert_none(problems);
}

#[test]
fn the_deployment_trusts_only_a_narrow_range() {
    let d = deployment();
    assert!(
        !d.cli.serve.trusted_proxies.is_empty(),
        "deploy/k8s/deployment.yaml names no trusted proxy: every client behind the \
         balancer would be counted as the balancer"
    );
    let mut problems = trusted_problems("deploy/k8s/deployment.yaml", &d.cli);
    problems.extend(trusted_problems("docker-compose.yml", &compose().cli));
    assert_none(problems);
}

/// The checks find what issue 71 found: a proxy waiting exactly the cap and
/// retrying every retryable error, a drain as long as the cap, and a
/// Deployment trusting all of 10.0.0.0/8.
#[test]
fn the_checks_find_the_configuration_of_issue_71() {
    let before = "defaults\n    mode http\n    timeout server 30s\n    retries 3\n    \
                  option redispatch 1\n    retry-on all-retryable-errors\n\
                  backend replicas\n    server r1 \"${REPLICA_1}\" check\n";
    let problems = haproxy_problems(before, &Limits::default(), "the default caps");
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(problems[0].contains("`timeout server` 30s"), "{problems:?}");
    assert!(problems[1].contains("all-retryable-errors"), "{problems:?}");
    for keyword in ["empty-response", "503", "response-timeout", "junk-response"] {
        let cfg = before.replace("all-retryable-errors", &format!("conn-failure {keyword}"));
        let cfg = cfg.replace("30s", "40s");
        let problems = haproxy_problems(&cfg, &Limits::default(), "the default caps");
        assert_eq!(problems.len(), 1, "{keyword}: {problems:?}");
        assert!(problems[0].contains(keyword), "{problems:?}");
    }
    // No timeout at all: HAProxy waits forever (and warns); said once.
    let cfg = before.replace("    timeout server 30s\n", "");
    let problems = haproxy_problems(&cfg, &Limits::default(), "");
    assert_eq!(problems.len(), 2, "{problems:?}");
    assert!(problems[0].contains("no `timeout server`"), "{problems:?}");
    // A lower cap the proxy is above; a higher one it is not.
    let after = before
        .replace("all-retryable-errors", "conn-failure")
        .replace("30s", "40s");
    assert!(haproxy_problems(&after, &Limits::default(), "").is_empty());
    let lower = Limits {
        annotate_max_time_ms: 20_000,
        ..Limits::default()
    };
    assert!(haproxy_problems(
        &before.replace("all-retryable-errors", "conn-failure"),
        &lower,
        ""
    )
    .is_empty());
    let higher = Limits {
        annotate_max_time_ms: 60_000,
        ..Limits::default()
    };
    assert_eq!(haproxy_problems(&after, &higher, "").len(), 1);
    // A backend's own timeout is read as well as the defaults'.
    let own = format!("{after}    timeout server 10s\n");
    assert_eq!(haproxy_problems(&own, &Limits::default(), "").len(), 1);

    let limits = Limits::default();
    let thirty = Duration::from_secs(30);
    let problems = drain_problems(
        "before",
        &limits,
        thirty,
        Duration::from_secs(40),
        Duration::from_secs(5),
    );
    assert_eq!(problems.len(), 1, "{problems:?}");
    let problems = drain_problems(
        "killed early",
        &limits,
        Duration::from_secs(40),
        Duration::from_secs(40),
        Duration::from_secs(5),
    );
    assert_eq!(problems.len(), 1, "{problems:?}");

    let wide = configured(&[("TANK_RULES_TRUSTED_PROXIES".into(), "10.0.0.0/8".into())]);
    assert_eq!(trusted_problems("before", &wide).len(), 1);
    let v6 = configured(&[(
        "TANK_RULES_TRUSTED_PROXIES".into(),
        "192.0.2.0/28,fd00::/8".into(),
    )]);
    assert_eq!(trusted_problems("v6", &v6).len(), 1);
}

#[test]
fn the_readers_read_the_shipped_files() {
    // The directives the checks rely on are where they are read from.
    let cfg = read("deploy/haproxy/haproxy.cfg");
    let directives = haproxy_directives(&cfg);
    assert!(directives
        .iter()
        .any(|(s, w)| s == "defaults" && w[..2] == ["timeout", "server"]));
    assert!(directives
        .iter()
        .any(|(s, w)| s == "backend replicas" && w[0] == "server"));
    assert_eq!(haproxy_time("40s"), Some(Duration::from_secs(40)));
    assert_eq!(haproxy_time("500"), Some(Duration::from_millis(500)));
    assert_eq!(haproxy_time("1m"), Some(Duration::from_secs(60)));
    assert_eq!(haproxy_time("1x"), None);
    let env = k8s_env(&read("deploy/k8s/deployment.yaml"));
    assert!(env
        .iter()
        .any(|(n, _)| n == "TANK_RULES_SHUTDOWN_TIMEOUT_SECS"));
    assert!(env.iter().any(|(n, _)| n == "TANK_RULES_TRUSTED_PROXIES"));
    // The secret's variables (valueFrom) are not read as values.
    assert!(env.iter().all(|(n, _)| n != "TANK_RULES_REDIS_SECRET"));
    let env = compose_env(&read("docker-compose.yml"));
    assert!(env.iter().any(|(n, _)| n == "TANK_RULES_ADDR"));
    let d = deployment();
    assert_eq!(d.pre_stop, Duration::from_secs(5));
    assert_eq!(d.cli.serve.addr, "0.0.0.0:8080");
}
