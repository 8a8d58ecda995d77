#![forbid(unsafe_code)]
//! idem: the Idempotent Consumer pattern, simulated for real.

pub mod sim;
