//! Teacher trial: the presenter's records box named the wrong change. At
//! in-progress step 28 (every size) it read "B's version not committed:
//! owner B/rh-c037" while the owner already was B/rh-c037; what B's open
//! transaction changed is the status, completed with result ch_81 (the
//! main view's database panel says "uncommitted (B): completed result
//! ch_81"). Every built-in scenario under every design whose duplicate
//! check lives in idempotency_records, every step, at three sizes: the
//! uncommitted line names only fields whose value differs from the
//! committed row, and names at least one that does.

use crate::common;
use idem::scenario::load::builtins;
use idem::sim::Strategy;
use idem::sim::format_duration;
use idem::tui::{Action, update};

const SIZES: [(u16, u16); 3] = [(80, 24), (100, 30), (120, 40)];

#[test]
fn the_presenters_uncommitted_version_names_only_changed_fields() {
    let (mut seen, mut wrong) = (0, Vec::new());
    for script in builtins() {
        for design in Strategy::names() {
            let mut app = common::app(&script.name, design);
            let frames = app.timeline.frames.clone();
            if !frames
                .iter()
                .any(|f| f.db.uses_records && !f.db.uses_processed)
            {
                continue;
            }
            update(&mut app, Action::Presenter);
            for (w, h) in SIZES {
                for (pos, f) in frames.iter().enumerate() {
                    let versions: Vec<_> =
                        f.db.uncommitted
                            .iter()
                            .flat_map(|u| u.records.iter().map(move |r| (u.by.clone(), r)))
                            .filter_map(|(by, r)| {
                                f.db.records
                                    .iter()
                                    .find(|c| c.message_id == r.message_id)
                                    .map(|c| (by, c, r))
                            })
                            .collect();
                    if versions.is_empty() {
                        continue;
                    }
                    app.pos = pos;
                    let screen = common::draw(&mut app, w, h);
                    let text = common::figure_text(&screen, w, 1);
                    for (by, was, now) in versions {
                        seen += 1;
                        let head = format!("{by}'s version not committed");
                        let Some((_, said)) = text.split_once(&head) else {
                            wrong.push(format!(
                                "{} {design} step {pos} {w}x{h}: no '{head}' in: {text}",
                                script.name
                            ));
                            continue;
                        };
                        // The version's words end where the next record's
                        // or the committed rows' line begins (`m-7f3 …`),
                        // or at the box's edge.
                        let said = said
                            .split([';', '└'])
                            .next()
                            .unwrap_or("")
                            .split(now.message_id.as_str())
                            .next()
                            .unwrap_or("");
                        let words: Vec<&str> = said
                            .split(|c: char| c.is_whitespace() || c == ',' || c == ':')
                            .filter(|w| !w.is_empty())
                            .collect();
                        let names = |field: &str, value: &str| {
                            words.windows(2).any(|p| p[0] == field && p[1] == value)
                        };
                        let mut unchanged = Vec::new();
                        let mut changed = 0;
                        if words.contains(&now.status.as_str()) {
                            if now.status == was.status {
                                unchanged.push(format!("status {}", now.status));
                            } else {
                                changed += 1;
                            }
                        }
                        if names("owner", &now.owner) {
                            if now.owner == was.owner {
                                unchanged.push(format!("owner {}", now.owner));
                            } else {
                                changed += 1;
                            }
                        }
                        if names("until", &format_duration(now.deadline)) {
                            if now.deadline == was.deadline {
                                unchanged.push("deadline".into());
                            } else {
                                changed += 1;
                            }
                        }
                        if let Some(kept) = &now.result
                            && names("result", kept)
                        {
                            if now.result == was.result {
                                unchanged.push(format!("result {kept}"));
                            } else {
                                changed += 1;
                            }
                        }
                        if !unchanged.is_empty() || changed == 0 {
                            wrong.push(format!(
                                "{} {design} step {pos} {w}x{h}: names {unchanged:?} unchanged, {changed} changed: {head}{said}",
                                script.name
                            ));
                        }
                    }
                }
            }
        }
    }
    assert!(seen > 0, "no uncommitted version seen");
    assert!(
        wrong.is_empty(),
        "{} of {seen} uncommitted versions named wrongly:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
