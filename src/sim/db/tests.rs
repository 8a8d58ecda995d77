use super::*;

#[test]
fn a_second_writer_is_busy_until_the_first_commits() {
    let db = Database::open(None).unwrap();
    let a = db.connect().unwrap();
    let b = db.connect().unwrap();
    assert!(matches!(a.begin().unwrap(), Begin::Open(_)));
    assert!(a.claim_message("m-7f3", 0).unwrap().first_time);
    assert!(matches!(b.begin().unwrap(), Begin::Busy(_)));
    a.commit().unwrap();
    assert!(matches!(b.begin().unwrap(), Begin::Open(_)));
    let claim = b.claim_message("m-7f3", 1).unwrap();
    assert!(!claim.first_time);
    assert_eq!(
        claim.ran.result,
        "0 rows: conflict, message_id already handled"
    );
    b.commit().unwrap();
    assert_eq!(db.committed().unwrap().processed.len(), 1);
}

#[test]
fn a_dropped_connection_rolls_back() {
    let db = Database::open(None).unwrap();
    let a = db.connect().unwrap();
    a.begin().unwrap();
    a.insert_payment(1042, 40, "m-7f3").unwrap();
    assert_eq!(a.own_view().unwrap().payments.len(), 1);
    drop(a);
    assert!(db.committed().unwrap().payments.is_empty());
}

#[test]
fn a_versioned_status_write_refuses_an_older_version() {
    let db = Database::open(None).unwrap();
    let a = db.connect().unwrap();
    assert!(a.set_status(1042, "SHIPPED", 2, true).unwrap().0);
    assert!(!a.set_status(1042, "PAID", 1, true).unwrap().0);
    assert!(a.set_status(1042, "PAID", 1, false).unwrap().0);
    assert_eq!(db.committed().unwrap().statuses[0].status, "PAID");
}

#[test]
fn the_order_row_guard_passes_a_new_message_only() {
    let db = Database::open(None).unwrap();
    let a = db.connect().unwrap();
    assert!(a.guard_order_row(1042, "m-1").unwrap().0);
    assert!(!a.guard_order_row(1042, "m-1").unwrap().0);
    assert!(a.guard_order_row(1042, "m-2").unwrap().0);
    assert!(
        a.guard_order_row(1042, "m-1").unwrap().0,
        "only the last ID is kept"
    );
}

#[test]
fn sql_is_shown_with_its_values() {
    assert_eq!(
        render(
            INSERT_PAYMENT,
            &["1042".into(), "40".into(), quote("m-7f3")]
        ),
        "INSERT INTO payments (order_id, amount, message_id) VALUES (1042, 40, 'm-7f3')"
    );
}

#[test]
fn a_value_that_looks_like_a_placeholder_is_shown_as_it_is() {
    assert_eq!(
        render(
            TAKE_OVER_RECORD,
            &[quote("A/?3"), "?2".into(), quote("m-?1?2"), "7".into()]
        ),
        "UPDATE idempotency_records SET owner = 'A/?3', deadline = ?2 \
             WHERE message_id = 'm-?1?2' AND status = 'in_progress' AND deadline <= 7"
    );
    assert_eq!(render("?1 ?10 ?", &["a".into()]), "a ?10 ?");
}

#[test]
fn refuses_to_overwrite_a_foreign_file() {
    let dir = std::env::temp_dir().join(format!("idem-db-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let foreign = dir.join("foreign.db");
    std::fs::write(&foreign, b"not a database at all").unwrap();
    assert!(matches!(
        Database::open(Some(&foreign)),
        Err(DbError::File(DbFileError::NotOurs { .. }))
    ));
    let ours = dir.join("ours.db");
    drop(Database::open(Some(&ours)).unwrap());
    let again = Database::open(Some(&ours)).unwrap();
    assert!(again.committed().unwrap().payments.is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_reused_connection_comes_back_out_of_its_transaction() {
    let db = Database::open(None).unwrap();
    let a = db.connect().unwrap();
    a.begin().unwrap();
    a.insert_payment(1042, 40, "m-7f3").unwrap();
    drop(a);
    // The pool hands back the connection A had: nothing of its
    // transaction is left, and the write lock is free.
    let b = db.connect().unwrap();
    assert!(matches!(b.begin().unwrap(), Begin::Open(_)));
    assert!(b.own_view().unwrap().payments.is_empty());
    b.insert_payment(1043, 25, "m-9c2").unwrap();
    b.commit().unwrap();
    assert_eq!(db.committed().unwrap().payments[0].id, 1);
}

fn some_rows(db: &Database) -> Tables {
    let a = db.connect().unwrap();
    a.begin().unwrap();
    a.claim_message("m-7f3", 5).unwrap();
    a.insert_payment(1042, 40, "m-7f3").unwrap();
    a.insert_payment(1043, 25, "m-9c2").unwrap();
    a.claim_record("m-7f3", "A/rh-1", 5, 30).unwrap();
    a.complete_record("m-7f3", "A/rh-1", "ch_81").unwrap();
    a.guard_order_row(1042, "m-7f3").unwrap();
    a.save_offset(3).unwrap();
    a.set_status(1042, "PAID", 2, false).unwrap();
    a.commit().unwrap();
    db.committed().unwrap()
}

#[test]
fn a_restored_database_holds_the_same_rows_and_ids() {
    let from = Database::open(None).unwrap();
    let tables = some_rows(&from);
    let to = Database::open(None).unwrap();
    let other = Database::open(None).unwrap();
    let have = some_rows(&to);
    other.restore(&have).unwrap();
    to.restore_over(Some(&have), &Tables::default()).unwrap();
    assert_eq!(to.committed().unwrap(), Tables::default());
    for db in [&to, &other] {
        db.restore(&tables).unwrap();
        assert_eq!(db.committed().unwrap(), tables);
        // The next row gets the id the original's next row would get.
        let s = db.connect().unwrap();
        s.insert_payment(1044, 15, "m-8a1").unwrap();
        assert_eq!(db.committed().unwrap().payments[2].id, 3);
    }
    to.reset().unwrap();
    assert_eq!(to.committed().unwrap(), Tables::default());
}

#[test]
fn a_reused_connection_notes_only_what_its_new_session_committed() {
    let db = Database::open(None).unwrap();
    let a = db.connect().unwrap();
    a.begin().unwrap();
    a.insert_payment(1042, 40, "m-7f3").unwrap();
    // A crash: the connection goes idle, its transaction and its notes
    // of what it wrote gone with it.
    drop(a);
    let b = db.connect().unwrap();
    assert!(b.take_committed().is_none());
    // Outside a transaction the insert commits on its own.
    b.claim_message("m-9c2", 1).unwrap();
    let written = b.take_committed().expect("a committed write");
    assert!(!written.payments);
    assert_eq!(written.processed.iter().collect::<Vec<_>>(), ["m-9c2"]);
    assert!(b.take_committed().is_none());
    let fresh = db.fresh(&written, 0).unwrap();
    assert!(fresh.payments.is_empty());
    assert_eq!(fresh.processed.len(), 1);
    assert!(fresh.processed[0].1.is_some());
}
