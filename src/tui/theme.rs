//! Colours and glyphs. Colour is never the only signal: every styled span
//! also carries a symbol or a word, so `NO_COLOR` and `--ascii` lose nothing.

use crate::scenario::key_word::{self, Medium};
use ratatui::style::{Color, Modifier, Style};
use ratatui::symbols::border;

/// Every non-ASCII character the screen draws comes from here, so `--ascii`
/// can swap all of them at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Glyphs {
    pub done: &'static str,
    pub failed: &'static str,
    pub conflict: &'static str,
    pub skipped: &'static str,
    /// A delivery that found another owning the message's record.
    pub superseded: &'static str,
    /// A lock wait, and only that.
    pub waiting: &'static str,
    /// Waiting for the provider's answer to another request with the
    /// same key (a 409): not a lock.
    pub awaiting: &'static str,
    /// Backed off from a message another delivery's live record holds.
    pub backed_off: &'static str,
    /// The provider refused the call with 409: a request with the same key
    /// is still in progress. Not a failure: the handler calls again.
    pub refused: &'static str,
    pub crashed: &'static str,
    pub next: &'static str,
    pub arrow: &'static str,
    pub back_arrow: &'static str,
    pub replay: &'static str,
    pub bar_full: &'static str,
    pub bar_empty: &'static str,
    /// Separates items on a line (`a · b`).
    pub dot: &'static str,
    /// A step not run yet, in the one-glyph-per-step row.
    pub todo: &'static str,
    /// At risk, nothing wrong yet: a fault armed or happening, a lease
    /// run out, a design that holds only within the bounds (it breaks one
    /// bound further). Its one meaning on every screen.
    pub warning: &'static str,
    /// A message the broker moved to the dead-letter queue: an end of its
    /// own, neither a risk nor (for a message refused every time) wrong.
    pub dead_letter: &'static str,
    /// A pass that proves nothing: the bounds never made a duplicate.
    pub vacuous: &'static str,
    pub token: &'static str,
    pub times: &'static str,
    pub pending: &'static str,
    pub playing: &'static str,
    pub paused: &'static str,
    pub ellipsis: &'static str,
    /// What a step changed: always followed by a word (new, changed,
    /// committed, rolled back, removed).
    pub added: &'static str,
    pub changed: &'static str,
    pub removed: &'static str,
    /// Points at the handler step that just ran.
    pub ran: &'static str,
    /// The step a consumer runs next: quieter than the one that just ran.
    pub upcoming: &'static str,
    /// What only the observer can know, not any party in the world.
    pub observer: &'static str,
    pub border: border::Set<'static>,
}

pub const UNICODE: Glyphs = Glyphs {
    done: "✓",
    failed: "✕",
    conflict: "≠",
    skipped: "↷",
    superseded: "⊘",
    waiting: "‖",
    awaiting: "⧖",
    backed_off: "↶",
    refused: "⊗",
    crashed: "†",
    next: "▶",
    arrow: "→",
    back_arrow: "←",
    replay: "↺",
    bar_full: "▓",
    bar_empty: "░",
    dot: "·",
    todo: "·",
    warning: "!",
    dead_letter: "⊠",
    vacuous: "?",
    token: "◆",
    times: "×",
    pending: "○",
    playing: "▶",
    paused: "‖",
    ellipsis: "…",
    added: "+",
    changed: "*",
    removed: "-",
    ran: "◀",
    upcoming: "▷",
    observer: "◇",
    border: border::PLAIN,
};

/// Plain borders drawn with `+ - |`, usable on any terminal.
pub const ASCII_BORDER: border::Set<'static> = border::Set {
    top_left: "+",
    top_right: "+",
    bottom_left: "+",
    bottom_right: "+",
    vertical_left: "|",
    vertical_right: "|",
    horizontal_top: "-",
    horizontal_bottom: "-",
};

/// Every mark distinct from the others and from the borders (`+ - |`):
/// one cell each where marks stand in a row, one glyph per step. No mark is
/// a letter a key uses (`v`, `x`), so `v failure` never reads as a mark.
pub const ASCII: Glyphs = Glyphs {
    done: "/",
    failed: "!",
    conflict: "=",
    skipped: "~",
    superseded: "%",
    waiting: ":",
    awaiting: "(",
    backed_off: "\\",
    refused: ")",
    crashed: "#",
    next: ">",
    arrow: "->",
    back_arrow: "<-",
    replay: "@",
    bar_full: "#",
    bar_empty: ".",
    dot: "-",
    todo: "_",
    warning: "?",
    dead_letter: "&",
    vacuous: ";",
    token: "*",
    times: "x",
    pending: "o",
    playing: ">",
    paused: "||",
    ellipsis: "...",
    added: "+",
    changed: "*",
    removed: "-",
    ran: "<",
    upcoming: ">",
    observer: "^",
    border: ASCII_BORDER,
};

/// A readable ASCII stand-in for the non-ASCII characters text may carry
/// (the scenario files' narration included).
fn ascii_for(c: char) -> &'static str {
    match c {
        '→' => "->",
        '←' => "<-",
        '↑' => "up",
        '↓' => "down",
        '—' | '–' => "-",
        '…' => "...",
        '‘' | '’' => "'",
        '“' | '”' => "\"",
        '×' => "x",
        '✓' => "/",
        '✕' | '✗' => "!",
        '†' => "#",
        '≠' => "=",
        '↷' => "~",
        '⊘' => "%",
        '‖' => ":",
        '⧖' => "(",
        '↶' => "\\",
        '⊗' => ")",
        '·' => "-",
        '○' => "o",
        '◆' => "*",
        '↺' => "@",
        '▶' | '▷' => ">",
        '◀' => "<",
        // A no-break space keeps words together where they wrap.
        '\u{a0}' => " ",
        '⊠' => "&",
        // Block elements: large type from the presenter view.
        '\u{2580}'..='\u{259F}' => "#",
        _ => "?",
    }
}

/// One cell's worth of ASCII, for the safety pass over a finished buffer.
pub fn ascii_cell(symbol: &str) -> &'static str {
    match symbol.chars().next().map(ascii_for) {
        Some("->") => ">",
        Some("<-") => "<",
        Some("up") => "^",
        Some("down") => "v",
        Some(s) => &s[..1],
        None => " ",
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Theme {
    pub color: bool,
    pub g: Glyphs,
    /// Whose keys the story's words name: the terminal's, or the lesson
    /// page's when its screens are drawn for the page.
    pub medium: Medium,
}

impl Theme {
    pub fn new(color: bool, ascii: bool) -> Self {
        Theme {
            color,
            g: if ascii { ASCII } else { UNICODE },
            medium: Medium::Terminal,
        }
    }

    /// `NO_COLOR` present and non-empty turns colour off (no-color.org).
    pub fn color_from_env(value: Option<std::ffi::OsString>) -> bool {
        value.is_none_or(|v| v.is_empty())
    }

    /// The arrow of a cause chain in this terminal.
    pub fn arrow(&self) -> crate::sim::Arrow {
        if self.ascii() {
            crate::sim::Arrow::Ascii
        } else {
            crate::sim::Arrow::Drawn
        }
    }

    pub fn ascii(&self) -> bool {
        self.g.border.top_left.is_ascii()
    }

    /// Whether the screen may name the terminal's keys (`z`, Tab, `?`):
    /// not on the lesson page, where they would do nothing and the page
    /// names its own keys beside the screen.
    pub fn terminal_keys(&self) -> bool {
        self.medium == Medium::Terminal
    }

    /// Text as the screen shows it: unchanged, or in ASCII under `--ascii`.
    /// A scenario's words as this medium tells them: its own keys, then
    /// its own glyphs (`text`).
    pub fn words(&self, s: &str) -> String {
        self.text(&key_word::told(s, self.medium)).into_owned()
    }

    pub fn text<'a>(&self, s: &'a str) -> std::borrow::Cow<'a, str> {
        if !self.ascii() || s.is_ascii() {
            return s.into();
        }
        let mut out = String::with_capacity(s.len());
        for c in s.chars() {
            if c.is_ascii() {
                out.push(c);
            } else {
                out.push_str(ascii_for(c));
            }
        }
        out.into()
    }

    fn fg(&self, color: Color) -> Style {
        if self.color {
            Style::new().fg(color)
        } else {
            Style::new()
        }
    }

    pub fn good(&self) -> Style {
        self.fg(Color::Green)
    }

    pub fn bad(&self) -> Style {
        self.fg(Color::Red).add_modifier(Modifier::BOLD)
    }

    pub fn warn(&self) -> Style {
        self.fg(Color::Yellow)
    }

    pub fn info(&self) -> Style {
        self.fg(Color::Cyan)
    }

    pub fn dim(&self) -> Style {
        if self.color {
            Style::new().fg(Color::DarkGray)
        } else {
            Style::new()
        }
    }

    pub fn title(&self) -> Style {
        self.fg(Color::White).add_modifier(Modifier::BOLD)
    }

    pub fn key(&self) -> Style {
        self.fg(Color::Cyan).add_modifier(Modifier::BOLD)
    }

    /// The next step, the selected row: reversed reads without colour too.
    pub fn highlight(&self) -> Style {
        Style::new().add_modifier(Modifier::REVERSED)
    }

    pub fn border(&self, focused: bool) -> Style {
        match (focused, self.color) {
            (true, true) => Style::new().fg(Color::Cyan),
            (true, false) => Style::new().add_modifier(Modifier::BOLD),
            (false, _) => self.dim(),
        }
    }

    /// Something the step just changed; the mark's symbol and word say it
    /// without colour.
    pub fn change(&self) -> Style {
        self.fg(Color::Magenta).add_modifier(Modifier::BOLD)
    }

    pub fn flash(&self) -> Style {
        if self.color {
            Style::new()
                .fg(Color::Black)
                .bg(Color::Red)
                .add_modifier(Modifier::BOLD)
        } else {
            Style::new().add_modifier(Modifier::REVERSED | Modifier::BOLD)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_color_needs_a_non_empty_value() {
        assert!(Theme::color_from_env(None));
        assert!(Theme::color_from_env(Some("".into())));
        assert!(!Theme::color_from_env(Some("1".into())));
    }

    #[test]
    fn ascii_text_replaces_every_non_ascii_char() {
        let t = Theme::new(false, true);
        assert_eq!(t.text("A → B — done…"), "A -> B - done...");
        assert!(t.text("ünïcode ✓").is_ascii());
        assert_eq!(Theme::new(false, false).text("→"), "→");
        assert_eq!(ascii_cell("→"), ">");
    }

    #[test]
    fn ascii_glyphs_are_ascii() {
        let g = ASCII;
        let all = [
            g.done,
            g.failed,
            g.conflict,
            g.skipped,
            g.superseded,
            g.waiting,
            g.awaiting,
            g.backed_off,
            g.refused,
            g.crashed,
            g.next,
            g.arrow,
            g.back_arrow,
            g.replay,
            g.bar_full,
            g.bar_empty,
            g.dot,
            g.todo,
            g.warning,
            g.token,
            g.times,
            g.pending,
            g.playing,
            g.paused,
            g.ellipsis,
            g.added,
            g.changed,
            g.removed,
            g.ran,
            g.upcoming,
            g.border.top_left,
            g.border.horizontal_top,
            g.border.vertical_left,
        ];
        for s in all {
            assert!(s.is_ascii(), "{s}");
        }
    }

    #[test]
    fn marks_are_distinct_and_never_a_border() {
        for g in [ASCII, UNICODE] {
            let marks = [
                g.done,
                g.failed,
                g.conflict,
                g.skipped,
                g.waiting,
                g.awaiting,
                g.backed_off,
                g.refused,
                g.crashed,
                g.next,
                g.todo,
                g.pending,
                g.warning,
            ];
            // Keys are letters; a step's mark that is one reads as a key
            // in the bar (the marks up to `crashed` are the steps').
            for m in &marks[..9] {
                assert!(!m.chars().any(|c| c.is_ascii_alphabetic()), "{m}");
            }
            for (i, a) in marks.iter().enumerate() {
                for b in &marks[i + 1..] {
                    assert_ne!(a, b, "two marks look the same");
                }
                for border in ["+", "|", "-"] {
                    assert_ne!(*a, border, "a mark looks like a border");
                }
                // A step not run yet may look like the separator; no other.
                if *a != g.todo {
                    assert_ne!(*a, g.dot, "a mark looks like the separator");
                }
            }
        }
        assert_ne!(UNICODE.crashed, "✗", "crashed must not look like failed");
    }
}
