//! Every relative link in the repository's Markdown files resolves: its
//! file exists, and its anchor (`#…`) is a heading of that file as GitHub
//! names it (lower case, punctuation dropped, spaces as `-`, a repeated
//! heading's anchor numbered `-1`, `-2`, …). Links to other sites are not
//! followed.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The Markdown files git tracks (generated and vendored ones are not).
fn markdown_files() -> Vec<PathBuf> {
    let listed = std::process::Command::new("git")
        .args(["ls-files", "-z", "--", "*.md"])
        .current_dir(root())
        .output()
        .expect("git lists the tracked files");
    assert!(listed.status.success(), "git ls-files failed");
    String::from_utf8(listed.stdout)
        .unwrap()
        .split('\0')
        .filter(|name| !name.is_empty())
        .map(PathBuf::from)
        .filter(|path| root().join(path).exists())
        .collect()
}

/// The text outside fenced code blocks, a line at a time.
fn prose(text: &str) -> Vec<&str> {
    let mut fenced = false;
    let mut lines = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced {
            lines.push(line);
        }
    }
    lines
}

/// GitHub's anchor for a heading's text.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ' '))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a Markdown text's headings.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut anchors = BTreeSet::new();
    for line in prose(text) {
        let hashes = line.chars().take_while(|&c| c == '#').count();
        if !(1..=6).contains(&hashes) || !line[hashes..].starts_with(' ') {
            continue;
        }
        let base = slug(&line[hashes..]);
        let n = seen.entry(base.clone()).or_insert(0);
        anchors.insert(match *n {
            0 => base,
            n => format!("{base}-{n}"),
        });
        *n += 1;
    }
    anchors
}

/// The targets of a text's links and images (`[…](target)`), outside code
/// blocks and code spans; a link's text may span lines.
fn targets(text: &str) -> Vec<String> {
    let prose = prose(text).join("\n");
    let mut found = Vec::new();
    let mut in_code = false;
    let bytes = prose.as_bytes();
    for (at, &b) in bytes.iter().enumerate() {
        if b == b'`' {
            in_code = !in_code;
        }
        if in_code || b != b']' || bytes.get(at + 1) != Some(&b'(') {
            continue;
        }
        let rest = &prose[at + 2..];
        if let Some(end) = rest.find(')') {
            let target = rest[..end].split_whitespace().next().unwrap_or("");
            found.push(target.to_owned());
        }
    }
    found
}

fn is_external(target: &str) -> bool {
    target.contains("://") || target.starts_with("mailto:")
}

#[test]
fn every_relative_link_and_anchor_in_the_markdown_files_resolves() {
    let files = markdown_files();
    assert!(
        files.iter().any(|f| f == Path::new("README.md")),
        "the README is tracked"
    );
    let mut broken = Vec::new();
    let mut checked = 0;
    for file in &files {
        let text = std::fs::read_to_string(root().join(file)).unwrap();
        for target in targets(&text) {
            if target.is_empty() || is_external(&target) {
                continue;
            }
            checked += 1;
            let (path, anchor) = match target.split_once('#') {
                Some((path, anchor)) => (path, Some(anchor)),
                None => (target.as_str(), None),
            };
            let linked = match path {
                "" => root().join(file),
                path => root().join(file).parent().unwrap().join(path),
            };
            if !linked.exists() {
                broken.push(format!("{}: {target}: no such file", file.display()));
                continue;
            }
            let Some(anchor) = anchor else { continue };
            let is_markdown = linked.extension().is_some_and(|e| e == "md");
            let known =
                is_markdown && anchors(&std::fs::read_to_string(&linked).unwrap()).contains(anchor);
            if !known {
                broken.push(format!("{}: {target}: no such heading", file.display()));
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
    assert!(
        checked > 50,
        "only {checked} links read: the reader is wrong"
    );
}

/// The reader finds a link that spans lines, skips code, and names
/// headings as GitHub does.
#[test]
fn the_link_reader_reads_as_github_does() {
    let text = "# A title\n\n## Tank Wars (the board game's round)\n\n## Endpoints\n\n## Endpoints\n\
                see [the\nround](#tank-wars-the-board-games-round) and `[x](y)`\n\n```\n[a](b)\n```\n";
    assert_eq!(targets(text), ["#tank-wars-the-board-games-round"]);
    let anchors = anchors(text);
    for anchor in [
        "a-title",
        "tank-wars-the-board-games-round",
        "endpoints",
        "endpoints-1",
    ] {
        assert!(anchors.contains(anchor), "{anchor}: {anchors:?}");
    }
}
