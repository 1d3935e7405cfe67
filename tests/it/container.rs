//! The image builds from what the Dockerfile copies (issue 39): every file
//! the service's build reads at compile time — the sources and every path
//! they name in `include_bytes!` or `include_str!` — lies under a path the
//! Dockerfile's build stage copies. (A missing `COPY data` broke `docker
//! build` once and nothing noticed; `scripts/container-smoke.sh` builds the
//! image for real.)

use std::path::{Component, Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The sources the Dockerfile's `COPY` lines bring into the build context
/// (the build stage: before the second `FROM`).
fn copied() -> Vec<PathBuf> {
    copied_before(None)
}

/// The sources copied in the build stage, or only before the first line
/// holding `before`.
fn copied_before(before: Option<&str>) -> Vec<PathBuf> {
    let dockerfile = std::fs::read_to_string(root().join("Dockerfile")).unwrap();
    let mut stages = 0;
    let mut copied = Vec::new();
    for line in dockerfile.lines().map(str::trim) {
        if before.is_some_and(|before| line.contains(before)) {
            break;
        }
        if line.starts_with("FROM ") {
            stages += 1;
        }
        if stages != 1 || !line.starts_with("COPY ") || line.contains("--from") {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().skip(1).collect();
        if let Some((_, sources)) = words.split_last() {
            copied.extend(sources.iter().map(|s| normalise(Path::new(s))));
        }
    }
    copied
}

/// `path` without `.` and `..` components.
fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// Every path `include_bytes!` / `include_str!` names under `src/`,
/// relative to the repository.
fn included(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            included(&path, found);
            continue;
        }
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for macro_name in ["include_bytes!(\"", "include_str!(\""] {
            for (at, _) in text.match_indices(macro_name) {
                let rest = &text[at + macro_name.len()..];
                let named = &rest[..rest.find('"').unwrap()];
                let beside = path.parent().unwrap().join(named);
                let relative = beside.strip_prefix(root()).unwrap().to_owned();
                found.push(normalise(&relative));
            }
        }
    }
}

#[test]
fn the_dockerfile_copies_every_file_the_build_reads() {
    let copied = copied();
    assert!(copied.iter().any(|c| c == Path::new("src")), "{copied:?}");
    let mut reads = vec![PathBuf::from("Cargo.toml"), PathBuf::from("Cargo.lock")];
    for member in MEMBERS {
        let dir = root().join(member);
        reads.push(
            dir.join("Cargo.toml")
                .strip_prefix(root())
                .unwrap()
                .to_owned(),
        );
        included(&dir.join("src"), &mut reads);
    }
    assert!(reads.len() > 2, "no include found: {reads:?}");
    if root().join("build.rs").exists() {
        reads.push(PathBuf::from("build.rs"));
    }
    for read in &reads {
        assert_copied(read, &copied, "the build reads", "");
    }
}

/// `file` exists and lies under one of `copied`.
fn assert_copied(file: &Path, copied: &[PathBuf], who: &str, when: &str) {
    assert!(
        root().join(file).exists(),
        "{} does not exist",
        file.display()
    );
    assert!(
        copied.iter().any(|c| file.starts_with(c)),
        "{who} {} but the Dockerfile copies only {copied:?}{when}",
        file.display()
    );
}

/// The dependency layer builds with the manifest alone and dummy sources:
/// cargo parses the manifest first, and a `[[bin]]` or `[[bench]]` named
/// without a `path` must find its file where cargo looks for it (a
/// missing `src/bin/exploit.rs` broke the image once, after the tools
/// were declared in the manifest).
#[test]
fn the_dependency_layer_holds_every_target_file_the_manifest_names() {
    let early = copied_before(Some("cargo build"));
    let mut found = 0;
    for member in MEMBERS {
        found += assert_targets_copied(member, &early);
    }
    assert!(found > 2, "{found} targets");
}

/// The workspace's packages, by their directories: the service at the
/// root, the engines below it.
const MEMBERS: [&str; 2] = ["", "engines"];

/// Asserts that every target the manifest of `member` names without a
/// path is copied in `early`; how many there are.
fn assert_targets_copied(member: &str, early: &[PathBuf]) -> usize {
    let dir = Path::new(member);
    let manifest = std::fs::read_to_string(root().join(dir).join("Cargo.toml")).unwrap();
    assert!(
        member.is_empty() || early.iter().any(|c| c == &dir.join("Cargo.toml")),
        "the dependency layer needs {member}/Cargo.toml: {early:?}"
    );
    let mut section = String::new();
    let mut targets: Vec<(String, Option<String>, Option<String>)> = Vec::new();
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            section = line.to_owned();
            if matches!(line, "[[bin]]" | "[[bench]]") {
                targets.push((section.clone(), None, None));
            }
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        let value = value.trim().trim_matches('"').to_owned();
        if let Some(target) = targets.last_mut().filter(|t| t.0 == section) {
            match key.trim() {
                "name" => target.1 = Some(value),
                "path" => target.2 = Some(value),
                _ => {}
            }
        }
    }
    let count = targets.len();
    for (kind, name, path) in targets {
        if path.is_some() {
            continue; // the dummy step writes src/main.rs
        }
        let name = name.unwrap();
        let file = match kind.as_str() {
            "[[bin]]" => dir.join(format!("src/bin/{name}.rs")),
            _ => dir.join(format!("benches/{name}.rs")),
        };
        assert_copied(
            &file,
            early,
            "the manifest names",
            " before its first build",
        );
    }
    count
}
