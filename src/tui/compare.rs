//! Two designs side by side on the same script. Their programs have
//! different lengths, so the two runs are aligned chapter by chapter: both
//! sides always show the same chapter, and a chapter's last frames line up.

use crate::scenario::Script;
use crate::sim::{Frame, SimError, Strategy};
use crate::timeline::Timeline;
use crate::tui::compare_section::Section;
use crate::tui::parting::apart;

#[derive(Clone)]
pub struct Compare {
    /// What the two sides differ in: the design, or the engine.
    pub sides: Sides,
    pub left: Timeline,
    pub right: Timeline,
    /// (left frame, right frame) for each position of the compare view.
    pub pairs: Vec<(usize, usize)>,
    /// The first position where the two designs part ways: where a party
    /// of one side sees something its peer on the other side does not (see
    /// `parting`). The two engines: where their lock points differ.
    pub diverge: Option<usize>,
    /// The section Tab picked: scrolled into view, or enlarged by `z`.
    pub section: Option<Section>,
}

/// Two designs on one engine, or one design on two engines (SQLite on the
/// left, PostgreSQL, the run on screen, on the right).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sides {
    Designs,
    Engines,
}

/// The pair to compare: the design on screen against the idempotent one; or,
/// from the idempotent one, the design this scenario is about (naive when it
/// names several, or none).
pub fn pick(script: &Script, current: &Strategy) -> (Strategy, Strategy) {
    let all = Strategy::all();
    let safe = Strategy::by_name("idempotent").unwrap_or_else(|| all[0].clone());
    if current.name != safe.name {
        return (current.clone(), safe);
    }
    let named = script.strategies();
    let other = named
        .iter()
        .filter(|n| **n != safe.name)
        .find(|n| *n == "naive")
        .or_else(|| named.iter().find(|n| **n != safe.name))
        .and_then(|n| Strategy::by_name(n))
        .or_else(|| Strategy::by_name("naive"))
        .or_else(|| all.iter().find(|s| s.name != safe.name).cloned())
        .unwrap_or_else(|| safe.clone());
    (other, safe)
}

impl Compare {
    /// `mine` is the run on screen, forks included: its side is shown as it
    /// is, and the user's moves are carried to the same moment of the other
    /// design's run, so that both sides show the run as forked.
    pub fn build(
        script: &Script,
        current: &Strategy,
        seed: u64,
        mine: &Timeline,
    ) -> Result<Compare, SimError> {
        let (l, r) = pick(script, current);
        // A schedule was found for one design: under the other its moves
        // can stop mid-way, so each side plays on to its own end (a run
        // the user changed has done so already).
        let schedule = is_schedule(script);
        let build = if schedule {
            Timeline::build_to_end
        } else {
            Timeline::build
        };
        let side = |s: &Strategy| -> Result<Timeline, SimError> {
            if s.name == mine.strategy && (!schedule || !mine.forks.is_empty()) {
                return Ok(mine.clone());
            }
            let written = build(script, s, seed, &[])?;
            if mine.forks.is_empty() {
                return Ok(written);
            }
            build(script, s, seed, &mine.carry_forks(&mine.forks, &written))
        };
        let (left, right) = (side(&l)?, side(&r)?);
        let pairs = if schedule {
            // One story from the first move to the end: the same handler
            // step faces itself, whatever move it falls on in each design.
            align(&left, &right, |_| (0, 0))
        } else {
            align(&left, &right, |f| (f.chapter, f.action_index))
        };
        let diverge = pairs
            .iter()
            .position(|&(a, b)| apart(&left.frames[a], &right.frames[b]).is_some());
        Ok(Compare {
            sides: Sides::Designs,
            left,
            right,
            pairs,
            diverge,
            section: None,
        })
    }

    pub fn chapter_starts(&self) -> Vec<usize> {
        let mut starts = vec![0];
        for (i, w) in self.pairs.windows(2).enumerate() {
            let chapter = |t: &Timeline, f: usize| t.chapter_of(f);
            if chapter(&self.left, w[1].0) != chapter(&self.left, w[0].0) {
                starts.push(i + 1);
            }
        }
        starts.dedup();
        starts
    }

    /// The frame of the run on screen (`strategy`'s) paired at `pos`: the
    /// one to stay on when compare closes. Comparing engines, the run on
    /// screen is the right side, PostgreSQL's.
    pub fn own_frame(&self, pos: usize, strategy: &str) -> usize {
        let (l, r) = self.pairs[pos.min(self.pairs.len() - 1)];
        if self.sides == Sides::Designs && self.left.strategy == strategy {
            l
        } else {
            r
        }
    }

    pub fn frames(&self, pos: usize) -> (&Frame, &Frame) {
        let (a, b) = self.pairs[pos.min(self.pairs.len() - 1)];
        (&self.left.frames[a], &self.right.frames[b])
    }
}

/// A script that is a schedule of single moves (a counterexample, a soak's
/// story, a saved run): frame k of any design is made by its k-th move.
pub fn is_schedule(script: &Script) -> bool {
    script
        .steps
        .iter()
        .flat_map(|s| &s.actions)
        .all(|a| matches!(a, crate::scenario::Action::Move(_)))
}

/// Frame pairs, span by span (`span` names the span of a frame: for a
/// scripted scenario the action of a chapter): the shorter side waits on
/// its last frame for that span while the longer one catches up, so both
/// sides always show the same moment of the story.
pub(super) fn align(
    left: &Timeline,
    right: &Timeline,
    span: fn(&Frame) -> (usize, usize),
) -> Vec<(usize, usize)> {
    // Runs of frames in the same span: an action that made no frame on
    // one side is simply missing there.
    let spans = |t: &Timeline| -> Vec<((usize, usize), (usize, usize))> {
        let mut out: Vec<((usize, usize), (usize, usize))> = Vec::new();
        for (i, f) in t.frames.iter().enumerate() {
            let key = span(f);
            match out.last_mut() {
                Some((k, (_, end))) if *k == key => *end = i + 1,
                _ => out.push((key, (i, i + 1))),
            }
        }
        out
    };
    let (ls, rs) = (spans(left), spans(right));
    let mut keys: Vec<(usize, usize)> = ls.iter().chain(&rs).map(|(k, _)| *k).collect();
    keys.sort_unstable();
    keys.dedup();
    let mut pairs = Vec::new();
    let (mut last_l, mut last_r) = (0, 0);
    for key in keys {
        let l = ls.iter().find(|(x, _)| *x == key).map(|(_, s)| *s);
        let r = rs.iter().find(|(x, _)| *x == key).map(|(_, s)| *s);
        let range = |s: Option<(usize, usize)>| s.map_or(0..0, |(a, b)| a..b);
        for (a, b) in match_steps(left, range(l), right, range(r)) {
            // A frame with no partner faces the other side's last frame
            // shown: that side is waiting while this one does a step it
            // does not have.
            last_l = a.unwrap_or(last_l);
            last_r = b.unwrap_or(last_r);
            pairs.push((last_l, last_r));
        }
    }
    if pairs.is_empty() {
        pairs.push((0, 0));
    }
    pairs
}

/// Pairs the frames of one span on both sides so that the same handler
/// step faces itself: the heaviest common run of labels, found by dynamic
/// programming over two short lists. A handler step (consumer, step) weighs
/// more than any other move: a fault falls at another step of a design with
/// more steps, and lining the faults up must not put the steps out of line.
/// Frames in neither common run are paired with nothing, in order.
fn match_steps(
    left: &Timeline,
    l: std::ops::Range<usize>,
    right: &Timeline,
    r: std::ops::Range<usize>,
) -> Vec<(Option<usize>, Option<usize>)> {
    let label = |t: &Timeline, i: usize| {
        let f = &t.frames[i];
        let step = f.changes.steps.first().and_then(|s| {
            let c = f.consumers.iter().find(|c| c.name == s.consumer)?;
            Some(format!("{} {}", s.consumer, c.steps.get(s.step)?.keyword))
        });
        match step {
            Some(step) if f.stepped.is_some() => (step, 2),
            _ => (f.action.clone(), 1),
        }
    };
    let a: Vec<(String, u32)> = l.clone().map(|i| label(left, i)).collect();
    let b: Vec<(String, u32)> = r.clone().map(|i| label(right, i)).collect();
    // best[i][j]: the weight of the heaviest common run of a[i..] and b[j..].
    let mut best = vec![vec![0u32; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            best[i][j] = if a[i] == b[j] {
                best[i + 1][j + 1] + a[i].1
            } else {
                best[i + 1][j].max(best[i][j + 1])
            };
        }
    }
    // Between two common steps, what each side does on its own is shown
    // side by side, as a diff shows a changed block: the naive charge faces
    // the idempotent design finding the duplicate.
    let (mut i, mut j, mut out) = (0, 0, Vec::new());
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            out.push((Some(l.start + i), Some(r.start + j)));
            (i, j) = (i + 1, j + 1);
            continue;
        }
        let (from_i, from_j) = (i, j);
        while i < a.len() || j < b.len() {
            if i < a.len() && j < b.len() && a[i] == b[j] {
                break;
            }
            if j >= b.len() || (i < a.len() && best[i + 1][j] >= best[i][j + 1]) {
                i += 1;
            } else {
                j += 1;
            }
        }
        let (left_own, right_own) = (from_i..i, from_j..j);
        for k in 0..left_own.len().max(right_own.len()) {
            out.push((
                (from_i + k < i).then_some(l.start + from_i + k),
                (from_j + k < j).then_some(r.start + from_j + k),
            ));
        }
    }
    out
}

/// How many times each message's work was committed, in words, for the
/// "m-7f3 handled twice" line: the name the row goes by, the committed
/// payment rows, and how many rows a correct run ends with.
/// Where the rows carry the broker's IDs or a content hash, no row names
/// m-7f3 (teacher trial: "m-7f3 no payment row committed" above two rows
/// b-1 and b-2), so the rows are told by order: `order 1042`, expecting
/// one row for each of the producer's messages for it.
pub fn handled(f: &Frame) -> Vec<Handled> {
    let committed = || f.db.payments.iter().filter(|p| p.uncommitted_by.is_none());
    let mut out: Vec<Handled> = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    for m in &f.queue.messages {
        if f.queue.rows_by_order {
            let name = format!("order {}", m.order);
            let new_message = !seen.contains(&m.message_id.as_str());
            seen.push(&m.message_id);
            match out.iter_mut().find(|h| h.name == name) {
                Some(h) => h.expected += usize::from(new_message),
                None => out.push(Handled {
                    rows: committed().filter(|p| p.order == m.order).count(),
                    name,
                    expected: 1,
                }),
            }
        } else if !out.iter().any(|h| h.name == m.message_id) {
            out.push(Handled {
                name: m.message_id.clone(),
                rows: committed().filter(|p| p.message_id == m.message_id).count(),
                expected: 1,
            });
        }
    }
    out
}

/// One row of `handled`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Handled {
    /// `m-7f3`, or `order 1042` where the rows carry no producer ID.
    pub name: String,
    /// Committed payment rows for it.
    pub rows: usize,
    /// The rows a correct run ends with: one for each producer message.
    pub expected: usize,
}

/// What the database holds for a message, in plain words: committed rows
/// only, which is all the database can say (the provider is shown apart).
pub fn times(n: usize) -> String {
    match n {
        0 => "no payment row committed".into(),
        1 => "1 payment row committed".into(),
        n => format!("{n} payment rows committed"),
    }
}

/// `times` where the row is narrow: the table is on the same side, so
/// "payment" can go.
pub fn short_times(n: usize) -> String {
    match n {
        0 => "no row committed".into(),
        1 => "1 row committed".into(),
        n => format!("{n} rows committed"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario;

    fn written(script: &Script, design: &str) -> Timeline {
        Timeline::build(script, &Strategy::by_name(design).unwrap(), 0, &[]).unwrap()
    }

    #[test]
    fn tour_1_parts_where_naive_inserts_its_second_payment_row() {
        let script = scenario::find("tour-1").unwrap();
        let c = Compare::build(&script, &Strategy::naive(), 0, &written(&script, "naive")).unwrap();
        assert_eq!(c.left.strategy, "naive");
        assert_eq!(c.right.strategy, "idempotent");
        let at = c.diverge.expect("the designs part ways in tour 1");
        // Naive's second payment row, not yet committed, faces the
        // idempotent handler finding m-7f3 already handled: the first
        // thing either side's database shows that the other's does not,
        // one step before naive's second charge.
        let (l, r) = c.frames(at);
        assert_eq!((l.index, r.index), (12, 13));
        assert_eq!(l.db.payments.len(), 2);
        assert!(l.db.payments[1].uncommitted_by.is_some());
        assert_eq!(l.provider.charges.len(), r.provider.charges.len());
        assert!(!l.verdict.outcome.is_failure());
        // Before it, every pair shows the same rows, charges and broker.
        for p in 0..at {
            let (l, r) = c.frames(p);
            assert_eq!(apart(l, r), None, "position {p}");
        }
        let (l, r) = c.frames(c.pairs.len() - 1);
        let rows = |f| {
            handled(f)
                .iter()
                .map(|h| (h.name.clone(), h.rows))
                .collect::<Vec<_>>()
        };
        assert_eq!(rows(l), vec![("m-7f3".to_string(), 2)]);
        assert_eq!(rows(r), vec![("m-7f3".to_string(), 1)]);
    }

    #[test]
    fn the_idempotent_design_is_always_on_the_right() {
        let tour = scenario::find("tour-1").unwrap();
        let (l, r) = pick(&tour, &Strategy::idempotent());
        assert_eq!((&*l.name, &*r.name), ("naive", "idempotent"));
        for s in Strategy::all()
            .into_iter()
            .filter(|s| s.name != "idempotent")
        {
            let (l, r) = pick(&tour, &s);
            assert_eq!((&*l.name, &*r.name), (&*s.name, "idempotent"));
        }
    }

    #[test]
    fn the_same_step_faces_itself_and_a_charge_faces_the_duplicate_check() {
        let script = scenario::find("tour-1").unwrap();
        let c = Compare::build(&script, &Strategy::naive(), 0, &written(&script, "naive")).unwrap();
        let ran = |t: &Timeline, i: usize| {
            let f = &t.frames[i];
            let s = f.changes.steps.first()?;
            let c = f.consumers.iter().find(|c| c.name == s.consumer)?;
            Some(c.steps[s.step].keyword.clone())
        };
        let mut fresh = 0;
        for w in c.pairs.windows(2) {
            let ((la, ra), (lb, rb)) = (w[0], w[1]);
            let (l, r) = (ran(&c.left, lb), ran(&c.right, rb));
            if lb != la && rb != ra && l.is_some() && r.is_some() && l != r {
                // Both moved on to different steps: only inside a block of
                // steps one design has and the other does not.
                assert!(
                    l.as_deref() == Some("payment") && r.as_deref() == Some("claim"),
                    "{l:?} faces {r:?}"
                );
            }
            fresh += usize::from(lb != la && rb != ra && l.is_some() && l == r);
        }
        assert!(fresh >= 8, "common steps line up: {fresh}");
    }

    #[test]
    fn alignment_is_monotonic_and_covers_both_runs() {
        for name in ["tour-1", "tour-2", "tour-3", "tour-4"] {
            let script = scenario::find(name).unwrap();
            let c = Compare::build(
                &script,
                &Strategy::idempotent(),
                0,
                &written(&script, "idempotent"),
            )
            .unwrap();
            for w in c.pairs.windows(2) {
                assert!(w[1].0 >= w[0].0 && w[1].1 >= w[0].1, "{name}");
                assert_eq!(
                    c.left.frames[w[1].0].chapter, c.right.frames[w[1].1].chapter,
                    "{name}: both sides show the same chapter"
                );
            }
            assert_eq!(c.pairs.last().unwrap().0, c.left.frames.len() - 1);
            assert_eq!(c.pairs.last().unwrap().1, c.right.frames.len() - 1);
        }
    }
}
