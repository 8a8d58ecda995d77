//! The bottom line: the keys that matter here, or a note about the last one.

use crate::tui::action::Action;
use crate::tui::app::{App, Overlay};
use crate::tui::compare::Sides;
use crate::tui::key_list::{EXPLORER_KEYS, keys_note};
use crate::tui::keys::KEYS;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

/// The level screen's keys, each `(key, what it does, rank)`, rank 0
/// for `?`, which stays at the right end. The way back outranks the next
/// level: with the keys left out counted, 80 columns have room for one
/// less. `?` shows the hint and these keys, every one (`levels.rs`), so
/// that the ones the bar leaves out are a key away.
pub const LEVEL_KEYS: [(&str, &str, u8); 11] = [
    ("↑/↓", "step", 9),
    ("1-0", "add", 1),
    ("d", "remove", 2),
    ("K/J", "move", 3),
    ("Enter", "prove", 1),
    ("v", "watch", 4),
    ("w", "whole", 7),
    ("[/]", "level", 6),
    ("r", "reset", 8),
    ("Esc", "back", 5),
    ("?", "hint", 0),
];

/// What the key bar leaves free for predict mode's short tag,
/// `predict 10/12 `, and the two columns before it (drawn by the predict
/// view at the bar's right end).
pub const SHORT_TAG_ROOM: usize = 16;

pub fn render(app: &App, area: Rect, buf: &mut Buffer) {
    if !app.theme.terminal_keys() {
        return;
    }
    let t = &app.theme;
    if let Some(note) = &app.status {
        let forms = match app.status_forms.first() {
            Some(first) if first == note => &app.status_forms[..],
            _ => std::slice::from_ref(note),
        };
        shortest_note_line(t, forms, area.width as usize).render(area, buf);
        return;
    }
    let mut hints: Vec<Hint> = match app.overlay {
        Overlay::Picker { .. } => listed(&[
            plain("↑/↓", "choose"),
            plain("0-9", "number"),
            plain("Enter/click", "open"),
            plain("Esc", "close"),
        ]),
        // A long menu takes its number in two digits, then Enter.
        Overlay::Faults { .. } if crate::tui::faults::menu(app.frame()).len() > 9 => listed(&[
            plain("↑/↓", "choose"),
            plain("0-9", "number"),
            plain("Enter", "do it"),
            plain("Esc", "cancel"),
        ]),
        Overlay::Faults { .. } => listed(&[
            plain("↑/↓", "choose"),
            plain("Enter/1-9", "do it"),
            plain("Esc", "cancel"),
        ]),
        // The help box names its keys on its border, and on most screens
        // covers some of this row: a bar half under it read `↑/↓ scr`.
        Overlay::Help => return,
        // With the detail whole, `z` goes back to the table.
        // PgDn pages only the whole detail: the table's bar leaves it out.
        Overlay::Explorer(sel) => listed(
            &EXPLORER_KEYS
                .iter()
                .filter(|(key, _)| sel.whole || !key.starts_with("PgDn"))
                .map(|&(key, what)| match key {
                    "z" if sel.whole => plain(key, "table"),
                    _ => plain(key, what),
                })
                .collect::<Vec<_>>(),
        ),
        // The arrows go first when the bar is narrow: they need no telling.
        Overlay::Levels => LEVEL_KEYS
            .iter()
            .map(|&(key, what, rank)| match rank {
                0 => last(key, what),
                rank => plain(key, what).rank(rank),
            })
            .collect(),
        Overlay::None
            if app
                .compare
                .as_ref()
                .is_some_and(|c| c.sides == Sides::Engines) =>
        {
            listed(&[
                plain("←/→", "step"),
                plain("E/Esc", "back"),
                plain("v", "where they differ"),
                plain("[/]", "chapter"),
                design("m", "design"),
                last("?", "help"),
                last("q", "quit"),
            ])
        }
        Overlay::None if app.compare.is_some() => listed(&[
            plain("←/→", "step"),
            plain("[/]", "chapter"),
            plain("v", "where they part"),
            design("m", "design"),
            plain("c/Esc", "back"),
            last("?", "help"),
            last("q", "quit"),
        ]),
        Overlay::None => KEYS
            .iter()
            .filter_map(|k| {
                let (key, what) = k.hint?;
                let does = |a: fn(&Action) -> bool| k.binds.iter().any(|(_, b)| a(b));
                let role = if does(|a| matches!(a, Action::Help | Action::QuitKey)) {
                    Role::Last
                } else if does(|a| matches!(a, Action::ToggleMode)) {
                    Role::Design
                } else if does(|a| matches!(a, Action::CompareEngines)) {
                    Role::Engines
                } else {
                    Role::Plain
                };
                Some(Hint {
                    key,
                    what,
                    rank: k.rank,
                    role,
                })
            })
            .collect(),
    };
    // A replay opened from the explorer: Esc goes back there, and says so
    // in `x`'s place, kept at any width (teacher trial at 80x24: the bar
    // showed no way back to the table).
    // With the presenter view on too: Esc goes back there from it (trial
    // 47: the bar named no way back, where Esc took it).
    if app.overlay == Overlay::None
        && app.compare.is_none()
        && app.explorer_to_return_to().is_some()
    {
        hints.retain(|h| h.key != "x");
        hints.push(plain("Esc", "explorer"));
    }
    // A scenario told for one design (a saved counterexample) has no
    // other design to switch to: the key is not offered.
    if crate::tui::app::designs(&app.script).len() < 2 {
        hints.retain(|h| h.role != Role::Design);
    }
    // A found schedule's steps are moves: `[/]` goes a move, not a chapter.
    for h in &mut hints {
        if h.key == "[/]" && h.what == "chapter" {
            h.what = app.script.origin.part();
        }
        if h.key == "←/→" && h.what == "step" {
            h.what = app.script.origin.step();
        }
    }
    // The engines can be compared only on a server: on SQLite the key
    // answers with what it needs, but the bar does not offer it.
    if app.script.setup.postgres.is_none() {
        hints.retain(|h| h.role != Role::Engines);
    }
    let item = |key: &str, what: &str| -> (Vec<Span<'static>>, usize) {
        let key = t.text(key).into_owned();
        let w = key.chars().count() + what.len() + 3;
        (
            vec![
                Span::styled(key, t.key()),
                Span::styled(format!(" {what}  "), t.dim()),
            ],
            w,
        )
    };
    // The last item's two trailing spaces may fall off the edge.
    let mut room = area.width as usize + 2;
    // While predict mode is on, its tag keeps a place at the right end
    // (drawn by the predict view): the mode never goes out of sight.
    if app.predict.is_some() && app.overlay == Overlay::None && app.compare.is_none() {
        room = room.saturating_sub(SHORT_TAG_ROOM);
    }
    let sized: Vec<(usize, u8)> = hints
        .iter()
        .map(|h| (item(h.key, h.what).1, h.rank))
        .collect();
    let fitting = |room: usize| fitting(&sized, room);
    // Where keys are left out, help says how many it lists besides
    // (`? 4 more`), in the room its longer words take: a bar cut with no
    // sign read as every key there is (teacher trial 13 missed `x` at
    // 80 columns). On the level screen `?` is the hint, which lists
    // them too.
    // On the level screen `?` is the hint, which lists the keys too:
    // `? hint +3`.
    let help = hints
        .iter()
        .find(|h| h.role == Role::Last && h.key == "?" && matches!(h.what, "help" | "hint"))
        .map(|h| h.what);
    let mut keep = fitting(room);
    let hidden = |keep: &[bool]| keep.iter().filter(|k| !**k).count();
    let mut more = String::new();
    if let Some(help) = help
        && hidden(&keep) > 0
    {
        // `help +4` keeps the word a newcomer looks for; `4 more` is a
        // column shorter, taken only where the word would cost a key.
        let forms: [fn(usize) -> String; 2] = if help == "hint" {
            [|n| format!("hint +{n}"), |n| format!("hint +{n}")]
        } else {
            [|n| format!("help +{n}"), |n| format!("{n} more")]
        };
        let tried: Vec<(Vec<bool>, String)> = forms
            .iter()
            .map(|form| {
                let extra = form(hidden(&keep) + 1).len().saturating_sub(help.len());
                let kept = fitting(room.saturating_sub(extra));
                let label = form(hidden(&kept));
                (kept, label)
            })
            .collect();
        let fewest = tried.iter().map(|(k, _)| hidden(k)).min().unwrap_or(0);
        if let Some((kept, label)) = tried.into_iter().find(|(k, _)| hidden(k) == fewest) {
            keep = kept;
            more = label;
        }
    }
    // Where no help lists the rest (a menu, the explorer), the keys left
    // out are counted at the end all the same (`+2`): the trial's level
    // bar at 80 columns lost `↑/↓ step` and `r reset` unsaid. In the
    // explorer `?` lists them (`? +2`).
    let mut counted = String::new();
    if help.is_none() && hidden(&keep) > 0 {
        let asked = if matches!(app.overlay, Overlay::Explorer(_)) {
            "? "
        } else {
            ""
        };
        let extra = format!("{asked}+{}", hidden(&keep) + 1).len() + 2;
        keep = fitting(room.saturating_sub(extra));
        counted = format!("{asked}+{}", hidden(&keep));
    }
    // Shown in their own order, help and quit last.
    let (tail, main): (Vec<&Hint>, Vec<&Hint>) = hints
        .iter()
        .zip(&keep)
        .filter(|(_, k)| **k)
        .map(|(h, _)| h)
        .partition(|h| h.role == Role::Last);
    let mut spans = vec![Span::raw(" ")];
    for h in main.into_iter().chain(tail) {
        let what = if h.role == Role::Last && h.key == "?" && !more.is_empty() {
            &more
        } else {
            h.what
        };
        spans.extend(item(h.key, what).0);
    }
    if !counted.is_empty() {
        spans.push(Span::styled(counted, t.dim()));
    }
    Line::from(spans).render(area, buf);
}

/// The bar's note in place of its keys: one too long for the line ends
/// in "…", never cut silently.
pub fn note_line(t: &crate::tui::theme::Theme, note: &str, width: usize) -> Line<'static> {
    let note = t.text(note).into_owned();
    let line = |words: String| {
        Line::from(vec![
            Span::styled(" ! ", t.warn()),
            Span::styled(words, t.warn()),
        ])
    };
    super::fit(
        t,
        line(fold_note(&note, width.saturating_sub(3), t.g.ellipsis)),
        width,
    )
}

/// The first of a note's `forms` (longest first, each whole) that fits
/// the bar whole; where none does, the last, folded as any note is.
pub fn shortest_note_line(
    t: &crate::tui::theme::Theme,
    forms: &[String],
    width: usize,
) -> Line<'static> {
    let room = width.saturating_sub(3);
    let fits = forms
        .iter()
        .find(|f| Span::raw(t.text(f).into_owned()).width() <= room);
    match fits.or(forms.last()) {
        Some(form) => note_line(t, form, width),
        None => Line::default(),
    }
}

/// A note in `room` columns. Its parts run `what · more · key`: the last
/// part names the key that goes on (`L back to level 2`), and a note that
/// is too long gives up its middle parts, last first, then the end of its
/// first part at a word's end, and keeps the key whole. A teacher trial
/// read `… here it g…` at 80x24, with the way back cut off.
pub fn fold_note(note: &str, room: usize, sign: &str) -> String {
    let width = |s: &str| Span::raw(s).width();
    if width(note) <= room {
        return note.to_string();
    }
    const SEP: &str = " · ";
    let mut parts: Vec<&str> = note.split(SEP).collect();
    let Some(key) = parts.pop().filter(|_| !parts.is_empty()) else {
        return crate::cut_at_word::cut_at_word(note, room, sign).unwrap_or_default();
    };
    while parts.len() > 1 && width(&parts.join(SEP)) + width(SEP) + width(key) > room {
        parts.pop();
    }
    let head = parts.join(SEP);
    let head_room = room.saturating_sub(width(SEP) + width(key));
    match crate::cut_at_word::cut_at_word(&head, head_room, sign) {
        Some(head) => format!("{head}{SEP}{key}"),
        None => crate::cut_at_word::cut_at_word(note, room, sign).unwrap_or_default(),
    }
}

/// The items, each `(width, rank)`, that fit in `room` columns (after
/// the bar's leading space): the lowest ranks kept first, a wider one
/// passed over for the narrower ones after it.
fn fitting(items: &[(usize, u8)], room: usize) -> Vec<bool> {
    let mut by_rank: Vec<usize> = (0..items.len()).collect();
    by_rank.sort_by_key(|&i| items[i].1);
    let mut keep = vec![false; items.len()];
    let mut used = 1;
    for i in by_rank {
        if used + items[i].0 <= room {
            used += items[i].0;
            keep[i] = true;
        }
    }
    keep
}

/// How a bar of keys made elsewhere counts the ones it leaves out.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum LeftOut {
    /// `? help +2`: `?` opens help, which lists them.
    Help,
    /// `? +2` at the end, where there is no help to send the reader to:
    /// `?` there lists every key in the bar's note (`keys_note`).
    Counted,
    /// As `Counted`, but `? keys` stays at the end where nothing is left
    /// out (`? keys +2` where some are): a screen whose every other bar
    /// offers `?` offers it here too (a replay). `?` names the keys left
    /// out and then these, which the bar never shows (`e`, `Esc`).
    Keys(&'static [(&'static str, &'static str)]),
}

/// The bottom line of a screen with its own keys and no help (the soak
/// dashboard, a replay): the note about the last key where there is
/// one; else, once `?` was pressed (`asked`), the keys this width leaves
/// out, named (every key where none is); else its keys, whole, the ones
/// left out counted (`? +2`).
pub fn note_or_keys(
    t: &crate::tui::theme::Theme,
    note: Option<&str>,
    keys: &[(String, &str, u8)],
    width: usize,
    (asked, left_out): (bool, LeftOut),
) -> Line<'static> {
    match note {
        Some(note) => note_line(t, note, width),
        None if asked => {
            let keep = kept(keys, width, left_out);
            let also: &[(&str, &str)] = match left_out {
                LeftOut::Keys(also) => also,
                _ => &[],
            };
            let left: Vec<(&str, &str)> = keys
                .iter()
                .zip(&keep)
                .filter(|(_, k)| !**k)
                .map(|((key, what, _), _)| (key.as_str(), *what))
                .chain(also.iter().copied())
                .collect();
            let said = if left.is_empty() {
                keys_note(keys.iter().map(|(key, what, _)| (key.as_str(), *what)))
            } else {
                let all: Vec<String> = left.iter().map(|(k, w)| format!("{k} {w}")).collect();
                format!("not on the bar: {}", all.join(" · "))
            };
            note_line(t, &said, width)
        }
        None => whole_keys(t, keys, width, left_out),
    }
}

/// Which of `keys` a bar `width` wide shows, the room for the count of
/// the rest taken first where some are left out.
fn kept(keys: &[(String, &str, u8)], width: usize, left_out: LeftOut) -> Vec<bool> {
    let sized: Vec<(usize, u8)> = keys
        .iter()
        .map(|(key, what, rank)| (key.chars().count() + what.chars().count() + 3, *rank))
        .collect();
    // The last item's two trailing spaces may fall off the edge.
    let room = width + 2;
    let hidden = |keep: &[bool]| keep.iter().filter(|k| !**k).count();
    let always = match left_out {
        LeftOut::Keys(_) => count(left_out, 0).chars().count() + 2,
        _ => 0,
    };
    let keep = fitting(&sized, room.saturating_sub(always));
    if hidden(&keep) == 0 {
        return keep;
    }
    let extra = count(left_out, hidden(&keep) + 1).chars().count() + 2;
    fitting(&sized, room.saturating_sub(extra))
}

/// The count of `n` keys left out, as the bar writes it.
fn count(left_out: LeftOut, n: usize) -> String {
    match left_out {
        LeftOut::Help => format!("? help +{n}"),
        LeftOut::Counted => format!("? +{n}"),
        LeftOut::Keys(_) if n == 0 => "? keys".to_string(),
        LeftOut::Keys(_) => format!("? keys +{n}"),
    }
}

/// A bar of keys made elsewhere (predict mode's: its keys name a score
/// and a count of choices; the soak dashboard's; a replay's), each
/// `(key, what it does, rank)`, in `width`: whole keys in their own
/// order, the lowest ranks kept first, and the ones left out counted
/// (`left_out`), as on the main bar. A key is never cut in its words
/// (the trial read `a leave predict m…`).
pub fn whole_keys(
    t: &crate::tui::theme::Theme,
    keys: &[(String, &str, u8)],
    width: usize,
    left_out: LeftOut,
) -> Line<'static> {
    let keep = kept(keys, width, left_out);
    let hidden = keep.iter().filter(|k| !**k).count();
    let mut spans = vec![Span::raw(" ")];
    let shown = keys.iter().zip(&keep).filter(|(_, k)| **k);
    for ((key, what, _), _) in shown {
        spans.push(Span::styled(t.text(key).into_owned(), t.key()));
        spans.push(Span::styled(format!(" {what}  "), t.dim()));
    }
    if hidden > 0 || matches!(left_out, LeftOut::Keys(_)) {
        let said = count(left_out, hidden);
        let rest = said.strip_prefix('?').unwrap_or(&said);
        spans.push(Span::styled("?", t.key()));
        let tail = match left_out {
            LeftOut::Help => format!("{rest}  "),
            LeftOut::Counted | LeftOut::Keys(_) => rest.to_string(),
        };
        spans.push(Span::styled(tail, t.dim()));
    }
    Line::from(spans)
}

/// One item of the bar: a key and what it does here.
#[derive(Clone, Copy)]
struct Hint {
    key: &'static str,
    what: &'static str,
    /// The lowest ranks stay when the bar is narrow.
    rank: u8,
    role: Role,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    Plain,
    /// Help and quit: they always stay, at the right end.
    Last,
    /// The next design: offered only where there is one.
    Design,
    /// SQLite beside PostgreSQL: offered only on a server.
    Engines,
}

impl Hint {
    fn rank(self, rank: u8) -> Hint {
        Hint { rank, ..self }
    }
}

fn plain(key: &'static str, what: &'static str) -> Hint {
    Hint {
        key,
        what,
        rank: 0,
        role: Role::Plain,
    }
}

fn last(key: &'static str, what: &'static str) -> Hint {
    Hint {
        role: Role::Last,
        ..plain(key, what)
    }
}

fn design(key: &'static str, what: &'static str) -> Hint {
    Hint {
        role: Role::Design,
        ..plain(key, what)
    }
}

/// A bar ranked in its own order, help and quit first to stay.
fn listed(hints: &[Hint]) -> Vec<Hint> {
    hints
        .iter()
        .enumerate()
        .map(|(i, h)| h.rank(if h.role == Role::Last { 0 } else { i as u8 + 1 }))
        .collect()
}
