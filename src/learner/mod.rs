//! What idem remembers of one learner between sessions: where they left
//! off, the tour scenarios they finished, the levels they won and their
//! best predict scores. `progress` is the data, `store` the file it lives
//! in (the platform's state directory, or `IDEM_STATE_DIR`), `lock` what
//! lets several idem windows share it.

mod lock;
pub mod progress;
pub mod store;

pub use progress::{Place, Progress, Score};
pub use store::{Change, Keeper, Loaded, Store};
