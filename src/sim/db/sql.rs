//! Every SQL statement the simulator runs: the schema, the handlers'
//! statements, and the observer's reads and restores.

/// `PRAGMA application_id` of every database idem creates ("idem" in ASCII),
/// so that `--db` never overwrites somebody else's file.
pub const APPLICATION_ID: i32 = 0x6964_656d;

pub(super) const SCHEMA: &str = "
    CREATE TABLE processed_messages (
        message_id   TEXT PRIMARY KEY,
        processed_at INTEGER NOT NULL
    );
    CREATE TABLE idempotency_records (
        message_id TEXT PRIMARY KEY,
        status     TEXT NOT NULL CHECK (status IN ('in_progress', 'completed')),
        owner      TEXT NOT NULL,
        deadline   INTEGER NOT NULL,
        result     TEXT
    );
    CREATE TABLE orders (
        order_id        INTEGER PRIMARY KEY,
        last_message_id TEXT NOT NULL
    );
    CREATE TABLE consumer_offsets (
        partition   INTEGER PRIMARY KEY,
        last_offset INTEGER NOT NULL
    );
    CREATE TABLE order_status (
        order_id INTEGER PRIMARY KEY,
        status   TEXT NOT NULL,
        version  INTEGER NOT NULL
    );
    CREATE TABLE payments (
        id         INTEGER PRIMARY KEY,
        order_id   INTEGER NOT NULL,
        amount     INTEGER NOT NULL,
        message_id TEXT NOT NULL
    );
";

/// Taking over a `--db` file (`take_over.rs`). In exclusive locking mode
/// SQLite keeps every lock it gets until the mode is normal again and the
/// file is next read; `BEGIN EXCLUSIVE` gets the lock at once, or answers
/// `SQLITE_BUSY` (busy timeout 0) when another connection reads or writes.
pub(super) const HOLD_LOCKS: &str = "PRAGMA locking_mode = EXCLUSIVE";
pub(super) const BEGIN_EXCLUSIVE: &str = "BEGIN EXCLUSIVE";
pub(super) const READ_APPLICATION_ID: &str = "PRAGMA application_id";
/// With `SQLITE_DBCONFIG_RESET_DATABASE` on, empties the database: no
/// schema, no rows, no free pages.
pub(super) const VACUUM: &str = "VACUUM";
/// idem's databases use a rollback journal, whatever someone set since.
pub(super) const ROLLBACK_JOURNAL: &str = "PRAGMA journal_mode = DELETE";
pub(super) const RELEASE_LOCKS: &str = "PRAGMA locking_mode = NORMAL";
/// Any read: the one after `RELEASE_LOCKS` lets the locks go.
pub(super) const TOUCH: &str = "SELECT count(*) FROM sqlite_schema";

/// Empties every table of `SCHEMA`, for [`Database::reset`]. Row ids start
/// again at 1: no table uses AUTOINCREMENT, so nothing remembers old rows.
pub(super) const EMPTY_TABLES: [&str; 6] = [
    "DELETE FROM processed_messages",
    "DELETE FROM idempotency_records",
    "DELETE FROM orders",
    "DELETE FROM consumer_offsets",
    "DELETE FROM order_status",
    "DELETE FROM payments",
];

/// Puts back rows exactly as `read_tables` read them, ids and times
/// included, for [`Database::restore`].
pub(super) const RESTORE_PAYMENT: &str =
    "INSERT INTO payments (id, order_id, amount, message_id) VALUES (?1, ?2, ?3, ?4)";
pub(super) const RESTORE_PROCESSED: &str =
    "INSERT INTO processed_messages (message_id, processed_at) VALUES (?1, ?2)";
pub(super) const RESTORE_RECORD: &str = "INSERT INTO idempotency_records \
     (message_id, status, owner, deadline, result) VALUES (?1, ?2, ?3, ?4, ?5)";
pub(super) const RESTORE_ORDER: &str =
    "INSERT INTO orders (order_id, last_message_id) VALUES (?1, ?2)";
pub(super) const RESTORE_OFFSET: &str =
    "INSERT INTO consumer_offsets (partition, last_offset) VALUES (0, ?1)";
pub(super) const RESTORE_STATUS: &str =
    "INSERT INTO order_status (order_id, status, version) VALUES (?1, ?2, ?3)";

/// Prepared statements kept per connection: every statement in this file,
/// with room to spare, so that none is ever parsed twice on one connection
/// (rusqlite's default keeps 16 and evicts the rest).
pub(super) const STATEMENT_CACHE: usize = 64;

pub(super) const BEGIN: &str = "BEGIN IMMEDIATE";
pub(super) const COMMIT: &str = "COMMIT";
pub(super) const ROLLBACK: &str = "ROLLBACK";
pub(super) const CLAIM_MESSAGE: &str = "INSERT INTO processed_messages (message_id, processed_at) \
     VALUES (?1, ?2 /* ms */) ON CONFLICT DO NOTHING";
pub(super) const LOOK_UP_MESSAGE: &str = "SELECT 1 FROM processed_messages WHERE message_id = ?1";
pub(super) const PRUNE_PROCESSED: &str =
    "DELETE FROM processed_messages WHERE processed_at <= ?1 RETURNING message_id";
pub(super) const CLAIM_RECORD: &str = "INSERT INTO idempotency_records (message_id, status, owner, deadline) \
     VALUES (?1, 'in_progress', ?2, ?3) ON CONFLICT DO NOTHING";
pub(super) const TAKE_OVER_RECORD: &str = "UPDATE idempotency_records SET owner = ?1, deadline = ?2 \
     WHERE message_id = ?3 AND status = 'in_progress' AND deadline <= ?4";
pub(super) const READ_RECORD: &str =
    "SELECT status, owner, deadline, result FROM idempotency_records WHERE message_id = ?1";
pub(super) const COMPLETE_RECORD: &str = "UPDATE idempotency_records SET status = 'completed', result = ?1 \
     WHERE message_id = ?2 AND owner = ?3 AND status = 'in_progress'";
pub(super) const SELECT_RECORDS: &str = "SELECT message_id, status, owner, deadline, result FROM idempotency_records ORDER BY message_id";
pub(super) const GUARD_ORDER_ROW: &str = "INSERT INTO orders (order_id, last_message_id) VALUES (?1, ?2) \
     ON CONFLICT (order_id) DO UPDATE SET last_message_id = excluded.last_message_id \
     WHERE orders.last_message_id <> excluded.last_message_id";
pub(super) const READ_OFFSET: &str = "SELECT last_offset FROM consumer_offsets WHERE partition = 0";
pub(super) const SAVE_OFFSET: &str = "INSERT INTO consumer_offsets (partition, last_offset) VALUES (0, ?1) \
     ON CONFLICT (partition) DO UPDATE SET last_offset = excluded.last_offset";
pub(super) const SET_STATUS: &str = "INSERT INTO order_status (order_id, status, version) VALUES (?1, ?2, ?3) \
     ON CONFLICT (order_id) DO UPDATE SET status = excluded.status, version = excluded.version";
pub(super) const SET_STATUS_IF_NEWER: &str = "INSERT INTO order_status (order_id, status, version) \
     VALUES (?1, ?2, ?3) ON CONFLICT (order_id) DO UPDATE \
     SET status = excluded.status, version = excluded.version \
     WHERE excluded.version > order_status.version";
pub(super) const SELECT_STATUSES: &str =
    "SELECT order_id, status, version FROM order_status ORDER BY order_id";
pub(super) const SELECT_ORDERS: &str =
    "SELECT order_id, last_message_id FROM orders ORDER BY order_id";
pub(super) const INSERT_PAYMENT: &str =
    "INSERT INTO payments (order_id, amount, message_id) VALUES (?1, ?2, ?3)";
pub(super) const SELECT_PAYMENTS: &str =
    "SELECT id, order_id, amount, message_id FROM payments ORDER BY id";
pub(super) const SELECT_PROCESSED: &str =
    "SELECT message_id, processed_at FROM processed_messages ORDER BY processed_at, message_id";
// The reads that keep the world's copy of the committed tables current
// after a commit: only the rows the transaction wrote, so a commit costs
// the same in a table of ten rows or ten thousand.
pub(super) const SELECT_PAYMENTS_AFTER: &str =
    "SELECT id, order_id, amount, message_id FROM payments WHERE id > ?1 ORDER BY id";
pub(super) const SELECT_PROCESSED_ROW: &str =
    "SELECT message_id, processed_at FROM processed_messages WHERE message_id = ?1";
pub(super) const SELECT_RECORD_ROW: &str = "SELECT message_id, status, owner, deadline, result FROM idempotency_records WHERE message_id = ?1";
pub(super) const SELECT_ORDER_ROW: &str =
    "SELECT order_id, last_message_id FROM orders WHERE order_id = ?1";
pub(super) const SELECT_STATUS_ROW: &str =
    "SELECT order_id, status, version FROM order_status WHERE order_id = ?1";

/// The message an order's row remembers, read before the guard writes it.
pub(super) const READ_ORDER_ROW: &str = "SELECT last_message_id FROM orders WHERE order_id = ?1";
/// The database's own figures, for a long run's books.
pub(super) const TOTALS: &str = "SELECT (SELECT COUNT(*) FROM processed_messages), \
                                        (SELECT COALESCE(SUM(amount), 0) FROM payments)";
pub(super) const PAGE_COUNT: &str = "PRAGMA page_count";
pub(super) const PAGE_SIZE: &str = "PRAGMA page_size";
