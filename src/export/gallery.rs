//! The pictures in `screenshots/`, each a moment of a built-in scenario.
//! `idem screenshots` writes them; a test redraws them and fails when one
//! no longer matches the committed file.

use super::shot::{Moment, Shot, View};
use crate::scenario;
use crate::sim::{SimError, Strategy};

pub struct Picture {
    /// The file name in `screenshots/`, without the extension.
    pub name: &'static str,
    pub caption: &'static str,
    scenario: &'static str,
    design: &'static str,
    moment: Moment,
    view: View,
}

pub const SIZE: (u16, u16) = (120, 40);

pub const PICTURES: [Picture; 9] = [
    Picture {
        name: "tour-naive-double-charge",
        caption: "Tour 1, naive: the ack was lost, m-7f3 came back, and the customer paid twice.",
        scenario: "tour-1",
        design: "naive",
        moment: Moment::End,
        view: View::Main,
    },
    Picture {
        name: "tour-idempotent-skip",
        caption: "Tour 1, idempotent: the same redelivery finds the unique key taken and is skipped.",
        scenario: "tour-1",
        design: "idempotent",
        moment: Moment::End,
        view: View::Main,
    },
    Picture {
        name: "race-b-blocked",
        caption: "Tour 3: B holds the redelivered message, and SQLite blocks it on A's write lock.",
        scenario: "tour-3",
        design: "idempotent",
        moment: Moment::Step(8),
        view: View::Main,
    },
    Picture {
        name: "race-b-skips",
        caption: "Tour 3: once A commits, B meets the unique key and skips the work.",
        scenario: "tour-3",
        design: "idempotent",
        moment: Moment::End,
        view: View::Main,
    },
    Picture {
        name: "provider-key-replay",
        caption: "Tour 4: the retry carries the same Idempotency-Key; the provider replays ch_81.",
        scenario: "tour-4",
        design: "idempotent",
        moment: Moment::Step(8),
        view: View::Main,
    },
    Picture {
        name: "compare",
        caption: "Compare: naive and idempotent side by side, at the step where they part ways.",
        scenario: "tour-1",
        design: "naive",
        moment: Moment::Verdict,
        view: View::Compare,
    },
    Picture {
        name: "presenter",
        caption: "The presenter view: the four figures of the lesson in large type, for the back row, and under them the provider's charges and the verdict's causes.",
        scenario: "tour-1",
        design: "naive",
        moment: Moment::End,
        view: View::Presenter,
    },
    Picture {
        name: "explorer",
        caption: "The explorer: idem check's table, and the shortest run that breaks a design.",
        scenario: "tour-1",
        design: "naive",
        moment: Moment::Start,
        view: View::Explorer,
    },
    Picture {
        name: "fault-menu",
        caption: "The fault menu: crash a consumer, lose an ack or a response, at any step.",
        scenario: "tour-1",
        design: "idempotent",
        moment: Moment::Step(1),
        view: View::Faults,
    },
];

impl Picture {
    pub fn shot(&self) -> Result<Shot, SimError> {
        let script = scenario::find(self.scenario).expect("a built-in scenario");
        let strategy = Strategy::by_name(self.design).expect("a built-in design");
        Ok(Shot {
            script,
            strategy,
            seed: 0,
            moment: self.moment,
            view: self.view,
            width: SIZE.0,
            height: SIZE.1,
            ascii: false,
            color: true,
        })
    }
}

/// The animated picture in `screenshots/`: the bug, then the fix. Tour 1
/// under the naive design (the lost ack, the redelivery, the second charge),
/// then the same story under the idempotent design (the redelivery meets
/// the unique key).
pub const TOUR_RECORDING: &str = "tour";
pub const TOUR_SIZE: (u16, u16) = (100, 30);
pub const TOUR_PACE_MS: u64 = 1_800;

pub fn tour_recording() -> Result<String, super::shot::ShotError> {
    let script = scenario::find("tour-1").expect("tour-1 is a built-in scenario");
    let mut frames = Vec::new();
    for design in ["naive", "idempotent"] {
        let strategy = Strategy::by_name(design).expect("a built-in design");
        frames.extend(super::record::frames(&Shot {
            script: script.clone(),
            strategy,
            seed: 0,
            moment: Moment::Start,
            view: View::Main,
            width: TOUR_SIZE.0,
            height: TOUR_SIZE.1,
            ascii: false,
            color: true,
        })?);
    }
    Ok(super::record::animated_svg(
        &frames,
        TOUR_PACE_MS,
        "idem · tour 1: the naive handler charges twice, then the idempotent one skips the redelivery",
    ))
}
