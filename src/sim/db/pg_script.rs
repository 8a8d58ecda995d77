//! Several statements sent as one text: the server runs them in one round
//! trip, as one transaction (a simple query that holds several statements
//! is one implicit transaction), where sending each with its values bound
//! costs a round trip apiece. For the checker's restores, which run
//! thousands of times.

use super::pg_link::Value;
use super::render;

/// `script` as one text, each statement's values written in as literals.
pub(super) fn one_text(script: &[(&'static str, Vec<Value>)]) -> String {
    let mut out = String::new();
    for (sql, values) in script {
        let literals: Vec<String> = values.iter().map(literal).collect();
        out.push_str(&render(sql, &literals));
        out.push_str(";\n");
    }
    out
}

/// A value as SQL text. A string is an escape string (`E'...'`), whose
/// reading does not depend on the server's `standard_conforming_strings`:
/// every quote and backslash in it is doubled, so no value can end it.
fn literal(value: &Value) -> String {
    match value {
        Value::Int(i) => i.to_string(),
        Value::Text(t) => format!("E'{}'", t.replace('\\', "\\\\").replace('\'', "''")),
        Value::Null => "NULL".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_written_in_and_no_text_can_end_its_literal() {
        let script = [
            ("DELETE FROM orders", vec![]),
            (
                "INSERT INTO orders (order_id, last_message_id) VALUES ($1, $2)",
                vec![
                    Value::Int(1042),
                    Value::Text(r"m-'7f3\'; DROP TABLE x; --$1".into()),
                ],
            ),
            ("INSERT INTO t (a) VALUES ($1)", vec![Value::Null]),
        ];
        assert_eq!(
            one_text(&script),
            "DELETE FROM orders;\n\
             INSERT INTO orders (order_id, last_message_id) VALUES (1042, E'm-''7f3\\\\''; DROP TABLE x; --$1');\n\
             INSERT INTO t (a) VALUES (NULL);\n"
        );
    }
}
