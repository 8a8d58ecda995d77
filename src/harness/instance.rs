//! One instance of the user's program (`A`, `B`): the process it runs now,
//! what it asked, which messages it holds, and how often it was started.

use super::process::Proc;
use super::protocol::Request;
use crate::sim::message::Payment;
use std::time::Instant;

/// Where an instance is between two of idem's decisions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum State {
    /// Not started yet: started when a message waits that no one asks for.
    Idle,
    /// Started; its hello has not come yet.
    Starting,
    /// Answered; idem waits for its next request.
    Running,
    /// Waiting for idem's answer to this request.
    Parked(Request),
    /// Silent while another holds the database's write lock: waiting for
    /// that lock, not working.
    Blocked,
    /// Told the queue is empty; it is to exit.
    Done,
}

/// A message an instance received and has not acked.
#[derive(Clone, Debug)]
pub struct Held {
    pub receipt: String,
    pub message: String,
    pub payment: Payment,
    pub delivery: u32,
    /// Why this delivery happened when it is not the first, newest first.
    pub cause: Vec<crate::sim::Cause>,
}

pub struct Instance {
    pub name: String,
    pub start: u32,
    pub proc: Option<Proc>,
    pub state: State,
    /// Requests answered, over all its starts: the fair order of service.
    pub served: u64,
    pub holding: Vec<Held>,
    /// Its lease was made to run out: served only when no one else can go on.
    pub held_back: bool,
    /// The step (1 is the first) at which its parked request was sent and
    /// held by a fault: where it is answered, the replay tells it as that
    /// request reaching idem, not as a second one sent.
    pub held_at: Option<usize>,
    /// The last charge number it used in this start.
    pub last_req: Option<u64>,
    /// When it was last answered or started: its silence is measured from here.
    pub since: Instant,
    /// What it was last answered, for a diagnosis of its silence.
    pub last_answer: String,
    /// The end of the stderr of its last process, once that has ended.
    pub last_stderr: Vec<String>,
    /// The start of a line its process wrote on stdout and has not ended.
    pub unfinished: Option<String>,
    /// When idem last asked the server about its backends' locks.
    pub probed: Option<Instant>,
}

impl Instance {
    pub fn label(&self) -> String {
        format!("{} (start {})", self.name, self.start)
    }

    /// The last lines of stderr of its process, or of the process it ran
    /// last when none runs now.
    pub fn stderr_tail(&mut self) -> Vec<String> {
        match self.proc.as_mut() {
            Some(p) => p.stderr_tail(super::diagnosis::STDERR_SHOWN),
            None => self.last_stderr.clone(),
        }
    }

    /// The message a request is about: a charge for a payment it holds, an
    /// ack of a receipt it holds.
    pub fn held_for(&self, request: &Request) -> Option<&Held> {
        match request {
            Request::Charge { order, amount, .. } => self
                .holding
                .iter()
                .rev()
                .find(|h| h.payment.order == *order && h.payment.amount == *amount),
            Request::Ack { receipt } => self.holding.iter().find(|h| &h.receipt == receipt),
            _ => None,
        }
    }
}
