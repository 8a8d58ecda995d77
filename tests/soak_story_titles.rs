//! A soak story's chapter title is true of every step it heads: a chapter
//! of several events names their span, not its first event alone. Teacher
//! trial, order 1034: at B's ack the title read "chapter 4/4: B gets 201
//! Created ch_82".

use idem::scenario::Action;
use idem::sim::Move;

#[test]
fn a_chapter_of_several_events_names_their_span() {
    let (_, state) = crate::common::trial_soak::trial_soak();
    let (mut chapters, mut first_only) = (0, Vec::new());
    for v in &state.violations {
        let Some(story) = v.story.as_deref() else {
            continue;
        };
        for step in &story.steps {
            let moves: Vec<&Move> = step
                .actions
                .iter()
                .filter_map(|a| match a {
                    Action::Move(m) => Some(m),
                    _ => None,
                })
                .collect();
            let armed = matches!(
                moves.first(),
                Some(Move::LoseAck { .. } | Move::LoseResponse { .. } | Move::Slow { .. })
            );
            // Waits between events tell no event of their own.
            let events = moves
                .iter()
                .filter(|m| !matches!(m, Move::Wait { .. }))
                .count();
            if armed || events < 2 {
                continue;
            }
            chapters += 1;
            if !step.title.contains(" … ") {
                first_only.push(format!("{}: {:?}", story.name, step.title));
            }
        }
    }
    assert!(chapters > 0);
    assert!(
        first_only.is_empty(),
        "{} of {chapters} chapters of several events titled by one: {first_only:#?}",
        first_only.len()
    );
}
