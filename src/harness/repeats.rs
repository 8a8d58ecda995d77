//! Which rows of a program's table repeat a payment, for the replay to
//! mark `✕ again` as the simulator marks a payment row that repeats an
//! order already paid.
//!
//! The rule, for a learner's table of any shape: a table records payments
//! when it has the columns the recorded query reads first (`order_id,
//! amount` for `SELECT order_id, amount FROM payments`: the order and the
//! amount); a row of it repeats a payment when an earlier row of the same
//! table holds the same values in those columns. The other columns (a
//! charge ID, a row ID, a time) do not count: a second row for an order
//! already paid is the duplicate whatever else it holds. idem gives every
//! message its own order, so a second row for one order and amount is
//! never a payment owed twice. A table without those columns (the
//! program's record of handled IDs) marks no row; a query whose columns
//! are aliases the table does not have marks none either.

use crate::sim::db::program::TableDump;

/// For each row kept of `table`, whether it repeats an earlier one in the
/// `payment` columns (the recorded query's first two).
pub fn repeated(table: &TableDump, payment: &[String]) -> Vec<bool> {
    let at: Option<Vec<usize>> = payment
        .iter()
        .map(|name| table.columns.iter().position(|c| c == name))
        .collect();
    let at = match at {
        Some(at) if at.len() == 2 => at,
        _ => return vec![false; table.rows.len()],
    };
    let key = |row: &Vec<String>| -> Vec<Option<String>> {
        at.iter().map(|&c| row.get(c).cloned()).collect()
    };
    (0..table.rows.len())
        .map(|n| {
            let this = key(&table.rows[n]);
            table.rows[..n].iter().any(|earlier| key(earlier) == this)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(columns: &[&str], rows: &[&[&str]]) -> TableDump {
        TableDump {
            name: "t".into(),
            columns: columns.iter().map(|c| c.to_string()).collect(),
            rows: rows
                .iter()
                .map(|r| r.iter().map(|c| c.to_string()).collect())
                .collect(),
        }
    }

    fn payment() -> Vec<String> {
        vec!["order_id".into(), "amount".into()]
    }

    #[test]
    fn a_row_for_an_order_paid_before_repeats_it_whatever_else_it_holds() {
        let t = table(
            &["id", "order_id", "amount", "charge_id"],
            &[
                &["1", "1042", "40", "ch_1"],
                &["2", "1043", "25", "ch_2"],
                &["3", "1042", "40", "ch_3"],
                &["4", "1042", "25", "ch_4"],
            ],
        );
        assert_eq!(repeated(&t, &payment()), [false, false, true, false]);
    }

    #[test]
    fn a_table_without_the_payment_columns_marks_nothing() {
        let t = table(&["message_id"], &[&["m-1"], &["m-1"]]);
        assert_eq!(repeated(&t, &payment()), [false, false]);
        let t = table(&["order_id", "amount"], &[&["1042", "40"], &["1042", "40"]]);
        assert_eq!(repeated(&t, &[]), [false, false]);
    }
}
