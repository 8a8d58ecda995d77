//! The raw shape of a scenario file, as serde reads it. Values that need
//! checking after parsing keep their span, so errors can point at them.

use serde::Deserialize;
use std::collections::BTreeMap;
use toml::Spanned;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawScenario {
    pub title: String,
    pub summary: String,
    #[serde(default)]
    pub intro: Option<String>,
    /// The intro for another design, where the main one is untrue for it.
    #[serde(default)]
    pub intro_for: BTreeMap<Spanned<String>, String>,
    /// The scenario's title for another design.
    #[serde(default)]
    pub title_for: BTreeMap<Spanned<String>, String>,
    #[serde(default)]
    pub group: Option<Spanned<String>>,
    /// Who made the file, when not a person: `"soak"`.
    #[serde(default)]
    pub origin: Option<Spanned<String>>,
    #[serde(default)]
    pub order: Option<u32>,
    /// The design the narration is written for.
    #[serde(default)]
    pub design: Option<Spanned<String>>,
    /// The engine the words are told for (`"sqlite"`), when they describe
    /// its locking; on another engine, words without their own version
    /// for it are marked as told for this one.
    #[serde(default)]
    pub engine: Option<Spanned<String>>,
    /// The step `idem play` opens at (a saved moment, as `e` writes it).
    #[serde(default)]
    pub open_at: Option<usize>,
    pub setup: Table<RawSetup>,
    #[serde(default)]
    pub steps: Vec<Table<RawStep>>,
    #[serde(default)]
    pub expect: BTreeMap<Spanned<String>, Table<RawExpectation>>,
}

/// A struct read from a TOML table only. Serde would also fill a derived
/// struct from an array, field by field, so that `["m-7f3", 1042, 40]`
/// passed for a message and `[40, 1, "correct"]` for an expectation.
/// An absent narration: empty, and nowhere in the file.
fn no_words() -> Spanned<String> {
    Spanned::new(0..0, String::new())
}

pub struct Table<T>(pub T);

impl<T> std::ops::Deref for Table<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Table<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> serde::de::Visitor<'de> for Visit<T> {
            type Value = Table<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a table")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<Table<T>, A::Error> {
                T::deserialize(serde::de::value::MapAccessDeserializer::new(map)).map(Table)
            }
        }
        d.deserialize_map(Visit(std::marker::PhantomData))
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSetup {
    #[serde(default)]
    pub queue: Option<Spanned<String>>,
    #[serde(default)]
    pub lease: Option<Spanned<String>>,
    #[serde(default)]
    pub step: Option<Spanned<String>>,
    #[serde(default)]
    pub max_receives: Option<Spanned<i64>>,
    #[serde(default)]
    pub consumers: Option<Spanned<Vec<Spanned<String>>>>,
    #[serde(default)]
    pub key_lifetime: Option<Spanned<String>>,
    #[serde(default)]
    pub first_charge: Option<Spanned<i64>>,
    #[serde(default)]
    pub declines: Vec<u32>,
    #[serde(default)]
    pub require_key: bool,
    #[serde(default)]
    pub dedup_window: Option<Spanned<String>>,
    #[serde(default)]
    pub cache_ttl: Option<Spanned<String>>,
    #[serde(default)]
    pub record_timeout: Option<Spanned<String>>,
    #[serde(default)]
    pub id_source: Option<Spanned<String>>,
    #[serde(default)]
    pub ordered: Option<bool>,
    pub messages: Spanned<Vec<Table<RawMessage>>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawMessage {
    pub id: Spanned<String>,
    /// Never missing once read: a file without one was told so, and the
    /// message is checked as one with a wrong order (`missing_key`).
    #[serde(default)]
    pub order: Option<Spanned<i64>>,
    #[serde(default)]
    pub amount: Option<Spanned<i64>>,
    #[serde(default)]
    pub status: Option<Spanned<String>>,
    #[serde(default)]
    pub version: Option<Spanned<i64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawStep {
    pub title: Spanned<String>,
    /// The chapter's opening words: what is already true when it starts.
    #[serde(default = "no_words")]
    pub narration: Spanned<String>,
    /// The same chapter told for another design, where it goes differently.
    #[serde(default)]
    pub narration_for: BTreeMap<Spanned<String>, String>,
    /// The chapter's title for another design, where the main one is untrue.
    #[serde(default)]
    pub title_for: BTreeMap<Spanned<String>, String>,
    pub actions: Spanned<Vec<Spanned<RawAction>>>,
}

/// An action: its text alone (`"wait 30s"`), or a table that also says
/// what it does, shown once it has happened:
/// `{ do = "step A", say = "...", say_for = { naive = "..." } }`.
pub struct RawAction {
    pub text: String,
    /// Where the table form's `do` value is written; the string form's is
    /// the action's own span.
    pub text_at: Option<std::ops::Range<usize>>,
    pub say: Option<String>,
    /// Keys spanned, as `narration_for`'s are: a misspelled design is
    /// pointed at where it is written, not at the action's `{`.
    pub say_for: BTreeMap<Spanned<String>, String>,
    /// Words told step by step: by design (as `say_for` names it), the
    /// words for each step of the handler that `run` goes through, by the
    /// step's keyword (`say_at = { "in-progress" = { receive = "…" } }`).
    pub say_at: BTreeMap<Spanned<String>, BTreeMap<Spanned<String>, String>>,
    /// Questions asked before the action runs, for predict mode.
    pub asks: Vec<RawAsk>,
    /// Written as a table (`{ do = ... }`): one needs `say` or `ask`, which
    /// the rules check, as a key of a wrong type taken out of it may have
    /// been the one.
    pub table: bool,
}

/// `ask = { about = "payments_total", why = "..." }`, or an array of them.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawAsk {
    pub about: Spanned<String>,
    #[serde(default)]
    pub message: Option<Spanned<String>>,
    #[serde(default)]
    pub text: Option<String>,
    #[serde(default)]
    pub why: Option<String>,
    #[serde(default)]
    pub why_for: BTreeMap<Spanned<String>, String>,
    #[serde(default)]
    pub designs: Option<Spanned<Vec<String>>>,
}

/// One table, or an array of tables.
pub struct OneOrMany<T>(pub Vec<T>);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for OneOrMany<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> serde::de::Visitor<'de> for Visit<T> {
            type Value = OneOrMany<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a table { about = \"...\", why = \"...\" }, or an array of them")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                map: A,
            ) -> Result<OneOrMany<T>, A::Error> {
                T::deserialize(serde::de::value::MapAccessDeserializer::new(map))
                    .map(|one| OneOrMany(vec![one]))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<OneOrMany<T>, A::Error> {
                let mut all = Vec::new();
                while let Some(Table(one)) = seq.next_element::<Table<T>>()? {
                    all.push(one);
                }
                Ok(OneOrMany(all))
            }
        }
        d.deserialize_any(Visit(std::marker::PhantomData))
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawToldAction {
    #[serde(rename = "do", default)]
    text: Option<Spanned<String>>,
    #[serde(default)]
    say: Option<String>,
    #[serde(default)]
    say_for: BTreeMap<Spanned<String>, String>,
    #[serde(default)]
    say_at: BTreeMap<Spanned<String>, BTreeMap<Spanned<String>, String>>,
    #[serde(default)]
    ask: Option<OneOrMany<RawAsk>>,
}

impl<'de> Deserialize<'de> for RawAction {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = RawAction;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str(
                    "an action such as \"run A\", or a table { do = \"run A\", say = \"...\" }",
                )
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<RawAction, E> {
                Ok(RawAction {
                    text: v.to_string(),
                    text_at: None,
                    say: None,
                    say_for: BTreeMap::new(),
                    say_at: BTreeMap::new(),
                    asks: Vec::new(),
                    table: false,
                })
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                map: A,
            ) -> Result<RawAction, A::Error> {
                use serde::de::Error;
                let told =
                    RawToldAction::deserialize(serde::de::value::MapAccessDeserializer::new(map))?;
                let Some(spanned) = told.text else {
                    return Err(A::Error::custom(
                        "an action table needs `do`, the action: { do = \"run A\", say = \"...\" }",
                    ));
                };
                let text_at = Some(spanned.span());
                let text = spanned.into_inner();
                let asks = told.ask.map(|a| a.0).unwrap_or_default();
                Ok(RawAction {
                    text,
                    text_at,
                    say: told.say,
                    say_for: told.say_for,
                    say_at: told.say_at,
                    asks,
                    table: true,
                })
            }
        }
        d.deserialize_any(Visit)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawExpectation {
    #[serde(default)]
    pub total: Option<Spanned<i64>>,
    #[serde(default)]
    pub charges: Option<Spanned<i64>>,
    #[serde(default)]
    pub outcome: Option<Spanned<RawOutcomes>>,
}

/// An expected outcome: one (`"charged twice"`), or the set a run ends
/// with (`["charged twice", "provider and database disagree"]`), each
/// entry with its own span so a bad one is pointed at.
pub enum RawOutcomes {
    One(String),
    Set(Vec<Spanned<String>>),
}

impl<'de> Deserialize<'de> for RawOutcomes {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = RawOutcomes;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str(
                    "an outcome such as \"charged twice\", or a list of them such as [\"charged twice\", \"provider and database disagree\"]",
                )
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<RawOutcomes, E> {
                Ok(RawOutcomes::One(v.to_string()))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<RawOutcomes, A::Error> {
                let mut all = Vec::new();
                while let Some(one) = seq.next_element::<Spanned<String>>()? {
                    all.push(one);
                }
                Ok(RawOutcomes::Set(all))
            }
        }
        d.deserialize_any(Visit)
    }
}
