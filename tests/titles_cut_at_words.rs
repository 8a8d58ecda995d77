//! At 80x24 the titles a class reads at a run's end were cut with no
//! sign, in mid-word (teacher trial): the story panel's `What happens ·
//! chapter N/M: …` and the header's scenario title. A title that does not
//! fit takes a shorter form that keeps the chapter's name whole where one
//! fits, and else is cut at a word's end under an ellipsis. Swept at the
//! last step of every scenario and design.

use crate::common::sweep;
use idem::tui::app::Panel;

/// Whether `shown` is `whole`, or its start cut at a word's end under an
/// ellipsis.
fn whole_or_cut_at_a_word(shown: &str, whole: &str) -> bool {
    if shown == whole {
        return true;
    }
    let Some(kept) = shown.strip_suffix('…') else {
        return false;
    };
    let kept = kept.trim_end();
    whole.starts_with(kept) && whole[kept.len()..].starts_with([' ', ','])
}

#[test]
fn last_step_titles_are_whole_or_cut_at_a_word() {
    let size = (80, 24);
    let (mut seen, mut wrong) = (0, Vec::new());
    let (mut story_cut, mut name_cut, mut header_cut) = (0, 0, 0);
    sweep::each_step(size, |step| {
        let app = step.app;
        // The story's title at every step; the header's, whose room
        // changes with the verdict beside it, at the end.
        let last = app.pos + 1 == app.timeline.frames.len();
        seen += usize::from(last);
        let f = &step.frame;
        let rows = step.rows();
        // The story panel's title, on its top border.
        let rect = step.main.rect(Panel::Narration);
        let border: String = rows[usize::from(rect.y)]
            .chars()
            .skip(usize::from(rect.x) + 1)
            .collect();
        let shown = border
            .trim_start_matches('─')
            .split(" ─")
            .next()
            .unwrap_or_default()
            .trim_end_matches(['─', '┐'])
            .trim()
            .to_string();
        let (chapter, of) = app.chapter();
        if !f.chapter_title.is_empty() && (1..=of).contains(&chapter) {
            let whole = format!("What happens · chapter {chapter}/{of}: {}", f.chapter_title);
            if shown != whole && last {
                story_cut += 1;
                if !shown.contains(&f.chapter_title) {
                    name_cut += 1;
                }
            }
            if shown != whole {
                eprintln!("{}: story title {shown:?}", step.at());
            }
            let short_forms = [
                whole.clone(),
                format!("What happens · {chapter}/{of}: {}", f.chapter_title),
                format!("chapter {chapter}/{of}: {}", f.chapter_title),
                format!("{chapter}/{of}: {}", f.chapter_title),
            ];
            if !short_forms
                .iter()
                .any(|w| whole_or_cut_at_a_word(&shown, w))
            {
                wrong.push(format!("{}: story title {shown:?} of {whole:?}", step.at()));
            }
        }
        if !last {
            return;
        }
        // The header's scenario title, after the group's place.
        let title = app.script.title_for(&app.strategy.name);
        let header = &rows[0];
        if !header.contains(title) {
            header_cut += 1;
            let after = header.split(" · ").nth(1).unwrap_or_default();
            // Up to its sign, where it has one.
            let shown = match after.split_once('…') {
                Some((kept, _)) => format!("{kept}…"),
                None => after.split("  ").next().unwrap_or_default().to_string(),
            };
            let shown = shown.trim();
            if !shown.is_empty() && !whole_or_cut_at_a_word(shown, title) {
                wrong.push(format!(
                    "{}: header title {shown:?} of {title:?}",
                    step.at()
                ));
            }
        }
    });
    eprintln!(
        "at 80x24, of {seen} last steps: story title cut {story_cut} (chapter name cut {name_cut}), header title cut {header_cut}"
    );
    sweep::none_wrong("last steps", seen, 40, &wrong, size);
}

/// A scenario of one's own may name a chapter longer than the panel: its
/// title keeps the chapter's name whole in a shorter form where one fits,
/// else is cut at a word's end under an ellipsis, never with no sign.
#[test]
fn a_long_chapter_name_keeps_its_words() {
    let text = std::fs::read_to_string("scenarios/tour-4.toml").unwrap();
    let long =
        "The retry with the same key, told at length so that no panel at eighty columns holds it";
    let text = text.replacen(
        "title = \"The retry with the same key\"",
        &format!("title = \"{long}\""),
        1,
    );
    let script = idem::scenario::load::parse("long.toml", &text).unwrap();
    let strategy = idem::sim::Strategy::by_name("idempotent").unwrap();
    let mut app = idem::tui::App::new(script, strategy, 0, crate::common::plain()).unwrap();
    let at = (0..app.timeline.frames.len())
        .find(|&i| app.timeline.frames[i].chapter_title == long)
        .expect("the long chapter");
    app.pos = at;
    let screen = crate::common::draw(&mut app, 80, 24);
    let row = screen
        .lines()
        .find(|l| l.contains("3/4"))
        .unwrap_or_else(|| panic!("no chapter title:\n{screen}"));
    let shown = row
        .trim_matches('"')
        .trim_start_matches('┌')
        .split(" ─")
        .next()
        .unwrap()
        .trim_end_matches(['─', '┐'])
        .trim();
    let (_, title) = shown.split_once("3/4: ").expect("the chapter's number");
    assert!(
        whole_or_cut_at_a_word(title, long),
        "{shown:?} cuts {long:?} with no sign or in mid-word"
    );
}
