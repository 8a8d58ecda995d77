//! What the user (or the clock) asks for. Terminal events become actions
//! in `input` (keys through the key table, `keys`); `update` gives them
//! meaning.

use super::explorer::Explored;
use super::levels::Proved;

#[derive(Clone, Debug)]
pub enum Action {
    Next,
    Prev,
    NextChapter,
    PrevChapter,
    First,
    Last,
    PlayPause,
    Faster,
    Slower,
    ToggleMode,
    Compare,
    /// The design on screen on SQLite and on PostgreSQL side by side, or back.
    CompareEngines,
    Picker,
    Faults,
    FirstViolation,
    /// Open the explorer (the checker's table), or close it.
    Explore,
    /// The checker finished (from the terminal layer, or a test).
    ExploreDone(Explored),
    /// Save this moment: the screen as pictures, the run as a scenario.
    Export,
    /// The level screen ("build the handler yourself"), or back.
    Levels,
    /// The prover's answer about a level's handler.
    Proved(Proved),
    /// On the level screen: remove the selected step.
    Remove,
    /// On the level screen: move the selected step up / down.
    MoveUp,
    MoveDown,
    /// On the level screen: back to the level's starting handler.
    Reset,
    /// The files an export wrote, or why it could not.
    Exported(Result<Vec<String>, String>),
    Help,
    FocusNext,
    FocusPrev,
    Zoom,
    /// The verdict with its whole chain of causes, enlarged; again, back.
    Why,
    /// The presenter view, or back.
    Presenter,
    /// Predict mode on or off: questions before the actions that ask them.
    Predict,
    /// Backspace: a typed answer loses its last digit.
    Backspace,
    Up,
    Down,
    Enter,
    /// Esc: close what is open; it never quits.
    Back,
    /// A number key, for the menus.
    Digit(u8),
    /// Ctrl-C: quit from anywhere.
    Quit,
    /// `q`: quit from the main screen; over a menu it only closes the menu,
    /// so a `q` meant for the menu never ends the session.
    QuitKey,
    Click {
        x: u16,
        y: u16,
    },
    ScrollUp,
    ScrollDown,
    Resize {
        width: u16,
        height: u16,
    },
    /// Time passed while something moves.
    Tick {
        ms: u64,
    },
}
