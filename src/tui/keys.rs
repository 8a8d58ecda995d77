//! The key table, written once: the help overlay and the key-hint bar both
//! read it, so they cannot drift apart from each other.

pub struct KeyHelp {
    pub keys: &'static str,
    /// Short form for the hint bar; `None` keeps it out of the bar.
    pub hint: Option<(&'static str, &'static str)>,
    /// Which hints stay when the bar is narrow: lower first. The bar still
    /// shows them in the table's order.
    pub rank: u8,
    pub what: &'static str,
}

pub const KEYS: &[KeyHelp] = &[
    KeyHelp {
        keys: "→ / l,  ← / h",
        hint: Some(("←/→", "step")),
        rank: 0,
        what: "one step forward / back",
    },
    KeyHelp {
        keys: "] / PgDn,  [ / PgUp",
        hint: Some(("[/]", "chapter")),
        rank: 8,
        what: "next / previous chapter (or tour step, at either end)",
    },
    KeyHelp {
        keys: "Home / g,  End / G",
        hint: None,
        rank: 99,
        what: "first / last step",
    },
    KeyHelp {
        keys: "space",
        hint: Some(("space", "play")),
        rank: 6,
        what: "play the steps one by one, or pause",
    },
    KeyHelp {
        keys: "+  -",
        hint: None,
        rank: 99,
        what: "play faster / slower",
    },
    KeyHelp {
        keys: "m",
        hint: Some(("m", "design")),
        rank: 1,
        what: "next design of this scenario, at the same step",
    },
    KeyHelp {
        keys: "c",
        hint: Some(("c", "compare")),
        rank: 9,
        what: "compare two designs side by side on this scenario",
    },
    KeyHelp {
        keys: "f",
        hint: Some(("f", "fault")),
        rank: 2,
        what: "break something here: crash, lose an ack, ...",
    },
    KeyHelp {
        keys: "s",
        hint: Some(("s", "scenarios")),
        rank: 3,
        what: "choose another scenario",
    },
    KeyHelp {
        keys: "x",
        hint: Some(("x", "explore")),
        rank: 4,
        what: "explore every schedule; replay what breaks a design",
    },
    KeyHelp {
        keys: "L",
        hint: None,
        rank: 99,
        what: "levels: build a handler the prover cannot break",
    },
    KeyHelp {
        keys: "v",
        hint: Some(("v", "failure")),
        rank: 5,
        what: "jump to the first step where the outcome goes wrong",
    },
    KeyHelp {
        keys: "Tab / shift-Tab, click",
        hint: None,
        rank: 99,
        what: "select a panel",
    },
    KeyHelp {
        keys: "z",
        hint: None,
        rank: 99,
        what: "enlarge the selected panel, or back",
    },
    KeyHelp {
        keys: "p",
        hint: Some(("p", "present")),
        rank: 10,
        what: "presenter view: the four figures in large type",
    },
    KeyHelp {
        keys: "a",
        hint: None,
        rank: 99,
        what: "predict mode: answer first, then see the step",
    },
    KeyHelp {
        keys: "e",
        hint: None,
        rank: 99,
        what: "save this moment: the screen (SVG, PNG, text) and the run as a scenario that opens here",
    },
    KeyHelp {
        keys: "↑ ↓ / k j, Enter, 0-9",
        hint: None,
        rank: 99,
        what: "move and choose in a menu",
    },
    KeyHelp {
        keys: "?",
        hint: Some(("?", "help")),
        rank: 0,
        what: "this help",
    },
    KeyHelp {
        keys: "Esc",
        hint: None,
        rank: 99,
        what: "close a menu or view (it never quits)",
    },
    KeyHelp {
        keys: "q",
        hint: Some(("q", "quit")),
        rank: 0,
        what: "quit (over a menu: close the menu)",
    },
    KeyHelp {
        keys: "Ctrl-C",
        hint: None,
        rank: 99,
        what: "quit from anywhere",
    },
];
