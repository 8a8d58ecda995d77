//! A fold counts what it hides, and hides whole lines. Teacher trial,
//! dedup-window naive step 26 at 80x24: the provider's heading read
//! `charges 3 $120 …2 rows` over ch_81 and ch_82, one charge hidden (the
//! empty key store's line, said nowhere, made the second), and the
//! broker's last row read `◇ acks lost  …1 more`, a counter's label with
//! its figure taken by the sign. Every step of every built-in run at each
//! of `SIZES`: the numbers in the provider's fold add up to the charges
//! and keys off screen (an empty store is no row where no charge carried
//! a key, its rows' `no key` saying it), and no broker row
//! shows a counter's label without its figure.

use crate::common::sweep::{SIZES, Step, each_step, none_wrong};
use idem::sim::counter_words as words;
use idem::tui::app::Panel;

/// The numbers a fold sign at the end of the provider's heading says.
fn fold_numbers(heading: &str) -> Option<usize> {
    let at = heading.find('…')?;
    let sign = &heading[at..];
    Some(
        sign.split(|c: char| !c.is_ascii_digit())
            .filter_map(|n| n.parse::<usize>().ok())
            .sum(),
    )
}

/// What is wrong with the provider panel at `step`, if anything.
fn provider_wrong(step: &Step) -> Option<String> {
    let rows = step.rows_in(Panel::Provider);
    let heading = rows.first()?;
    let below = &rows[1..];
    let p = &step.frame.provider;
    let charges_off = p
        .charges
        .iter()
        .filter(|c| {
            !below
                .iter()
                .any(|r| r.split_whitespace().next() == Some(c.id.as_str()))
        })
        .count();
    let keys_off = p
        .keys
        .iter()
        .filter(|k| !below.iter().any(|r| r.contains(&k.key)))
        .count();
    // Where keys were sent and the store is empty now, its line
    // (`key store: empty`) is news and a row a count of rows may hold.
    let keyed = p.charges.iter().any(|c| c.key.is_some());
    let store_line = p.keys.is_empty()
        && keyed
        && heading.contains(" row")
        && !below.iter().any(|r| r.contains("store: empty"));
    let off = charges_off + keys_off + usize::from(store_line);
    match fold_numbers(heading) {
        Some(n) if n != off => Some(format!(
            "the fold counts {n}, {charges_off} charges and {keys_off} keys are off screen"
        )),
        None if off > 0 => Some(format!("{off} rows off screen with no count")),
        _ => None,
    }
}

fn provider_counts_at(size: (u16, u16)) -> (usize, Vec<String>) {
    let (mut seen, mut wrong) = (0, Vec::new());
    each_step(size, |step| {
        seen += 1;
        if let Some(e) = provider_wrong(step) {
            wrong.push(format!(
                "{}: {e}\n{}",
                step.at(),
                step.rows_in(Panel::Provider).join("\n")
            ));
        }
    });
    eprintln!(
        "{} of {seen} provider panels miscount at {size:?}",
        wrong.len()
    );
    (seen, wrong)
}

#[test]
fn the_provider_fold_counts_the_rows_it_hides() {
    // Every size counted before any fails, for the report.
    let all: Vec<_> = SIZES.map(|size| (size, provider_counts_at(size))).into();
    for (size, (seen, wrong)) in all {
        none_wrong("provider panels", seen, 100, &wrong, size);
    }
}

/// Every name a broker counter goes by.
const LABELS: [&str; 8] = [
    words::DELIVERED,
    words::REDELIVERED,
    words::ACKED,
    "DLQ",
    words::ACKS_LOST,
    words::DUPLICATE_DELIVERIES,
    "dup. deliveries",
    "dup. deliv.",
];

/// A counter label in `row` not followed by its figure: the counters
/// flow on their lines parted by ` · `, the observer's led by `◇`.
fn bare_label(row: &str) -> Option<&'static str> {
    row.split(" · ").find_map(|item| {
        let item = item.trim_start().trim_start_matches('◇').trim_start();
        LABELS.iter().copied().find(|label| {
            item.strip_prefix(label).is_some_and(|rest| {
                // `dup. deliveries` holds `dup. deliv.`'s start, and a
                // label is a whole word.
                (rest.is_empty() || rest.starts_with(' '))
                    && !rest
                        .strip_prefix(' ')
                        .is_some_and(|a| a.starts_with(|c: char| c.is_ascii_digit()))
            })
        })
    })
}

fn broker_labels_at(size: (u16, u16)) -> (usize, Vec<String>) {
    let (mut seen, mut wrong) = (0, Vec::new());
    each_step(size, |step| {
        let rows = step.rows_in(Panel::Broker);
        seen += 1;
        if let Some(r) = rows.iter().find(|r| bare_label(r).is_some()) {
            wrong.push(format!(
                "{}: {r:?} has no figure\n{}",
                step.at(),
                rows.join("\n")
            ));
        }
    });
    eprintln!(
        "{} of {seen} broker panels show a bare label at {size:?}",
        wrong.len()
    );
    (seen, wrong)
}

#[test]
fn a_broker_counter_is_never_shown_without_its_figure() {
    let all: Vec<_> = SIZES.map(|size| (size, broker_labels_at(size))).into();
    for (size, (seen, wrong)) in all {
        none_wrong("broker panels", seen, 100, &wrong, size);
    }
}
