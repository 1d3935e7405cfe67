//! The conformance corpus (conformance/README.md): for a game, the cases another
//! implementation must answer as this one does, one JSON object a line —
//! a header (the game, its rules' version, the notation, the case kinds
//! and the closed list of rule tags, each with the sentence of the rules
//! it comes from), then one case a line. Written by `tank-rules
//! conformance <game>` and committed under `conformance/<game>/`; a test
//! fails when the committed file differs from what the engine writes.
//!
//! The corpus is made without HTTP: Tank Battle's from the engine alone
//! (its notation is the engine's), The Tank War's and Tank Wars' through
//! the game's face (their states are the engines' JSON notation, their
//! answers the face's DTOs); every case is answered by the
//! game's own rules, so the service's answers can be checked against it
//! too (`tests/it`).

pub mod cobi_tank_wars;
mod face;
pub mod tag;
pub mod tank_battle;
pub mod tank_war;

pub use tag::Tag;

/// The corpora by name, each with its file under `conformance/`: a
/// game's (by its path name), and Tank Battle's under an end policy.
pub const CORPORA: [(&str, &str); 4] = [
    ("tank-battle", "tank-battle/corpus.jsonl"),
    ("tank-war", "tank-war/corpus.jsonl"),
    ("cobi-tank-wars", "cobi-tank-wars/corpus.jsonl"),
    ("tank-battle/end-policy", "tank-battle/end-policy.jsonl"),
];

/// The corpus `name` (of [`CORPORA`]) as JSON Lines, each line ending in
/// a newline; `None` for no such corpus.
pub fn corpus(name: &str) -> Option<String> {
    let lines = match name {
        "tank-battle" => tank_battle::corpus(),
        "tank-war" => tank_war::corpus(),
        "cobi-tank-wars" => cobi_tank_wars::corpus(),
        "tank-battle/end-policy" => tank_battle::end_policy::corpus(),
        _ => return None,
    };
    let mut text = String::new();
    for line in lines {
        text.push_str(&line.to_string());
        text.push('\n');
    }
    Some(text)
}

/// Asserts that every tag and every reason code of a corpus is in at
/// least five of its cases (conformance/README.md).
#[cfg(test)]
pub(crate) fn assert_covered(cases: &[serde_json::Value], tags: &[Tag], reasons: &[&str]) {
    for tag in tags {
        let count = cases
            .iter()
            .filter(|case| {
                case["tags"]
                    .as_array()
                    .is_some_and(|t| t.iter().any(|name| name == tag.name))
            })
            .count();
        assert!(count >= 5, "tag {}: {count} cases", tag.name);
    }
    for code in reasons {
        let count = cases.iter().filter(|case| case["reason"] == *code).count();
        assert!(count >= 5, "code {code}: {count} cases");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each committed corpus is what the rules answer today: a rule broken
    /// anywhere changes some case's answer (the test the mutation runs
    /// use: BENCHMARKS, "Mutation testing").
    #[test]
    fn each_committed_corpus_is_what_the_rules_answer() {
        for (name, file) in CORPORA {
            let path = format!("{}/conformance/{file}", env!("CARGO_MANIFEST_DIR"));
            let committed = std::fs::read_to_string(path).unwrap_or_default();
            assert!(
                corpus(name).as_deref() == Some(committed.as_str()),
                "conformance/{file} is out of date with the rules; write it again \
                 with\n\n    cargo run -- conformance {name} > conformance/{file}\n\n\
                 (and bump the game's RULES_VERSION when a rule's answer changed)"
            );
        }
    }
}
