//! `idem test`: idem's broker, provider and faults against a learner's own
//! consumer program, in any language (docs/consumer-protocol.md).
//!
//! The program runs as real processes that speak newline-delimited JSON
//! on stdin and stdout; its database is its own SQLite file. idem answers
//! one request at a time, lays each fault while the program waits for an
//! answer, and judges the money with the simulator's rules. Uses `sim`
//! (broker, provider, verdict, the program's database seen from outside);
//! nothing above it.

pub mod database;
pub mod diagnosis;
pub mod explore;
pub mod faults;
pub mod instance;
pub mod judge;
pub mod names;
pub mod process;
pub mod protocol;
pub mod repeats;
pub mod run;
pub mod schedule_file;
pub mod soak;
pub mod supervise;
pub mod table_moves;
pub mod text;
pub mod transcript;

pub use diagnosis::{Diagnosis, Trouble};
pub use faults::{Fault, Planned};
pub use run::{Config, RunReport};
