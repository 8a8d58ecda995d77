//! The PostgreSQL engine against a real server. Where none answers, each
//! test says so in one line and passes.

use super::*;

/// The server the tests use: `IDEM_TEST_PG`, or the local one.
pub(crate) fn test_url() -> PgUrl {
    std::env::var("IDEM_TEST_PG")
        .unwrap_or_else(|_| "postgres://root@127.0.0.1:5432/test".into())
        .parse()
        .expect("IDEM_TEST_PG is a postgres:// address")
}

fn open() -> Option<Database> {
    match Database::postgres(&test_url()) {
        Ok(db) => Some(db),
        Err(e) => {
            eprintln!("skipped: no PostgreSQL server for this test ({e})");
            None
        }
    }
}

fn pid(s: &Session) -> i32 {
    s.backend_pid().unwrap()
}

#[test]
fn the_second_insert_waits_for_the_first_transaction_then_sees_its_commit() {
    let Some(db) = open() else { return };
    let a = db.connect().unwrap();
    let b = db.connect().unwrap();
    assert!(matches!(a.begin().unwrap(), Begin::Open(_)));
    assert!(a.claim_message("m-7f3", 0).unwrap().first_time);
    // Both begin: PostgreSQL has no database-wide write lock.
    assert!(matches!(b.begin().unwrap(), Begin::Open(_)));
    match b.claim_message("m-7f3", 1) {
        Err(DbError::Waiting { blockers }) => assert_eq!(blockers, vec![pid(&a)]),
        other => panic!(
            "B's insert should wait on A, got {:?}",
            other.map(|c| c.ran)
        ),
    }
    assert!(b.waiting());
    // Asked again while A is still open, it still waits.
    assert!(matches!(
        b.claim_message("m-7f3", 1),
        Err(DbError::Waiting { .. })
    ));
    a.commit().unwrap();
    let claim = b.claim_message("m-7f3", 1).unwrap();
    assert!(!claim.first_time, "A committed: B's insert finds the row");
    assert_eq!(
        claim.ran.result,
        "0 rows: conflict, message_id already handled"
    );
    assert!(
        claim
            .ran
            .sql
            .contains("VALUES ('m-7f3', 1 /* ms */) ON CONFLICT DO NOTHING")
    );
    b.commit().unwrap();
    assert_eq!(db.committed().unwrap().processed.len(), 1);
}

#[test]
fn a_rollback_or_a_crash_lets_the_waiting_insert_go_ahead() {
    let Some(db) = open() else { return };
    for crash in [false, true] {
        db.reset().unwrap();
        let a = db.connect().unwrap();
        let b = db.connect().unwrap();
        a.begin().unwrap();
        a.claim_message("m-7f3", 0).unwrap();
        a.insert_payment(1042, 40, "m-7f3").unwrap();
        assert_eq!(a.own_view().unwrap().payments.len(), 1);
        b.begin().unwrap();
        assert!(matches!(
            b.claim_message("m-7f3", 1),
            Err(DbError::Waiting { .. })
        ));
        if crash {
            drop(a);
        } else {
            a.rollback().unwrap();
        }
        assert!(b.claim_message("m-7f3", 1).unwrap().first_time);
        b.insert_payment(1042, 40, "m-7f3").unwrap();
        b.commit().unwrap();
        let committed = db.committed().unwrap();
        assert_eq!(committed.processed.len(), 1, "crash {crash}");
        assert_eq!(committed.payments.len(), 1, "crash {crash}");
        assert_eq!(db.totals().unwrap(), (1, 40));
    }
}

#[test]
fn a_restored_database_holds_what_it_was_given_and_its_schema_goes_with_it() {
    let Some(db) = open() else { return };
    let a = db.connect().unwrap();
    a.begin().unwrap();
    a.claim_message("m-1", 5).unwrap();
    a.insert_payment(1042, 40, "m-1").unwrap();
    a.guard_order_row(1042, "m-1").unwrap();
    a.set_status(1042, "PAID", 1, true).unwrap();
    a.save_offset(3).unwrap();
    a.claim_record("m-1", "A", 5, 30).unwrap();
    a.commit().unwrap();
    let tables = db.committed().unwrap();
    assert_eq!(tables.payments[0].id, 1);
    let other = Database::postgres(&test_url()).unwrap();
    other.restore(&tables).unwrap();
    assert_eq!(other.committed().unwrap(), tables);
    // The next payment follows the restored ones, as on SQLite.
    let b = other.connect().unwrap();
    b.insert_payment(1043, 25, "m-2").unwrap();
    assert_eq!(other.committed().unwrap().payments[1].id, 2);
    let Database::Postgres(pg) = &other else {
        unreachable!()
    };
    let schema = pg.schema().to_string();
    drop(b);
    drop(other);
    let mut check = pg_connect::connect(&test_url(), None).unwrap();
    let left = check
        .query("SELECT 1 FROM pg_namespace WHERE nspname = $1", &[&schema])
        .unwrap();
    assert!(left.is_empty(), "{schema} left behind");
}

#[test]
fn unreachable_servers_and_wrong_users_get_one_line_without_the_password() {
    for (url, says) in [
        (
            "postgres://root:hunter2@127.0.0.1:1/test",
            "cannot reach the PostgreSQL server",
        ),
        (
            "postgres://no_such_user_idem:hunter2@127.0.0.1:5432/test",
            "refused user no_such_user_idem",
        ),
        (
            "postgres://root:hunter2@127.0.0.1:5432/no_such_db_idem",
            "no database no_such_db_idem",
        ),
    ] {
        let url: PgUrl = url.parse().unwrap();
        let err = match Database::postgres(&url) {
            Ok(_) => panic!("{url} opened"),
            Err(e) => e.to_string(),
        };
        if says != "cannot reach the PostgreSQL server" && err.contains("cannot reach") {
            eprintln!("skipped: no PostgreSQL server for this test ({err})");
            continue;
        }
        assert!(err.contains(says), "{err}");
        assert!(!err.contains("hunter2"), "{err}");
        assert!(!err.contains('\n'), "{err}");
    }
}
