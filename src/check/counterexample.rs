//! A shortest failing schedule, told step by step from the engine's own
//! events, and turned into a scenario file that `idem run --check` and the
//! TUI replay.

use super::bounds::Bounds;
use super::explore::SEED;
use crate::scenario::script::Saying;
use crate::scenario::{Action, Expectation, Group, Script, ScriptStep};
use crate::sim::{Move, Outcome, SimError, Strategy, World};
use serde::Serialize;
use std::collections::BTreeMap;

/// One move of a counterexample and what the world did with it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CounterStep {
    /// The move in the scenario action language: `step A`, `lose-ack A`.
    pub action: String,
    /// A short name for it: `A: insert payment row`.
    pub title: String,
    /// What happened, one sentence per event.
    pub happened: Vec<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Counterexample {
    pub strategy: String,
    pub class: Outcome,
    pub moves: Vec<Move>,
    pub steps: Vec<CounterStep>,
    /// The verdict's cause chain at the end: `charged twice <- ...`.
    pub chain: String,
    /// The verdict at the end, for a view to draw the chain in its own
    /// medium.
    #[serde(skip)]
    pub verdict: crate::sim::Verdict,
    pub outcome: Outcome,
    /// Committed payments at the end, in dollars.
    pub total: u32,
    /// Provider charges at the end.
    pub charges: u32,
    /// The schedule as a scenario, ready for a `Timeline`.
    #[serde(skip)]
    pub script: Script,
}

impl Counterexample {
    /// Replays `moves` on a fresh world and writes down what each one did.
    pub fn build(
        strategy: &Strategy,
        bounds: &Bounds,
        class: Outcome,
        moves: Vec<Move>,
    ) -> Result<Self, SimError> {
        // The checker lets no time pass by itself; a replay does, one second
        // a step, so its clock and lease bars move. Only where no lease can
        // run out on its own within the schedule: the replay must end the
        // same way as the schedule the checker found. The steps are told
        // from a world with the replay's clock, so that their words ("29s
        // pass") are the replay's own, not the checker's.
        let mut setup = bounds.setup();
        if (moves.len() as u64 + 1) * 1_000 < setup.lease_ms.min(setup.record_timeout_ms) {
            setup.step_ms = 1_000;
        }
        let mut world = World::new(setup.clone(), strategy.clone(), SEED)?;
        // As the replay's timeline knows its script, so does this world:
        // the words of a skip depend on whether any move prunes.
        world.expect_no_pruning(!moves.iter().any(|mv| matches!(mv, Move::Prune { .. })));
        let mut steps = Vec::new();
        for mv in &moves {
            let title = title(&world, mv);
            world.apply(mv)?;
            let happened = world
                .events()
                .iter()
                .map(|e| e.sentence_at(&move_words))
                .collect();
            steps.push(CounterStep {
                action: mv.written(),
                title,
                happened,
            });
        }
        let verdict = world.verdict();
        let total = world.committed().payments.iter().map(|p| p.amount).sum();
        let charges = world.provider().charges().len() as u32;
        let chain = verdict.chain_at(crate::sim::cause::Arrow::Ascii, &move_words);
        let summary = format!(
            "The shortest schedule found that breaks the {} design takes {} moves and ends: {}.",
            strategy.name,
            moves.len(),
            class.text()
        );
        let script = Script {
            name: format!("{}-{}", strategy.name, class.slug()),
            origin: crate::scenario::Origin::FoundSchedule,
            title: format!("{}: {}", strategy.name, class.text()),
            title_for: BTreeMap::new(),
            intro_for: BTreeMap::new(),
            open_at: None,
            summary: summary.clone(),
            intro: format!(
                "{summary} Found by exploring every schedule within these bounds: {}. How it ends: {chain}.",
                bounds.sentence()
            ),
            group: Group::Design,
            order: 0,
            narrated_for: Some(strategy.name.to_string()),
            words_for_sqlite: false,
            // Other designs get titles that name only the move.
            tells_every_design: true,
            setup,
            steps: steps
                .iter()
                .zip(&moves)
                .map(|(s, mv)| {
                    // The handler step a move runs, and what it did, are
                    // this design's: the same schedule under another design
                    // (`m`, compare) is told by its own events, under a
                    // title that names only the move.
                    let this_design = |text: &str| {
                        BTreeMap::from([(strategy.name.to_string(), text.to_string())])
                    };
                    let neutral = neutral_title(mv);
                    ScriptStep {
                        title_for: if neutral == s.title {
                            BTreeMap::new()
                        } else {
                            this_design(&s.title)
                        },
                        title: neutral,
                        // Each step is one move, so what it did is true from
                        // its own frame on.
                        narration: String::new(),
                        narration_for: BTreeMap::new(),
                        actions: vec![Action::Move(mv.clone())],
                        sayings: vec![Some(Saying {
                            text: String::new(),
                            text_for: this_design(&s.happened.join(" ")),
                            at: BTreeMap::new(),
                        })],
                        asks: Vec::new(),
                    }
                })
                .collect(),
            expect: BTreeMap::from([(
                strategy.name.to_string(),
                Expectation {
                    total: Some(total),
                    charges: Some(charges),
                    outcomes: Some(verdict.outcomes()),
                },
            )]),
        };
        Ok(Counterexample {
            strategy: strategy.name.to_string(),
            class,
            moves,
            steps,
            chain,
            outcome: verdict.outcome,
            verdict,
            total,
            charges,
            script,
        })
    }

    /// The file name `--save` uses: `naive-charged-twice.toml`.
    pub fn file_name(&self) -> String {
        format!("{}.toml", self.script.name)
    }

    /// The scenario file, in the format `idem run` reads.
    pub fn to_toml(&self) -> String {
        crate::scenario::write::to_toml(
            &self.script,
            &format!(
                "Written by `idem check --save`. Replay: idem run <this file> --mode {} --check",
                self.strategy
            ),
        )
    }
}

/// A step of a found schedule in words: `move 7`. Its steps are the
/// schedule's moves, counted as its length is (`10 moves`), as the replay
/// of its scenario (origin "check") names them.
pub fn move_words(n: usize) -> String {
    format!("{} {n}", crate::scenario::Origin::FoundSchedule.step())
}

/// A short name for a move that is true under every design: a step names
/// its consumer, not the handler step it runs.
fn neutral_title(mv: &Move) -> String {
    match mv {
        Move::Step { consumer } => format!("{consumer} takes its next step"),
        _ => mv.told(),
    }
}

/// A short name for what the move is about to do in this world.
fn title(world: &World, mv: &Move) -> String {
    match mv {
        Move::Step { consumer } => {
            let Some(c) = world.consumers().iter().find(|c| c.name == *consumer) else {
                return format!("{consumer}: step");
            };
            if c.is_crashed() {
                return format!("{consumer}: restart");
            }
            match world.strategy().program.get(c.pc) {
                Some(op) => format!("{consumer}: {}", crate::sim::step_name::label(*op)),
                None => format!("{consumer}: step"),
            }
        }
        // Which expiries the fault budget counts is the checker's rule,
        // said only in `idem check`'s bounds: a class saw four lease ends
        // and crashes in a run "at 3 faults" and could not tell which
        // three counted (trial 38).
        // In the bounds' own name for the fault, short enough for the
        // explorer's column of titles.
        Move::ExpireLease { message } if super::enabled::early_expiry(world, message) => {
            format!("early lease expiry: {message}")
        }
        Move::ExpireLease { message } => format!("{message}'s lease ends: no fault"),
        _ => mv.told(),
    }
}
