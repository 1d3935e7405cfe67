//! The Redis tier's options ([`RedisArgs`], under their own heading in
//! `--help`): the link the replicas share and the seal of the AI answers
//! stored there ([`SharedRedis`]), refused with a [`RedisConfigError`]
//! that never holds a secret.

use std::path::PathBuf;
use std::time::Duration;

use crate::cache::{Seal, Secret, WeakSecret};

/// The options of the Redis tier.
#[derive(Debug, clap::Args)]
pub struct RedisArgs {
    /// Redis (or Valkey) URL shared by the replicas: a tier of the AI cache
    /// behind the in-process one, and the clients' quotas, counted for the
    /// whole fleet (none: each process caches and counts alone).
    /// `rediss://` for TLS. It may hold a password: logs show it without
    /// credentials, and `--help` does not show the variable's value.
    #[arg(long, env = "TANK_RULES_REDIS_URL", hide_env_values = true)]
    #[arg(help_heading = "Redis (a fleet)")]
    pub redis_url: Option<crate::redis::RedisUrl>,
    /// What every Redis key of this service starts with (AI answers are
    /// `<prefix>ai:<digest>`, quotas `<prefix>quota:<class>:<client>`), so
    /// that several services or environments can share one Redis.
    #[arg(long, env = "TANK_RULES_REDIS_PREFIX", default_value = crate::redis::LinkConfig::DEFAULT_PREFIX)]
    #[arg(help_heading = "Redis (a fleet)")]
    pub redis_prefix: String,
    /// Longest a Redis call (cache look-up or store, quota check) may take,
    /// milliseconds; then the request goes on without it (its quota counted
    /// by the replica alone).
    #[arg(long, env = "TANK_RULES_REDIS_TIMEOUT_MS", default_value_t = 25)]
    #[arg(help_heading = "Redis (a fleet)")]
    pub redis_timeout_ms: u64,
    /// How long an answer lives in Redis, seconds.
    #[arg(long, env = "TANK_RULES_REDIS_TTL_SECS", default_value_t = 86_400)]
    #[arg(help_heading = "Redis (a fleet)")]
    pub redis_ttl_secs: u64,
    /// The secret that seals the AI answers the replicas share in Redis (a
    /// keyed BLAKE3 MAC over each key and answer: a value without it is
    /// never served): 16 bytes or more, the same on every replica, e.g.
    /// `openssl rand -hex 32`. With --redis-url, this or
    /// --redis-secret-file is needed. Never logged; `--help` does not show
    /// the variable's value.
    #[arg(long, env = "TANK_RULES_REDIS_SECRET", hide_env_values = true)]
    #[arg(help_heading = "Redis (a fleet)")]
    pub redis_secret: Option<Secret>,
    /// A file holding the secret of --redis-secret (its trailing line end
    /// left out), e.g. a mounted Kubernetes Secret.
    #[arg(long, env = "TANK_RULES_REDIS_SECRET_FILE")]
    #[arg(help_heading = "Redis (a fleet)")]
    pub redis_secret_file: Option<PathBuf>,
    /// During a rotation, the secret before the current one: answers it
    /// sealed are still served (only the current one seals). Drop it (or
    /// leave it empty) once --redis-ttl-secs has passed since every replica
    /// has the new secret.
    #[arg(long, env = "TANK_RULES_REDIS_PREVIOUS_SECRET", hide_env_values = true)]
    #[arg(help_heading = "Redis (a fleet)")]
    pub redis_previous_secret: Option<Secret>,
    /// A file holding the previous secret (its trailing line end left
    /// out; empty: none).
    #[arg(long, env = "TANK_RULES_REDIS_PREVIOUS_SECRET_FILE")]
    #[arg(help_heading = "Redis (a fleet)")]
    pub redis_previous_secret_file: Option<PathBuf>,
}

/// How the replicas share Redis ([`RedisArgs::shared`]). Its `Debug`
/// shows no secret: the URL redacted, the seal's keys hidden.
#[derive(Debug)]
pub struct SharedRedis {
    /// Where Redis is, and how it is called.
    pub link: crate::redis::LinkConfig,
    /// What seals the AI answers stored there.
    pub seal: Seal,
    /// How long an answer lives there.
    pub ttl: Duration,
}

/// Why the Redis options do not make a link. No variant holds a secret.
#[derive(Debug, thiserror::Error)]
pub enum RedisConfigError {
    #[error(
        "--redis-url needs a secret to seal the AI answers the replicas share: add \
         --redis-secret-file <file> (or --redis-secret, TANK_RULES_REDIS_SECRET) with {} \
         bytes or more, the same on every replica (e.g. `openssl rand -hex 32`)",
        Secret::MIN_BYTES
    )]
    NoSecret,
    #[error("{0} and {1} are both given: give one of them")]
    Both(&'static str, &'static str),
    #[error("the Redis secret file {} ({flag}): {error}", path.display())]
    File {
        flag: &'static str,
        path: PathBuf,
        error: std::io::Error,
    },
    #[error("the Redis secret of {flag} is too short: {short} (e.g. `openssl rand -hex 32`)")]
    TooShort {
        flag: &'static str,
        short: crate::cache::TooShort,
    },
}

/// The secret given by `value` or read from `file` (`flags` name them),
/// and the flag it came from; not both.
fn secret(
    value: Option<&Secret>,
    file: Option<&std::path::Path>,
    flags: [&'static str; 2],
) -> Result<Option<(Secret, &'static str)>, RedisConfigError> {
    match (value, file) {
        (Some(_), Some(_)) => Err(RedisConfigError::Both(flags[0], flags[1])),
        (Some(secret), None) => Ok(Some((secret.clone(), flags[0]))),
        (None, Some(path)) => Secret::read(path)
            .map(|secret| Some((secret, flags[1])))
            .map_err(|error| RedisConfigError::File {
                flag: flags[1],
                path: path.to_owned(),
                error,
            }),
        (None, None) => Ok(None),
    }
}

impl RedisArgs {
    /// How the replicas share Redis, when a Redis URL is given: the link,
    /// and the seal of the AI answers stored there, made of the secret
    /// (`--redis-secret` or `--redis-secret-file`, exactly one of them,
    /// needed) and the previous one during a rotation. No error holds a
    /// secret.
    pub fn shared(&self) -> Result<Option<SharedRedis>, RedisConfigError> {
        let Some(url) = &self.redis_url else {
            return Ok(None);
        };
        let link = crate::redis::LinkConfig::new(
            url.clone(),
            Duration::from_millis(self.redis_timeout_ms.max(1)),
        )
        .with_prefix(self.redis_prefix.clone());
        let current = secret(
            self.redis_secret.as_ref(),
            self.redis_secret_file.as_deref(),
            ["--redis-secret", "--redis-secret-file"],
        )?
        .ok_or(RedisConfigError::NoSecret)?;
        // An empty previous secret is none (a variable left empty after
        // a rotation).
        let previous = secret(
            self.redis_previous_secret.as_ref(),
            self.redis_previous_secret_file.as_deref(),
            ["--redis-previous-secret", "--redis-previous-secret-file"],
        )?
        .filter(|(secret, _)| !secret.is_empty());
        let seal =
            Seal::new(&current.0, previous.as_ref().map(|(secret, _)| secret)).map_err(|weak| {
                match weak {
                    WeakSecret::Current(short) => RedisConfigError::TooShort {
                        flag: current.1,
                        short,
                    },
                    WeakSecret::Previous(short) => RedisConfigError::TooShort {
                        flag: previous.map_or("--redis-previous-secret", |(_, flag)| flag),
                        short,
                    },
                }
            })?;
        Ok(Some(SharedRedis {
            link,
            seal,
            ttl: self.ttl(),
        }))
    }

    /// Whether a Redis secret is given without a Redis URL (it is not
    /// used).
    pub fn secret_unused(&self) -> bool {
        self.redis_url.is_none()
            && (self.redis_secret.is_some()
                || self.redis_secret_file.is_some()
                || self.redis_previous_secret.is_some()
                || self.redis_previous_secret_file.is_some())
    }

    /// How long an AI answer lives in Redis.
    pub fn ttl(&self) -> Duration {
        Duration::from_secs(self.redis_ttl_secs.max(1))
    }
}
