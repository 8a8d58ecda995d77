//! Predict mode's reveal mark (`✓right`, `✕wrong`: never its sign alone,
//! a bare `✕` beside a charge reads as "the charge failed") stands on the
//! row of the panel it judges, at every size, for every question of every
//! built-in scenario under every design it is written for. Where the row
//! is full, the row gives way by its panel's rules (shorter forms, words
//! cut with "…"), never the mark, and no word is drawn over; but it keeps
//! its evidence: its figures, its change marks (the sign at least), `no
//! key`/`key`, its ID, its state, and a moved figure's old value. Where it
//! cannot, the row stays whole and the mark goes on the panel's border
//! (`✕wrong ↑` below, or `✕wrong ↓` above a heading), a bounded number
//! of times.

use crate::common::{self, draw};
use crate::tui_predict::{answer, wrong};
use idem::scenario::Subject;
use idem::tui::app::Panel;
use idem::tui::layout;
use idem::tui::predict::Stage;
use idem::tui::{Action, update};
use ratatui::layout::Rect;

/// Reveals whose mark goes beside its row (on a blank row next to it, or
/// on the nearer border), where its row cannot keep its evidence beside
/// it: 99 of them at 80x24 (a heading keeps its
/// label, `charges` or `total`, and the value it moved from, which leave
/// no room for `✓right` in a 27-column panel), 3 at 100x30 (a total
/// beside a count of folded rows). None above.
const FALLBACKS: usize = 102;

const SIZES: [(u16, u16); 4] = [(80, 24), (100, 30), (120, 40), (160, 48)];

/// The panel a question's figure is in, and how its row reads: the
/// first row of the panel that passes `is_row`.
/// Whether a row (its text inside the panel's borders) is the one judged.
type IsRow<'a> = Box<dyn Fn(&str) -> bool + 'a>;

/// `charge` is the charge a provider's answer made or replayed
/// (`answered_charge`).
fn judged<'a>(subject: &'a Subject, charge: Option<String>) -> (Panel, IsRow<'a>) {
    match subject {
        Subject::PaymentsTotal | Subject::PaymentsRows | Subject::PaymentsRowsAny => (
            Panel::Database,
            Box::new(|r: &str| r.starts_with("payments")),
        ),
        Subject::ProcessedRows | Subject::ProcessedRowsAny => (
            Panel::Database,
            Box::new(|r: &str| r.starts_with("processed")),
        ),
        Subject::ProviderCharges | Subject::ChargesAgain => (
            Panel::Provider,
            Box::new(|r: &str| r.starts_with("charges")),
        ),
        // The charge's row (it starts with the charge's ID); with no
        // charge, none: the heading then.
        Subject::ProviderAnswer => (
            Panel::Provider,
            Box::new(move |r: &str| {
                charge
                    .as_deref()
                    .is_some_and(|id| r.split_whitespace().next() == Some(id))
            }),
        ),
        Subject::Holder(id) | Subject::MessageState(id) | Subject::Deliveries(id) => (
            Panel::Broker,
            Box::new(move |r: &str| {
                r.split_whitespace()
                    .any(|w| w == id || w == format!("({id})"))
            }),
        ),
    }
}

/// The charge a question about the provider's answer is about, read off
/// the action's frames: at its first call, the charge that call added, or
/// the one the key it replayed points to. None where it was refused.
fn answered_charge(frames: &[idem::sim::Frame], q: &idem::timeline::Asked) -> Option<String> {
    if q.question.subject != Subject::ProviderAnswer {
        return None;
    }
    let at = (q.ask_at + 1..=q.answer_at).find(|&i| frames[i].provider.answered_now.is_some())?;
    let (f, before) = (&frames[at].provider, &frames[at - 1].provider);
    let answer = f.answered_now.as_ref()?;
    if answer.status != 201 {
        return None;
    }
    if answer.replayed {
        return f
            .keys
            .iter()
            .find(|k| k.replayed_now)
            .map(|k| k.result.clone());
    }
    f.charges
        .iter()
        .map(|c| c.id.clone())
        .find(|id| !before.charges.iter().any(|b| b.id == *id))
}

/// The rows inside a panel's borders, as text.
fn inner_rows(screen: &str, r: Rect) -> Vec<String> {
    screen
        .lines()
        .skip(usize::from(r.y) + 1)
        .take(usize::from(r.height.saturating_sub(2)))
        .map(|l| {
            let l = l.trim_matches('"');
            l.chars()
                .skip(usize::from(r.x) + 1)
                .take(usize::from(r.width.saturating_sub(2)))
                .collect()
        })
        .collect()
}

/// The change marks a row may end with (`+ new`, `* was $40`, `- removed`).
const CHANGE_SIGNS: [&str; 3] = ["+", "*", "-"];

/// Is `word` the change mark `sign`: the sign alone, or a figure's mark
/// in its tightest form, `*was` (of `*was 1`: a moved figure keeps the
/// value it moved from in every form)?
fn is_sign(word: &str, sign: &str) -> bool {
    word == sign || word.strip_prefix(sign) == Some("was")
}

/// Does the row mark a moved figure, as a sign or as its old value before
/// the new (`charges 1→2 $80`, where the row has no room for `*was 1`)?
fn marks_a_change(words: &[&str], sign: &str) -> bool {
    words.iter().any(|w| is_sign(w, sign))
        || (sign == "*" && words.iter().any(|w| moved(w).is_some()))
}

/// The new value of a figure written with its old one, `1→2`.
fn moved(word: &str) -> Option<&str> {
    let (from, to) = word.split_once('→').or_else(|| word.split_once("->"))?;
    let digits = |s: &str| {
        let s = s.strip_prefix('$').unwrap_or(s);
        !s.is_empty() && s.chars().all(|c| c.is_ascii_digit())
    };
    (digits(from) && digits(to)).then_some(to)
}

/// The figures of a row before its change marks: words with a digit in
/// them, without brackets. (A row's change mark may fold to its sign
/// alone, as a row's change tag does; a figure's `* was $40` to `*was
/// $40`.)
fn figures(row: &str) -> Vec<String> {
    row.split_whitespace()
        .take_while(|w| !CHANGE_SIGNS.iter().any(|s| is_sign(w, s)))
        // `#1042` is the order 1042 in a charge row's shorter form.
        .map(|w| w.trim_matches(|c| matches!(c, '(' | ')' | ',' | '#')))
        .map(|w| moved(w).unwrap_or(w).to_string())
        .filter(|w| w.chars().any(|c| c.is_ascii_digit()) && !w.ends_with('…'))
        .collect()
}

/// `with` is the row `without` with the mark at its end, apart from the
/// words: the row may give way (in the panel's shorter words, or cut with
/// "…"), but its figures and its own change marks stay (a mark at least
/// as its sign), and the cut is never in a mark.
fn mark_keeps_the_row(with: &str, without: &str, mark: &str) -> Result<(), String> {
    let Some(at) = with.find(mark) else {
        return Err(format!("no mark {mark:?}"));
    };
    if !with[at + mark.len()..].trim().is_empty() {
        return Err("words after the mark".into());
    }
    if !with[..at].ends_with(' ') {
        return Err("the mark touches the words before it".into());
    }
    let row = &with[..at];
    let words: Vec<&str> = row.split_whitespace().collect();
    for sign in CHANGE_SIGNS {
        let before: Vec<&str> = without.split_whitespace().collect();
        if marks_a_change(&before, sign) && !marks_a_change(&words, sign) {
            return Err(format!("the row's change mark {sign} is lost"));
        }
    }
    // `… ↓ 1 more` is a count of hidden rows, not a cut: its `…` stands
    // alone before the arrow.
    let count = |i: usize| words[i] == "…" && words.get(i + 1).is_some_and(|n| n.starts_with('↓'));
    if let Some(cut) = (0..words.len()).position(|i| words[i].ends_with('…') && !count(i))
        && words[..cut]
            .iter()
            .any(|w| CHANGE_SIGNS.iter().any(|s| is_sign(w, s)))
    {
        return Err("the cut is in the row's change mark".into());
    }
    // A fold count may shorten from `… ↓ 3 more` to `…3 more`: one count.
    // A heading's count says rows not shown, long, or hidden, short.
    let counts = |s: &str| {
        s.replace("… ↓ ", "…")
            .replace(" rows not shown", " hidden")
            .replace(" row not shown", " hidden")
            .replace("… ", "…")
    };
    let kept = figures(&counts(row));
    for figure in figures(&counts(without)) {
        if !kept.contains(&figure) {
            return Err(format!("the figure {figure} is lost"));
        }
    }
    Ok(())
}

/// The value a moved figure moved from, in any of its forms: `* was $0`,
/// `*was $0`, or `1→2`.
fn old_values(words: &[&str]) -> Vec<String> {
    let mut old = Vec::new();
    for (i, w) in words.iter().enumerate() {
        if matches!(*w, "was" | "*was")
            && let Some(v) = words.get(i + 1)
        {
            old.push(v.trim_end_matches('…').to_string());
        } else if moved(w).is_some() {
            let (from, _) = w.split_once('→').or_else(|| w.split_once("->")).unwrap();
            old.push(from.to_string());
        }
    }
    old
}

/// The mark always carries its word: a bare `✕` beside a charge's row
/// reads as "the charge failed or was reversed", the very thing the
/// lesson is about.
fn mark_is_worded(with: &str, mark: &str) -> Result<(), String> {
    if with.contains(mark) {
        Ok(())
    } else {
        Err(format!("the mark is not {mark:?} whole (a bare sign?)"))
    }
}

/// At a reveal the judged row keeps what answers the question: a moved
/// figure keeps the value it moved from, the row keeps a word for its
/// state, and every word that is evidence (all but `MAY_GIVE_WAY`, in the
/// panels' shorter forms) is still there whole beside the mark.
fn answer_stays_whole(with: &str, without: &str) -> Result<(), String> {
    let row = with
        .trim_end()
        .trim_end_matches(|c: char| !c.is_whitespace())
        .trim_end();
    // A heading's fold count in its shorter words: `…3 other rows` to
    // `…3 rows`, `… 1 key not shown` to `…1 key`, `key store empty` to
    // `keys 0`.
    let counts = |s: &str| {
        s.replace("… ", "…")
            .replace(" other row", " row")
            .replace(" not shown", "")
            .replace("· key store empty", "keys 0")
    };
    let (row, without) = (counts(row), counts(without));
    let words: Vec<&str> = row.split_whitespace().collect();
    let before: Vec<&str> = without.split_whitespace().collect();
    for old in old_values(&before) {
        if !old_values(&words).contains(&old) {
            return Err(format!("the old value {old} is lost"));
        }
    }
    // The row's state, in any of the broker's words for it.
    let state = |words: &[&str]| words.iter().any(|w| STATES.contains(w));
    if state(&before) && !state(&words) {
        return Err("the row's state is gone".into());
    }
    let figure = |w: &str| w.chars().any(|c| c.is_ascii_digit());
    let mut left = words.clone();
    for word in before.iter().filter(|w| {
        !w.ends_with('…')
            && !figure(w)
            && !MAY_GIVE_WAY.contains(w)
            && !STATES.contains(w)
            && !CHANGE_SIGNS.contains(w)
    }) {
        match left.iter().position(|w| w == word) {
            Some(i) => {
                left.remove(i);
            }
            None => return Err(format!("the word {word:?} is cut or gone")),
        }
    }
    Ok(())
}

/// Words a row may give up beside the mark, by its panel's shorter forms:
/// `order 1042` to `#1042`, `with key` to `key`, `charges made 2` to
/// `2`, `total recorded $40` to `$40`, a change mark's word to its sign
/// (`+ new` to `+`). Every other word is evidence: `no key`, `key`, a
/// charge's or a message's ID, the words of a fold count.
const MAY_GIVE_WAY: [&str; 11] = [
    "order", "with", "charges", "made", "payments", "·", "total", "recorded", "new", "changed",
    "was",
];

/// A message's state in the broker's words, long and short (`in flight →
/// A`, `→ A leased` or `→ A`; `acked by A, removed` or `removed`): the
/// row keeps one of them.
const STATES: [&str; 12] = [
    "→",
    "waiting",
    "in",
    "flight",
    "leased",
    "acked",
    "acked,",
    "by",
    "removed",
    "dead-lettered",
    "DLQ",
    "A,",
];

#[test]
fn every_reveal_mark_is_on_the_row_it_judges_at_every_size() {
    let mut checked = 0;
    let mut failures = Vec::new();
    let mut fallbacks: Vec<String> = Vec::new();
    for script in idem::scenario::load::builtins() {
        for design in script.strategies() {
            for (w, h) in SIZES {
                let mut a = common::app(&script.name, &design);
                update(&mut a, Action::Predict);
                common::resize(&mut a, w, h);
                let mut asked = 0;
                for _ in 0..600 {
                    let stage = a.predict.as_ref().unwrap().stage.clone();
                    match stage {
                        Stage::Asking { at, .. } => {
                            let q = a.predict.as_ref().unwrap().asked[at].clone();
                            // Right and wrong in turn, so both marks are drawn.
                            let said = if asked % 2 == 0 { q.answer } else { wrong(&q) };
                            asked += 1;
                            answer(&mut a, said);
                        }
                        Stage::Revealed { from, to } => {
                            let with = draw(&mut a, w, h);
                            // Without predict mode, the same frame with the
                            // same change marks (the whole action's, at a
                            // reveal): only the reveal mark is taken away.
                            let at = a.frame_at();
                            let mut shown = a.timeline.frames[at].clone();
                            shown.changes = a.shown_frame().changes.clone();
                            let own = std::mem::replace(&mut a.timeline.frames[at], shown);
                            let kept = a.predict.take();
                            let without = common::render(&a);
                            a.predict = kept;
                            a.timeline.frames[at] = own;
                            let m = layout::on_screen(&a, Rect::new(0, 0, w, h));
                            let p = a.predict.as_ref().unwrap();
                            let mut bordered = Vec::new();
                            for i in from..=to {
                                let q = &p.asked[i];
                                let right = p.given.get(&i).unwrap().right;
                                let mark = if right { "✓right" } else { "✕wrong" };
                                let charge = answered_charge(&a.timeline.frames, q);
                                let (panel, is_row) = judged(&q.question.subject, charge);
                                let rect = m.rect(panel);
                                let plain = inner_rows(&without, rect);
                                let marked = inner_rows(&with, rect);
                                let place = format!(
                                    "{} {design} {w}x{h} question {} ({:?})",
                                    script.name,
                                    i + 1,
                                    q.question.subject
                                );
                                // A provider's answer is judged on the
                                // charge it made or replayed; where that
                                // row is folded away, or the provider
                                // charged nothing, on the heading with its
                                // charges (never on the key store: an
                                // empty store beside `✓` reads as "empty
                                // is right").
                                let heading = || {
                                    matches!(q.question.subject, Subject::ProviderAnswer)
                                        .then(|| {
                                            plain.iter().position(|r| r.starts_with("charges"))
                                        })
                                        .flatten()
                                };
                                let Some(row) =
                                    plain.iter().position(|r| is_row(r)).or_else(heading)
                                else {
                                    failures.push(format!("{place}: no row\n{without}"));
                                    continue;
                                };
                                checked += 1;
                                // The last resort: the row whole, the mark
                                // on the panel's bottom border.
                                let bottom = |screen: &str| {
                                    screen
                                        .lines()
                                        .nth(usize::from(rect.bottom() - 1))
                                        .unwrap_or("")
                                        .chars()
                                        .skip(usize::from(rect.x))
                                        .take(usize::from(rect.width))
                                        .collect::<String>()
                                };
                                // Or on the top border, pointing down.
                                let top = |screen: &str| {
                                    screen
                                        .lines()
                                        .nth(usize::from(rect.y))
                                        .unwrap_or("")
                                        .chars()
                                        .skip(usize::from(rect.x))
                                        .take(usize::from(rect.width))
                                        .collect::<String>()
                                };
                                // Or on a blank row just under the row
                                // (pointing up) or just over it (down).
                                let neighbour = |at: Option<usize>, arrow: &str| {
                                    at.filter(|&n| {
                                        n < plain.len()
                                            && plain[n].trim().is_empty()
                                            && marked[n].trim() == format!("{mark} {arrow}")
                                    })
                                };
                                let beside = neighbour(Some(row + 1), "↑")
                                    .or_else(|| neighbour(row.checked_sub(1), "↓"));
                                let on_border = !marked[row].contains(mark)
                                    && (beside.is_some()
                                        || bottom(&with).contains(&format!("{mark} ↑"))
                                        || top(&with).contains(&format!("{mark} ↓")));
                                let verdict = if on_border {
                                    fallbacks.push(format!("{place}: {:?}", plain[row]));
                                    let unchanged = (0..plain.len())
                                        .filter(|&n| Some(n) != beside)
                                        .all(|n| marked[n] == plain[n]);
                                    if bordered.contains(&panel) {
                                        Err("two marks beside one panel's rows".into())
                                    } else if unchanged {
                                        bordered.push(panel);
                                        Ok(())
                                    } else {
                                        Err("the mark is beside the row, and a row changed".into())
                                    }
                                } else {
                                    mark_is_worded(&marked[row], mark)
                                        .and_then(|()| {
                                            mark_keeps_the_row(&marked[row], &plain[row], mark)
                                        })
                                        .and_then(|()| {
                                            answer_stays_whole(&marked[row], &plain[row])
                                        })
                                };
                                if let Err(why) = verdict {
                                    failures.push(format!(
                                        "{place}: {why}\n  was {:?}\n  now {:?}",
                                        plain[row], marked[row]
                                    ));
                                }
                            }
                            update(&mut a, Action::Next);
                        }
                        Stage::Watching => {
                            if a.pos >= a.last_pos() {
                                break;
                            }
                            update(&mut a, Action::Next);
                        }
                    }
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} marks misplaced:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(checked >= 200, "only {checked} marks checked");
    // Where a row cannot keep its evidence beside the worded mark (80x24's
    // narrow broker and provider), the mark goes on the border: no more
    // often than that.
    assert!(
        fallbacks.len() <= FALLBACKS,
        "{} of {checked} marks on the border (at most {FALLBACKS}):\n{}",
        fallbacks.len(),
        fallbacks.join("\n")
    );
}
