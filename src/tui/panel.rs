//! The panels of the main screen: what focus, zoom, the layout and mouse
//! hits name.

/// The panels of the main screen, for focus and mouse hits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Panel {
    Broker,
    Service,
    Database,
    Provider,
    Narration,
    Sql,
    Events,
    Verdict,
}

impl Panel {
    pub const ALL: [Panel; 8] = [
        Panel::Broker,
        Panel::Service,
        Panel::Database,
        Panel::Provider,
        Panel::Narration,
        Panel::Sql,
        Panel::Events,
        Panel::Verdict,
    ];
}
