//! Whole-screen snapshots of the simulator, drawn into a TestBackend with
//! animation off, so they are the same on every machine.

use crate::common::check::report;
use crate::common::{app, app_with, ascii, both_sizes, draw};
use idem::sim::Outcome;
use idem::sim::consumer::Status;
use idem::tui::explorer::Explored;
use idem::tui::{Action, App, Effect, update};

fn last(app: &mut App) {
    update(app, Action::Last);
}

#[test]
fn start_of_the_tour() {
    both_sizes!("start", app("tour-1", "naive"));
    let screen = draw(&mut app("tour-1", "naive"), 120, 40);
    assert!(screen.contains("Tour 1/4"));
    assert!(screen.contains("step 0/"));
    assert!(screen.contains("design: naive (m)"));
}

#[test]
fn naive_double_charge() {
    both_sizes!("naive_double_charge", {
        let mut a = app("tour-1", "naive");
        last(&mut a);
        a
    });
    let mut a = app("tour-1", "naive");
    last(&mut a);
    assert_eq!(a.frame().verdict.outcome, Outcome::ChargedTwice);
    let screen = draw(&mut a, 120, 40);
    assert!(screen.contains("✕ charged twice"));
    // The hint in its short words where the step's time takes the room.
    assert!(
        screen.contains("end: ] next tour / s scenarios"),
        "{screen}"
    );
    assert!(screen.contains("total recorded $80"));
    assert!(screen.contains("processed_messages: not used"));
}

#[test]
fn idempotent_duplicate_skipped() {
    both_sizes!("idempotent_skip", {
        let mut a = app("tour-1", "idempotent");
        last(&mut a);
        a
    });
    let mut a = app("tour-1", "idempotent");
    last(&mut a);
    let screen = draw(&mut a, 120, 40);
    assert!(screen.contains("✓ correct"));
    assert!(!screen.contains("charged once"));
    assert!(screen.contains("total recorded $40"));
    assert!(screen.contains("skipped"));
}

/// The first frame of tour 3 where B waits for A's write lock.
fn race(mode: &str) -> App {
    let mut a = app("tour-3", mode);
    let at = a
        .timeline
        .frames
        .iter()
        .position(|f| {
            f.consumers
                .iter()
                .any(|c| matches!(&c.status, Status::Blocked { by } if by == "A"))
        })
        .expect("tour 3 blocks B on A's lock");
    for _ in 0..at {
        update(&mut a, Action::Next);
    }
    a
}

#[test]
fn race_with_b_waiting_for_the_lock() {
    both_sizes!("race_b_waits", race("idempotent"));
    let screen = draw(&mut race("idempotent"), 120, 40);
    assert!(screen.contains("waits for A's lock"));
    // The step pointed at keeps its name whole and its word; the pointer
    // folds to its sign first.
    assert!(
        screen
            .lines()
            .any(|l| l.contains("begin transaction  blocked ◀"))
    );
    assert!(screen.contains("SQLITE_BUSY"));
}

fn replay() -> App {
    let mut a = app("tour-4", "idempotent");
    let at = a
        .timeline
        .frames
        .iter()
        .position(|f| f.provider.keys.iter().any(|k| k.replayed_now))
        .expect("tour 4 replays a stored result");
    for _ in 0..at {
        update(&mut a, Action::Next);
    }
    a
}

#[test]
fn provider_key_replay() {
    both_sizes!("key_replay", replay());
    let screen = draw(&mut replay(), 120, 40);
    assert!(screen.contains("replayed ×1 now"));
    assert!(screen.contains("m-7f3 → ch_81"));
}

#[test]
fn compare_view() {
    let setup = || {
        let mut a = app("tour-1", "naive");
        update(&mut a, Action::Compare);
        update(&mut a, Action::FirstViolation);
        a
    };
    both_sizes!("compare", setup());
    let screen = draw(&mut setup(), 120, 40);
    assert!(screen.contains("design: naive"));
    assert!(screen.contains("design: idempotent"));
    // The first step either side's database shows what the other's does
    // not: naive's second payment row, not yet committed, one step before
    // its second charge (`v` stands there), which the line names by its
    // step: `here` is where they part, not where naive charges twice.
    assert!(
        screen
            .contains("they part here, at naive step 12 / idempotent step 13: m-7f3 payment rows"),
        "{screen}"
    );
    assert!(
        screen.contains("then naive ✕ charged twice at step 13"),
        "{screen}"
    );
    let mut a = setup();
    update(&mut a, Action::Last);
    let screen = draw(&mut a, 120, 40);
    assert!(
        screen.contains("m-7f3 2 payment rows committed"),
        "{screen}"
    );
    assert!(screen.contains("m-7f3 1 payment row committed"), "{screen}");
    assert!(screen.contains("charged twice"), "{screen}");
}

#[test]
fn help_overlay() {
    both_sizes!("help", {
        let mut a = app("tour-1", "naive");
        update(&mut a, Action::Help);
        a
    });
}

#[test]
fn help_scrolls_on_a_short_screen() {
    let mut a = app("tour-1", "naive");
    update(&mut a, Action::Help);
    let top = draw(&mut a, 80, 24);
    assert!(top.contains("more"), "the help says it goes on: {top}");
    assert!(!top.contains("Verdict  "), "{top}");
    for _ in 0..200 {
        update(&mut a, Action::Down);
    }
    let end = draw(&mut a, 80, 24);
    assert!(end.contains("above"), "{end}");
    assert!(
        end.contains("Verdict  "),
        "the last line comes into view: {end}"
    );
    assert!(end.contains("Changes  "), "{end}");
    update(&mut a, Action::Back);
    update(&mut a, Action::Help);
    assert_eq!(draw(&mut a, 80, 24), top, "it opens at the top again");
}

#[test]
fn too_small_terminal() {
    let mut a = app("tour-1", "naive");
    let screen = draw(&mut a, 79, 24);
    insta::assert_snapshot!("too_small_79x24", screen);
    assert!(screen.contains("terminal too small: need 80x24"));
    let screen = draw(&mut a, 100, 20);
    assert!(screen.contains("terminal too small"));
    let screen = draw(&mut a, 80, 24);
    assert!(!screen.contains("terminal too small"));
}

#[test]
fn ascii_mode_draws_only_ascii() {
    let mut a = app_with("tour-3", "idempotent", ascii());
    for _ in 0..a.timeline.frames.len() {
        for (w, h) in [(80, 24), (120, 40)] {
            let screen = draw(&mut a, w, h);
            assert!(screen.is_ascii(), "{screen}");
        }
        update(&mut a, Action::Next);
    }
    update(&mut a, Action::Help);
    assert!(draw(&mut a, 120, 40).is_ascii());
    insta::assert_snapshot!("help_ascii_120x40", draw(&mut a, 120, 40));
    update(&mut a, Action::Back);
    // The race, in ASCII: every mark its own character.
    update(&mut a, Action::First);
    let race = race("idempotent").pos;
    for _ in 0..race {
        update(&mut a, Action::Next);
    }
    insta::assert_snapshot!("race_ascii_80x24", draw(&mut a, 80, 24));
}

#[test]
fn a_fork_is_marked_on_screen() {
    let mut a = app("tour-1", "idempotent");
    update(&mut a, Action::Next);
    update(&mut a, Action::Faults);
    let menu = draw(&mut a, 120, 40);
    assert!(menu.contains("crash consumer A now"), "{menu}");
    insta::assert_snapshot!("faults_menu_120x40", menu);
    // The menu's first entries: step A by hand, then crash A.
    update(&mut a, Action::Digit(2));
    let screen = draw(&mut a, 120, 40);
    assert!(screen.contains("forked at step 2"), "{screen}");
    // The step line says the user's move in a reader's words.
    assert!(screen.contains("you: process crashes (A)"), "{screen}");
    // From the user's move on, the words are about the user's run.
    assert!(screen.contains("Your run"), "{screen}");
    assert!(
        screen.contains("At step 2 you changed the run: A crashes."),
        "{screen}"
    );
    // The script's later faults no longer fire: the run plays out to its end.
    update(&mut a, Action::Last);
    let end = draw(&mut a, 120, 40);
    assert!(!end.contains("lose-ack"), "{end}");
    assert!(end.contains("✓ correct"), "{end}");
}

/// `x`, then the answer the terminal layer would bring back.
fn explorer(name: &str, mode: &str) -> App {
    let mut a = app(name, mode);
    update(&mut a, Action::Explore);
    assert_eq!(
        a.pending.take(),
        Some(Effect::Explore),
        "x asks for the check"
    );
    update(
        &mut a,
        Action::ExploreDone(Explored::new(Ok(report().clone()))),
    );
    a
}

#[test]
fn explorer_table_and_counterexamples() {
    both_sizes!("explorer", explorer("tour-1", "naive"));
    let screen = draw(&mut explorer("tour-1", "naive"), 120, 40);
    assert!(screen.contains("Explorer"), "{screen}");
    // A design that holds says within which bounds, never a bare "safe".
    assert!(screen.contains("✓ holds within 1 fault"), "{screen}");
    assert!(!screen.contains("safe: holds"), "{screen}");
    assert!(screen.contains("✕ broken, as expected"), "{screen}");
    assert!(
        screen.contains("▶ naive"),
        "the design on screen is selected"
    );
    assert!(screen.contains("charged twice"));
    assert!(!screen.contains("states/s") && !screen.contains("seconds"));
    let narrow = draw(&mut explorer("tour-1", "naive"), 80, 24);
    // Fewer words at 80 columns, the bound still with its unit; the
    // marks' legend says what ✓ means.
    assert!(narrow.contains("✓ within 1 fault"), "{narrow}");
    assert!(narrow.contains("✓ holds within bounds"), "{narrow}");
}

#[test]
fn explorer_on_a_safe_design_shows_what_was_proved() {
    let mut a = explorer("tour-1", "idempotent");
    let screen = draw(&mut a, 120, 40);
    // The claim wraps: read it whole, each try with its own figures.
    let whole = screen
        .split(|c: char| c.is_whitespace() || c == '"')
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        whole.contains(
            "No schedule within the bounds breaks idempotent: it holds within 2 consumers, 1 message and 1 fault, assuming one payment per message ID (59 schedules, 103 states); also holds at 2 faults (still at most 1 crash per consumer, 1 lost ack, 1 lost response, 1 early lease expiry): 520 states"
        ),
        "{screen}"
    );
    assert!(screen.contains("a duplicate delivery happened"));
    update(&mut a, Action::Enter);
    assert!(
        a.status.is_some(),
        "Enter on a safe design says why nothing opens"
    );
}

#[test]
fn explorer_while_the_check_runs() {
    let mut a = app("tour-1", "naive");
    update(&mut a, Action::Explore);
    update(&mut a, Action::Tick { ms: 200 });
    let screen = draw(&mut a, 80, 24);
    assert!(screen.contains("exploring every schedule"), "{screen}");
    // "Every schedule" with its bounds, at every size (teacher trial 44:
    // the wait and the title claimed every schedule with none).
    for (w, h) in [(80, 24), (100, 30), (120, 40)] {
        let screen = draw(&mut a, w, h);
        let prose: String = screen
            .lines()
            .map(|l| l.trim_matches(|c: char| c == '"' || c == '│' || c.is_whitespace()))
            .collect::<Vec<_>>()
            .join(" ");
        assert!(
            prose.contains(
                "within 2 consumers, 1 message and 2 faults (at most 1 crash per consumer"
            ),
            "{w}x{h}: {screen}"
        );
        // And the designs checked under bounds of their own, with them
        // (trial 46: the wait said every design ran within the above).
        assert!(
            prose.contains(
                "; row-version, offset, versioned within 1 fault, 2 messages (offset on one ordered partition)"
            ),
            "{w}x{h}: {screen}"
        );
        let title = screen.lines().next().unwrap_or("");
        assert!(
            !title.contains("every schedule") || title.contains("within bounds"),
            "{w}x{h}: {title}"
        );
    }
    update(&mut a, Action::Back);
    let screen = draw(&mut a, 80, 24);
    assert!(screen.contains("Tour 1/4"), "Esc goes back while it runs");
    update(
        &mut a,
        Action::ExploreDone(Explored::new(Err("out of cheese".into()))),
    );
    update(&mut a, Action::Explore);
    assert_eq!(
        a.pending,
        Some(Effect::Explore),
        "x after a failure tries again"
    );
}

#[test]
fn explorer_opens_a_counterexample_at_its_first_bad_step() {
    let mut a = explorer("tour-1", "naive");
    update(&mut a, Action::Enter);
    assert!(a.script.title.starts_with("naive: "), "{}", a.script.title);
    assert!(a.frame().verdict.outcome.is_failure());
    let screen = draw(&mut a, 120, 40);
    assert!(
        screen.contains("Counterexample found by idem check"),
        "{screen}"
    );
    assert!(screen.contains("from idem check: "), "{screen}");
    let narrow = draw(&mut a, 80, 24);
    assert!(narrow.contains("Counterexample"), "{narrow}");
}

#[test]
fn explorer_in_ascii_draws_only_ascii() {
    let mut a = app_with("tour-1", "naive", ascii());
    update(&mut a, Action::Explore);
    for (w, h) in [(80, 24), (120, 40)] {
        assert!(draw(&mut a, w, h).is_ascii());
    }
    update(
        &mut a,
        Action::ExploreDone(Explored::new(Ok(report().clone()))),
    );
    for _ in 0..report().strategies.len() {
        for (w, h) in [(80, 24), (120, 40)] {
            let screen = draw(&mut a, w, h);
            assert!(screen.is_ascii(), "{screen}");
        }
        update(&mut a, Action::Down);
    }
}

/// The check's report with in-progress broken one fault further, as a
/// longer search finds it: the tally then counts a `!` too.
fn breaking_further() -> idem::check::CheckReport {
    use idem::check::further::{FurtherResult, Widening};
    let mut report = report().clone();
    let s = report
        .strategies
        .iter_mut()
        .find(|s| s.strategy == "in-progress")
        .expect("in-progress is checked");
    let f = s
        .further
        .iter_mut()
        .find(|f| f.widening == Widening::Fault)
        .expect("tried one more fault");
    f.result = FurtherResult::Breaks {
        shortest: None,
        runs: Vec::new(),
        outcomes: Default::default(),
        schedules: 0,
        unfinishable: None,
    };
    report
}

/// The explorer's title and its tally never run into each other, at any
/// width the tally fits beside the title (teacher trial 22: ` idem ·
/// Explorer✓ 3 hold within bounds` at 100x30).
#[test]
fn explorer_title_and_tally_keep_a_gap() {
    let mut a = crate::common::check::explorer_showing(breaking_further());
    let mut joined = Vec::new();
    for w in 80..=140 {
        let screen = draw(&mut a, w, 30);
        let top = screen.lines().next().unwrap_or("");
        if let Some(after) = top.split("Explorer").nth(1)
            && after.chars().next().is_some_and(|c| c != ' ')
        {
            joined.push(format!("{w}: {top}"));
        }
    }
    assert!(joined.is_empty(), "{} widths: {joined:#?}", joined.len());
}

/// A design that holds within the bounds but breaks one bound further is
/// not drawn with the safe ✓, and the header counts it apart: "holds"
/// alone would read as safe from the back of a room.
#[test]
fn explorer_marks_a_design_that_breaks_one_bound_further() {
    let mut a = crate::common::check::explorer_showing(breaking_further());
    let screen = draw(&mut a, 120, 40);
    let row = screen
        .lines()
        .find(|l| l.contains(" in-progress "))
        .expect("in-progress has a row");
    assert!(
        row.contains("! holds within 1 fault, breaks at 2 faults"),
        "{row}"
    );
    assert!(!row.contains('✓'), "{row}");
    assert!(
        screen.contains("✓ 3 hold within bounds  ·  ! 1 broken one bound further"),
        "{screen}"
    );
}

/// A status note longer than the bottom line ends in "…": the reader knows
/// it was cut.
#[test]
fn a_long_status_note_is_cut_with_an_ellipsis() {
    let mut a = app("tour-1", "naive");
    a.status = Some(format!(
        "saved 4 files: {}",
        "idem-tour-1-idempotent-step12.svg ".repeat(4)
    ));
    let screen = draw(&mut a, 80, 24);
    let bottom = screen.lines().last().unwrap_or_default();
    assert!(bottom.contains("saved 4 files"), "{bottom}");
    assert!(
        bottom.trim_end_matches('"').trim_end().ends_with('…'),
        "{bottom}"
    );
}

/// `x`, Enter on naive's first counterexample (its replay), then `c`.
fn compare_from_a_counterexample() -> App {
    let mut a = explorer("tour-1", "naive");
    update(&mut a, Action::Enter);
    update(&mut a, Action::Compare);
    a
}

#[test]
fn compare_opened_from_a_counterexample_tells_each_side_its_own_move() {
    both_sizes!("compare_counterexample", compare_from_a_counterexample());
    let mut a = compare_from_a_counterexample();
    let c = a.compare.as_ref().expect("compare is open");
    assert_eq!(
        (&*c.left.strategy, &*c.right.strategy),
        ("naive", "idempotent")
    );
    // The same schedule, lined up so the same handler step faces itself
    // (the idempotent design has one step more): both sides go forward
    // together, to both ends.
    let (l_end, r_end) = (c.left.frames.len() - 1, c.right.frames.len() - 1);
    assert!(
        c.pairs
            .windows(2)
            .all(|w| w[1].0 >= w[0].0 && w[1].1 >= w[0].1),
        "{:?}",
        c.pairs
    );
    assert_eq!(c.pairs.last(), Some(&(l_end, r_end)));
    let (lf, rf) = c.frames(a.pos);
    let (lf, rf) = (lf.clone(), rf.clone());
    let moves = c.left.frames.len() - 1;
    let screen = draw(&mut a, 120, 40);
    // Each side's title says which move it stands at.
    assert!(
        screen.contains(&format!("design: naive · move {}/{moves}", lf.index)),
        "{screen}"
    );
    assert!(
        screen.contains(&format!("design: idempotent · move {}/", rf.index)),
        "{screen}"
    );
    // The idempotent side tells its own step, not naive's words.
    assert!(!screen.contains("Told for"), "{screen}");
    // The header counts moves, as the side titles do.
    let second = screen.lines().nth(1).unwrap_or_default();
    assert!(second.contains("they part at naive move "), "{second}");
    assert!(!second.contains(" of naive"), "{second}");
    let right: String = screen
        .lines()
        .map(|l| l.chars().skip(60).collect::<String>())
        .collect::<Vec<_>>()
        .join(" ");
    let right = right.split_whitespace().collect::<Vec<_>>().join(" ");
    let told = idem::sim::event::step_told(&rf.events);
    let lead: String = told
        .split_whitespace()
        .take(4)
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        right.contains(&lead),
        "the idempotent side does not tell its own step {told:?}:\n{screen}"
    );
    let naive_said = idem::sim::event::step_told(&lf.events);
    if naive_said != told {
        // Whole: both sides may run the same step (a charge), told alike
        // at its start.
        let naive_whole = naive_said.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            !right.contains(&naive_whole),
            "naive's words on the idempotent side:\n{screen}"
        );
    }
}

/// The class's second step, `c`, is offered in the key bar at every size
/// (the trial found it dropped at 100x30).
#[test]
fn compare_is_in_the_key_bar_at_every_size() {
    for (w, h) in [(80, 24), (100, 30), (120, 40)] {
        let mut a = app("tour-1", "naive");
        let screen = draw(&mut a, w, h);
        let bottom = screen.lines().last().unwrap_or_default();
        assert!(bottom.contains("c compare"), "{w}x{h}: {bottom}");
    }
}
