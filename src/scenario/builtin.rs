//! The scenarios that ship inside the binary.

/// (name, file text), in the order `idem list` shows them.
pub const BUILTIN: &[(&str, &str)] = &[
    ("tour-1", include_str!("../../scenarios/tour-1.toml")),
    ("tour-2", include_str!("../../scenarios/tour-2.toml")),
    ("tour-3", include_str!("../../scenarios/tour-3.toml")),
    ("tour-4", include_str!("../../scenarios/tour-4.toml")),
];

pub fn names() -> Vec<&'static str> {
    BUILTIN.iter().map(|(name, _)| *name).collect()
}
