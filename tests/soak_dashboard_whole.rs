//! Nothing on the soak dashboard is cut without a count, at 80x24, 100x30
//! and 120x40, under two, three and four designs side by side, with the
//! settings line a real soak shows (the default faults wrap it onto more
//! rows): each design's title names it and its violations; each figure is
//! on screen or its column's border counts the lines it had no room for;
//! the violations list counts those above and below the rows it shows;
//! the chosen one's cause chain is whole or counts its lines left out; and
//! every `more` a screen says has its number (teacher: `↓ more: bigger
//! terminal` at 80x24 did not say how much more).
//! The outcomes add up: where a payment counts under two, each column says
//! so, as the report does (`outcomes overlap`).

use crate::common::Screen;
use idem::check::num;
use idem::sim::Strategy;
use idem::soak::live::LiveState;
use idem::soak::{self, Config, FaultRates, Live, SoakReport};
use idem::tui::soak::{DashAction, Dashboard, settings, update};
use idem::tui::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::KeyCode;
use std::sync::atomic::AtomicU64;

const SIZES: [(u16, u16); 3] = [(80, 24), (100, 30), (120, 40)];

fn finished(designs: &[&str], messages: u64) -> (Config, LiveState, SoakReport) {
    let config = Config {
        designs: designs
            .iter()
            .map(|d| Strategy::by_name(d).unwrap())
            .collect(),
        messages,
        seed: 1,
        faults: FaultRates::parse("crash=1%,lose-ack=2%,lose-response=1%,slow=2%").unwrap(),
        ..Config::default()
    };
    let live = Live::new(config.messages, designs);
    let report = soak::run_live(&config, &AtomicU64::new(0), Some(&live)).unwrap();
    (config, live.snapshot(), report)
}

/// The text of row `y` from `x0` to `x1` (inclusive).
fn row(buf: &Buffer, y: u16, x0: u16, x1: u16) -> String {
    (x0..=x1)
        .map(|x| buf[(x, y)].symbol().to_string())
        .collect()
}

fn at(buf: &Buffer, x: u16, y: u16) -> &str {
    buf[(x, y)].symbol()
}

/// The numbers a border says `N more` with.
fn counted(text: &str) -> Vec<u64> {
    let words: Vec<&str> = text.split_whitespace().collect();
    words
        .windows(2)
        .filter(|w| w[1].starts_with("more"))
        .filter_map(|w| {
            w[0].trim_start_matches(['…', '↓', '↑', '.'])
                .replace(',', "")
                .parse()
                .ok()
        })
        .collect()
}

/// Each `more` on the screen has its number before it.
fn bare_mores(screen: &str) -> Vec<String> {
    screen
        .lines()
        .filter(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            words.iter().enumerate().any(|(i, w)| {
                // `more than one` and `twice or more` count nothing left out.
                w.starts_with("more")
                    && words.get(i + 1) != Some(&"than")
                    && (i == 0 || words[i - 1] != "or")
                    && (i == 0
                        || words[i - 1]
                            .trim_start_matches(['…', '↓', '↑', '.'])
                            .replace(',', "")
                            .parse::<u64>()
                            .is_err())
            })
        })
        .map(str::to_string)
        .collect()
}

/// What is wrong on one screen, in words; empty when nothing is cut
/// silently.
fn cuts(dash: &Dashboard, report: &SoakReport, buf: &Buffer, screen: &str) -> Vec<String> {
    let mut wrong = Vec::new();
    let area = buf.area;
    for bare in bare_mores(screen) {
        wrong.push(format!("a `more` without its number: {bare}"));
    }
    // The design panels: the first row that starts a box.
    let Some(top) = (0..area.height).find(|&y| at(buf, 0, y) == "┌") else {
        wrong.push("no design panel".into());
        return wrong;
    };
    let starts: Vec<u16> = (0..area.width)
        .filter(|&x| at(buf, x, top) == "┌")
        .collect();
    if starts.len() != dash.live.designs.len() {
        wrong.push(format!("{} design panels drawn", starts.len()));
        return wrong;
    }
    let mut bottom = top;
    for (i, (d, &x0)) in dash.live.designs.iter().zip(&starts).enumerate() {
        let x1 = (x0 + 1..area.width)
            .find(|&x| at(buf, x, top) == "┐")
            .unwrap_or(area.width - 1);
        let Some(y1) = (top + 1..area.height).find(|&y| at(buf, x0, y) == "└") else {
            wrong.push(format!("{}: no bottom border", d.design));
            continue;
        };
        bottom = bottom.max(y1);
        let title = row(buf, top, x0, x1);
        // On the border, or (no room there) heading the figures.
        let first = row(buf, top + 1, x0 + 1, x1 - 1);
        if !title.contains(&format!(" {} ", d.design)) && first.trim() != d.design {
            wrong.push(format!("{}: its name cut in {title:?}", d.design));
        }
        if d.violations > 0 && !title.contains(&num(d.violations)) {
            wrong.push(format!("{}: its violations cut in {title:?}", d.design));
        }
        let inside: String = (top + 1..y1)
            .map(|y| row(buf, y, x0 + 1, x1 - 1).trim().to_string())
            .collect::<Vec<_>>()
            .join(" ");
        let mut labels = vec![
            "delivered",
            "redelivered",
            "acks lost",
            "crashes",
            "DLQ",
            "duplicate deliveries",
            "skipped: key taken",
            "processed_messages",
            "owed",
            "charged $",
            "recorded $",
            "correct",
        ];
        if report.designs[i].tally.overlapping > 0 {
            labels.push("overlap");
        }
        let missing: Vec<&str> = labels.into_iter().filter(|l| !inside.contains(l)).collect();
        let border = row(buf, y1, x0, x1);
        if !missing.is_empty() && counted(&border).is_empty() {
            wrong.push(format!(
                "{}: {missing:?} not shown and not counted: {border:?}",
                d.design
            ));
        }
    }
    // The violations panel under them.
    let Some(vtop) = (bottom + 1..area.height).find(|&y| at(buf, 0, y) == "┌") else {
        wrong.push("no violations panel".into());
        return wrong;
    };
    let Some(vbottom) = (vtop + 1..area.height).find(|&y| at(buf, 0, y) == "└") else {
        wrong.push("the violations panel has no bottom".into());
        return wrong;
    };
    let rows: Vec<String> = (vtop + 1..vbottom)
        .map(|y| row(buf, y, 1, area.width - 2))
        .collect();
    let is_item = |r: &String| {
        let r = r.trim_start_matches(['▶', '>', ' ']);
        dash.live
            .designs
            .iter()
            .any(|d| r.starts_with(&format!("{} ", d.design)))
            && r.contains(" order ")
    };
    let shown = rows.iter().filter(|r| is_item(r)).count() as u64;
    let listed = dash.live.violations.len() as u64;
    let borders = format!(
        "{} {}",
        row(buf, vtop, 0, area.width - 1),
        row(buf, vbottom, 0, area.width - 1)
    );
    let told: u64 = counted(&borders).iter().sum();
    if shown + told != listed {
        wrong.push(format!(
            "violations: {shown} shown, {told} counted, of {listed} listed: {borders:?}"
        ));
    }
    if let Some(v) = dash.live.violations.get(dash.selected) {
        let norm = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
        // The chain as drawn: its steps by the soak's count.
        let chain = norm(
            &v.verdict
                .chain_at(dash.theme.arrow(), &idem::soak::tally::soak_step),
        );
        let last_item = rows.iter().rposition(is_item).unwrap_or(0);
        let below = norm(&rows[last_item + 1..].join(" "));
        if !below.contains(&chain) && !below.contains(" more line") {
            wrong.push(format!(
                "the chosen chain cut without a count: {below:?} of {chain:?}"
            ));
        }
    }
    wrong
}

#[test]
fn nothing_on_the_soak_dashboard_is_cut_silently() {
    let sets: [(&[&str], u64); 3] = [
        (&["naive", "idempotent"], 1_500),
        (&["naive", "idempotent", "id-first"], 800),
        (
            &[
                "naive",
                "no-provider-key",
                "cache-claim-first",
                "idempotent",
            ],
            600,
        ),
    ];
    let mut screens = 0;
    let mut broken = Vec::new();
    for (designs, messages) in sets {
        let (config, state, report) = finished(designs, messages);
        assert!(state.violations.len() > 12, "a list longer than its rows");
        for (w, h) in SIZES {
            for chosen in [KeyCode::Down, KeyCode::End] {
                let mut dash =
                    Dashboard::new(settings(&config), state.clone(), Theme::new(false, false));
                update(&mut dash, DashAction::Key(chosen));
                let mut screen = Screen::new(w, h);
                let buf = screen.show(&dash).clone();
                let text = screen.text();
                screens += 1;
                let wrong = cuts(&dash, &report, &buf, &text);
                if !wrong.is_empty() {
                    broken.push(format!(
                        "{} designs at {w}x{h} ({chosen:?}):\n  {}\n{text}",
                        designs.len(),
                        wrong.join("\n  ")
                    ));
                }
            }
        }
    }
    assert!(
        broken.is_empty(),
        "{} of {screens} screens cut something silently:\n{}",
        broken.len(),
        broken.join("\n")
    );
}

/// A `more` under `--ascii` has its number too (no arrow there).
#[test]
fn the_ascii_folds_count_too() {
    let (config, state, _) = finished(&["naive", "idempotent"], 1_500);
    for (w, h) in SIZES {
        let dash = Dashboard::new(settings(&config), state.clone(), Theme::new(false, true));
        let mut screen = Screen::new(w, h);
        screen.show(&dash);
        let text = screen.text();
        let bare = bare_mores(&text);
        assert!(bare.is_empty(), "{w}x{h}: {bare:#?}\n{text}");
    }
}
