//! A statement too long for the rows the SQL panel has keeps its head and
//! its end round an ellipsis: the head says what it does and to which
//! table (`INSERT INTO processed_messages`), the end what it wrote and
//! the clause it is taught by (`VALUES ('m-7f3', 41000 /* ms */) ON
//! CONFLICT DO NOTHING`). Trial, tour-3 idempotent at a reveal, 100x30:
//! `B> INSERT INTO … ms */) ON CONFLICT DO NOTHING` named no table, and
//! an insert into processed_messages read as one into payments.

use crate::tui::theme::Theme;
use ratatui::text::{Line, Span};

/// The words a head keeps, where the statement has more: what and where
/// (`INSERT INTO processed_messages`, `UPDATE idempotency_records SET`,
/// `DELETE FROM processed_messages`).
pub const HEAD_WORDS: usize = 3;

/// The statement `words` cut to `keep` of them round an ellipsis, after
/// the speaker `head` (`A> `), and how many it keeps from its end; `None`
/// where that would not say what the statement does: its head whole
/// (`whole_head`), and its clause whole, four words at least (`ON
/// CONFLICT DO NOTHING`). Without `whole_head`, the start keeps up to a
/// third of the words kept, at most the head: the last resort of a panel
/// too small for the head and the clause (row-version's upsert at 80x24),
/// before the statement is cut and its words counted.
pub(super) fn cut(
    t: &Theme,
    head: &[Span<'static>],
    words: &[&str],
    keep: usize,
    style: ratatui::style::Style,
    whole_head: bool,
) -> Option<(Line<'static>, usize)> {
    let start = if whole_head {
        HEAD_WORDS.min(words.len().saturating_sub(1))
    } else {
        (keep - (keep * 2).div_ceil(3)).min(HEAD_WORDS)
    };
    let end = keep.checked_sub(start)?;
    if start == 0 || end < 4.min(words.len() - 1) || keep >= words.len() {
        return None;
    }
    let text = format!(
        "{} {} {}",
        words[..start].join(" "),
        t.g.ellipsis,
        words[words.len() - end..].join(" ")
    );
    let mut spans = head.to_vec();
    spans.push(Span::styled(text, style));
    Some((Line::from(spans), end))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(line: &Line<'_>) -> String {
        line.spans.iter().map(|s| s.content.as_ref()).collect()
    }

    #[test]
    fn a_squeezed_statement_keeps_its_head_and_its_clause() {
        let t = Theme::new(false, false);
        let sql = "INSERT INTO processed_messages (message_id, processed_at) \
                   VALUES ('m-7f3', 41000 /* ms */) ON CONFLICT DO NOTHING";
        let words: Vec<&str> = sql.split(' ').collect();
        let head = [Span::raw("A> ")];
        let (line, end) = cut(&t, &head, &words, 8, Default::default(), true).unwrap();
        assert_eq!(
            text(&line),
            "A> INSERT INTO processed_messages … */) ON CONFLICT DO NOTHING"
        );
        assert_eq!(end, 5);
        // Fewer words than the head and the clause: no cut says it.
        assert!(cut(&t, &head, &words, 6, Default::default(), true).is_none());
        assert!(cut(&t, &head, &words, words.len(), Default::default(), true).is_none());
    }
}
