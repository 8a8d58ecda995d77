//! The story panel's fold arrow points where the hidden sentences are:
//! `↑` for earlier words left out above what is shown, `↓` for words cut
//! after an ellipsis; both where both. Teacher trial at 80x24: tour-1
//! naive step 16 read `↓ 8 more sentences` though seven of the eight were
//! the earlier steps' words above.

use crate::common::own_line;
use crate::common::sweep::{SIZES, each_step, none_wrong};
use idem::tui::app::Panel;

fn squeeze(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The first sentence of `text`, its spaces squeezed.
fn first_sentence(text: &str) -> String {
    let text = squeeze(text);
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let end = chars
        .windows(3)
        .find(|w| matches!(w[0].1, '.' | '?' | '!') && w[1].1 == ' ' && w[2].1.is_uppercase())
        .map_or(text.len(), |w| w[1].0);
    text[..end].to_string()
}

#[test]
fn story_fold_arrow_points_where_the_hidden_sentences_are() {
    let t = idem::tui::theme::Theme::new(false, false);
    for size in SIZES {
        let (mut seen, mut wrong) = (0, Vec::new());
        // The note names the key that reads the rest: teacher trial 25,
        // `↑ 3 ↓ 1 more sentences` with no `· z` beside a step line cut
        // to `part of: run A to before…`.
        let (mut notes, mut keyless) = (0, Vec::new());
        each_step(size, |step| {
            let area = step.main.rect(Panel::Narration);
            if area.height < 3 || area.bottom() >= step.buf.area.bottom() {
                return;
            }
            let border: String = (area.x..area.right())
                .map(|x| step.buf[(x, area.bottom() - 1)].symbol())
                .collect();
            let Some(note_at) = border.find(" more sentence") else {
                return;
            };
            notes += 1;
            if !border[note_at..].contains(" z") {
                keyless.push(format!("{}: {border}", step.at()));
            }
            // The end's closing words, with all before them above.
            if step.ends_on_closing_words() && step.events_whole() {
                seen += 1;
                return;
            }
            let note = &border[..note_at];
            let note = &note[note.rfind('─').map_or(0, |i| i + '─'.len_utf8())..];
            seen += 1;
            let shown = step.words_in(Panel::Narration);
            let f = &step.frame;
            // Earlier words hidden: the chapter's words before this
            // step's own (its opening, earlier steps' words) do not start
            // on screen.
            let opening = first_sentence(&t.words(f.opening()));
            let start: Vec<&str> = opening.split(" ").take(8).collect();
            // ...while later words do: with none of the story after the
            // step's line shown, all of it is below.
            let forms = own_line::forms(&f.events, |s| squeeze(&t.text(s)));
            let own = own_line::on_screen(&forms, &shown);
            // The own line is whole, or its start cut under an ellipsis
            // (alone, or a row above the step's authored words where the
            // events panel shows the step's events whole): what follows it.
            let after_own = match shown.strip_prefix(&own) {
                Some(rest) => rest,
                None => shown
                    .split_once('…')
                    .filter(|(start, _)| own.starts_with(start.trim_end()))
                    // `… rest in Events`: the sign says where the cut
                    // words are read; no story words follow it.
                    .map_or("", |(_, rest)| {
                        let rest = rest.trim_start();
                        rest.strip_prefix("rest in Events").unwrap_or(rest)
                    }),
            };
            let later_shown = !after_own.trim().is_empty();
            let above = !opening.is_empty() && !shown.contains(&start.join(" ")) && later_shown;
            // Words cut below: an ellipsis ends the words shown, or the
            // story's last words (borrowed, or the narration's) do not end
            // them.
            let story_end = f
                .borrowed
                .as_ref()
                .map_or(f.narration.as_str(), |b| &b.text);
            let end: Vec<String> = squeeze(&t.words(story_end))
                .split(' ')
                .map(str::to_string)
                .collect();
            let end = end[end.len().saturating_sub(3)..].join(" ");
            let below = shown.contains('…') || !shown.ends_with(&end);
            // (What is hidden and not above is below.)
            let below = below || !above;
            let (up, down) = (note.contains('↑'), note.contains('↓'));
            if up != above || down != below {
                wrong.push(format!(
                    "{}: note {:?}, earlier words hidden above: {above}, cut below: {below}\nopening {opening:?}\nshown {shown:?}\n{}",
                    step.at(),
                    note.trim(),
                    step.screen()
                ));
            }
        });
        none_wrong("folded story panels", seen, 10, &wrong, size);
        none_wrong("story notes naming their key", notes, 10, &keyless, size);
    }
}
