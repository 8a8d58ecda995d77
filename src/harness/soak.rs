//! Soak: many payments through the program, faults drawn at each point
//! by rate from a seeded generator (same seed, same schedule, same run),
//! or the preset that has the producer publish every message twice.

use super::faults::{Fault, FaultSource, Point};
use super::protocol::RequestKind;
use crate::sim::message::Message;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::{BTreeMap, BTreeSet};

/// Parts per million: whole numbers, the same on every platform.
pub const MILLION: u32 = 1_000_000;

/// How often each fault falls, per point where it can fall.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rates {
    pub ppm: BTreeMap<Fault, u32>,
    /// Every message is published a second time while its first copy is
    /// worked on.
    pub twice: bool,
}

/// The default: every fault rare, as `idem soak`'s are.
pub const DEFAULT_RATES: &str = "kill-before-charge=0.2%,lose-response=0.2%,kill-after-charge=0.2%,lose-ack=0.5%,kill-after-ack=0.2%,expire-lease=0.2%,duplicate=0.5%";

impl Rates {
    /// `kill-after-charge=1%,lose-ack=0.5%`, `none`, or `twice` (every
    /// message delivered twice), alone or beside rates.
    pub fn parse(text: &str) -> Result<Rates, String> {
        let mut rates = Rates::default();
        let text = text.trim();
        if text == "none" || text.is_empty() {
            return Ok(rates);
        }
        for (i, part) in text.split(',').enumerate() {
            let part = part.trim();
            let at = format!("--rates, item {} (`{part}`)", i + 1);
            if part == "twice" {
                rates.twice = true;
                continue;
            }
            let Some((name, value)) = part.split_once('=') else {
                return Err(format!(
                    "{at}: write FAULT=RATE, as in `kill-after-charge=1%`, or `twice`; the faults are {}",
                    names()
                ));
            };
            let Some(fault) = Fault::parse(name.trim()) else {
                return Err(format!(
                    "{at}: `{}` is not a fault{}; the faults are {}",
                    name.trim(),
                    crate::suggest::did_you_mean(name.trim(), Fault::ALL.map(Fault::name)),
                    names()
                ));
            };
            if rates.ppm.contains_key(&fault) {
                return Err(format!("{at}: {} is given twice", fault.name()));
            }
            rates.ppm.insert(
                fault,
                parse_percent(value.trim()).map_err(|e| format!("{at}: {e}"))?,
            );
        }
        Ok(rates)
    }
}

fn names() -> String {
    Fault::ALL.map(Fault::name).join(", ")
}

/// `0.5%` as parts per million, exactly (no floats), at most 100%.
fn parse_percent(text: &str) -> Result<u32, String> {
    let bad = || format!("`{text}` is not a rate (write 0.5%, at most 100%)");
    let number = text.strip_suffix('%').ok_or_else(bad)?;
    let (whole, frac) = number.split_once('.').unwrap_or((number, ""));
    if whole.is_empty()
        || whole.len() > 3
        || frac.len() > 4
        || !whole
            .chars()
            .chain(frac.chars())
            .all(|c| c.is_ascii_digit())
    {
        return Err(bad());
    }
    let mut ppm: u32 = whole.parse::<u32>().map_err(|_| bad())? * 10_000;
    let mut unit = 10_000;
    for d in frac.chars() {
        unit /= 10;
        ppm += d.to_digit(10).unwrap_or(0) * unit;
    }
    if ppm > MILLION {
        return Err(format!("`{text}` is more than 100%"));
    }
    Ok(ppm)
}

/// The faults of a soak: drawn at each point from a generator seeded once.
pub struct Drawn {
    rng: ChaCha8Rng,
    rates: Rates,
    published_twice: BTreeSet<String>,
    /// Faults laid, per kind.
    pub laid: BTreeMap<Fault, u64>,
}

impl Drawn {
    pub fn new(rates: Rates, seed: u64) -> Self {
        Drawn {
            rng: ChaCha8Rng::seed_from_u64(seed),
            rates,
            published_twice: BTreeSet::new(),
            laid: BTreeMap::new(),
        }
    }
}

impl FaultSource for Drawn {
    fn at(&mut self, point: &Point) -> Option<Fault> {
        let pick = self.pick(point);
        if let Some(f) = pick {
            *self.laid.entry(f).or_default() += 1;
        }
        pick
    }
}

impl Drawn {
    fn pick(&mut self, point: &Point) -> Option<Fault> {
        if self.rates.twice
            && point.kind == RequestKind::Charge
            && point.faults.contains(&Fault::Duplicate)
            && let Some(m) = &point.message
            && self.published_twice.insert(m.clone())
        {
            return Some(Fault::Duplicate);
        }
        // One draw per fault that can fall here, in a fixed order, so the
        // draws depend only on the run's points.
        let mut chosen = None;
        for fault in &point.faults {
            let ppm = self.rates.ppm.get(fault).copied().unwrap_or(0);
            if ppm == 0 {
                continue;
            }
            let roll = self.rng.random_range(0..MILLION);
            if chosen.is_none() && roll < ppm {
                chosen = Some(*fault);
            }
        }
        chosen
    }
}

/// `n` payments with amounts drawn from a seeded generator.
pub fn messages(n: u64, seed: u64) -> Vec<Message> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x0005_eed0_fa11);
    const AMOUNTS: [u32; 7] = [5, 12, 20, 40, 75, 120, 250];
    (0..n)
        .map(|k| {
            Message::payment(
                &format!("m-{}", k + 1),
                10_000 + k as u32,
                AMOUNTS[rng.random_range(0..AMOUNTS.len())],
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_parse_exactly_and_say_what_is_wrong() {
        let r = Rates::parse("kill-after-charge=1%,lose-ack=0.25%,twice").unwrap();
        assert_eq!(r.ppm[&Fault::KillAfterCharge], 10_000);
        assert_eq!(r.ppm[&Fault::LoseAck], 2_500);
        assert!(r.twice);
        assert!(Rates::parse("kill=1%").unwrap_err().contains("not a fault"));
        assert!(
            Rates::parse("lose-ack=101%")
                .unwrap_err()
                .contains("more than 100%")
        );
        assert!(
            Rates::parse("lose-ack=1")
                .unwrap_err()
                .contains("not a rate")
        );
        assert!(Rates::parse(DEFAULT_RATES).is_ok());
    }
}
