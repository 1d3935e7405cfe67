//! The layering docs/ARCHITECTURE.md claims, checked on the source: the
//! engines (`src/games`) and the shared pieces below the HTTP layer
//! (cache, limits, metrics, error, render, fair use, the Redis link)
//! import nothing from the HTTP layer (`crate::api`) or the command line
//! (`crate::config`); the engines and the pictures use no HTTP or OpenAPI
//! library either.

use std::path::{Path, PathBuf};

/// The `.rs` files at or below `path`.
fn sources(path: &Path) -> Vec<PathBuf> {
    if path.is_file() {
        return vec![path.to_owned()];
    }
    let mut files = Vec::new();
    for entry in std::fs::read_dir(path).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(sources(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

/// The code of a file, comments left out (a comment may name any module).
fn code(path: &Path) -> Vec<(usize, String)> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .enumerate()
        .map(|(n, line)| (n + 1, line.split("//").next().unwrap_or("").to_owned()))
        .collect()
}

/// The lines of the files under `paths` that name one of `forbidden`.
fn offences(paths: &[&str], forbidden: &[&str]) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    let mut files = 0;
    for path in paths {
        for file in sources(&root.join(path)) {
            files += 1;
            for (n, line) in code(&file) {
                for name in forbidden {
                    if line.contains(name) {
                        let file = file.strip_prefix(root).unwrap_or(&file).display();
                        found.push(format!("{file}:{n}: {}", line.trim()));
                    }
                }
            }
        }
    }
    assert!(files >= paths.len(), "no sources read under {paths:?}");
    found
}

/// The modules a layer below the HTTP layer may not reach.
const ABOVE: &[&str] = &[
    "crate::api",
    "crate::config",
    "tank_rules::api",
    "tank_rules::config",
    "super::api",
    "super::config",
];

#[test]
fn nothing_below_the_http_layer_imports_it_or_the_command_line() {
    let below = [
        "src/games",
        "src/cache",
        "src/render",
        "src/fair_use",
        "src/limits.rs",
        "src/metrics.rs",
        "src/error.rs",
        "src/redis.rs",
        "src/access_log.rs",
    ];
    let found = offences(&below, ABOVE);
    assert!(
        found.is_empty(),
        "imports from above:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_engines_and_pictures_know_nothing_of_http() {
    let found = offences(
        &["src/games", "src/render"],
        &["actix", "utoipa", "HttpResponse", "StatusCode"],
    );
    assert!(found.is_empty(), "HTTP in an engine:\n{}", found.join("\n"));
}

#[test]
fn the_check_finds_what_it_looks_for() {
    // The HTTP layer does import the shared pieces: the check can fail.
    let found = offences(&["src/api/mod.rs"], &["crate::metrics"]);
    assert!(!found.is_empty());
}
