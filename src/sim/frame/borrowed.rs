//! Words a frame carries that were written for another run than the one
//! shown: another design's (a scenario told for one design, played under
//! another) or SQLite's (a file about SQLite's write lock, played on
//! PostgreSQL). They are kept apart from the run's own words, typed by
//! whom they were written for, so that every front end tells the step's
//! own events first and shows these below, under their mark. No front end
//! finds them by reading the text.

use serde::Serialize;

/// The run a borrowed paragraph was written for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum WrittenFor {
    /// Another design: the one the scenario's narration names.
    Design(String),
    /// SQLite's locking, shown on a PostgreSQL run.
    Sqlite,
    /// Another design on SQLite, shown on a PostgreSQL run.
    DesignOnSqlite(String),
}

impl WrittenFor {
    /// Both reasons at once, when one chapter borrows for each.
    pub fn and(&self, other: &WrittenFor) -> WrittenFor {
        match (self, other) {
            (WrittenFor::DesignOnSqlite(d), _) | (_, WrittenFor::DesignOnSqlite(d)) => {
                WrittenFor::DesignOnSqlite(d.clone())
            }
            (WrittenFor::Design(d), WrittenFor::Sqlite)
            | (WrittenFor::Sqlite, WrittenFor::Design(d)) => WrittenFor::DesignOnSqlite(d.clone()),
            (WrittenFor::Design(d), WrittenFor::Design(_)) => WrittenFor::Design(d.clone()),
            (WrittenFor::Sqlite, WrittenFor::Sqlite) => WrittenFor::Sqlite,
        }
    }

    /// The mark above the words, in every medium: they describe a run the
    /// reader is not looking at.
    pub fn mark(&self) -> String {
        match self {
            WrittenFor::Design(d) => format!("written for the {d} design, not this one:"),
            WrittenFor::Sqlite => "written for SQLite, not this PostgreSQL run:".to_string(),
            WrittenFor::DesignOnSqlite(d) => {
                format!("written for the {d} design on SQLite, not this run:")
            }
        }
    }
}

/// A chapter's borrowed words as they stand at one frame.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Borrowed {
    pub written_for: WrittenFor,
    /// All of the chapter's borrowed words so far.
    #[serde(serialize_with = "crate::scenario::key_word::serialize_told")]
    pub text: String,
    /// What this frame's action added to them, already part of `text`.
    #[serde(serialize_with = "crate::scenario::key_word::serialize_told_some")]
    pub said: Option<String>,
}

impl Borrowed {
    /// The words before what this frame added.
    pub fn opening(&self) -> &str {
        match &self.said {
            Some(said) => self
                .text
                .strip_suffix(said.as_str())
                .unwrap_or(&self.text)
                .trim_end(),
            None => &self.text,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_reasons_make_one_mark_naming_both() {
        let d = WrittenFor::Design("naive".into());
        assert_eq!(
            d.and(&WrittenFor::Sqlite),
            WrittenFor::DesignOnSqlite("naive".into())
        );
        assert_eq!(
            WrittenFor::Sqlite.and(&WrittenFor::Sqlite),
            WrittenFor::Sqlite
        );
        assert!(d.mark().contains("naive"));
    }
}
