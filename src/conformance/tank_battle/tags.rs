//! Tank Battle's rule tags: each a rule of docs/TANK-BATTLE.md and the sentence it
//! stands for, and the tag of each reason code.

use crate::conformance::tag::Tag;
use crate::games::tank_battle::Reason;

/// The rule tags, each with its sentence and where it is written: the
/// docs/TANK-BATTLE.md's "Rules as implemented".
pub const TAGS: [Tag; 10] = [
    Tag {
        name: "slide",
        source: "docs/TANK-BATTLE.md rule 1",
        rule: "A move slides one own tank 1..10 squares in one of the 8 directions (rank, file or diagonal).",
    },
    Tag {
        name: "mine",
        source: "docs/TANK-BATTLE.md rule 2",
        rule: "A tank may not enter or pass a mine.",
    },
    Tag {
        name: "no-jumping",
        source: "docs/TANK-BATTLE.md rule 2",
        rule: "A tank may not pass over any tank, own or enemy.",
    },
    Tag {
        name: "contaminated",
        source: "docs/TANK-BATTLE.md rule 3",
        rule: "A normal tank may not enter or pass a contaminated square; a commander may.",
    },
    Tag {
        name: "capture",
        source: "docs/TANK-BATTLE.md rule 4",
        rule: "Capture: a move whose destination holds an enemy tank (normal or commander) removes it. The destination may not hold an own tank.",
    },
    Tag {
        name: "no-capture-contaminated",
        source: "docs/TANK-BATTLE.md rule 4",
        rule: "No capture on a contaminated square. A tank on a contaminated square therefore cannot be captured.",
    },
    Tag {
        name: "locked-in-base",
        source: "docs/TANK-BATTLE.md rule 5",
        rule: "A tank standing on a square of the opponent's base is locked in: every square its move passes or enters must also be in the opponent's base. It may still capture inside that base.",
    },
    Tag {
        name: "end",
        source: "docs/TANK-BATTLE.md rule 6",
        rule: "The game ends after a move when, for either side, every remaining tank of that side stands in the opponent's base (a side with no tanks left counts), or when the side to move has no legal move. Nothing else ends the game.",
    },
    Tag {
        name: "scoring",
        source: "docs/TANK-BATTLE.md rule 7",
        rule: "Score, for each side: 3 for its commander on the opponent's commander start; 2 for its commander elsewhere in the opponent's base; 2 for each normal tank in the opponent's base; 1 for each other surviving tank. At the end the higher score wins; equal scores are a draw.",
    },
    Tag {
        name: "layout",
        source: "docs/TANK-BATTLE.md, The standard layout",
        rule: "Layouts are data: any 11x11 layout can be submitted.",
    },
];

/// The tag of the rule a reason code enforces.
pub(super) fn tag_of(reason: Reason) -> &'static str {
    match reason {
        Reason::GameOver => "end",
        Reason::NoTankAtFrom | Reason::NotYourTank | Reason::NotALine => "slide",
        Reason::Mine => "mine",
        Reason::Contaminated => "contaminated",
        Reason::LockedInEnemyBase => "locked-in-base",
        Reason::PathBlocked => "no-jumping",
        Reason::OwnTankAtTo => "capture",
        Reason::CaptureInContaminated => "no-capture-contaminated",
    }
}
