//! Compare's header says the chapter whole or not at all: a teacher trial
//! at 100x30 (tour-3 from naive) read `Compare · naive: Redelivery charges
//! again / idempotent: Redelivery meets the unique key · chapter …`, the
//! chapter cut to a word with no number. Each tour, compared from each of
//! its designs, every position, at each size: the header's rows (above
//! the sides' top border) hold no `chapter` without its number, and no
//! cut chapter form.

use crate::common::sweep::SIZES;
use crate::common::{app, draw};
use idem::tui::{Action, update};

#[test]
fn the_compare_header_says_the_chapter_whole_or_not_at_all() {
    let (mut seen, mut wrong) = (0, Vec::new());
    for n in 1..=4 {
        let name = format!("tour-{n}");
        for design in ["naive", "idempotent"] {
            let mut a = app(&name, design);
            update(&mut a, Action::Compare);
            let last = a.compare.as_ref().map_or(0, |c| c.pairs.len());
            for (w, h) in SIZES {
                for pos in 0..last {
                    a.pos = pos;
                    let screen = draw(&mut a, w, h);
                    let header: Vec<&str> = screen
                        .lines()
                        .map(|l| l.trim_matches('"'))
                        .take_while(|l| !l.starts_with('┌'))
                        .collect();
                    seen += 1;
                    let bare = header.iter().any(|row| {
                        ["chapter", "ch."].iter().any(|word| {
                            row.match_indices(word).any(|(at, _)| {
                                let after = &row[at + word.len()..];
                                !after.starts_with(|c: char| c == ' ' || c.is_ascii_digit())
                                    || !after.trim_start().starts_with(|c: char| c.is_ascii_digit())
                            })
                        })
                    });
                    if bare {
                        wrong.push(format!("{name} {design} {w}x{h} pos {pos}: {}", header[0]));
                    }
                }
            }
        }
    }
    assert!(seen > 200, "only {seen} screens");
    assert!(
        wrong.is_empty(),
        "{} of {seen} compare headers cut the chapter; the first:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// Compare's header and its sides name the setup in one wording: a
/// teacher trial read `before the first step` in the header over two
/// sides that said `step 0/16: setup`. Every built-in scenario's compare
/// at its first position, at each size: the header's last clause is what
/// each side's step row names after `step 0/N: `.
#[test]
fn the_compare_header_names_the_setup_as_its_sides_do() {
    let (mut seen, mut wrong) = (0, Vec::new());
    for (name, design) in crate::compare_story_counted::compared() {
        let mut a = app(&name, &design);
        update(&mut a, Action::Compare);
        for (w, h) in SIZES {
            a.pos = 0;
            let screen = draw(&mut a, w, h);
            let header = screen.lines().next().unwrap_or_default().trim_matches('"');
            let clause = header.rsplit(" · ").next().unwrap_or_default().trim();
            let sides = crate::compare_in_view::side_rows(&screen);
            for rows in &sides {
                let Some(said) = rows
                    .iter()
                    .find(|r| r.starts_with("step 0/"))
                    .and_then(|r| r.split_once(": "))
                    .map(|(_, said)| said.trim())
                else {
                    continue;
                };
                seen += 1;
                // Where no form of the moment fits (`Compare · ` and the
                // titles alone), the header names none.
                let named = header.matches(" · ").count() > 1 && !clause.ends_with('…');
                if named && said != clause {
                    wrong.push(format!(
                        "{name} from {design} at {w}x{h}: header {clause:?}, side {said:?}"
                    ));
                }
            }
        }
    }
    assert!(seen > 50, "only {seen} sides");
    assert!(
        wrong.is_empty(),
        "{} of {seen} setups named two ways; the first:\n{}",
        wrong.len(),
        wrong[0]
    );
}
