//! `--faults crash=0.5%,lose-ack=1%,...`: how often each fault hits a soak.
//! A rate is the chance per published message that the fault fires once
//! while that message is in the system, so `crash=1%` over 10,000 messages
//! is about 100 crashes.

use serde::Serialize;
use std::fmt;

/// The kinds of fault a soak injects, in the words `--faults` uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FaultKind {
    /// A consumer process dies; its open transaction rolls back, its lease runs out.
    Crash,
    /// The network drops a consumer's next ack.
    LoseAck,
    /// The provider's next response to a consumer is lost; it calls again.
    LoseResponse,
    /// A consumer's next step takes longer than a lease.
    Slow,
    /// The producer publishes a message again, later (a publish retry).
    Republish,
    /// The lease on the message a consumer holds runs out at once.
    Expire,
}

impl FaultKind {
    pub const ALL: [FaultKind; 6] = [
        FaultKind::Crash,
        FaultKind::LoseAck,
        FaultKind::LoseResponse,
        FaultKind::Slow,
        FaultKind::Republish,
        FaultKind::Expire,
    ];

    pub fn name(self) -> &'static str {
        match self {
            FaultKind::Crash => "crash",
            FaultKind::LoseAck => "lose-ack",
            FaultKind::LoseResponse => "lose-response",
            FaultKind::Slow => "slow",
            FaultKind::Republish => "republish",
            FaultKind::Expire => "expire",
        }
    }
}

impl FaultKind {
    /// The fault as the rest of idem names it (the simulator's buttons,
    /// `idem check`'s bounds, the levels): `lost ack`, not the flag's
    /// `lose-ack`, for a report a student reads.
    pub fn words(self) -> &'static str {
        match self {
            FaultKind::Crash => "crash",
            FaultKind::LoseAck => "lost ack",
            FaultKind::LoseResponse => "lost response",
            FaultKind::Slow => "slow consumer",
            FaultKind::Republish => "producer retry",
            FaultKind::Expire => "expired lease",
        }
    }
}

impl fmt::Display for FaultKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Parts per million: whole numbers, so that a schedule never depends on
/// how a platform rounds a float.
pub const MILLION: u32 = 1_000_000;

/// One rate per fault kind, in parts per million of published messages.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FaultRates {
    ppm: [u32; 6],
}

impl FaultRates {
    /// No faults at all.
    pub fn none() -> Self {
        FaultRates { ppm: [0; 6] }
    }

    pub fn get(&self, kind: FaultKind) -> u32 {
        self.ppm[kind as usize]
    }

    pub fn set(&mut self, kind: FaultKind, ppm: u32) {
        self.ppm[kind as usize] = ppm.min(MILLION);
    }

    /// `crash=0.5%,lose-ack=1%`; kinds not named are off. `none` turns all off.
    pub fn parse(text: &str) -> Result<Self, String> {
        let mut rates = FaultRates::none();
        let text = text.trim();
        if text == "none" || text.is_empty() {
            return Ok(rates);
        }
        let mut named: Vec<FaultKind> = Vec::new();
        for (i, part) in text.split(',').enumerate() {
            let part = part.trim();
            let at = format!("--faults, item {} (`{part}`)", i + 1);
            let Some((name, value)) = part.split_once('=') else {
                return Err(format!(
                    "{at}: write KIND=RATE, as in `crash=0.5%`; the kinds are {}",
                    kinds()
                ));
            };
            let name = name.trim();
            let Some(kind) = FaultKind::ALL.into_iter().find(|k| k.name() == name) else {
                return Err(format!(
                    "{at}: `{name}` is not a fault kind{}; the kinds are {}",
                    crate::suggest::did_you_mean(name, FaultKind::ALL.map(FaultKind::name)),
                    kinds()
                ));
            };
            if named.contains(&kind) {
                return Err(format!("{at}: {kind} is given twice"));
            }
            named.push(kind);
            rates.set(
                kind,
                parse_rate(value.trim()).map_err(|e| format!("{at}: {e}"))?,
            );
        }
        Ok(rates)
    }
}

impl Default for FaultRates {
    /// The rates the issue names: every kind on, each rare.
    fn default() -> Self {
        FaultRates::parse(DEFAULT).expect("the default rates parse")
    }
}

/// Every kind on, at rates a busy production system might see.
pub const DEFAULT: &str =
    "crash=0.5%,lose-ack=1%,lose-response=0.5%,slow=2%,republish=1%,expire=0.5%";

impl fmt::Display for FaultRates {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let on: Vec<String> = FaultKind::ALL
            .into_iter()
            .filter(|k| self.get(*k) > 0)
            .map(|k| format!("{k}={}", percent(self.get(k))))
            .collect();
        if on.is_empty() {
            f.write_str("none")
        } else {
            f.write_str(&on.join(","))
        }
    }
}

impl FaultRates {
    /// The rates in words, each kind that is on: `crash 0.5%, lost ack
    /// 1%`, or `none`.
    pub fn words(&self) -> String {
        let on: Vec<String> = FaultKind::ALL
            .into_iter()
            .filter(|k| self.get(*k) > 0)
            .map(|k| format!("{} {}", k.words(), percent(self.get(k))))
            .collect();
        if on.is_empty() {
            "none".to_string()
        } else {
            on.join(", ")
        }
    }
}

fn kinds() -> String {
    FaultKind::ALL.map(FaultKind::name).join(", ")
}

/// `0.5%`, `2%` or a fraction such as `0.005`, at most 100%.
pub fn parse_rate(text: &str) -> Result<u32, String> {
    let (number, scale) = match text.strip_suffix('%') {
        Some(n) => (n.trim(), 10_000u64),
        None => (text, MILLION as u64),
    };
    let bad = || format!("`{text}` is not a rate (write 0.5% or 0.005, at most 100%)");
    let (whole, frac) = number.split_once('.').unwrap_or((number, ""));
    if whole.is_empty() && frac.is_empty()
        || !whole.chars().all(|c| c.is_ascii_digit())
        || !frac.chars().all(|c| c.is_ascii_digit())
        || whole.len() > 7
    {
        return Err(bad());
    }
    // Exact decimal arithmetic: the digits past a part per million are dropped.
    let mut ppm = whole.parse::<u64>().unwrap_or(0) * scale;
    let mut unit = scale;
    for d in frac.chars().take(12) {
        unit /= 10;
        ppm += u64::from(d.to_digit(10).unwrap_or(0)) * unit;
    }
    if ppm > u64::from(MILLION) {
        return Err(format!("`{text}` is more than 100%"));
    }
    Ok(ppm as u32)
}

/// Parts per million as a percentage: `0.5%`.
pub fn percent(ppm: u32) -> String {
    let whole = ppm / 10_000;
    let rest = ppm % 10_000;
    if rest == 0 {
        format!("{whole}%")
    } else {
        let digits = format!("{rest:04}");
        format!("{whole}.{}%", digits.trim_end_matches('0'))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_parse_as_percentages_or_fractions() {
        let rates = FaultRates::parse("crash=0.5%, lose-ack=0.01,slow=100%").unwrap();
        assert_eq!(rates.get(FaultKind::Crash), 5_000);
        assert_eq!(rates.get(FaultKind::LoseAck), 10_000);
        assert_eq!(rates.get(FaultKind::Slow), MILLION);
        assert_eq!(rates.get(FaultKind::Expire), 0);
        assert_eq!(rates.to_string(), "crash=0.5%,lose-ack=1%,slow=100%");
    }

    #[test]
    fn the_default_turns_every_kind_on_and_reads_back() {
        let rates = FaultRates::default();
        assert!(FaultKind::ALL.iter().all(|k| rates.get(*k) > 0));
        assert_eq!(rates.to_string(), DEFAULT);
        assert_eq!(FaultRates::parse("none").unwrap(), FaultRates::none());
    }

    #[test]
    fn bad_rates_say_what_and_where() {
        let cases = [
            (
                "crahs=1%",
                "item 1 (`crahs=1%`): `crahs` is not a fault kind (did you mean `crash`?)",
            ),
            (
                "crash=1%,crash=2%",
                "item 2 (`crash=2%`): crash is given twice",
            ),
            ("crash", "item 1 (`crash`): write KIND=RATE"),
            ("slow=2x", "`2x` is not a rate"),
            ("slow=-1%", "`-1%` is not a rate"),
            ("slow=150%", "`150%` is more than 100%"),
            ("slow=.", "`.` is not a rate"),
        ];
        for (text, words) in cases {
            let err = FaultRates::parse(text).unwrap_err();
            assert!(err.contains(words), "{text}: {err}");
        }
    }
}
