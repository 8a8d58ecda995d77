//! `idem test --faults F`: the most faults in one explored schedule, a
//! number. `idem soak --faults` takes fault kinds and rates instead, so a
//! kind given here is answered with where kinds go in `idem test`
//! (`--soak N --rates KIND=RATE`), not with a parser's "invalid digit".

use idem::harness::explore::MAX_FAULTS;
use idem::harness::faults::Fault;

pub(super) fn parse(text: &str) -> Result<usize, String> {
    let takes = format!(
        "--faults takes a number: the most faults in one schedule, 0 to {MAX_FAULTS} (idem test explores every schedule within it)"
    );
    match text.trim().parse::<usize>() {
        Ok(n) if n <= MAX_FAULTS => Ok(n),
        Ok(_) => Err(format!("{takes}; for more faults, soak: --soak N")),
        Err(_) if names_a_kind(text) => Err(format!(
            "{takes}; `{text}` names fault kinds, which a soak takes with their rates: --soak N --rates {} (the kinds: {})",
            as_rates(text),
            Fault::ALL.map(Fault::name).join(", ")
        )),
        Err(_) => Err(takes),
    }
}

/// `lose-ack`, `lose-ack=1%`, `kill-after-ack,duplicate=2%`: any item
/// whose name before `=` is a fault kind.
fn names_a_kind(text: &str) -> bool {
    text.split(',')
        .filter_map(|item| item.split('=').next())
        .any(|name| Fault::parse(name.trim()).is_some())
}

/// The kinds given, as `--rates` takes them: each with its rate, 1% where
/// none was given (`lose-ack` is `lose-ack=1%`).
fn as_rates(text: &str) -> String {
    text.split(',')
        .map(|item| {
            let item = item.trim();
            if item.contains('=') {
                item.to_string()
            } else {
                format!("{item}=1%")
            }
        })
        .collect::<Vec<_>>()
        .join(",")
}
