//! A payment row in a replayed program's table that repeats one before
//! it is named as the simulator names it, `✕ again` (`! again` under
//! `--ascii`), not only marked new (teacher trial: two rows `1042 | 40 |
//! ch_1` at step 8 of the check-then-insert replay, the second marked
//! `+` alone). A row repeats when it holds the same values as an earlier
//! row of its table in the columns the recorded query reads (`order_id,
//! amount`): the same order paid again. On screen at every size (whole,
//! never cut) and in `--text`.

use crate::common::replays;
use idem::harness::run::RunReport;
use idem::harness::schedule_file::ScheduleFile;
use idem::harness::transcript;
use idem::tui::replay::Replay;
use idem::tui::theme::Theme;

const FILES: [&str; 4] = [
    "examples/python/naive-charged-twice.json",
    "tests/replays/check_then_insert-disagree.json",
    "tests/replays/ack_before_commit-disagree.json",
    "tests/replays/new_key_per_attempt-charged-twice.json",
];

const SIZES: [(u16, u16); 3] = [(80, 24), (100, 30), (120, 40)];

fn replayed(file: &str) -> (ScheduleFile, RunReport) {
    let file = replays::read(file);
    let report = replays::replay(&file);
    (file, report)
}

/// Step `i`'s payment rows that repeat an earlier row in `order_id` and
/// `amount`, counted from the typed dump (every file's recorded query
/// reads those two columns of `payments`).
fn repeats(report: &RunReport, i: usize) -> usize {
    let Some((table, _)) = report.steps[i]
        .tables
        .iter()
        .find(|(t, _)| t.name == "payments")
    else {
        return 0;
    };
    let col = |name: &str| table.columns.iter().position(|c| c == name).unwrap();
    let (o, a) = (col("order_id"), col("amount"));
    let key = |r: &Vec<String>| (r[o].clone(), r[a].clone());
    (0..table.rows.len())
        .filter(|&n| {
            table.rows[..n]
                .iter()
                .any(|e| key(e) == key(&table.rows[n]))
        })
        .count()
}

fn rows(r: &Replay, w: u16, h: u16) -> Vec<String> {
    r.buffer(w, h)
        .content
        .chunks(usize::from(w))
        .map(|row| row.iter().map(|c| c.symbol()).collect())
        .collect()
}

/// Step `n`'s section of the `--text` transcript (1 is the first).
fn section(text: &str, n: usize) -> Vec<String> {
    let head = format!("── step {n}");
    let mut out = Vec::new();
    let mut inside = false;
    for line in text.lines() {
        if line.starts_with("── step ") {
            let rest = &line[head.len().min(line.len())..];
            inside = line.starts_with(&head) && !rest.starts_with(|c: char| c.is_ascii_digit());
        } else if inside {
            out.push(line.to_string());
        }
    }
    out
}

#[test]
fn a_repeated_payment_row_is_marked_again_on_screen_and_in_text() {
    if super::harness_bad::python3().is_none() {
        return;
    }
    let (mut wrong, mut expected_total) = (Vec::new(), 0);
    for file in FILES {
        let (schedule, report) = replayed(file);
        assert_eq!(
            schedule.recorded_query,
            "SELECT order_id, amount FROM payments"
        );
        let text = transcript::render(&report);
        let counts: Vec<usize> = (0..report.steps.len())
            .map(|i| repeats(&report, i))
            .collect();
        for (i, &n) in counts.iter().enumerate() {
            expected_total += n;
            let told = section(&text, i + 1)
                .iter()
                .filter(|l| l.ends_with("✕ again"))
                .count();
            if told != n {
                wrong.push(format!(
                    "{file} --text step {}: {told} of {n} marked",
                    i + 1
                ));
            }
        }
        for ascii in [false, true] {
            let mut r = Replay::of(&schedule, replayed(file).1, Theme::new(false, ascii));
            let sign = if ascii { "!" } else { "✕" };
            let mark = format!("{sign} again");
            for (i, &n) in counts.iter().enumerate() {
                r.at = i;
                for (w, h) in SIZES {
                    let screen = rows(&r, w, h);
                    // A row's mark whole, or folded to its sign (`ch_1 ✕
                    // +`) where the database panel's border says its words.
                    let legend = screen
                        .iter()
                        .any(|l| l.starts_with('└') && l.contains(&mark));
                    let folded = |l: &str| {
                        l.split('│').any(|cell| {
                            let cell = cell.trim_end();
                            cell.ends_with(&format!(" {sign}"))
                                || cell.ends_with(&format!(" {sign} +"))
                        })
                    };
                    let seen = screen
                        .iter()
                        .filter(|l| !l.starts_with('└'))
                        .filter(|l| l.contains(&mark) || (legend && folded(l)))
                        .count();
                    if seen != n {
                        wrong.push(format!(
                            "{file} step {} at {w}x{h}{}: {seen} of {n} marked",
                            i + 1,
                            if ascii { " --ascii" } else { "" }
                        ));
                    }
                }
            }
        }
    }
    assert!(expected_total >= 3, "only {expected_total} repeated rows");
    assert!(
        wrong.is_empty(),
        "{} wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
