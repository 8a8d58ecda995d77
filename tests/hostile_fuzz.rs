//! Safe with any input: built-in scenario files, mangled at random (control
//! characters raw and as TOML escapes, huge numbers, deleted and repeated
//! pieces), never make validation panic, never put a control character in
//! an error, and a mangled file that still validates runs without panic.

use idem::scenario::builtin::BUILTIN;
use idem::scenario::parse_all;
use idem::sim::Strategy as Design;
use idem::terminal_text::find_control;
use idem::timeline::Timeline;
use proptest::prelude::*;

/// What an attacker or a slip might put into a file.
fn piece() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("\\e[2J".to_string()),
        Just("\\u001b]0;x\\u0007".to_string()),
        Just("\\x9b".to_string()),
        Just("\\r".to_string()),
        Just("\u{1b}".to_string()),
        Just("\u{7}".to_string()),
        Just("\r".to_string()),
        Just("\u{0}".to_string()),
        Just("99999999999999999999".to_string()),
        Just("-1".to_string()),
        Just("4294967295".to_string()),
        Just("\"".to_string()),
        Just("[".to_string()),
        Just("]".to_string()),
        Just("\n".to_string()),
        Just("?2".to_string()),
        "[ -~]{0,8}",
    ]
}

#[derive(Clone, Debug)]
enum Edit {
    Insert(usize, String),
    Delete(usize, usize),
    Repeat(usize, usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), piece()).prop_map(|(at, s)| Edit::Insert(at, s)),
        (any::<usize>(), 0usize..40).prop_map(|(at, n)| Edit::Delete(at, n)),
        (any::<usize>(), 0usize..80).prop_map(|(at, n)| Edit::Repeat(at, n)),
    ]
}

fn boundary(text: &str, at: usize) -> usize {
    let mut at = at % (text.len() + 1);
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn apply(text: &str, edits: &[Edit]) -> String {
    let mut text = text.to_string();
    for e in edits {
        match e {
            Edit::Insert(at, s) => {
                let at = boundary(&text, *at);
                text.insert_str(at, s);
            }
            Edit::Delete(at, n) => {
                let a = boundary(&text, *at);
                let b = boundary(&text, a + n);
                if b >= a {
                    text.replace_range(a..b, "");
                }
            }
            Edit::Repeat(at, n) => {
                let a = boundary(&text, *at);
                let b = boundary(&text, a + n);
                if b >= a {
                    let copy = text[a..b].to_string();
                    text.insert_str(b, &copy);
                }
            }
        }
    }
    text
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn mangled_files_are_refused_cleanly_or_run(
        which in 0..BUILTIN.len(),
        edits in prop::collection::vec(edit(), 1..6),
    ) {
        let (name, text) = BUILTIN[which];
        let mangled = apply(text, &edits);
        match parse_all(name, &mangled) {
            Err(errors) => {
                prop_assert!(!errors.is_empty());
                for e in &errors {
                    let shown = e.to_string();
                    prop_assert_eq!(find_control(&shown), None, "{}", shown);
                }
            }
            Ok(script) => {
                for title in [&script.title, &script.summary, &script.intro] {
                    prop_assert_eq!(find_control(title), None);
                }
                let design = script.design();
                let strategy = Design::by_name(&design).unwrap();
                // A run may refuse (an input error), but never panic.
                let _ = Timeline::build(&script, &strategy, 0, &[]);
            }
        }
    }
}
