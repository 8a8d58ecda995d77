//! The sandbox: faults a learner can inject at the step on screen. Each is a
//! move of the world, applied as a timeline fork.

use crate::sim::frame::MessagePhase;
use crate::sim::{Frame, Move};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FaultItem {
    pub label: String,
    pub mv: Move,
}

/// A slow step: longer than the default lease, so the message comes back.
pub const SLOW_MS: u64 = 40_000;

/// The menu for this frame: only faults that can do something here.
pub fn menu(frame: &Frame) -> Vec<FaultItem> {
    let mut items = Vec::new();
    for c in &frame.consumers {
        let name = &c.name;
        items.push(FaultItem {
            label: format!("step consumer {name} by hand"),
            mv: Move::Step {
                consumer: name.clone(),
            },
        });
    }
    for c in &frame.consumers {
        let name = &c.name;
        if c.status != crate::sim::consumer::Status::Crashed {
            items.push(FaultItem {
                label: format!("crash consumer {name} now"),
                mv: Move::Crash {
                    consumer: name.clone(),
                },
            });
        }
        items.push(FaultItem {
            label: format!("lose {name}'s next ack"),
            mv: Move::LoseAck {
                consumer: name.clone(),
            },
        });
        items.push(FaultItem {
            label: format!("lose the provider's next response to {name}"),
            mv: Move::LoseResponse {
                consumer: name.clone(),
            },
        });
        if c.status != crate::sim::consumer::Status::Crashed {
            items.push(FaultItem {
                label: format!("{name}'s next step takes 40s (a slow consumer)"),
                mv: Move::Slow {
                    consumer: name.clone(),
                    ms: SLOW_MS,
                },
            });
        }
    }
    let mut seen: Vec<&str> = Vec::new();
    for m in &frame.queue.messages {
        if m.phase == MessagePhase::InFlight {
            items.push(FaultItem {
                label: format!(
                    "expire the lease on {} now (held by {})",
                    m.message_id,
                    m.holder.as_deref().unwrap_or("?")
                ),
                mv: Move::ExpireLease {
                    message: m.message_id.clone(),
                },
            });
        }
    }
    for m in &frame.queue.messages {
        if !seen.contains(&m.message_id.as_str()) {
            seen.push(&m.message_id);
            items.push(FaultItem {
                label: format!("publish {} again (producer retry)", m.message_id),
                mv: Move::Publish {
                    message: m.message_id.clone(),
                },
            });
        }
    }
    items
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario;
    use crate::sim::Strategy;
    use crate::timeline::Timeline;

    #[test]
    fn menu_offers_lease_expiry_only_while_a_lease_is_held() {
        let script = scenario::find("tour-1").unwrap();
        let t = Timeline::build(&script, &Strategy::idempotent(), 0, &[]).unwrap();
        let expire = |f: &Frame| {
            menu(f)
                .iter()
                .any(|i| matches!(i.mv, Move::ExpireLease { .. }))
        };
        assert!(!expire(&t.frames[0]), "nothing is leased before the start");
        assert!(expire(&t.frames[1]), "A holds m-7f3 after receiving it");
        let m = menu(&t.frames[0]);
        assert!(m.iter().any(|i| i.mv
            == Move::Crash {
                consumer: "A".into()
            }));
        assert!(m.iter().any(|i| i.mv
            == Move::Slow {
                consumer: "A".into(),
                ms: SLOW_MS,
            }));
        assert!(m.iter().any(|i| i.mv
            == Move::Publish {
                message: "m-7f3".into()
            }));
    }
}
