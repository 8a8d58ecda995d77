//! The committed payments are counted in one wording wherever a person
//! reads them: the verdict's figures say `1 committed payment`, and a cause
//! chain that said `1 committed payment row` beside them read as a second,
//! different count. Every form (the transcript, its JSON, the screen) is
//! held to the verdict's words.

use crate::common;

/// The old wording, in every number: `no`/`1 committed payment row`,
/// `2 committed payment rows`.
const OLD: &str = "committed payment row";

/// content-hash naive: its chain counts one committed payment against two
/// charges (`the provider charged twice, the database has 1 committed
/// payment`), and no payment (`no committed payment`) before that.
const SCENARIO: &str = "content-hash";

#[test]
fn the_transcript_counts_committed_payments_in_the_verdicts_words() {
    let (code, out, err) = common::cli::idem(&["run", SCENARIO, "--mode", "naive"]);
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains(OLD), "{out}");
    assert!(
        out.contains("the database has 1 committed payment"),
        "{out}"
    );
    assert!(
        out.contains("the database has no committed payment"),
        "{out}"
    );
}

#[test]
fn the_json_frames_count_committed_payments_in_the_verdicts_words() {
    let (code, out, err) =
        common::cli::idem(&["run", SCENARIO, "--mode", "naive", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains(OLD), "{out}");
    assert!(
        out.contains("the database has 1 committed payment"),
        "{out}"
    );
}

/// Every step of the run, drawn wide enough for the whole chain.
#[test]
fn the_screen_counts_committed_payments_in_the_verdicts_words() {
    let mut app = common::app(SCENARIO, "naive");
    let (mut wrong, mut told) = (Vec::new(), 0);
    for pos in 0..app.timeline.frames.len() {
        app.pos = pos;
        let screen = common::draw(&mut app, 200, 50);
        if screen.contains(OLD) {
            wrong.push(pos);
        }
        told += usize::from(screen.contains("the database has 1 committed payment"));
    }
    assert!(told > 0, "no step showed the chain's count");
    assert!(
        wrong.is_empty(),
        "{} of {} steps say `{OLD}`: {wrong:?}",
        wrong.len(),
        app.timeline.frames.len()
    );
}
