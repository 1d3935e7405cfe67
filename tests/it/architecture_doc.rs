//! docs/ARCHITECTURE.md stays true: every file it names exists, and every
//! file under `src/` and `engines/src/` is named in it.
//!
//! A name is a backticked path ending in `.rs`: from the repository root
//! when it starts with `src/`, `engines/`, `tests/` or `benches/`, else relative to
//! the folder of the section it is in (a heading whose backticked text
//! ends in `/`; a heading that names several folders makes each of them
//! the section's folder, and a name must exist in one).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The backticked texts of `line`.
fn backticked(line: &str) -> Vec<&str> {
    line.split('`').skip(1).step_by(2).collect()
}

/// The files `doc` names, each with the folders it may be in, and the
/// line it is on.
fn named(doc: &str) -> Vec<(String, Vec<String>, usize)> {
    let mut folders: Vec<String> = Vec::new();
    let mut names = Vec::new();
    let mut in_code = false;
    for (number, line) in doc.lines().enumerate() {
        if line.starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            continue;
        }
        if line.starts_with('#') {
            folders = backticked(line)
                .into_iter()
                .filter(|text| text.ends_with('/'))
                .map(str::to_owned)
                .collect();
            continue;
        }
        for text in backticked(line) {
            // One backticked text may name several files ("a.rs, b.rs").
            for name in text.split([',', ' ']).filter(|t| t.ends_with(".rs")) {
                let rooted = ["src/", "engines/", "tests/", "benches/", "examples/"]
                    .iter()
                    .any(|top| name.starts_with(top));
                let within = if rooted || folders.is_empty() {
                    vec![String::new()]
                } else {
                    folders.clone()
                };
                if !name.contains(['<', '*']) {
                    names.push((name.to_owned(), within, number + 1));
                }
            }
        }
    }
    names
}

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files_under(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The files under `src/` the names reach, and the names that reach none.
fn check(doc: &str, exists: &dyn Fn(&str) -> bool) -> (BTreeSet<String>, Vec<String>) {
    let mut found = BTreeSet::new();
    let mut missing = Vec::new();
    for (name, within, line) in named(doc) {
        let paths: Vec<String> = within.iter().map(|dir| format!("{dir}{name}")).collect();
        let existing: Vec<&String> = paths.iter().filter(|p| exists(p)).collect();
        if existing.is_empty() {
            missing.push(format!("line {line}: `{name}` (looked for {paths:?})"));
        }
        found.extend(existing.into_iter().cloned());
    }
    (found, missing)
}

#[test]
fn the_map_names_every_source_file_and_only_files_that_exist() {
    let root = root();
    let doc = std::fs::read_to_string(root.join("docs/ARCHITECTURE.md")).unwrap();
    let (found, missing) = check(&doc, &|path| root.join(path).is_file());
    assert!(
        missing.is_empty(),
        "named in docs/ARCHITECTURE.md but not there:\n{}",
        missing.join("\n")
    );
    let mut sources = Vec::new();
    files_under(&root.join("src"), &mut sources);
    files_under(&root.join("engines/src"), &mut sources);
    let unnamed: Vec<String> = sources
        .iter()
        .map(|path| {
            path.strip_prefix(&root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/")
        })
        .filter(|path| !found.contains(path))
        .collect();
    assert!(
        unnamed.is_empty(),
        "not named in docs/ARCHITECTURE.md:\n{}",
        unnamed.join("\n")
    );
}

#[test]
fn the_map_check_finds_a_wrong_name_and_reads_sections() {
    let doc =
        "### `src/a/`\n- `x.rs`, `y.rs` — two\n### `src/b/`, `src/c/`\n- `z.rs, w.rs` — one each\n\
               ```\n`src/in/code.rs`\n```\nSee `src/top.rs`.\n";
    let present = ["src/a/x.rs", "src/c/z.rs", "src/b/w.rs", "src/top.rs"];
    let (found, missing) = check(doc, &|path| present.contains(&path));
    assert_eq!(
        found.into_iter().collect::<Vec<_>>(),
        ["src/a/x.rs", "src/b/w.rs", "src/c/z.rs", "src/top.rs"]
    );
    assert_eq!(missing.len(), 1, "{missing:?}");
    assert!(missing[0].contains("`y.rs`"), "{missing:?}");
}
