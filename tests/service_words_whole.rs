//! A step's name in the service panel, cut for room, is cut where a word
//! ends: teacher trial (issue 18) read `charge the ca… (key)` at 80x24, a
//! word broken in the middle. The `(key)` tag after it stays. Teacher
//! trial 21 read `charge the… (key)` and `provider…  lost`: a cut that
//! ends on a word that leads into the next (`the`, `in`, `to`, `if`)
//! breaks the name as surely, and a step with a short name (`response`
//! for `provider response`) goes by it, never by a cut of its long one.

use crate::common::sweep::{SIZES, each_step};
use idem::tui::app::Panel;
use ratatui::layout::Margin;

/// Words that lead into the next: a cut name that ends on one is broken.
const LEADING: [&str; 4] = ["the", "in", "to", "if"];

/// A step's name that `row` shows cut: the label, what the row kept of
/// it, and whether the cut breaks a word.
struct Cut<'l> {
    label: &'l str,
    kept: String,
    mid_word: bool,
}

/// The label `row` shows cut, if it shows one: a row cut elsewhere (a
/// heading, a call's words) is no cut name.
fn cut<'l>(row: &str, labels: &[&'l str], shortened: &[&str]) -> Option<Cut<'l>> {
    // After the step's glyph (` ✓ `).
    let rest: String = row.chars().skip(3).collect();
    let kept = rest[..rest.find('…')?].trim_end();
    if kept.is_empty() {
        return None;
    }
    let of: Vec<&&str> = labels.iter().filter(|l| l.starts_with(kept)).collect();
    let whole = |l: &str| l[kept.len()..].starts_with(' ');
    let dangles = kept
        .rsplit(' ')
        .next()
        .is_some_and(|w| LEADING.contains(&w));
    let label = of.first()?;
    Some(Cut {
        label,
        kept: kept.to_string(),
        mid_word: !of.iter().any(|l| whole(l)) || dangles || shortened.contains(label),
    })
}

/// Whether `row` counts toward the names made to fit seen: only where it
/// shows a label cut, or a step by its short name (`begin  next`,
/// `charge (key)  again`), the form most names short of room now take,
/// so the sweep cannot pass on cut headings alone, nor on rows where
/// every name fits whole.
fn counted(row: &str, labels: &[&str], shorts: &[String]) -> bool {
    cut(row, labels, &[]).is_some() || by_short_name(row, shorts)
}

/// Whether `row` names its step by a short name (`shorts`, a keyed call's
/// with its `(key)`): the name, then the row's end, its marks (two
/// spaces) or the pointer's sign. `begin transaction` is no `begin`.
fn by_short_name(row: &str, shorts: &[String]) -> bool {
    let rest: String = row.chars().skip(3).collect();
    let rest = rest.trim_end();
    shorts.iter().any(|s| {
        rest.strip_prefix(s.as_str())
            .is_some_and(|after| after.is_empty() || after.starts_with("  ") || after == " ◀")
    })
}

#[test]
fn cut_finds_a_word_cut_in_its_middle() {
    let labels = [
        "charge the card (key)",
        "insert payment row",
        "provider response",
    ];
    let shortened = ["provider response"];
    let mid = |row: &str| cut(row, &labels, &shortened).is_some_and(|c| c.mid_word);
    assert!(mid(" ✓ charge the ca… (key)"));
    // Ends on a word that leads into the next (teacher trial 21).
    assert!(mid(" ✓ charge the… (key)"));
    assert!(!mid(" ✓ charge… (key)"));
    // Cut where a short name serves: `response  lost`, not `provider…  lost`.
    assert!(mid(" ✕ provider…  lost ◀"));
    assert!(!mid(" ✕ response  lost ◀"));
    assert!(mid(" ▷ insert paym…  next"));
    assert!(!mid(" ▷ insert…  next"));
    assert!(!mid(" ▷ insert payment row  next"));
}

#[test]
fn only_a_cut_label_counts_as_a_cut_name() {
    let labels = [
        "charge the card (key)",
        "insert payment row",
        "begin transaction",
    ];
    let shorts = ["charge (key)".to_string(), "begin".to_string()];
    let counted = |row: &str| counted(row, &labels, &shorts);
    assert!(counted(" ✓ charge the… (key)"));
    assert!(counted(" ▷ insert paym…  next"));
    // A step by its short name: its name made to fit, whole.
    assert!(counted(" ▷ charge (key)  again"));
    assert!(counted(" ✓ begin ◀"));
    assert!(counted(" ✓ begin"));
    // A heading or a call's words cut: no step's name.
    assert!(!counted("── consumer A (handl…"));
    assert!(!counted(" ✓ 409 in progr…"));
    // A name whole, even one that starts with a short name.
    assert!(!counted(" ▷ insert payment row  next"));
    assert!(!counted(" ✓ begin transaction ◀"));
}

#[test]
fn a_cut_step_name_keeps_its_words_whole() {
    // The large screen cuts no name: the cuts are counted over the sizes.
    let (mut seen, mut wrong) = (0, Vec::new());
    for size in SIZES {
        each_step(size, |step| {
            let inner = step.main.rect(Panel::Service).inner(Margin::new(1, 1));
            let rows = step.rows();
            let labels: Vec<&str> = step
                .frame
                .consumers
                .iter()
                .flat_map(|c| c.steps.iter().map(|s| s.label.as_str()))
                .collect();
            let shortened: Vec<&str> = step
                .frame
                .consumers
                .iter()
                .flat_map(|c| c.steps.iter())
                .filter(|s| s.short.is_some())
                .map(|s| s.label.as_str())
                .collect();
            // Each short name as a row shows it: a keyed call's with its tag.
            let shorts: Vec<String> = step
                .frame
                .consumers
                .iter()
                .flat_map(|c| c.steps.iter())
                .filter_map(|s| {
                    let tag = if s.keyed { " (key)" } else { "" };
                    s.short.map(|short| format!("{short}{tag}"))
                })
                .collect();
            for y in inner.y..inner.bottom() {
                let row: String = rows[usize::from(y)]
                    .chars()
                    .skip(usize::from(inner.x))
                    .take(usize::from(inner.width))
                    .collect();
                if counted(&row, &labels, &shorts) {
                    seen += 1;
                }
                // No exception: a word that alone tells what happened to
                // the call (`409 in progress`, `never received`, teacher
                // trials 6 and 8) sits beside the step's short name
                // (`response`), not beside `provi…`.
                if let Some(Cut {
                    label,
                    kept,
                    mid_word: true,
                }) = cut(&row, &labels, &shortened)
                {
                    wrong.push(format!(
                        "{}: {label:?} cut mid-word to {kept:?}: {row:?}\n{}",
                        step.at(),
                        step.screen()
                    ));
                }
            }
        });
    }
    assert!(
        seen > 20,
        "only {seen} service rows with a name made to fit"
    );
    assert!(
        wrong.is_empty(),
        "{} of {seen} cut names broke a word; the first:\n{}\nall:\n{}",
        wrong.len(),
        wrong[0],
        wrong
            .iter()
            .map(|w| w.lines().next().unwrap_or(""))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// Teacher trial (tour-4 at 80x24): `charge… (key)  again` read as a word
/// cut (`charges`? `charged`?), the ellipsis glued to it. A provider call
/// whose name does not fit goes by its short name, whole (`charge (key)`),
/// and tour-4, the tour about that call, names each of its steps whole or
/// by a short name at every step under both designs.
#[test]
fn the_call_goes_by_its_short_name_never_a_cut_one() {
    let (mut seen, mut wrong) = (0, Vec::new());
    crate::common::sweep::each_step((80, 24), |step| {
        let tour_4 = step.app.script.name == "tour-4";
        for row in step.rows_in(Panel::Service) {
            let steps_row = row.chars().nth(1).is_some_and(|c| c != ' ') && row.starts_with(' ');
            if row.contains("charge") {
                seen += 1;
            }
            if row.contains("charge…") || (tour_4 && steps_row && row.contains('…')) {
                wrong.push(format!("{}: {:?}", step.at(), row.trim_end()));
            }
        }
    });
    assert!(seen > 20, "only {seen} service rows name the call");
    assert!(
        wrong.is_empty(),
        "{} of {seen} rows cut a step's name:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
