//! The prover's bounds in as few words as a row has room for: the level
//! screen's verdict says within what it holds (or broke) on its first row,
//! at every size, and the whole wording is one key (`w`) away. At 80x24 the
//! prover box has one row: the trial read `✓ level won within this level's
//! faults. No schedule breaks your …4 more`, which named no bound.

use crate::check::Bounds;
use crate::tui::theme::Theme;

/// The forms of `within …` for `used`, longest first, in two groups:
/// with the kinds of fault, then without. Each in one order (consumers,
/// messages, then faults, as `check::further::within_all` says the
/// whole): every bound, then the messages in fewer letters, then the
/// faults alone. The kinds go last, after the consumers and messages:
/// `within 2 faults` without `(crashes only)` read as safe against 2
/// faults of any kind (teacher trial 28). `every` is whether the level
/// throws every kind of fault there is; else the kinds say `only`. The
/// kinds say their caps per kind too, or that there are none; only where
/// the claim is not `won` may the fewest forms give the caps up.
/// `tail`, after every form, is what the claim says one bound further
/// (`; ! breaks at 3 faults`).
pub fn forms(used: &Bounds, every: bool, won: bool, tail: &str) -> [Vec<String>; 2] {
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let faults = crate::check::further::faults(used.max_faults);
    let consumers = plural(used.consumers, "consumer", "consumers");
    let messages = plural(used.messages, "message", "messages");
    let msgs = plural(used.messages, "msg", "msgs");
    let bare = [
        format!("within {consumers}, {messages} and {faults}"),
        format!("within {consumers}, {msgs} and {faults}"),
        format!("within {faults}"),
    ];
    let kinds = kinds(used, every);
    // Last of the forms with kinds: the break one bound further without
    // its unit (`; ! breaks at 3`), which the faults just before it name:
    // the kinds give way after the unit does (at 80x24, `early lease
    // expiries` in full left no room for them).
    let unitless = tail
        .strip_suffix(" faults")
        .or_else(|| tail.strip_suffix(" fault"))
        .filter(|short| !short.is_empty());
    let mut with_kinds: Vec<String> = bare
        .iter()
        .map(|form| format!("{form} ({kinds}){tail}"))
        .collect();
    if let Some(short) = unitless {
        with_kinds.push(format!("{} ({kinds}){short}", bare[2]));
    }
    // The kinds and their caps in fewest words, before the bounds go
    // without them: `(crashes only)` left the cap per kind unsaid.
    if let Some(few) = crate::check::further::kinds_capped_short(used, every) {
        with_kinds.push(format!("{} ({few}){tail}", bare[2]));
        if let Some(short) = unitless {
            with_kinds.push(format!("{} ({few}){short}", bare[2]));
        }
    }
    // A run that broke the handler claims nothing: where its long lead
    // leaves no room for the caps, the kinds alone say where it was found
    // (`within 1 fault (crashes only)`, level 8 at 80x24).
    if !won {
        with_kinds.push(format!(
            "{} ({}){tail}",
            bare[2],
            crate::check::further::kinds_words(used)
        ));
    }
    [
        with_kinds,
        bare.iter().map(|form| format!("{form}{tail}")).collect(),
    ]
}

/// The kinds of fault a claim was proven under and their caps, as its
/// first row names them: `all 4 kinds, 1 of each, crashes per consumer`,
/// or `crashes only, no cap per kind`.
pub fn kinds(used: &Bounds, every: bool) -> String {
    crate::check::further::kinds_capped(used, every)
}

/// What a won level's first row says after its bounds where the try one
/// more fault further broke the handler: the explorer's `!` for "holds
/// within the bounds, broken one bound further", with the bound it broke
/// at (`; ! breaks at 3 faults`), so that no size shows the win alone.
pub fn breaks_tail(t: &Theme, r: &crate::check::StrategyReport) -> String {
    crate::tui::explorer::table::breaks_further(r).map_or(String::new(), |f| {
        format!(
            "; {} breaks at {}",
            t.g.warning,
            crate::check::further::faults(f.bounds.max_faults)
        )
    })
}

/// The first of `leads` (the claim, in fewer words each) with the longest
/// form that fits `room` columns with it (as the screen draws it): in
/// each group of forms in turn, the claim gives up words (`in 16 moves`)
/// before the bounds do, and its fewest words (the last lead) come after
/// every other lead. So the bounds give up the consumers and messages
/// before the kinds of fault. The shortest of both where none fits.
pub fn head(t: &Theme, leads: &[String], forms: &[Vec<String>], room: usize) -> String {
    let fits = |l: &String| t.text(l).chars().count() <= room;
    let (fewest, rest) = match leads.split_last() {
        Some((last, rest)) if !rest.is_empty() => (Some(last), rest),
        _ => (None, leads),
    };
    let mut tries = forms.iter().flat_map(|group| {
        let longer = group
            .iter()
            .flat_map(move |form| rest.iter().map(move |lead| format!("{lead}{form}")));
        let fewest = fewest
            .into_iter()
            .flat_map(move |lead| group.iter().map(move |form| format!("{lead}{form}")));
        longer.chain(fewest)
    });
    tries.find(fits).unwrap_or_else(|| {
        let lead = leads.last().map_or("", String::as_str);
        let form = forms.last().and_then(|g| g.last());
        format!("{lead}{}", form.map_or("", String::as_str))
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
