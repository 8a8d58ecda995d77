#![forbid(unsafe_code)]
//! idem: the Idempotent Consumer pattern, simulated for real.

pub mod check;
pub mod cut_at_word;
pub mod cut_middle;
pub mod export;
pub mod harness;
pub mod learner;
pub mod levels;
pub mod output_file;
pub mod report;
pub mod scenario;
pub mod sim;
pub mod soak;
pub mod suggest;
pub mod terminal_text;
pub mod timeline;
pub mod tui;
