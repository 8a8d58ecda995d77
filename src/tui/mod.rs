//! The interactive simulator: The Elm Architecture. `App` holds the state,
//! `Action`s come from keys, mouse and ticks, `update` changes the state,
//! `view` draws it (`impl Widget for &App`), and `terminal` is the only
//! place that touches the real terminal or the clock.

pub mod action;
pub mod animation;
pub mod app;
pub mod compare;
pub mod compare_engines;
pub mod compare_section;
pub mod design_runs;
pub mod design_trail;
pub mod explorer;
pub mod faults;
pub mod forms;
pub mod input;
pub mod keep;
pub mod key_list;
pub mod keys;
pub mod layout;
pub mod levels;
pub mod measure;
pub mod overlay;
pub mod panel;
pub mod parting;
pub mod predict;
pub mod replay;
pub mod replay_note;
pub mod reveal;
pub mod reveal_subject;
pub mod run_forms;
#[cfg(unix)]
pub mod signals;
pub mod soak;
pub mod terminal;
pub mod theme;
pub mod update;
pub mod view;
pub mod why_from;

pub use action::Action;
pub use app::{App, Effect, Options};
pub use update::update;
