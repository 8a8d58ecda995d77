//! A lesson to hand out: one self-contained HTML file that steps through
//! scenarios with ←/→ or buttons, every design they are written for, the
//! real screen of each step beside its narration. No network, no external
//! script: it opens on any laptop, without Rust.

use super::record;
use super::shot::{Moment, Shot, View};
use super::svg;
use crate::scenario::Script;
use crate::sim::{SimError, Strategy};
use crate::timeline::Timeline;
use serde::Serialize;

#[derive(Serialize)]
struct Step {
    /// The screen, as inline SVG.
    svg: String,
    chapter: usize,
    chapter_title: String,
    narration: String,
    said: Option<String>,
    action: String,
    verdict: String,
}

#[derive(Serialize)]
struct Design {
    name: String,
    steps: Vec<Step>,
}

#[derive(Serialize)]
struct Lesson {
    name: String,
    title: String,
    summary: String,
    designs: Vec<Design>,
}

/// The designs a lesson shows for a scenario: its own first, then the rest.
fn designs(script: &Script) -> Vec<Strategy> {
    let first = script.design();
    std::iter::once(first.clone())
        .chain(script.strategies().into_iter().filter(|n| *n != first))
        .filter_map(|n| Strategy::by_name(&n))
        .collect()
}

pub fn render(scripts: &[Script], size: (u16, u16), title: &str) -> Result<String, SimError> {
    let mut lessons = Vec::new();
    for script in scripts {
        let mut out = Vec::new();
        for strategy in designs(script) {
            let timeline = Timeline::build(script, &strategy, 0, &[])?;
            let shot = Shot {
                script: script.clone(),
                strategy: strategy.clone(),
                seed: 0,
                moment: Moment::Start,
                view: View::Main,
                width: size.0,
                height: size.1,
                ascii: false,
                color: true,
            };
            let buffers = record::frames(&shot)?;
            let steps = buffers
                .iter()
                .zip(&timeline.frames)
                .map(|(buffer, frame)| Step {
                    svg: svg::render(
                        buffer,
                        &format!("{} · {} · step {}", script.name, strategy.name, frame.index),
                    ),
                    chapter: frame.chapter,
                    chapter_title: frame.chapter_title.clone(),
                    narration: frame.narration.clone(),
                    said: frame.said.clone(),
                    action: frame.action.clone(),
                    verdict: frame.verdict.chain(),
                })
                .collect();
            out.push(Design {
                name: strategy.name.to_string(),
                steps,
            });
        }
        lessons.push(Lesson {
            name: script.name.clone(),
            title: script.title.clone(),
            summary: script.summary.clone(),
            designs: out,
        });
    }
    // `</` inside the data would end the script element early.
    let data = serde_json::to_string(&lessons)
        .expect("plain data serialises")
        .replace("</", "<\\/");
    Ok(PAGE
        .replace("{{TITLE}}", &svg::escape(title))
        .replace("{{DATA}}", &data))
}

const PAGE: &str = include_str!("lesson.html");
