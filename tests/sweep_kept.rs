//! The sweeps read screens drawn once for the whole test binary
//! (`common::sweep`): a kept screen must be the screen the app draws.

use crate::common::sweep::{SIZES, each_step};

#[test]
fn a_kept_screen_is_the_screen_the_app_draws_at_every_size() {
    for size in SIZES {
        let mut seen = 0;
        each_step(size, |step| {
            // Every run's first, middle and last steps: the screens of
            // the other steps come from the same loop.
            let last = step.app.timeline.frames.len() - 1;
            if ![0, last / 2, last].contains(&step.app.pos) {
                return;
            }
            seen += 1;
            let drawn = crate::common::render(step.app);
            assert_eq!(step.screen(), drawn, "{}", step.at());
        });
        assert!(seen > 100, "only {seen} screens at {size:?}");
    }
}
