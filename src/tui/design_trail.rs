//! Where `m` left each design, so that `m` round the designs and back
//! comes home to the step it left.

/// The steps `m` left, one per design, while the screen is still where
/// `m` last landed (a step away and back counts as not moved):
/// the same moment maps many steps of one run onto one step of another,
/// so mapping back would land on a neighbour of the step left.
#[derive(Clone, Debug, Default)]
pub struct DesignTrail {
    /// Each design `m` left, and the step it left it at.
    left: Vec<(String, usize)>,
    /// The design and step `m` last arrived at: the trail holds while the
    /// screen is still there.
    arrived: Option<(String, usize)>,
}

impl DesignTrail {
    /// Leaving `design` at `pos`: returns where to arrive in `next`, if
    /// the trail has left `next` already and nothing moved since.
    pub fn leave(&mut self, design: &str, pos: usize, next: &str) -> Option<usize> {
        let here = Some((design.to_string(), pos));
        if self.arrived != here {
            self.left.clear();
        }
        if !self.left.iter().any(|(d, _)| d == design) {
            self.left.push((design.to_string(), pos));
        }
        self.left.iter().find(|(d, _)| d == next).map(|(_, p)| *p)
    }

    pub fn arrive(&mut self, design: &str, pos: usize) {
        self.arrived = Some((design.to_string(), pos));
    }
}
