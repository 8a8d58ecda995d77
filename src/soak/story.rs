//! A message's story: the moves of the soak that touched one business fact
//! (its copies' deliveries, the faults that hit them, the retention job),
//! with the time between them, so that a violation can be replayed on its
//! own as a scenario file, from its first publish to its last copy.

use crate::scenario::{Action, Expectation, Group, Origin, Script, ScriptStep, limits};
use crate::sim::verdict::FactVerdict;
use crate::sim::world::Setup;
use crate::sim::{Message, Millis, Move, Payment, SimError, Strategy, World};
use std::collections::BTreeMap;

/// The most moves a story keeps: a scenario file of a few messages makes
/// at most this many frames after its setup, one a move. A longer one is
/// still judged, only not saved.
pub const MAX_MOVES: usize = limits::MAX_FRAMES - 1;

#[derive(Clone, Debug)]
pub struct Story {
    /// Virtual time of the first publish: the replay's zero.
    t0: Millis,
    pub messages: Vec<Message>,
    moves: Vec<Move>,
    /// The replay's clock after the moves kept so far.
    now: Millis,
    /// Where the last move kept was a prune: the length and clock before
    /// it. A later prune deletes all an earlier one would (rows only come
    /// from the story's own moves), so only the last one in a row is kept.
    prune_mark: Option<(usize, Millis)>,
    /// More moves than a file can hold came.
    pub too_long: bool,
}

impl Story {
    pub fn new(message: Message, now: Millis) -> Self {
        Story {
            t0: now,
            messages: vec![message],
            moves: Vec::new(),
            now: 0,
            prune_mark: None,
            too_long: false,
        }
    }

    /// Keeps `moves` (a fault armed just before, then the move itself) that
    /// the soak applied at `at`, after which its clock read `after`.
    pub fn keep(&mut self, moves: Vec<Move>, at: Millis, after: Millis) {
        self.prune_mark = None;
        self.push(moves, at, after);
    }

    /// Keeps a prune that ran, in place of one kept right before it.
    pub fn keep_prune(&mut self, age_ms: Millis, at: Millis) {
        if let Some((len, now)) = self.prune_mark.take() {
            self.moves.truncate(len);
            self.now = now;
        }
        let mark = (self.moves.len(), self.now);
        self.push(vec![Move::Prune { age_ms }], at, at);
        self.prune_mark = Some(mark);
    }

    fn push(&mut self, moves: Vec<Move>, at: Millis, after: Millis) {
        if self.too_long {
            return;
        }
        let at = at.saturating_sub(self.t0);
        if at > self.now {
            self.moves.push(Move::Wait { ms: at - self.now });
        }
        self.moves.extend(moves);
        self.now = after.saturating_sub(self.t0).max(at);
        if self.moves.len() > MAX_MOVES || !self.fits() {
            self.too_long = true;
            self.moves.clear();
        }
    }

    /// Whether the file the story makes is inside the budget of a file
    /// kept whole: its frames times its queue entries (its messages and
    /// a copy per publish).
    fn fits(&self) -> bool {
        let publishes = self
            .moves
            .iter()
            .filter(|m| matches!(m, Move::Publish { .. }))
            .count();
        (self.moves.len() + 1) * (self.messages.len() + publishes) <= limits::MAX_COPY_FRAMES
    }

    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The story replayed on a world of its own, and that world's verdict
    /// of the fact; `None` when the story grew too long to keep.
    pub fn replay(&self, setup: &Setup, strategy: &Strategy) -> Result<Option<Replay>, SimError> {
        if self.too_long {
            return Ok(None);
        }
        let mut setup = setup.clone();
        setup.messages = self.messages.clone();
        setup.db_file = None;
        let mut world = World::new(setup.clone(), strategy.clone(), SEED)?;
        let mut told = Vec::new();
        let mut starts = Vec::new();
        for mv in &self.moves {
            // A move starts a delivery's handling when the consumer it steps
            // restarts after a crash, or when it receives a message.
            let restarts = matches!(mv, Move::Step { consumer } if world
                .consumers()
                .iter()
                .any(|c| c.name == *consumer && c.is_crashed()));
            let delivered = world.counters().delivered;
            world.apply(mv)?;
            starts.push(restarts || world.counters().delivered > delivered);
            // The step's own words, as its events panel tells them: the
            // source of the chapter's title, never said a second time.
            told.push(crate::sim::event::step_told(world.events()));
        }
        let payment = self.messages[0].payment.clone();
        let verdict = world
            .fact_verdict(&payment)
            .expect("the story's own messages ask for its payment")
            .clone();
        let total = world.committed().payments.iter().map(|p| p.amount).sum();
        let charges = world.provider().charges().len() as u32;
        Ok(Some(Replay {
            setup,
            told,
            starts,
            verdict,
            total,
            charges,
        }))
    }
}

/// The seed of a story's replay; receipts are names, never decisions, so
/// any seed replays the same outcome.
pub const SEED: u64 = 0;

/// A story run on its own.
pub struct Replay {
    pub setup: Setup,
    /// What each move did, in the sentences its step tells.
    pub told: Vec<String>,
    /// Whether each move started a delivery's handling (a receive or a
    /// restart): where a new chapter begins.
    pub starts: Vec<bool>,
    pub verdict: FactVerdict,
    pub total: u32,
    pub charges: u32,
}

/// Chapters of a story file: a new one where a copy is received, at most
/// this many moves each.
const CHAPTER_MOVES: usize = 6;

impl Replay {
    /// The story as a scenario file's script, named `name`, expecting what
    /// the replay ended with.
    pub fn script(&self, story: &Story, name: &str, strategy: &Strategy) -> Script {
        // The replay's own chain: its step numbers are the story's, not the
        // long soak's.
        // Drawn with the screen's arrow, which `--ascii` turns back into `<-`.
        let chain = super::tally::verdict(&self.verdict).chain_with(crate::sim::Arrow::Drawn);
        let ids: Vec<&str> = story.messages.iter().map(|m| m.id.as_str()).collect();
        let Payment { order, amount } = story.messages[0].payment;
        let summary = format!(
            "A soak's story of order {order} (${amount}, {}) under the {} design: {}.",
            ids.join(" and "),
            strategy.name,
            self.verdict.headline()
        );
        let per_chapter = CHAPTER_MOVES.max(story.moves.len().div_ceil(limits::MAX_STEPS));
        let mut steps: Vec<ScriptStep> = Vec::new();
        // Each chapter's first and last move and what they did: its title
        // spans them, once the chapter is whole.
        let mut spans: Vec<(&Move, &str, &str)> = Vec::new();
        let mut armed = false;
        for ((mv, told), &starts) in story.moves.iter().zip(&self.told).zip(&self.starts) {
            let full = steps.last().is_none_or(|s| s.actions.len() >= per_chapter);
            // A fault armed and the step that meets it stay in one
            // chapter, which is named for what the fault does there.
            let starts = starts && !armed;
            armed = armed_outcome(mv).is_some();
            if steps.is_empty() || full || (starts && steps.len() < limits::MAX_STEPS) {
                spans.push((mv, told, told));
                steps.push(ScriptStep {
                    title: String::new(),
                    title_for: BTreeMap::new(),
                    narration: String::new(),
                    narration_for: BTreeMap::new(),
                    actions: Vec::new(),
                    sayings: Vec::new(),
                    asks: Vec::new(),
                });
            }
            let step = steps.last_mut().expect("pushed above");
            step.actions.push(Action::Move(mv.clone()));
            // A wait tells no event: the span ends at the last that does.
            if let Some(span) = spans.last_mut()
                && !matches!(mv, Move::Wait { .. })
            {
                span.2 = told;
            }
            // Nothing said beside the step's own events: they tell each
            // move once, under every design (a saying repeated them).
            step.sayings.push(None);
        }
        for (step, (first, told, last)) in steps.iter_mut().zip(spans) {
            step.title = chapter_title_span(first, told, last);
        }
        Script {
            name: name.to_string(),
            origin: Origin::SoakStory,
            // Counted, as the story ends: "charged 3 times", not "twice".
            title: format!("Soak: order {order} {}", self.verdict.headline()),
            summary: summary.clone(),
            intro: format!(
                "{summary} These are the moves of a long soak that touched this payment, with the time between them; everything else the soak did is left out, and its steps count from this story's start, not the soak's. How it ends: {chain}."
            ),
            open_at: None,
            title_for: BTreeMap::new(),
            intro_for: BTreeMap::new(),
            group: Group::Failure,
            order: 0,
            narrated_for: Some(strategy.name.to_string()),
            words_for_sqlite: false,
            tells_every_design: false,
            setup: self.setup.clone(),
            steps,
            expect: BTreeMap::from([(
                strategy.name.to_string(),
                Expectation {
                    total: Some(self.total),
                    charges: Some(self.charges),
                    outcomes: Some(self.verdict.outcomes()),
                },
            )]),
        }
    }
}

/// The most columns a chapter's title takes in a story file: a heading
/// as short as a tour's (`The lease runs out`), not the whole of what the
/// move did (its events follow in the chapter).
const TITLE_ROOM: usize = 40;

/// A chapter's title: what its first move did, short. Cut at a word's end
/// with `…` where it is longer than `TITLE_ROOM`; kept whole where even
/// its first word is longer (an ID), rather than cut without a sign.
fn chapter_title(mv: &Move, told: &str) -> String {
    // A fault is armed right before the step that meets it (see the
    // driver): the chapter is named for what the fault does there, as a
    // tour names its chapters (`m-7f3 is handled; its ack is lost`). The
    // arming's own sentence said only what would happen, and was cut.
    if let Some(outcome) = armed_outcome(mv) {
        return outcome;
    }
    // Its first sentence without the full stop, and a receive without
    // its lease and receipt (the events say them).
    let first = told.split(". ").next().unwrap_or("").trim_end_matches('.');
    let first = first.split(", lease ").next().unwrap_or(first);
    if first.is_empty() {
        return mv.written();
    }
    match crate::cut_at_word::cut_at_word(first, TITLE_ROOM, "…") {
        Some(cut) if cut != "…" => cut,
        _ => first.to_string(),
    }
}

/// A chapter's title, true of every step it heads: what its armed fault
/// does, where it opens with one; else the span of its events, its first
/// and its last (`B gets 201 Created ch_82 … B acks m-54`), where it has
/// more than one (teacher trial: a chapter whose last step was B's ack
/// was titled by its first alone, "B gets 201 Created ch_82").
fn chapter_title_span(first: &Move, told: &str, last: &str) -> String {
    let opening = chapter_title(first, told);
    if armed_outcome(first).is_some() {
        return opening;
    }
    let end = first_clause(last);
    if end.is_empty() || end == first_clause(told) {
        return opening;
    }
    let whole = format!("{} … {end}", first_clause(told));
    if whole.chars().count() <= TITLE_ROOM {
        return whole;
    }
    // Too long for both whole: the end is the chapter's point, so it is
    // kept as far as it goes and the opening gives way, each cut at a word
    // with its sign.
    let cut = |text: &str, room: usize| {
        crate::cut_at_word::cut_at_word(text, room, "…")
            .filter(|c| c != "…")
            .unwrap_or_else(|| text.split(' ').next().unwrap_or(text).to_string())
    };
    let end = cut(&end, TITLE_ROOM / 2);
    let room = TITLE_ROOM.saturating_sub(end.chars().count() + 3);
    format!("{} … {end}", cut(&first_clause(told), room))
}

/// A move's first sentence as a heading: no full stop, and a receive
/// without its lease and receipt (the events say them).
fn first_clause(told: &str) -> String {
    let first = told.split(". ").next().unwrap_or("").trim_end_matches('.');
    first.split(", lease ").next().unwrap_or(first).to_string()
}

/// What an armed fault does to the step that meets it, in the words of
/// the cause it becomes (`ack lost`, `charge response was lost`).
fn armed_outcome(mv: &Move) -> Option<String> {
    match mv {
        Move::LoseAck { consumer } => Some(format!("{consumer}'s ack is lost")),
        Move::LoseResponse { consumer } => Some(format!("{consumer}'s charge response is lost")),
        Move::Slow { consumer, ms } => Some(format!(
            "{consumer}'s step takes {}",
            crate::sim::format_duration(*ms)
        )),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A chapter's title names its span, not its first event alone
    /// (teacher trial, order 1034: "chapter 4/4: B gets 201 Created ch_82"
    /// above B's ack).
    #[test]
    fn a_chapter_of_several_events_is_titled_by_their_span() {
        let step = Move::Step {
            consumer: "B".into(),
        };
        let title = chapter_title_span(&step, "B gets 201 Created ch_82.", "B acks m-54.");
        assert_eq!(title, "B gets 201 Created ch_82 … B acks m-54");
        // One event: its own words.
        let one = chapter_title_span(&step, "B acks m-54.", "B acks m-54.");
        assert_eq!(one, "B acks m-54");
        // Too long for both: each cut at a word, the end kept.
        let long = chapter_title_span(
            &step,
            "B gets 201 Created ch_82 for order 1034 from the provider.",
            "B records the payment of order 1034 in the database.",
        );
        assert!(long.chars().count() <= TITLE_ROOM, "{long}");
        assert!(long.contains(" … B records"), "{long}");
        // A chapter opened by an armed fault keeps the fault's name.
        let armed = Move::LoseAck {
            consumer: "B".into(),
        };
        assert_eq!(
            chapter_title_span(&armed, "", "B acks m-54."),
            "B's ack is lost"
        );
    }

    #[test]
    fn waits_fill_the_time_between_kept_moves_and_prunes_collapse() {
        let mut story = Story::new(Message::payment("m-1", 1001, 40), 5_000);
        let step = |c: &str| Move::Step { consumer: c.into() };
        story.keep(vec![step("A")], 5_000, 5_100);
        story.keep(vec![step("A")], 5_100, 5_200);
        story.keep_prune(60_000, 65_000);
        story.keep_prune(60_000, 125_000);
        story.keep(vec![step("B")], 130_000, 130_100);
        assert_eq!(
            story.moves(),
            [
                step("A"),
                step("A"),
                Move::Wait { ms: 119_800 },
                Move::Prune { age_ms: 60_000 },
                Move::Wait { ms: 5_000 },
                step("B"),
            ]
        );
    }

    /// A chapter's title is its first move's first sentence, whole where it
    /// is short, else cut at a word's end with `…`: never mid-word, never
    /// without the sign, however long its first word.
    #[test]
    fn a_chapter_title_is_whole_or_cut_at_a_word_with_its_sign() {
        let mv = Move::Step {
            consumer: "A".into(),
        };
        let short = "A receives m-1 (order 1001, $40), lease 30s, receipt rh-1. A begins.";
        assert_eq!(
            chapter_title(&mv, short),
            "A receives m-1 (order 1001, $40)"
        );
        let long = "A called the provider again without an Idempotency-Key for order 1042. more";
        let title = chapter_title(&mv, long);
        let kept = title.strip_suffix('…').expect("signed");
        assert!(long.starts_with(kept), "{title}");
        assert!(long[kept.len()..].starts_with(' '), "at a word: {title}");
        assert!(title.chars().count() <= TITLE_ROOM, "{title}");
        // One word longer than the room: whole, rather than cut unsigned.
        let id = format!("m-{}", "x".repeat(50));
        assert_eq!(chapter_title(&mv, &id), id);
        assert_eq!(chapter_title(&mv, ""), mv.written());
    }

    /// A chapter that opens with an armed fault is named for what the
    /// fault does in it, as short as the other titles: its first
    /// sentence (`Fault armed: the network will drop A's next ack`) was
    /// cut to `Fault armed: the network will drop A's…`, which said
    /// neither whose what nor what came of it.
    #[test]
    fn a_chapter_opened_by_an_armed_fault_is_named_for_what_it_does() {
        let setup = Setup {
            messages: vec![Message::payment("m-1", 1001, 40)],
            ..Setup::default()
        };
        let a = || "A".to_string();
        let armed = [
            (Move::LoseAck { consumer: a() }, "A's ack is lost"),
            (
                Move::LoseResponse { consumer: a() },
                "A's charge response is lost",
            ),
            (
                Move::Slow {
                    consumer: a(),
                    ms: 55_604,
                },
                "A's step takes 55s604ms",
            ),
        ];
        let mut wrong = Vec::new();
        for (mv, want) in &armed {
            let mut world = World::new(setup.clone(), Strategy::naive(), SEED).unwrap();
            world.apply(mv).unwrap();
            let told = crate::sim::event::step_told(world.events());
            let title = chapter_title(mv, &told);
            if title != *want || title.chars().count() > TITLE_ROOM {
                wrong.push(format!("{told:?}: {title:?}, not {want:?}"));
            }
        }
        assert!(
            wrong.is_empty(),
            "{} of {} wrong: {wrong:#?}",
            wrong.len(),
            armed.len()
        );
    }

    /// The fault armed and the step that meets it are one chapter, even
    /// where that step is a receive (which opens a chapter of its own):
    /// a chapter named `A's step takes 5s` held no step.
    #[test]
    fn an_armed_fault_and_the_step_it_meets_share_a_chapter() {
        let setup = Setup::default();
        let mut story = Story::new(Message::payment("m-1", 1001, 40), 0);
        let a = || "A".to_string();
        story.keep(
            vec![
                Move::Slow {
                    consumer: a(),
                    ms: 5_000,
                },
                Move::Step { consumer: a() },
            ],
            0,
            6_000,
        );
        let naive = Strategy::naive();
        let replay = story.replay(&setup, &naive).unwrap().expect("kept");
        let script = replay.script(&story, "s", &naive);
        let chapters: Vec<(&str, usize)> = script
            .steps
            .iter()
            .map(|s| (s.title.as_str(), s.actions.len()))
            .collect();
        assert_eq!(chapters, [("A's step takes 5s", 2)]);
    }

    #[test]
    fn a_story_too_long_for_a_file_is_dropped() {
        let mut story = Story::new(Message::payment("m-1", 1001, 40), 0);
        for i in 0..=MAX_MOVES as u64 {
            story.keep(
                vec![Move::Step {
                    consumer: "A".into(),
                }],
                i * 100,
                i * 100 + 100,
            );
        }
        assert!(story.too_long);
        let setup = Setup::default();
        assert!(story.replay(&setup, &Strategy::naive()).unwrap().is_none());
    }
}
