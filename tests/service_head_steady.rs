//! The service panel's heading read `consumer A handling m-7f3` at one
//! step and `A: handling m-7f3 [txn]` at the next (teacher trial, tour-1 at
//! 100x30): each step chose the form its own words fitted. Like the
//! header's parts, the form is chosen once per run and size, for the
//! longest heading the run needs.

use crate::common::sweep::{SIZES, each_step};
use idem::tui::app::Panel;
use ratatui::layout::Margin;
use std::collections::{BTreeMap, BTreeSet};

#[test]
fn a_run_names_its_consumers_one_way_at_each_size() {
    for size in SIZES {
        // (scenario, design) -> the forms its headings took.
        let mut forms: BTreeMap<(String, String), BTreeSet<&str>> = BTreeMap::new();
        each_step(size, |step| {
            let inner = step.main.rect(Panel::Service).inner(Margin::new(1, 1));
            let rows = step.rows();
            let names: Vec<&str> = step
                .frame
                .consumers
                .iter()
                .map(|c| c.name.as_str())
                .collect();
            let run = (
                step.app.timeline.scenario.clone(),
                step.app.timeline.strategy.clone(),
            );
            for y in inner.y..inner.bottom() {
                let row: String = rows[usize::from(y)]
                    .chars()
                    .skip(usize::from(inner.x))
                    .take(usize::from(inner.width))
                    .collect();
                for name in &names {
                    if row.starts_with(&format!("consumer {name} ")) {
                        forms.entry(run.clone()).or_default().insert("consumer A");
                    } else if row.starts_with(&format!("{name}: ")) {
                        forms.entry(run.clone()).or_default().insert("A:");
                    }
                }
            }
        });
        assert!(forms.len() > 20, "{size:?}: runs seen {}", forms.len());
        let both: Vec<_> = forms
            .iter()
            .filter(|(_, f)| f.len() > 1)
            .map(|(r, _)| r)
            .collect();
        assert!(
            both.is_empty(),
            "{size:?}: runs whose heading changes form: {both:?}"
        );
    }
}
