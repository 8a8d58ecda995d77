//! The key table, written once: what each key does (`from_key` reads it),
//! and how the help overlay and the main screen's key-hint bar name it. A
//! key added here is bound, listed in help and offered in the bar at once.

use super::action::Action;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

/// A key as the terminal reports it.
#[derive(Clone, Copy, Debug)]
pub enum Press {
    /// The key, shift held or not (a letter's case is its own key).
    Key(KeyCode),
    /// The key with shift held, where that means something else.
    Shift(KeyCode),
    /// Ctrl and this letter, either case: in raw mode Ctrl-C is an
    /// ordinary key, and it must still quit.
    Ctrl(char),
}

pub struct KeyHelp {
    /// Each key of the row with what it does.
    pub binds: &'static [(Press, Action)],
    /// The row in the help overlay: the keys as written there, and what
    /// they do. `None` for keys that only one screen's own bar names (the
    /// level screen's).
    pub help: Option<(&'static str, &'static str)>,
    /// Short form for the hint bar; `None` keeps it out of the bar.
    pub hint: Option<(&'static str, &'static str)>,
    /// Which hints stay when the bar is narrow: lower first. The bar still
    /// shows them in the table's order.
    pub rank: u8,
}

use KeyCode::Char;
use Press::{Ctrl, Key, Shift};

pub static KEYS: &[KeyHelp] = &[
    KeyHelp {
        binds: &[
            (Key(KeyCode::Right), Action::Next),
            (Key(Char('l')), Action::Next),
            (Key(KeyCode::Left), Action::Prev),
            (Key(Char('h')), Action::Prev),
        ],
        help: Some(("→ / l,  ← / h", "one step forward / back")),
        hint: Some(("←/→", "step")),
        rank: 0,
    },
    KeyHelp {
        binds: &[
            (Key(Char(']')), Action::NextChapter),
            (Key(KeyCode::PageDown), Action::NextChapter),
            (Key(Char('[')), Action::PrevChapter),
            (Key(KeyCode::PageUp), Action::PrevChapter),
        ],
        help: Some((
            "] / PgDn,  [ / PgUp",
            "next / previous chapter (or tour, at either end)",
        )),
        hint: Some(("[/]", "chapter")),
        rank: 9,
    },
    KeyHelp {
        binds: &[
            (Key(KeyCode::Home), Action::First),
            (Key(Char('g')), Action::First),
            (Key(KeyCode::End), Action::Last),
            (Key(Char('G')), Action::Last),
        ],
        help: Some(("Home / g,  End / G", "first / last step")),
        hint: None,
        rank: 99,
    },
    KeyHelp {
        binds: &[(Key(Char(' ')), Action::PlayPause)],
        help: Some(("space", "play the steps one by one, or pause")),
        hint: Some(("space", "play")),
        rank: 8,
    },
    KeyHelp {
        binds: &[
            (Key(Char('+')), Action::Faster),
            (Key(Char('=')), Action::Faster),
            (Key(Char('-')), Action::Slower),
            (Key(Char('_')), Action::Slower),
        ],
        help: Some(("+  -", "play faster / slower")),
        hint: None,
        rank: 99,
    },
    KeyHelp {
        binds: &[(Key(Char('m')), Action::ToggleMode)],
        help: Some(("m", "next design of this scenario, at the same moment")),
        hint: Some(("m", "design")),
        rank: 1,
    },
    KeyHelp {
        binds: &[(Key(Char('c')), Action::Compare)],
        help: Some(("c", "compare two designs side by side on this scenario")),
        hint: Some(("c", "compare")),
        rank: 2,
    },
    KeyHelp {
        binds: &[(Key(Char('E')), Action::CompareEngines)],
        help: Some(("E", "SQLite beside PostgreSQL (needs --db postgres://URL)")),
        // Offered only on a server (see the bar), where the engines are
        // the point: it stays before the chapter keys.
        hint: Some(("E", "engines")),
        rank: 7,
    },
    KeyHelp {
        binds: &[(Key(Char('f')), Action::Faults)],
        help: Some(("f", "break something here: crash, lose an ack, ...")),
        hint: Some(("f", "fault")),
        rank: 4,
    },
    KeyHelp {
        binds: &[(Key(Char('s')), Action::Picker)],
        help: Some(("s", "choose another scenario")),
        hint: Some(("s", "scenarios")),
        rank: 5,
    },
    KeyHelp {
        binds: &[(Key(Char('x')), Action::Explore)],
        help: Some(("x", "explore every schedule; replay what breaks a design")),
        // The first to go at 80 columns: the explorer is a lesson of
        // its own, the failure's step a key a class reaches for at every
        // run.
        hint: Some(("x", "explore")),
        rank: 6,
    },
    KeyHelp {
        binds: &[(Key(Char('L')), Action::Levels)],
        help: Some(("L", "levels: build a handler the prover cannot break")),
        hint: None,
        rank: 99,
    },
    KeyHelp {
        binds: &[(Key(Char('v')), Action::FirstViolation)],
        help: Some(("v", "jump to the first step where the outcome goes wrong")),
        // Where the run goes wrong: a teacher's most used jump, kept on
        // the bar at 80 columns.
        hint: Some(("v", "failure")),
        rank: 3,
    },
    KeyHelp {
        binds: &[
            (Key(KeyCode::Tab), Action::FocusNext),
            (Key(KeyCode::BackTab), Action::FocusPrev),
        ],
        help: Some((
            "Tab / shift-Tab, click",
            "select a panel (compare: a section)",
        )),
        hint: None,
        rank: 99,
    },
    KeyHelp {
        binds: &[(Key(Char('z')), Action::Zoom)],
        help: Some(("z", "enlarge the selected panel or section, or back")),
        hint: None,
        rank: 99,
    },
    KeyHelp {
        binds: &[(Key(Char('w')), Action::Why)],
        help: Some(("w", "why: the verdict with every cause, or back")),
        // Named where it is needed: by the one-row verdict of a small
        // screen, beside the causes it counts. The bar keeps its room.
        hint: None,
        rank: 99,
    },
    KeyHelp {
        binds: &[(Key(Char('p')), Action::Presenter)],
        help: Some(("p", "presenter view: big figures, charges, causes")),
        hint: Some(("p", "present")),
        rank: 10,
    },
    KeyHelp {
        binds: &[(Key(Char('a')), Action::Predict)],
        help: Some(("a", "predict mode: answer first, then see the step")),
        hint: None,
        rank: 99,
    },
    KeyHelp {
        binds: &[(Key(Char('e')), Action::Export)],
        help: Some((
            "e",
            "save this moment: the screen (SVG, PNG, text) and the run as a scenario that opens here",
        )),
        hint: None,
        rank: 99,
    },
    KeyHelp {
        binds: &[
            (Key(KeyCode::Up), Action::Up),
            (Key(Char('k')), Action::Up),
            (Key(KeyCode::Down), Action::Down),
            (Key(Char('j')), Action::Down),
            (Key(KeyCode::Enter), Action::Enter),
            (Key(Char('0')), Action::Digit(0)),
            (Key(Char('1')), Action::Digit(1)),
            (Key(Char('2')), Action::Digit(2)),
            (Key(Char('3')), Action::Digit(3)),
            (Key(Char('4')), Action::Digit(4)),
            (Key(Char('5')), Action::Digit(5)),
            (Key(Char('6')), Action::Digit(6)),
            (Key(Char('7')), Action::Digit(7)),
            (Key(Char('8')), Action::Digit(8)),
            (Key(Char('9')), Action::Digit(9)),
        ],
        help: Some(("↑ ↓ / k j, Enter, 0-9", "move and choose in a menu")),
        hint: None,
        rank: 99,
    },
    KeyHelp {
        binds: &[(Key(Char('?')), Action::Help)],
        help: Some(("?", "this help")),
        hint: Some(("?", "help")),
        rank: 0,
    },
    KeyHelp {
        binds: &[(Key(KeyCode::Esc), Action::Back)],
        help: Some(("Esc", "close a menu or view (it never quits)")),
        hint: None,
        rank: 99,
    },
    KeyHelp {
        binds: &[(Key(Char('q')), Action::QuitKey)],
        help: Some(("q", "quit (over a menu: close the menu)")),
        hint: Some(("q", "quit")),
        rank: 0,
    },
    KeyHelp {
        binds: &[(Ctrl('c'), Action::Quit)],
        help: Some(("Ctrl-C", "quit from anywhere")),
        hint: None,
        rank: 99,
    },
    // The level screen's own keys: its key bar names them (view/keybar.rs).
    KeyHelp {
        binds: &[
            (Shift(KeyCode::Up), Action::MoveUp),
            (Key(Char('K')), Action::MoveUp),
            (Shift(KeyCode::Down), Action::MoveDown),
            (Key(Char('J')), Action::MoveDown),
            (Key(Char('d')), Action::Remove),
            (Key(KeyCode::Delete), Action::Remove),
            (Key(Char('r')), Action::Reset),
            (Key(KeyCode::Backspace), Action::Backspace),
        ],
        help: None,
        hint: None,
        rank: 99,
    },
];

/// What a key press asks for, as the table says.
pub fn from_key(key: &KeyEvent) -> Option<Action> {
    // Releases and repeats would step twice on terminals that report them.
    if key.kind != KeyEventKind::Press {
        return None;
    }
    let binds = || KEYS.iter().flat_map(|row| row.binds);
    let found = |wanted: &dyn Fn(&Press) -> bool| {
        binds()
            .find(|(press, _)| wanted(press))
            .map(|(_, action)| action.clone())
    };
    if key.modifiers.contains(KeyModifiers::CONTROL) {
        return found(&|p| match (p, key.code) {
            (Ctrl(c), Char(k)) => c.eq_ignore_ascii_case(&k),
            _ => false,
        });
    }
    if key.modifiers.contains(KeyModifiers::SHIFT)
        && let Some(action) = found(&|p| matches!(p, Shift(code) if *code == key.code))
    {
        return Some(action);
    }
    found(&|p| matches!(p, Key(code) if *code == key.code))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::crossterm::event::KeyEventState;
    use std::mem::discriminant;

    fn key(code: KeyCode, modifiers: KeyModifiers, kind: KeyEventKind) -> KeyEvent {
        KeyEvent {
            code,
            modifiers,
            kind,
            state: KeyEventState::NONE,
        }
    }

    fn press(code: KeyCode, modifiers: KeyModifiers) -> Option<Action> {
        from_key(&key(code, modifiers, KeyEventKind::Press))
    }

    #[test]
    fn the_key_the_story_names_is_the_one_bound_here() {
        use crate::scenario::key_word::{KeyWord, Medium};
        for word in KeyWord::ALL {
            let named = Medium::Terminal.key(word);
            let mut chars = named.chars();
            let (Some(c), None) = (chars.next(), chars.next()) else {
                panic!("`{named}` is not one key");
            };
            let does = press(Char(c), KeyModifiers::NONE);
            let want = match word {
                KeyWord::SwitchDesign => Action::ToggleMode,
            };
            assert_eq!(
                does.map(|a| discriminant(&a)),
                Some(discriminant(&want)),
                "{{key:{}}} is told as `{named}`",
                word.name()
            );
        }
    }

    #[test]
    fn ctrl_c_quits_and_releases_are_ignored() {
        let none = KeyModifiers::NONE;
        assert!(matches!(
            press(Char('c'), KeyModifiers::CONTROL),
            Some(Action::Quit)
        ));
        assert!(matches!(
            press(Char('C'), KeyModifiers::CONTROL | KeyModifiers::SHIFT),
            Some(Action::Quit)
        ));
        // Ctrl with any other key does nothing.
        assert!(press(Char('x'), KeyModifiers::CONTROL).is_none());
        assert!(matches!(press(Char('c'), none), Some(Action::Compare)));
        assert!(from_key(&key(KeyCode::Right, none, KeyEventKind::Release)).is_none());
        assert!(matches!(
            press(Char('G'), KeyModifiers::SHIFT),
            Some(Action::Last)
        ));
        assert!(matches!(press(Char('x'), none), Some(Action::Explore)));
        // Shift changes an arrow's meaning; an unbound key means nothing.
        assert!(matches!(
            press(KeyCode::Up, KeyModifiers::SHIFT),
            Some(Action::MoveUp)
        ));
        assert!(matches!(press(KeyCode::Up, none), Some(Action::Up)));
        assert!(matches!(press(Char('7'), none), Some(Action::Digit(7))));
        assert!(press(Char('y'), none).is_none());
    }

    /// Every bind of the table is what its key does: no earlier row takes
    /// a key from a later one, and no key is bound twice.
    #[test]
    fn every_key_does_what_its_row_says() {
        let binds: Vec<&(Press, Action)> = KEYS.iter().flat_map(|r| r.binds).collect();
        for (i, (p, action)) in binds.iter().enumerate() {
            let event = match *p {
                Key(code) => key(code, KeyModifiers::NONE, KeyEventKind::Press),
                Shift(code) => key(code, KeyModifiers::SHIFT, KeyEventKind::Press),
                Ctrl(c) => key(Char(c), KeyModifiers::CONTROL, KeyEventKind::Press),
            };
            let got = from_key(&event).unwrap_or_else(|| panic!("{p:?} does nothing"));
            assert_eq!(discriminant(&got), discriminant(action), "{p:?}");
            if let (Action::Digit(a), Action::Digit(b)) = (&got, action) {
                assert_eq!(a, b);
            }
            for (q, _) in &binds[i + 1..] {
                assert_ne!(format!("{p:?}"), format!("{q:?}"), "bound twice");
            }
        }
    }
}
