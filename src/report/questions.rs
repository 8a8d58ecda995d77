//! The questions a run asks, with the answers it computes: for a scenario's
//! author checking that every "why" is true under every design, and for a
//! reader who cannot use predict mode's screen.

use crate::scenario::Script;
use crate::timeline::Timeline;
use std::fmt::Write;

pub fn questions(timeline: &Timeline, script: &Script) -> String {
    let asked = timeline.asked(script);
    let on_postgres = !timeline.last().engine.is_sqlite();
    let mut out = String::new();
    let _ = writeln!(out);
    let _ = writeln!(out, "== questions ({}) ==", timeline.strategy);
    if asked.is_empty() {
        let _ = writeln!(out, "(this scenario asks none under {})", timeline.strategy);
    }
    for a in &asked {
        let action = script
            .steps
            .get(a.chapter - 1)
            .and_then(|s| s.actions.get(a.action))
            // As the step heads above name it, and the predict screen.
            .map(|x| x.words())
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "? chapter {}, before `{action}` (asked at step {}, answered at step {})",
            a.chapter, a.ask_at, a.answer_at
        );
        let _ = writeln!(out, "  {}", a.question.wording());
        let was = if matches!(
            a.question.subject,
            crate::scenario::Subject::ChargesAgain | crate::scenario::Subject::ProviderAnswer
        ) {
            String::new()
        } else if a.was == a.answer {
            " (unchanged)".to_string()
        } else {
            format!(" (was {})", a.show(a.was))
        };
        let _ = writeln!(out, "  answer: {}{was}", a.show(a.answer));
        for (i, line) in super::text::wrap(a.question.why(&timeline.strategy, on_postgres), 72)
            .iter()
            .enumerate()
        {
            let lead = if i == 0 { "  why: " } else { "       " };
            let _ = writeln!(out, "{lead}{line}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::scenario;
    use crate::sim::Strategy;
    use crate::timeline::Timeline;

    #[test]
    fn each_question_is_listed_with_its_computed_answer() {
        let script = scenario::find("tour-1").unwrap();
        let t = Timeline::build(&script, &Strategy::by_name("naive").unwrap(), 0, &[]).unwrap();
        let text = super::questions(&t, &script);
        assert!(text.contains("== questions (naive) =="), "{text}");
        assert!(text.contains("  answer: $80 (was $40)"), "{text}");
        assert!(text.contains("  answer: yes"), "{text}");
        assert_eq!(text.matches("? chapter").count(), t.asked(&script).len());
    }
}
