//! The key table, written once: the help overlay and the key-hint bar both
//! read it, so they cannot drift apart from each other.

pub struct KeyHelp {
    pub keys: &'static str,
    /// Short form for the hint bar; `None` keeps it out of the bar.
    pub hint: Option<(&'static str, &'static str)>,
    pub what: &'static str,
}

pub const KEYS: &[KeyHelp] = &[
    KeyHelp {
        keys: "→ / l,  ← / h",
        hint: Some(("←/→", "step")),
        what: "one step forward / back",
    },
    KeyHelp {
        keys: "] / PgDn,  [ / PgUp",
        hint: Some(("[/]", "chapter")),
        what: "next / previous chapter of the scenario",
    },
    KeyHelp {
        keys: "Home / g,  End / G",
        hint: None,
        what: "first / last step",
    },
    KeyHelp {
        keys: "space",
        hint: Some(("space", "play")),
        what: "play the steps one by one, or pause",
    },
    KeyHelp {
        keys: "+  -",
        hint: None,
        what: "play faster / slower",
    },
    KeyHelp {
        keys: "m",
        hint: Some(("m", "mode")),
        what: "switch design: naive, idempotent, ... (same step)",
    },
    KeyHelp {
        keys: "c",
        hint: Some(("c", "compare")),
        what: "compare two designs side by side on this scenario",
    },
    KeyHelp {
        keys: "f",
        hint: Some(("f", "fault")),
        what: "break something here: crash, lose an ack, ...",
    },
    KeyHelp {
        keys: "s",
        hint: Some(("s", "scenarios")),
        what: "choose another scenario",
    },
    KeyHelp {
        keys: "x",
        hint: Some(("x", "explore")),
        what: "explore every schedule; replay what breaks a design",
    },
    KeyHelp {
        keys: "v",
        hint: Some(("v", "violation")),
        what: "jump to the first step where the outcome goes wrong",
    },
    KeyHelp {
        keys: "Tab / shift-Tab, click",
        hint: None,
        what: "select a panel",
    },
    KeyHelp {
        keys: "z",
        hint: None,
        what: "enlarge the selected panel, or back",
    },
    KeyHelp {
        keys: "↑ ↓ / k j, Enter, 1-9",
        hint: None,
        what: "move and choose in a menu",
    },
    KeyHelp {
        keys: "?",
        hint: Some(("?", "help")),
        what: "this help",
    },
    KeyHelp {
        keys: "Esc",
        hint: None,
        what: "close a menu or view; on the main screen, quit",
    },
    KeyHelp {
        keys: "q,  Ctrl-C",
        hint: Some(("q", "quit")),
        what: "quit",
    },
];
