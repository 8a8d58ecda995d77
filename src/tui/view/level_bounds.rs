//! The prover's bounds in as few words as a row has room for: the level
//! screen's verdict says within what it holds (or broke) on its first row,
//! at every size, and the whole wording is one key (`w`) away. At 80x24 the
//! prover box has one row: the trial read `✓ level won within this level's
//! faults. No schedule breaks your …4 more`, which named no bound.

use crate::check::Bounds;
use crate::levels::Fault;
use crate::tui::theme::Theme;

/// The forms of `within …` for `used`, longest first, each in one order
/// (consumers, messages, then faults, as `check::further::within_all`
/// says the whole): every bound with the kinds of fault, then the
/// messages in fewer letters, then the kinds dropped, down to the faults
/// alone. `every` is whether the level throws every kind of fault there
/// is; else the kinds say `only`.
pub fn forms(used: &Bounds, every: bool) -> Vec<String> {
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let faults = crate::check::further::faults(used.max_faults);
    let kinds = if every {
        format!("all {} kinds", Fault::ALL.len())
    } else {
        crate::check::further::kinds_words(used)
    };
    let consumers = plural(used.consumers, "consumer", "consumers");
    let messages = plural(used.messages, "message", "messages");
    let msgs = plural(used.messages, "msg", "msgs");
    vec![
        format!("within {consumers}, {messages} and {faults} ({kinds})"),
        format!("within {consumers}, {msgs} and {faults} ({kinds})"),
        format!("within {consumers}, {messages} and {faults}"),
        format!("within {consumers}, {msgs} and {faults}"),
        format!("within {faults}"),
    ]
}

/// The first of `leads` (the claim, in fewer words each) with the longest
/// form that fits `room` columns with it (as the screen draws it): the
/// bounds give up words before the claim does. The shortest of both where
/// none fits.
pub fn head(t: &Theme, leads: &[String], forms: &[String], room: usize) -> String {
    let fits = |l: &String| t.text(l).chars().count() <= room;
    leads
        .iter()
        .flat_map(|lead| forms.iter().map(move |form| format!("{lead}{form}")))
        .find(fits)
        .unwrap_or_else(|| {
            let lead = leads.last().map_or("", String::as_str);
            format!("{lead}{}", forms.last().map_or("", String::as_str))
        })
}

/// The sign that a box of the level screen (the goal, the prover) holds
/// more than it shows, naming the key that shows both whole: long (` … ↓ 4 more · w`) and short (` …4 more · w`).
pub fn signs(t: &Theme, hidden: u16) -> (String, String) {
    let (long, short) = super::overflow::signs(t, hidden);
    (format!("{long} · w"), format!("{short} · w"))
}

/// How wide the long sign is at its widest (two digits), for a head to
/// leave it room on the one row a small screen gives the box.
pub fn sign_room(t: &Theme) -> usize {
    t.text(&signs(t, 99).0).chars().count()
}
