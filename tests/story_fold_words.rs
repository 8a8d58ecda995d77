//! A story fold is counted in one wording wherever it is shown: arrow and
//! count for each side of the fold, then the unit (`↑ 3 ↓ 2 more
//! sentences`), as the story panel's border says it. Teacher trial (issue
//! 18): the story panel said `↑ 3 more sentences`, compare said `↑ 3
//! earlier` and `↑ 3 more sentences told earlier`, three ways for one
//! count.

use crate::common::sweep;

/// Every fold count in `text` that is not `↑ N ↓ M more sentences` (either
/// arrow alone allowed, the unit agreeing with the sum).
fn misworded(text: &str) -> Vec<String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let arrow = |w: &str| w == "↑" || w == "↓";
    let mut wrong = Vec::new();
    let mut i = 0;
    while i + 1 < words.len() {
        if !(arrow(words[i]) && words[i + 1].parse::<usize>().is_ok()) {
            i += 1;
            continue;
        }
        let from = i;
        let mut sum = 0;
        while i + 1 < words.len() && arrow(words[i]) {
            let Ok(n) = words[i + 1].parse::<usize>() else {
                break;
            };
            sum += n;
            i += 2;
        }
        let unit = if sum == 1 { "sentence" } else { "sentences" };
        let said = words[from..(i + 2).min(words.len())].join(" ");
        if words.get(i) != Some(&"more")
            || words.get(i + 1).map(|w| w.trim_end_matches('…')) != Some(unit)
        {
            wrong.push(said);
        }
        i += 1;
    }
    wrong
}

#[test]
fn misworded_finds_the_other_wordings() {
    assert!(misworded("↑ 3 ↓ 2 more sentences · z").is_empty());
    assert!(misworded("At step 4: x ↑ 1 more sentence").is_empty());
    assert!(misworded("↓ 2 more sentences").is_empty());
    assert_eq!(misworded("↑ 3 earlier").len(), 1);
    assert_eq!(misworded("↓ 1 more sentence · ↑ 4 earlier").len(), 1);
    assert_eq!(misworded("↑ 2 more sentence").len(), 1);
}

/// Compare's sides count the story they fold as the story panel does.
#[test]
fn compare_counts_a_story_fold_as_the_story_panel_does() {
    let (mut seen, mut wrong) = (0, Vec::new());
    let tours = ["tour-1", "tour-2", "tour-3", "tour-4"];
    sweep::each_compare_side(&tours, |s| {
        // The story ends where the database's section starts.
        let story = s.story.split("payments · ").next().unwrap_or_default();
        if !story.contains('↑') && !story.contains('↓') {
            return;
        }
        seen += 1;
        for said in misworded(story) {
            wrong.push(format!("{}, {}: {said:?}\n{}", s.at, s.side, s.screen));
        }
    });
    assert!(seen > 5, "only {seen} sides fold their story");
    assert!(
        wrong.is_empty(),
        "{} folds worded otherwise, the first:\n{}",
        wrong.len(),
        wrong[0]
    );
}
