//! A `Script` written back as a scenario file that `parse` reads into the
//! same script: for counterexamples the checker saves, and for a moment of
//! the simulator saved with its forks.

use super::question::Question;
use super::script::{Group, Saying, Script, ScriptStep};
use crate::sim::format_duration;
use crate::sim::world::{IdSource, Setup};
use std::collections::BTreeMap;
use std::fmt::Write;

/// The whole file, after `header` (comment lines, each starting `# `).
pub fn to_toml(s: &Script, header: &str) -> String {
    let mut out = String::new();
    for line in header.lines() {
        let _ = writeln!(out, "# {line}");
    }
    let _ = writeln!(out, "title = {}", quote(&s.title));
    let _ = writeln!(out, "summary = {}", quote(&s.summary));
    // The defaults are left out: a saved run reads as the user's own file,
    // not as one that claims a place among the built-in scenarios.
    if s.group != crate::scenario::Group::Failure {
        let _ = writeln!(out, "group = {}", quote(group(s.group)));
    }
    if let Some(origin) = s.origin.key() {
        let _ = writeln!(out, "origin = {}", quote(origin));
    }
    if s.order != 0 {
        let _ = writeln!(out, "order = {}", s.order);
    }
    if let Some(design) = &s.narrated_for {
        let _ = writeln!(out, "design = {}", quote(design));
    }
    if s.words_for_sqlite {
        let _ = writeln!(out, "engine = \"sqlite\"");
    }
    if let Some(step) = s.open_at {
        let _ = writeln!(out, "open_at = {step}");
    }
    let _ = writeln!(out, "intro = {}", quote(&s.intro));
    per_design(&mut out, "title_for", &s.title_for);
    per_design(&mut out, "intro_for", &s.intro_for);
    let _ = writeln!(out);
    setup(&mut out, &s.setup);
    for step in &s.steps {
        let _ = writeln!(out);
        chapter(&mut out, step);
    }
    for (name, e) in &s.expect {
        let _ = writeln!(out);
        let _ = writeln!(out, "[expect.{}]", quote(name));
        if let Some(total) = e.total {
            let _ = writeln!(out, "total = {total}");
        }
        if let Some(charges) = e.charges {
            let _ = writeln!(out, "charges = {charges}");
        }
        match e.outcomes.as_deref() {
            None => {}
            Some([one]) => {
                let _ = writeln!(out, "outcome = {}", quote(one.text()));
            }
            Some(all) => {
                let listed: Vec<String> = all.iter().map(|o| quote(o.text())).collect();
                let _ = writeln!(out, "outcome = [{}]", listed.join(", "));
            }
        }
    }
    out
}

fn group(g: Group) -> &'static str {
    match g {
        Group::Tour => "tour",
        Group::Failure => "failure",
        Group::Design => "design",
    }
}

fn per_design(out: &mut String, key: &str, map: &BTreeMap<String, String>) {
    if map.is_empty() {
        return;
    }
    let pairs: Vec<String> = map
        .iter()
        .map(|(k, v)| format!("{} = {}", quote(k), quote(v)))
        .collect();
    let _ = writeln!(out, "{key} = {{ {} }}", pairs.join(", "));
}

fn setup(out: &mut String, setup: &Setup) {
    let duration = |ms| quote(&format_duration(ms));
    let _ = writeln!(out, "[setup]");
    let _ = writeln!(out, "queue = {}", quote(&setup.queue));
    let _ = writeln!(out, "lease = {}", duration(setup.lease_ms));
    let _ = writeln!(out, "step = {}", duration(setup.step_ms));
    let _ = writeln!(out, "max_receives = {}", setup.max_receives);
    let consumers: Vec<String> = setup.consumers.iter().map(|c| quote(c)).collect();
    let _ = writeln!(out, "consumers = [{}]", consumers.join(", "));
    let _ = writeln!(out, "key_lifetime = {}", duration(setup.key_lifetime_ms));
    let _ = writeln!(out, "first_charge = {}", setup.first_charge);
    if !setup.declines.is_empty() {
        let declines: Vec<String> = setup.declines.iter().map(u32::to_string).collect();
        let _ = writeln!(out, "declines = [{}]", declines.join(", "));
    }
    let _ = writeln!(out, "require_key = {}", setup.require_key);
    if setup.dedup_window_ms > 0 {
        let _ = writeln!(out, "dedup_window = {}", duration(setup.dedup_window_ms));
    }
    let _ = writeln!(out, "cache_ttl = {}", duration(setup.cache_ttl_ms));
    let _ = writeln!(
        out,
        "record_timeout = {}",
        duration(setup.record_timeout_ms)
    );
    let source = match setup.id_source {
        IdSource::Producer => "producer",
        IdSource::Broker => "broker",
        IdSource::Content => "content",
    };
    let _ = writeln!(out, "id_source = {}", quote(source));
    let _ = writeln!(out, "ordered = {}", setup.ordered);
    let messages: Vec<String> = setup
        .messages
        .iter()
        .map(|m| match &m.status {
            Some(update) => format!(
                "{{ id = {}, order = {}, status = {}, version = {} }}",
                quote(&m.id),
                m.payment.order,
                quote(&update.status),
                update.version
            ),
            None => format!(
                "{{ id = {}, order = {}, amount = {} }}",
                quote(&m.id),
                m.payment.order,
                m.payment.amount
            ),
        })
        .collect();
    let _ = writeln!(out, "messages = [\n    {},\n]", messages.join(",\n    "));
}

fn chapter(out: &mut String, step: &ScriptStep) {
    let _ = writeln!(out, "[[steps]]");
    let _ = writeln!(out, "title = {}", quote(&step.title));
    per_design(out, "title_for", &step.title_for);
    if !step.narration.is_empty() {
        let _ = writeln!(out, "narration = {}", quote(&step.narration));
    }
    per_design(out, "narration_for", &step.narration_for);
    let actions: Vec<String> = step
        .actions
        .iter()
        .zip(&step.sayings)
        .enumerate()
        .map(|(i, (a, said))| {
            let asks = step.asks.get(i).map_or(&[][..], Vec::as_slice);
            if said.is_none() && asks.is_empty() {
                return quote(&a.text());
            }
            let mut table = format!("{{ do = {}", quote(&a.text()));
            if let Some(Saying { text, text_for, at }) = said {
                let _ = write!(table, ", say = {}", quote(text));
                if !text_for.is_empty() {
                    let _ = write!(table, ", say_for = {}", inline(text_for));
                }
                if !at.is_empty() {
                    let designs: Vec<String> = at
                        .iter()
                        .map(|(design, steps)| format!("{} = {}", quote(design), inline(steps)))
                        .collect();
                    let _ = write!(table, ", say_at = {{ {} }}", designs.join(", "));
                }
            }
            if !asks.is_empty() {
                let all: Vec<String> = asks.iter().map(question).collect();
                let _ = write!(table, ", ask = [{}]", all.join(", "));
            }
            table.push_str(" }");
            table
        })
        .collect();
    let _ = writeln!(out, "actions = [\n    {},\n]", actions.join(",\n    "));
}

/// `{ "a" = "...", "b" = "..." }`
fn inline(map: &BTreeMap<String, String>) -> String {
    let pairs: Vec<String> = map
        .iter()
        .map(|(k, v)| format!("{} = {}", quote(k), quote(v)))
        .collect();
    format!("{{ {} }}", pairs.join(", "))
}

fn question(q: &Question) -> String {
    let mut table = format!("{{ about = {}", quote(q.subject.about()));
    if let Some(m) = q.subject.message() {
        let _ = write!(table, ", message = {}", quote(m));
    }
    if let Some(text) = &q.text {
        let _ = write!(table, ", text = {}", quote(text));
    }
    let _ = write!(table, ", why = {}", quote(&q.why));
    if !q.why_for.is_empty() {
        let _ = write!(table, ", why_for = {}", inline(&q.why_for));
    }
    if !q.designs.is_empty() {
        let names: Vec<String> = q.designs.iter().map(|d| quote(d)).collect();
        let _ = write!(table, ", designs = [{}]", names.join(", "));
    }
    table.push_str(" }");
    table
}

/// A TOML basic string.
pub fn quote(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04X}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_built_in_scenario_reads_back_as_itself() {
        for script in super::super::load::builtins() {
            let text = to_toml(&script, "round trip");
            let again = super::super::parse(&script.name, &text)
                .unwrap_or_else(|e| panic!("{}: {e}\n{text}", script.name));
            assert_eq!(again, script, "{}", script.name);
        }
    }

    /// Who made a scenario is in its file, typed, whatever its name: a
    /// soak's story reads back as one, a file with another origin is refused.
    #[test]
    fn a_soak_story_says_so_in_its_file() {
        let mut script = super::super::load::builtins().remove(0);
        script.name = "anything.toml".into();
        script.origin = super::super::Origin::SoakStory;
        let text = to_toml(&script, "a soak's story");
        assert!(text.contains("\norigin = \"soak\"\n"), "{text}");
        let again = super::super::parse("anything.toml", &text).unwrap();
        assert_eq!(again.origin, super::super::Origin::SoakStory);
        let other = text.replace("origin = \"soak\"", "origin = \"elsewhere\"");
        let err = super::super::parse("anything.toml", &other).unwrap_err();
        assert!(
            err.to_string().contains("unknown origin `elsewhere`"),
            "{err}"
        );
    }

    #[test]
    fn quoted_strings_parse_back() {
        let text = "a \"quoted\" back\\slash\nnew line";
        let doc = format!("v = {}", quote(text));
        let value: toml::Table = toml::from_str(&doc).unwrap();
        assert_eq!(value["v"].as_str(), Some(text));
    }
}
