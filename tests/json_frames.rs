//! The money figures of `idem run --format json`, each named for whose
//! books it is: the shop's committed payment rows and the provider's
//! charges are two figures, and a run where they part must show both.

use crate::common::cli::idem;

#[test]
fn the_payments_total_and_the_providers_total_are_two_fields() {
    // tour-4 naive: one payment row of $40 committed, the card charged twice.
    let (code, out, err) = idem(&["run", "tour-4", "--mode", "naive", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let run: serde_json::Value = serde_json::from_str(&out).unwrap();
    let end = run["frames"].as_array().unwrap().last().unwrap();
    assert_eq!(end["db"]["payments_total"], 40, "{}", end["db"]);
    assert_eq!(end["provider"]["total_charged"], 80, "{}", end["provider"]);
    // The old name, which read as the card's total, is gone from the
    // shop's side.
    assert!(end["db"].get("total_charged").is_none(), "{}", end["db"]);
}
