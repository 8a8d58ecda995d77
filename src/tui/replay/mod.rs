//! `idem test --replay FILE` on screen: a saved failing schedule of the
//! user's own program, stepped forward and back in panels like the
//! simulator's (the queue, the provider's charges and keys, the program's
//! tables as idem read them after each step, the program's stderr), with
//! the step where the fault fell marked. The Elm Architecture once more:
//! `Replay` is what is drawn, `update` applies a key, `view` draws it, and
//! `run` alone touches the terminal. The steps were recorded by the
//! harness (`harness::run::Step`); nothing here runs the program.

mod panels;
pub mod run;
pub mod view;

use crate::harness::faults;
use crate::harness::run::{RunReport, Step};
use crate::harness::schedule_file::ScheduleFile;
use crate::sim::verdict::Verdict;
use crate::tui::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::KeyCode;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

pub struct Replay {
    /// The program and its arguments, as the schedule file names them.
    pub program: String,
    /// The faults of the schedule, in words, each at the step a reader
    /// finds it in (`lose-ack at step 5`): a point's number would need its
    /// meaning said, and the strip of steps already counts steps.
    pub schedule: String,
    /// How the run ended: the money judged after the last step.
    pub verdict: Verdict,
    pub steps: Vec<Step>,
    /// The step on screen, an index into `steps`.
    pub at: usize,
    pub quit: bool,
    /// `w`: the verdict whole, every cause, in place of the panels; a
    /// small screen's verdict panel counts the causes it has no room for
    /// and names this key.
    pub why: bool,
    /// `e`: the program's stderr up to the step, whole, in place of the
    /// panels; its panel, when it counts earlier lines it has no room
    /// for, names this key.
    pub stderr_whole: bool,
    /// Why a key did nothing, until the next key.
    pub notice: Option<String>,
    /// `?` was pressed: the bar names the keys it has no room for, until
    /// the next key.
    pub asked: bool,
    pub theme: Theme,
}

impl Replay {
    pub fn new(
        program: String,
        schedule: String,
        verdict: Verdict,
        steps: Vec<Step>,
        theme: Theme,
    ) -> Self {
        // It opens on the first fault: what the file was saved for.
        let at = steps.iter().position(|s| s.fault.is_some()).unwrap_or(0);
        Replay {
            program,
            schedule,
            verdict,
            steps,
            at,
            quit: false,
            why: false,
            stderr_whole: false,
            notice: None,
            asked: false,
            theme,
        }
    }

    /// The replay of a saved schedule, from the run that recorded it.
    pub fn of(file: &ScheduleFile, report: RunReport, theme: Theme) -> Self {
        let steps = crate::harness::explore::point_steps(&report);
        let schedule = faults::describe_by_step(&file.faults, |point| steps.get(&point).copied());
        Replay::new(
            file.program.join(" "),
            schedule,
            report.verdict,
            report.steps,
            theme,
        )
    }

    /// The screen as a terminal of this size shows it: what `--shot` draws
    /// and the tests read.
    pub fn buffer(&self, width: u16, height: u16) -> Buffer {
        let area = Rect::new(0, 0, width, height);
        let mut buf = Buffer::empty(area);
        self.render(area, &mut buf);
        buf
    }

    /// Opens on step `n` (1 is the first).
    pub fn open_at(&mut self, n: usize) -> Result<(), String> {
        if n == 0 || n > self.steps.len() {
            return Err(format!(
                "--step {n}: this replay has steps 1 to {}",
                self.steps.len()
            ));
        }
        self.at = n - 1;
        Ok(())
    }

    pub fn step(&self) -> Option<&Step> {
        self.steps.get(self.at)
    }

    /// The step before the one on screen, to mark what changed.
    pub fn before(&self) -> Option<&Step> {
        self.at.checked_sub(1).and_then(|i| self.steps.get(i))
    }

    /// The keys, each `(key, what it does, rank)`: the bar shows them,
    /// and after `?` names those it has no room for. `e` is named where it is needed: by the
    /// stderr panel's count of the lines it has no room for, and by the
    /// whole stderr's title.
    pub fn keys_now(&self) -> [(String, &'static str, u8); 5] {
        [
            ("←/→".into(), "step", 1),
            ("Home/End".into(), "first/last", 3),
            ("f/F".into(), "next/previous fault", 2),
            ("w".into(), if self.why { "back" } else { "why" }, 1),
            ("q".into(), "quit", 0),
        ]
    }

    fn last(&self) -> usize {
        self.steps.len().saturating_sub(1)
    }
}

/// The keys the bar never shows, which `?` names after the ones it had
/// no room for: `e` is named where it is needed too (the stderr panel's
/// count of lines it has no room for), the others are second ways.
pub const UNLISTED: &[(&str, &str)] = &[
    ("e", "the stderr whole"),
    ("h/l", "step"),
    ("g/G", "first/last"),
    ("Esc", "back"),
];

pub fn update(r: &mut Replay, key: KeyCode) {
    r.notice = None;
    r.asked = false;
    let last = r.last();
    match key {
        // Esc leaves the whole verdict first, as it leaves the
        // simulator's; q quits from anywhere.
        KeyCode::Esc if r.why || r.stderr_whole => {
            r.why = false;
            r.stderr_whole = false;
        }
        KeyCode::Char('q') | KeyCode::Esc => r.quit = true,
        // One of the two in place of the panels at a time.
        KeyCode::Char('w') => {
            r.why = !r.why;
            r.stderr_whole = false;
        }
        KeyCode::Char('e') => {
            r.stderr_whole = !r.stderr_whole;
            r.why = false;
        }
        KeyCode::Right | KeyCode::Char('l') | KeyCode::Char(' ') => {
            if r.at == last {
                r.notice = Some("this is the last step: the run ends here".into());
            }
            r.at = (r.at + 1).min(last);
        }
        KeyCode::Left | KeyCode::Char('h') | KeyCode::Backspace => {
            if r.at == 0 {
                r.notice = Some("this is the first step".into());
            }
            r.at = r.at.saturating_sub(1);
        }
        // The bar may count keys it has no room for (`? +2`).
        KeyCode::Char('?') => r.asked = true,
        KeyCode::Home | KeyCode::Char('g') => r.at = 0,
        KeyCode::End | KeyCode::Char('G') => r.at = last,
        KeyCode::Char('f') => {
            match (r.at + 1..r.steps.len()).find(|&i| r.steps[i].fault.is_some()) {
                Some(i) => r.at = i,
                None => r.notice = Some("no fault falls after this step".into()),
            }
        }
        KeyCode::Char('F') => match (0..r.at).rev().find(|&i| r.steps[i].fault.is_some()) {
            Some(i) => r.at = i,
            None => r.notice = Some("no fault falls before this step".into()),
        },
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::faults::Fault;

    fn replay() -> Replay {
        let step = |fault: Option<Fault>| Step {
            fault,
            ..Step::default()
        };
        let steps = vec![
            step(None),
            step(None),
            step(Some(Fault::LoseAck)),
            step(None),
            step(Some(Fault::KillAfterCharge)),
            step(None),
        ];
        Replay::new(
            "prog".into(),
            "lose-ack at step 3".into(),
            crate::sim::verdict::combine(Vec::new()),
            steps,
            Theme::new(false, true),
        )
    }

    #[test]
    fn it_opens_on_the_first_fault_and_steps_both_ways() {
        let mut r = replay();
        assert_eq!(r.at, 2);
        update(&mut r, KeyCode::Left);
        assert_eq!(r.at, 1);
        update(&mut r, KeyCode::Right);
        update(&mut r, KeyCode::Right);
        assert_eq!(r.at, 3);
        update(&mut r, KeyCode::Home);
        update(&mut r, KeyCode::Left);
        assert_eq!(r.at, 0);
        assert!(
            r.notice.is_some(),
            "a step back from the first says why nothing moved"
        );
        update(&mut r, KeyCode::End);
        assert_eq!(r.at, 5);
        assert!(r.notice.is_none());
        update(&mut r, KeyCode::Right);
        assert_eq!(r.at, 5);
        assert!(r.notice.is_some());
    }

    /// The screen's rows as text.
    fn rows(r: &Replay, w: u16, h: u16) -> Vec<String> {
        let buf = r.buffer(w, h);
        buf.content
            .chunks(usize::from(w))
            .map(|row| row.iter().map(|c| c.symbol()).collect())
            .collect()
    }

    /// The program's stderr, cut to its newest lines in its panel, can be
    /// read whole: the count names `e`, `e` shows every line up to the
    /// step, and where even the whole screen has no room, its count names
    /// `--text`, which prints them all.
    #[test]
    fn stderr_cut_short_names_how_to_read_it_whole() {
        let mut r = replay();
        r.steps[2].stderr = (1..=15).map(|i| format!("err-{i:02}")).collect();
        let seen = |r: &Replay| {
            let screen = rows(r, 100, 30).join("\n");
            (1..=15)
                .filter(|i| screen.contains(&format!("err-{i:02}")))
                .count()
        };
        let count_row = |r: &Replay| {
            rows(r, 100, 30)
                .into_iter()
                .find(|l| l.contains("earlier line"))
                .unwrap_or_default()
        };
        let before = seen(&r);
        assert!(before < 15, "the panel was meant to be too small");
        // The test's theme is ASCII: its dot is a `-`.
        assert!(count_row(&r).contains("lines - e "), "{}", count_row(&r));
        update(&mut r, KeyCode::Char('e'));
        assert_eq!(seen(&r), 15, "{} of 15 lines seen after e", seen(&r));
        assert!(count_row(&r).is_empty());
        update(&mut r, KeyCode::Esc);
        assert!(!r.quit);
        assert_eq!(seen(&r), before);
        r.steps[2].stderr = (1..=60).map(|i| format!("err-{i:02}")).collect();
        update(&mut r, KeyCode::Char('e'));
        assert!(count_row(&r).contains("--text"), "{}", count_row(&r));
    }

    /// The bar always offers `?`, and `?` names the keys the bar does not
    /// show, whole, at 80 columns: `e` among them.
    #[test]
    fn question_mark_names_the_keys_off_the_bar() {
        let mut r = replay();
        let bar = |r: &Replay| rows(r, 80, 24).last().cloned().unwrap_or_default();
        assert!(bar(&r).contains("? keys"), "{}", bar(&r));
        update(&mut r, KeyCode::Char('?'));
        let said = bar(&r);
        assert!(said.contains("e the stderr whole"), "{said}");
        assert!(!said.contains('…') && !said.contains("..."), "{said}");
        update(&mut r, KeyCode::Right);
        assert!(bar(&r).contains("? keys"), "{}", bar(&r));
    }

    #[test]
    fn f_and_shift_f_jump_between_faults() {
        let mut r = replay();
        update(&mut r, KeyCode::Char('f'));
        assert_eq!(r.at, 4);
        update(&mut r, KeyCode::Char('f'));
        assert_eq!(r.at, 4);
        assert!(r.notice.is_some());
        update(&mut r, KeyCode::Char('F'));
        assert_eq!(r.at, 2);
        update(&mut r, KeyCode::Char('F'));
        assert_eq!(r.at, 2);
        assert!(r.notice.is_some());
        update(&mut r, KeyCode::Char('q'));
        assert!(r.quit);
    }
}
