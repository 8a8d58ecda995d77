//! A recorded run has one picture per step, in each format.

use idem::export::record;
use idem::export::shot::{Moment, Shot, View};
use idem::scenario;
use idem::sim::Strategy;

fn frames() -> Vec<ratatui::buffer::Buffer> {
    let shot = Shot {
        script: scenario::find("tour-1").unwrap(),
        strategy: Strategy::naive(),
        seed: 0,
        moment: Moment::Start,
        view: View::Main,
        width: 80,
        height: 24,
        ascii: false,
        color: true,
    };
    record::frames(&shot).unwrap()
}

#[test]
fn every_format_holds_every_step() {
    let frames = frames();
    let steps = idem::timeline::Timeline::build(
        &scenario::find("tour-1").unwrap(),
        &Strategy::naive(),
        0,
        &[],
    )
    .unwrap()
    .frames
    .len();
    assert_eq!(frames.len(), steps);

    let cast = record::cast(&frames, 1500, "t");
    let mut lines = cast.lines();
    let header: serde_json::Value = serde_json::from_str(lines.next().unwrap()).unwrap();
    assert_eq!(header["version"], 2);
    assert_eq!(header["width"], 80);
    assert_eq!(header["height"], 24);
    let events: Vec<serde_json::Value> = lines.map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(events.len(), steps + 1, "a clear, then one per step");
    assert_eq!(events.last().unwrap()[0], 1.5 * (steps - 1) as f64);
    assert!(
        events.last().unwrap()[2]
            .as_str()
            .unwrap()
            .contains("charged twice")
    );

    let svg = record::animated_svg(&frames, 1500, "t");
    assert_eq!(svg.matches(r#"<g class="f""#).count(), steps);
    assert!(svg.contains(&format!("animation-delay:{}ms", 1500 * (steps - 1))));

    let gif = record::gif(&frames[..3], 1500, "t").unwrap();
    let mut decoder = gif::DecodeOptions::new()
        .read_info(std::io::Cursor::new(gif))
        .unwrap();
    let mut count = 0;
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        assert_eq!(frame.delay, 150);
        count += 1;
    }
    assert_eq!(count, 3);
}
