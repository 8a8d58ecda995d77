//! `idem check`'s header states the bounds the run used. Teacher trial:
//! `--strategy offset` said `1 message … at most 2 faults` while the run
//! used two messages and one fault, explained only further down; and
//! `claims exactly-once` read as exactly-once delivery.

use crate::common::cli::idem;

#[test]
fn check_header_states_the_bounds_used() {
    let (code, out, err) = idem(&["check", "--strategy", "offset"]);
    assert_eq!(code, 0, "{err}");
    let header: String = out.lines().take(3).collect::<Vec<_>>().join("\n");
    assert!(header.contains("2 messages (m-7f3, m-9c2)"), "{out}");
    assert!(header.contains("faults: at most 1 per schedule"), "{out}");
    assert!(out.contains("promises an exactly-once effect"), "{out}");
}
