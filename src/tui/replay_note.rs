//! The note a replay opened from the explorer starts with, in forms from
//! the longest down, each whole: the bar draws the first that fits. Every
//! form keeps what makes the run true to read: its design, its outcome,
//! the bound it was found at where that is one bound further than the
//! bounds asked for, the engine where the session is on another, and the
//! way back. Teacher trial: the one form there was, cut at the width,
//! read `…under naive in 10…` at 80x24, and `…with 3 faults (one…` for
//! in-progress, whose run one bound further then read as within bounds.

use crate::sim::Outcome;
use crate::tui::explorer::Column;

/// The run the note is about, as the explorer lists it.
pub struct Replayed<'a> {
    pub outcome: Outcome,
    pub design: &'a str,
    pub moves: usize,
    /// The bound of the try it comes from (`3 faults`, `a producer
    /// retry`), where it lies one bound further.
    pub further: Option<String>,
    /// The session is on a server: the replay is on SQLite, where the
    /// checker found it, and says it left the server, never silently.
    pub from_server: bool,
}

/// Its forms, longest first. Given up in turn: where it goes wrong (the
/// step on screen shows it), the engine's reason, the way back's object,
/// the checker's name, the count of moves (the step counter has it), the
/// bound's long words; last, the outcome in the word `idem check`'s table
/// heads its column with (`disagree`), which the screen's header names
/// in full, beside the bound's long words, then its short ones.
pub fn forms(run: &Replayed) -> Vec<String> {
    let (o, d) = (run.outcome.text(), run.design);
    let heading = Column::Outcome(run.outcome).heading();
    let n = format!(" in {} moves", run.moves);
    let (beyond, beyond_short) = match &run.further {
        Some(b) => (
            format!(" with {b} (one bound further)"),
            format!(" with {b}, one further"),
        ),
        None => Default::default(),
    };
    let (engine, engine_short) = if run.from_server {
        (" (on SQLite, where the checker found it)", ", on SQLite")
    } else {
        ("", "")
    };
    let mut forms = vec![
        format!(
            "from idem check: {o} under {d}{beyond}{n}{engine}; here it goes wrong · Esc back to the explorer"
        ),
        format!("from idem check: {o} under {d}{beyond}{n}{engine} · Esc back to the explorer"),
        format!(
            "from idem check: {o} under {d}{beyond}{n}{engine_short} · Esc back to the explorer"
        ),
        format!("from idem check: {o} under {d}{beyond}{n}{engine_short} · Esc back"),
        format!("idem check: {o} under {d}{beyond}{n}{engine_short} · Esc back"),
        format!("{d}{beyond}: {o}{n}{engine_short} · Esc back"),
        format!("{d}{beyond}: {o}{engine_short} · Esc back"),
        format!("{d}{beyond_short}: {o}{engine_short} · Esc back"),
        format!("{d}{beyond}: {heading}{engine_short} · Esc back"),
        format!("{d}{beyond_short}: {heading}{engine_short} · Esc back"),
    ];
    forms.dedup();
    forms
}

#[cfg(test)]
mod tests {
    use super::*;

    fn width(s: &str) -> usize {
        s.chars().count()
    }

    /// The longest run to tell (the longest outcome, one bound further,
    /// from a server) has a form for the 77 columns an 80-column bar
    /// leaves the note, and every form says `further`.
    #[test]
    fn the_longest_run_has_a_form_for_80_columns() {
        let all = forms(&Replayed {
            outcome: Outcome::Disagree,
            design: "in-progress",
            moves: 17,
            further: Some("3 faults".into()),
            from_server: true,
        });
        assert!(all.iter().any(|f| width(f) <= 77), "{all:#?}");
        for f in &all {
            assert!(
                f.contains("in-progress") && f.contains("further") && f.contains("SQLite"),
                "{f}"
            );
            assert!(f.ends_with("Esc back") || f.ends_with("Esc back to the explorer"));
        }
        // Each shorter than the one before it.
        assert!(
            all.windows(2).all(|p| width(&p[1]) < width(&p[0])),
            "{all:#?}"
        );
    }
}
