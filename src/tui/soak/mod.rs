//! The soak dashboard: The Elm Architecture again. `Dashboard` holds what
//! is drawn (the latest copy of the soak's live figures and the user's
//! choices), `update` applies a key or a fresh copy, `view` draws it, and
//! `run` is the only part that touches the terminal and the engine threads.

mod figures;
pub mod run;
pub mod view;
mod violations;

use crate::soak::live::LiveState;
use crate::tui::theme::Theme;
use ratatui::crossterm::event::KeyCode;

/// Each speed's pause per slice of ticks, in microseconds, fastest first.
pub const SPEEDS: [(u64, &str); 4] = [
    (0, "full speed"),
    (500, "fast"),
    (5_000, "slow"),
    (50_000, "very slow"),
];

pub struct Dashboard {
    pub live: LiveState,
    /// The settings line at the top: payments, consumers, seed, faults.
    pub settings: String,
    pub selected: usize,
    pub paused: bool,
    /// An index into `SPEEDS`.
    pub speed: usize,
    pub quit: bool,
    /// Enter was pressed on this violation: open its story.
    pub open: Option<usize>,
    /// Why Enter did nothing, until the next key.
    pub notice: Option<String>,
    /// `?` was pressed: the bar names the keys it has no room for, until
    /// the next key.
    pub asked: bool,
    pub theme: Theme,
}

pub enum DashAction {
    Key(KeyCode),
    Live(LiveState),
}

/// The settings line at the top: payments, consumers, seed, faults and
/// retention, as the soak was asked for.
pub fn settings(config: &crate::soak::Config) -> String {
    let e = config.echo();
    format!(
        "{} payments · {} consumers · seed {} · faults {}{}{}",
        crate::check::num(e.messages),
        e.consumers,
        e.seed,
        // In the words the report and the levels use, not the flag's.
        e.fault_words,
        e.retention
            .map(|r| format!(" · retention {r}"))
            .unwrap_or_default(),
        e.engine.map(|e| format!(" · on {e}")).unwrap_or_default()
    )
}

impl Dashboard {
    pub fn new(settings: String, live: LiveState, theme: Theme) -> Self {
        Dashboard {
            live,
            settings,
            selected: 0,
            paused: false,
            speed: 0,
            quit: false,
            open: None,
            notice: None,
            asked: false,
            theme,
        }
    }

    /// The keys that matter now, each `(key, what it does, rank)`: the
    /// bar shows them, and after `?` names those it has no room for.
    pub fn keys_now(&self) -> Vec<(String, &'static str, u8)> {
        let mut keys: Vec<(String, &'static str, u8)> = Vec::new();
        if !self.finished() {
            let pause = if self.paused { "resume" } else { "pause" };
            keys.push(("space".into(), pause, 2));
            keys.push(("+/-".into(), "speed", 4));
        }
        keys.push(("↑/↓".into(), "choose", 3));
        keys.push(("Enter".into(), "open its story", 1));
        let quit = if self.finished() {
            "quit and print the report"
        } else {
            "stop"
        };
        keys.push(("q".into(), quit, 0));
        keys
    }

    /// Every design has settled all it published.
    pub fn finished(&self) -> bool {
        self.live.designs.iter().all(|d| d.finished)
    }
}

pub fn update(d: &mut Dashboard, action: DashAction) {
    match action {
        DashAction::Live(live) => {
            // A violation found earlier in virtual time by a design that
            // runs behind comes in above: the choice stays on the same one.
            let chosen = d
                .live
                .violations
                .get(d.selected)
                .map(|v| (v.design.clone(), v.fact.clone(), v.at_ms));
            d.live = live;
            d.selected = chosen
                .and_then(|(design, fact, at)| {
                    d.live
                        .violations
                        .iter()
                        .position(|v| v.design == design && v.fact == fact && v.at_ms == at)
                })
                .unwrap_or(d.selected)
                .min(d.live.violations.len().saturating_sub(1));
        }
        DashAction::Key(key) => {
            d.notice = None;
            d.asked = false;
            let last = d.live.violations.len().saturating_sub(1);
            match key {
                KeyCode::Char('q') => d.quit = true,
                // Esc goes back everywhere in idem and never quits: here
                // there is nothing to go back to (trial 33 quit a
                // finished soak with it, meaning to close a story).
                KeyCode::Esc => d.notice = Some("nothing to go back to: q quits".into()),
                KeyCode::Char(' ') => d.paused = !d.paused,
                KeyCode::Char('+') | KeyCode::Char('=') => d.speed = d.speed.saturating_sub(1),
                KeyCode::Char('-') => d.speed = (d.speed + 1).min(SPEEDS.len() - 1),
                KeyCode::Up | KeyCode::Char('k') => d.selected = d.selected.saturating_sub(1),
                KeyCode::Down | KeyCode::Char('j') => d.selected = (d.selected + 1).min(last),
                KeyCode::Home | KeyCode::Char('g') => d.selected = 0,
                KeyCode::End | KeyCode::Char('G') => d.selected = last,
                // The bar may count keys it has no room for (`? +2`).
                KeyCode::Char('?') => d.asked = true,
                KeyCode::Enter => match d.live.violations.get(d.selected) {
                    Some(v) if v.story.is_some() => d.open = Some(d.selected),
                    Some(_) => {
                        d.notice = Some(
                            "this violation's story does not replay on its own: it depended on other payments"
                                .into(),
                        )
                    }
                    None => d.notice = Some("no violation to open yet".into()),
                },
                _ => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::soak::live::LiveViolation;

    fn violation(story: bool) -> LiveViolation {
        LiveViolation {
            design: "naive".into(),
            outcome: crate::sim::Outcome::ChargedTwice,
            fact: "order 1001 ($40)".into(),
            verdict: std::sync::Arc::new(crate::sim::verdict::combine(Vec::new())),
            at_ms: 1_000,
            story: story.then(|| std::sync::Arc::new(crate::scenario::find("tour-1").unwrap())),
        }
    }

    #[test]
    fn keys_pause_change_speed_choose_and_open() {
        let mut d = Dashboard::new(String::new(), LiveState::default(), Theme::new(false, true));
        update(&mut d, DashAction::Key(KeyCode::Enter));
        assert_eq!(d.open, None);
        assert!(d.notice.is_some());
        let live = LiveState {
            violations: vec![violation(true), violation(false)],
            ..LiveState::default()
        };
        update(&mut d, DashAction::Live(live));
        update(&mut d, DashAction::Key(KeyCode::Char(' ')));
        assert!(d.paused);
        update(&mut d, DashAction::Key(KeyCode::Char('-')));
        update(&mut d, DashAction::Key(KeyCode::Char('-')));
        assert_eq!(d.speed, 2);
        update(&mut d, DashAction::Key(KeyCode::Char('+')));
        assert_eq!(d.speed, 1);
        update(&mut d, DashAction::Key(KeyCode::Down));
        update(&mut d, DashAction::Key(KeyCode::Down));
        assert_eq!(d.selected, 1);
        update(&mut d, DashAction::Key(KeyCode::Enter));
        assert_eq!(d.open, None, "no story to open");
        update(&mut d, DashAction::Key(KeyCode::Up));
        update(&mut d, DashAction::Key(KeyCode::Enter));
        assert_eq!(d.open, Some(0));
        update(&mut d, DashAction::Key(KeyCode::Esc));
        assert!(!d.quit, "Esc never quits");
        assert!(d.notice.as_deref().is_some_and(|n| n.contains("q quits")));
        update(&mut d, DashAction::Key(KeyCode::Char('q')));
        assert!(d.quit);
    }

    #[test]
    fn the_choice_stays_on_its_violation_when_one_comes_in_above() {
        let mut d = Dashboard::new(String::new(), LiveState::default(), Theme::new(false, true));
        let at = |fact: &str, at_ms| LiveViolation {
            fact: fact.into(),
            at_ms,
            ..violation(true)
        };
        let live = |list: Vec<LiveViolation>| LiveState {
            violations: list,
            ..LiveState::default()
        };
        update(
            &mut d,
            DashAction::Live(live(vec![at("a", 10), at("b", 20)])),
        );
        update(&mut d, DashAction::Key(KeyCode::Down));
        assert_eq!(d.selected, 1);
        update(
            &mut d,
            DashAction::Live(live(vec![at("a", 10), at("early", 15), at("b", 20)])),
        );
        assert_eq!(d.live.violations[d.selected].fact, "b");
    }
}
