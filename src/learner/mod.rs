//! What idem remembers of one learner between sessions: where they left
//! off, the tour scenarios they finished, the levels they won and their
//! best predict scores. `progress` is the data, `store` the file it lives
//! in (the platform's state directory, or `IDEM_STATE_DIR`), `lock` what
//! lets several idem windows share it.

pub mod keeper;
mod keeping;
mod lock;
pub mod progress;
pub mod store;

pub use keeper::{Change, Keeper};
pub use keeping::Keeping;
pub use progress::{Further, Place, Progress, Score};
pub use store::{Loaded, Store};
