//! Every integration test, in one test binary: linked once instead of once
//! per file, and run in one process, so both cores stay busy to the end.
//! Each file of tests/ stays a module of its own; a new test file is added
//! here (the first test below fails until it is).

mod common;
mod corpus;

mod action_words;
mod borrowed_words;
mod bounds;
mod broker_labels_steady;
mod budget;
mod cause_chains;
mod check;
mod check_header;
mod claim_assumption;
mod claim_bounds;
mod cli_help;
mod cli_open;
mod clock_words;
mod closing_words_at_the_end;
mod compare_counts;
mod compare_fold_alike;
mod compare_header_titles;
mod compare_holding;
mod compare_in_view;
mod compare_message_rows_true;
mod compare_sides;
mod correct_in_this_run;
mod database_no_blank_fold;
mod db_file;
mod db_held;
mod design_file;
mod duplicate_counted;
mod engines;
mod engines_side_by_side;
mod engines_view_reads;
mod events_beside_no_sql;
mod events_cut_in_words;
mod events_fold_counts;
mod events_fold_told;
mod events_read_somewhere;
mod events_room_beside_sql;
mod explorer_detail_read;
mod explorer_explains;
mod explorer_hidden_whole;
mod explorer_rows_hang;
mod explorer_way_back;
mod export_note_whole;
mod extra_tables_whole;
mod fold_names_what_it_hides;
mod fold_sign;
mod fork_one_step;
mod forked_header;
mod found_schedule_header;
mod harness_bad;
mod harness_pg;
mod harness_replay;
mod harness_samples;
mod harness_save;
mod harness_words;
mod header_form;
mod header_group;
mod header_title_steady;
mod heading_counts;
mod help_screen;
mod hints_steady;
mod holder_words;
mod hostile_fuzz;
mod hostile_text;
mod in_flight_row;
mod json_frames;
mod key_bars_listed;
mod key_bars_whole;
mod key_rows_steady;
mod key_table;
mod key_taken_words;
mod key_words;
mod lesson;
mod lesson_design_switch;
mod lesson_hostile;
mod lesson_order;
mod lesson_screens;
mod lesson_text;
mod lesson_titles;
mod level_bounds;
mod level_counterexample;
mod level_screen;
mod levels;
mod lost_ack_told;
mod lost_answer_told;
mod lower_split;
mod malformed;
mod marks_kept_whole;
mod marks_named;
mod marks_read_alike;
mod marks_true;
mod narration_at_its_step;
mod no_silent_cuts;
mod no_silent_cuts_views;
mod old_keyword;
mod one_name;
mod outcome_sets;
mod output_errors;
mod output_targets;
mod owed_marks;
mod own_line_cut_words;
mod payment_words;
mod play_own_design;
mod postgres_story_own;
mod predict_choices;
mod predict_end_keeps_words;
mod predict_marks;
mod predict_reveal;
mod predict_story_at_step;
mod presenter_evidence;
mod presenter_sizes;
mod presenter_uncommitted;
mod progress_kept;
mod progress_shared;
mod promise_words;
mod property;
mod provider_conflict;
mod provider_heading_steady;
mod provider_questions;
mod questions;
mod queue_named_as_queue;
mod race;
mod record;
mod replay_again_marked;
mod replay_clock_true;
mod replay_db_told;
mod replay_every_cause;
mod replay_held_told;
mod replay_long_program;
mod replay_moves;
mod replay_no_cuts;
mod replay_stale_ack_words;
mod retry_try_bounds;
mod reveal_keeps_rows;
mod reveal_span;
mod reveal_split_steady;
mod reveal_sql_head;
mod reveal_subject_whole;
mod reveal_why_whole;
mod scale;
mod scenarios;
mod score_keeps_subject;
mod screenshots;
mod service_head_steady;
mod service_words_whole;
mod signals;
mod skips_keep_their_cause;
mod skips_marked_at_refusal;
mod skips_told;
mod small_screens;
mod soak;
mod soak_chart_room;
mod soak_dashboard;
mod soak_dashboard_whole;
mod soak_progress_line;
mod soak_stopped_alike;
mod soak_story_titles;
mod soak_words;
mod status_properties;
mod step_labels;
mod step_leads_with_its_effect;
mod step_line_names_the_step;
mod step_line_nothing_received;
mod step_line_time;
mod step_names;
mod step_reference_whole;
mod story_at_the_fact;
mod story_authored_shown;
mod story_compare_own;
mod story_cut_rows;
mod story_earlier;
mod story_fake_mark;
mod story_figures;
mod story_fold_arrow;
mod story_fold_no_blank_row;
mod story_fold_words;
mod story_gap_clause;
mod story_left_out;
mod story_newest_first;
mod story_no_echo;
mod story_own_line;
mod story_rest_in_events;
mod story_tells_once;
mod story_whole;
mod story_why_at_its_step;
mod strips_fold_the_idle;
mod summary_whole;
mod sweep_kept;
mod titles_cut_at_words;
mod tour_opening;
mod tui_changes;
mod tui_predict;
mod tui_property;
mod tui_snapshots;
mod tui_titles;
mod uncommitted_rows;
mod validate;
mod validate_one_pass;
mod verdict_chain_on_screen;
mod verdict_chain_words;
mod verdict_fold_key;
mod verdict_incremental;
mod verdict_names_counts;
mod verdict_row_steady;
mod verdict_truth;
mod verdict_words;
mod why_counts;
mod why_key;
mod won_caps_said;

/// A test file that no `mod` line names would never run: say so.
#[test]
fn every_test_file_is_a_module_here() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let main = std::fs::read_to_string(dir.join("main.rs")).unwrap();
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        let module = match name.strip_suffix(".rs") {
            Some(module) if module != "main" => module.to_string(),
            // A folder with a mod.rs is a shared helper module.
            _ if path.join("mod.rs").is_file() => name.to_string(),
            _ => continue,
        };
        if !main.lines().any(|l| l.trim() == format!("mod {module};")) {
            missing.push(module);
        }
    }
    assert!(
        missing.is_empty(),
        "tests/main.rs does not name these test files, so they would never run: {missing:?} (add `mod NAME;`)"
    );
}
