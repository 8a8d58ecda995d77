//! The header names the design as `design: idempotent (m)` wherever that
//! fits beside a verdict in its fewest words. A teacher trial read `step
//! 3/11 · idempotent · ○ in progress` in tour-4 at 120x40, room to spare,
//! where tours 1–3 say `design: idempotent (m)`: the form is one for the
//! run of every design `m` reaches, and naive's last verdict, whole (`✕
//! charged twice, provider and database disagree`), took the label's room
//! at every step, when its fewest words (`✕ charged twice + disagree`)
//! would have left it.

use crate::common::sweep::each_step;

#[test]
fn every_tour_header_at_120x40_says_design_and_its_key() {
    let size = (120, 40);
    let (mut seen, mut wrong) = (0, Vec::new());
    each_step(size, |step| {
        if !step.app.script.name.starts_with("tour-") {
            return;
        }
        let header = step.rows().into_iter().next().unwrap_or_default();
        let design = &step.app.strategy.name;
        seen += 1;
        if !header.contains(&format!("design: {design} (m)")) {
            wrong.push(format!("{} {}", step.at(), header.trim_end()));
        }
    });
    assert!(seen > 100, "only {seen} headers");
    assert!(
        wrong.is_empty(),
        "{} of {seen} tour headers at 120x40 leave out `design: … (m)`; the first:\n{}",
        wrong.len(),
        wrong.first().cloned().unwrap_or_default()
    );
}
