//! The provider panel's heading keeps one form through a run at one size
//! (teacher trial, tour-1 naive at 80x24): step 4 read `charges 1 ($40)  *
//! was 0` over a line `key store: empty`, step 13 `charges 1→2 $80 keys
//! 0`, step 15 `charges 2 $80 keys 0`: one figure relabelled from step to
//! step. At every step of every built-in run, at 80x24, 100x30 and
//! 120x40, the heading's words around its figures (the figures, and the
//! mark of a count that moved, left out) are the same at every step of the
//! run, and so is where the empty key store is said: on its own line, or
//! in the heading. A count of hidden rows after them comes and goes with
//! the rows it counts: nothing is hidden without one.

use crate::common::sweep;
use idem::tui::app::Panel;

/// The heading's form: its words with every figure `#`, the mark of a
/// moved count (`  * was 1`, `*was 1`, the `1→` before the new count) left
/// out, and its spaces squeezed.
fn form(heading: &str) -> String {
    let mut s = heading.to_string();
    // The old count before the new (`1→2`).
    while let Some(i) = s.find('→') {
        let start = s[..i]
            .rfind(|c: char| !c.is_ascii_digit())
            .map_or(0, |j| j + 1);
        s.replace_range(start..i + '→'.len_utf8(), "");
    }
    // The mark after the figures, in each of its widths.
    let words: Vec<&str> = s.split_whitespace().collect();
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let w = words[i];
        if w == "*" && words.get(i + 1) == Some(&"was") {
            i += 3;
            continue;
        }
        if w == "*was" {
            i += 2;
            continue;
        }
        let figure: String = w
            .chars()
            .map(|c| if c.is_ascii_digit() { '#' } else { c })
            .collect();
        // `##` and `#` are one figure.
        let mut squeezed = String::new();
        for c in figure.chars() {
            if !(c == '#' && squeezed.ends_with('#')) {
                squeezed.push(c);
            }
        }
        out.push(squeezed);
        i += 1;
    }
    out.join(" ")
}

#[test]
fn the_form_leaves_out_figures_and_marks() {
    assert_eq!(form("charges 1 ($40)  * was 0"), "charges # ($#)");
    assert_eq!(form("charges 1→2 $80 keys 0"), "charges # $# keys #");
    assert_eq!(form("charges 2 $80 keys 0"), "charges # $# keys #");
    assert_eq!(form("charges 12 $480 *was 11"), "charges # $#");
}

fn at(size: (u16, u16)) {
    one_form(size, sweep::Across::each_run(), "provider headings");
}

/// The run's heading form, and where its empty key store is said, noted
/// at each step by `forms` (in a run, or across a scenario's designs).
fn one_form(size: (u16, u16), mut forms: sweep::Across, what: &str) {
    let mut seen = 0;
    sweep::each_step(size, |step| {
        let Some((heading, now)) = heading_and_store(step) else {
            return;
        };
        seen += 1;
        for (kind, now) in now.into_iter().enumerate() {
            forms.note(step, kind, now, &heading);
        }
    });
    sweep::none_wrong(what, seen, 250, &forms.wrong, size);
}

/// The provider's heading at `step` and its form: its words, and where
/// the empty key store is said (`None` where the store is not empty).
/// `None` where the panel is not drawn.
fn heading_and_store(step: &sweep::Step) -> Option<(String, [Option<String>; 2])> {
    let rows = step.rows_in(Panel::Provider);
    let heading = rows.first()?.clone();
    let empty = step.frame.provider.keys.is_empty();
    let store = if rows.iter().skip(1).any(|r| r.contains("store: empty")) {
        "on its own line"
    } else {
        // `keys 0`, or counted with folded charges (`…3 rows`).
        "in the heading"
    };
    // A count of hidden rows (`…2 keys`, `… 1 key not shown`) stands
    // where rows are hidden, and `keys 0` where the store is empty
    // (checked apart, below): the form is the words before them.
    let before = heading.split('…').next().unwrap_or_default();
    let words = form(before)
        .trim_end_matches(" keys #")
        .trim_end_matches(" · key store empty")
        .to_string();
    Some((heading, [Some(words), empty.then(|| store.to_string())]))
}

/// `m` switches design at the same moment: teacher trial, tour-4 at
/// 80x24, naive's heading read `charges 0→1 $40 keys 0` and idempotent's
/// `charges 1 ($40)  * was 0` over a line `key store: empty`. A
/// scenario's provider heading, and where its empty key store is said,
/// take one form under every design it lists.
fn across_designs(size: (u16, u16)) {
    one_form(
        size,
        sweep::Across::default(),
        "provider headings across designs",
    );
}

#[test]
fn the_provider_heading_keeps_its_form_across_designs_at_80x24() {
    across_designs(sweep::SIZES[0]);
}

#[test]
fn the_provider_heading_keeps_its_form_across_designs_at_100x30() {
    across_designs(sweep::SIZES[1]);
}

#[test]
fn the_provider_heading_keeps_its_form_across_designs_at_120x40() {
    across_designs(sweep::SIZES[2]);
}

#[test]
fn the_provider_heading_keeps_one_form_at_80x24() {
    at(sweep::SIZES[0]);
}

#[test]
fn the_provider_heading_keeps_one_form_at_100x30() {
    at(sweep::SIZES[1]);
}

#[test]
fn the_provider_heading_keeps_one_form_at_120x40() {
    at(sweep::SIZES[2]);
}

/// The provider's heading, the first row inside its border (`rows`): its
/// words as `form` reads them (what is counted after `…` left out).
fn heading_form(rows: &[String]) -> String {
    let heading = rows.first().map(String::as_str).unwrap_or_default();
    let before = heading.split('…').next().unwrap_or_default();
    form(before)
        .trim_end_matches(" keys #")
        .trim_end_matches(" · key store empty")
        .to_string()
}

/// `w` opens the verdict whole and gives the panels above another
/// height: the provider's heading took a form of its own there (teacher
/// trial), the same figures relabelled at a key press. At each step of
/// every built-in run, at each size, the heading under `w` reads as it
/// does on the main screen.
#[test]
fn the_provider_heading_keeps_its_form_under_w() {
    for size in sweep::SIZES {
        under_w_at(size);
    }
}

/// The walk under `w` is the one the other panels' sweeps share
/// (`common::under_w`): drawn once a size for the test binary.
fn under_w_at(size: (u16, u16)) {
    use crate::common::under_w;
    let (mut seen, mut wrong) = (0, Vec::new());
    under_w::each_step(size, Panel::Provider, |pair| {
        let (Some(main), Some(why)) = (pair.main, pair.why) else {
            return;
        };
        let (main, why) = (heading_form(&main), heading_form(&why));
        seen += 1;
        if main != why {
            wrong.push(format!("{}: {main:?} under w reads {why:?}", pair.at));
        }
    });
    sweep::none_wrong("provider headings under w", seen, 250, &wrong, size);
}
