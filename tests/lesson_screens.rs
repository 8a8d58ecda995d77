//! Issue 18 §9: the handout's screens are the terminal's screens without
//! the terminal's keys. The key bar, the header's `(m)` and the panels'
//! hints (`z: read all`, `Tab to here, z`) name keys that do nothing on
//! the page, which has keys of its own and says them beside the screen;
//! everything else is the terminal's picture, row for row.

use idem::export::lesson;
use idem::export::shot::{Moment, Shot, View};
use idem::scenario;
use idem::sim::Strategy;
use ratatui::buffer::Buffer;

fn rows(buffer: &Buffer) -> Vec<String> {
    let area = buffer.area;
    (0..area.height)
        .map(|y| (0..area.width).map(|x| buffer[(x, y)].symbol()).collect())
        .collect()
}

fn terminal(name: &str, design: &str, step: usize, size: (u16, u16)) -> Vec<String> {
    let shot = Shot {
        script: scenario::find(name).unwrap(),
        strategy: Strategy::by_name(design).unwrap(),
        seed: 0,
        moment: Moment::Step(step),
        view: View::Main,
        width: size.0,
        height: size.1,
        ascii: false,
        color: false,
    };
    rows(&shot.buffer().unwrap())
}

#[test]
fn the_screens_show_no_key_bar_and_nothing_else_changes() {
    for size in [(80, 24), (120, 40)] {
        let script = scenario::find("tour-1").unwrap();
        for design in ["naive", "idempotent"] {
            let strategy = Strategy::by_name(design).unwrap();
            let screens = lesson::screens(&script, &strategy, size, false).unwrap();
            for (step, screen) in screens.iter().enumerate() {
                let at = format!("{design} step {step} at {size:?}");
                let mine = rows(screen);
                let theirs = terminal("tour-1", design, step, size);
                assert!(theirs.last().unwrap().contains("q quit"), "{at}");
                assert_eq!(mine.len(), theirs.len() - 1, "{at}: the key bar's row goes");
                assert!(!mine.iter().any(|r| r.contains("quit")), "{at}");
                assert!(!mine[0].contains("(m)"), "{at}: {}", mine[0]);
                assert!(
                    mine[0].contains(&format!(" {design} ")),
                    "{at}: {}",
                    mine[0]
                );
                // The story names each medium's own key for the switch
                // (`tests/key_words.rs`), of the same width; a row that
                // names a terminal key loses it (or says the page's own);
                // nothing else on the screen differs.
                let told_here: Vec<String> = theirs[1..theirs.len() - 1]
                    .iter()
                    .map(|r| r.replace("ress m to", "ress d to"))
                    .collect();
                for (mine, theirs) in mine[1..].iter().zip(&told_here) {
                    if terminal_keys_named(theirs).is_empty() {
                        assert_eq!(mine, theirs, "{at}");
                    } else {
                        assert!(terminal_keys_named(mine).is_empty(), "{at}: {mine}");
                    }
                }
            }
        }
    }
}

#[test]
fn the_page_says_its_own_keys_and_not_the_terminals() {
    let script = scenario::find("tour-1").unwrap();
    let html = lesson::render(std::slice::from_ref(&script), (120, 40), "t").unwrap();
    assert!(!html.contains(">quit<"), "a key bar in an embedded screen");
    assert!(
        !html.contains("(m)"),
        "the header's key in an embedded screen"
    );
    assert!(
        !html.contains("own key bar"),
        "the hint no longer explains a key bar away"
    );
    assert!(html.contains(r#"<kbd id="switch-key">d</kbd> switches the design"#));
}

/// The words on a screen that name a key the page does not have: the
/// terminal's hints (`v failure`, `? help`), its zoom and focus keys in
/// the panels' notes (`z: read all`, `Tab to here, z`), its menus. The
/// page binds ←/→, its own key for the design switch, and 1-9.
fn terminal_keys_named(row: &str) -> Vec<String> {
    use idem::tui::keys::KEYS;
    let page_has = ["←/→"];
    let mut named: Vec<String> = KEYS
        .iter()
        .filter_map(|k| k.hint)
        .filter(|(key, _)| !page_has.contains(key))
        .map(|(key, what)| format!("{key} {what}"))
        .collect();
    named.extend(
        [
            "z:",
            ", z",
            "then z",
            "· z",
            "more · w",
            "why · w",
            // A one-row verdict's note named where it has no cause.
            "at risk · w",
            "in flight · w",
            "Tab",
            "Esc",
            "Enter",
            "? for",
            "? help",
            "] next",
            "(m)",
            "m next",
            "s scenarios",
            "x explore",
            "click",
        ]
        .map(String::from),
    );
    named
        .into_iter()
        .filter(|n| row.contains(n.as_str()))
        .collect()
}

/// No screen of the handout, in any tour, design or size, tells a key
/// that does nothing on the page (a teacher's trial found `z: read all`).
#[test]
fn no_screen_of_the_handout_names_a_terminal_only_key() {
    let tours: Vec<_> = idem::scenario::load::builtins()
        .into_iter()
        .filter(|s| s.group == idem::scenario::Group::Tour)
        .collect();
    assert!(tours.len() >= 4, "{} tours", tours.len());
    let mut screens_seen = 0;
    for script in &tours {
        for strategy in idem::tui::app::designs(script) {
            for size in [(80, 24), (100, 30), (120, 40)] {
                let screens = lesson::screens(script, &strategy, size, false).unwrap();
                for (step, screen) in screens.iter().enumerate() {
                    screens_seen += 1;
                    for row in rows(screen) {
                        let named = terminal_keys_named(&row);
                        assert!(
                            named.is_empty(),
                            "{} {} step {step} at {size:?} names {named:?}: {row}",
                            script.name,
                            strategy.name
                        );
                    }
                }
            }
        }
    }
    assert!(screens_seen > 100, "{screens_seen} screens");
}

/// A story fold on the page says where the rest is told: the page has no
/// `z` to open it. Teacher trial 30: tour-1 naive's pictures at steps 15
/// and 16 said `↑ 1 more sentence` and `↑ 4 more sentences` alone.
#[test]
fn a_fold_on_the_page_says_where_the_rest_is() {
    let script = scenario::find("tour-1").unwrap();
    let mut wrong = Vec::new();
    for size in [(80, 24), (120, 40)] {
        for design in ["naive", "idempotent"] {
            let strategy = Strategy::by_name(design).unwrap();
            let screens = lesson::screens(&script, &strategy, size, false).unwrap();
            for (step, screen) in screens.iter().enumerate() {
                for row in rows(screen) {
                    if row.contains("more sentence")
                        && !row.contains("in the page's text")
                        && !row.contains("see text")
                    {
                        wrong.push(format!("{design} step {step} at {size:?}: {}", row.trim()));
                    }
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
