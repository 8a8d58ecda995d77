//! A provider answer lost on the wire, in the transcript's list of a
//! consumer's steps: the step by its full name, once, then what befell it.
//! A teacher read `answer lost provider response` (the mark's words run
//! into the step's name) and took `answer` for the step's short name
//! leaking out of the narrow screen rows.

#[test]
fn a_lost_answer_names_the_step_once_then_says_lost() {
    for mode in ["naive", "idempotent"] {
        let (code, out, err) = crate::common::cli::idem(&["run", "tour-4", "--mode", mode]);
        assert_eq!(code, 0, "{err}");
        let lists: Vec<&str> = out
            .lines()
            .filter(|l| l.trim_start().starts_with("consumer "))
            .filter_map(|l| l.split_once(" [").map(|(_, list)| list))
            .collect();
        assert!(
            lists.iter().any(|l| l.contains("provider response: lost")),
            "{mode}: no step list tells the lost answer:\n{out}"
        );
        for list in &lists {
            assert!(!list.contains("answer lost"), "{mode}: {list}");
        }
    }
}
