//! A whole run as moving pictures: one screen per step, each with that
//! step's change marks, written as an asciicast, an animated SVG or a GIF.

use super::shot::{Moment, Shot, ShotError, View};
use super::{ansi, png, svg};
use ratatui::buffer::Buffer;
use std::fmt::Write;

/// Every step of the run, drawn as the main screen shows it: one app
/// stepped through the run, as `idem play --step N` opens each (the forms
/// it keeps for the run are chosen once, not at every step).
pub fn frames(base: &Shot) -> Result<Vec<Buffer>, ShotError> {
    let mut app = Shot {
        script: base.script.clone(),
        strategy: base.strategy.clone(),
        moment: Moment::Start,
        view: View::Main,
        ..*base
    }
    .app()?;
    let last = app.last_pos();
    (0..=last)
        .map(|step| {
            app.open_at_step(step).map_err(ShotError::NoSuchMoment)?;
            crate::tui::update::sync_kept(&mut app);
            Ok(base.draw(&app))
        })
        .collect()
}

/// asciicast v2: a header line, then one event per frame.
pub fn cast(frames: &[Buffer], pace_ms: u64, title: &str) -> String {
    let Some(first) = frames.first() else {
        return String::new();
    };
    let header = serde_json::json!({
        "version": 2,
        "width": first.area.width,
        "height": first.area.height,
        "title": title,
        "env": { "TERM": "xterm-256color" },
    });
    let mut out = format!("{header}\n");
    // Clear once and hide the cursor, as the TUI does.
    out.push_str(&format!(
        "{}\n",
        serde_json::json!([0.0, "o", "\u{1b}[?25l\u{1b}[2J"])
    ));
    for (i, frame) in frames.iter().enumerate() {
        let t = (i as u64 * pace_ms) as f64 / 1000.0;
        let _ = writeln!(out, "{}", serde_json::json!([t, "o", ansi::render(frame)]));
    }
    out
}

/// An SVG that plays the frames in a loop, `pace_ms` each, with CSS alone:
/// it plays in a browser and in a README.
pub fn animated_svg(frames: &[Buffer], pace_ms: u64, title: &str) -> String {
    let Some(first) = frames.first() else {
        return String::new();
    };
    let n = frames.len();
    let total = pace_ms * n as u64;
    let share = 100.0 / n as f64;
    let (w, h) = svg::size(first.area.width, first.area.height);
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w:.2}" height="{h:.2}" viewBox="0 0 {w:.2} {h:.2}" role="img" aria-label="{}">"#,
        svg::escape(title)
    );
    let _ = writeln!(
        out,
        "<style>.f{{visibility:hidden;animation:show {total}ms step-end infinite}}@keyframes show{{0%{{visibility:visible}}{share:.4}%{{visibility:hidden}}100%{{visibility:hidden}}}}</style>"
    );
    for (i, frame) in frames.iter().enumerate() {
        let body = svg::render(frame, &format!("{title} · step {i}"));
        // The inner picture without its own <svg> wrapper.
        let inner = body
            .split_once('\n')
            .map_or("", |(_, rest)| rest)
            .trim_end()
            .trim_end_matches("</svg>");
        let _ = writeln!(
            out,
            r#"<g class="f" style="animation-delay:{}ms">{inner}</g>"#,
            i as u64 * pace_ms
        );
    }
    out.push_str("</svg>\n");
    out
}

/// A looping GIF, each frame rasterised as the PNG would be.
pub fn gif(frames: &[Buffer], pace_ms: u64, title: &str) -> Result<Vec<u8>, png::PngError> {
    let mut bytes = Vec::new();
    {
        let Some(first) = frames.first() else {
            return Ok(bytes);
        };
        let (w, h) = svg::size(first.area.width, first.area.height);
        let (w, h) = (w.round() as u16, h.round() as u16);
        let mut encoder = gif::Encoder::new(&mut bytes, w, h, &[])
            .map_err(|e| png::PngError::Encode(e.to_string()))?;
        encoder
            .set_repeat(gif::Repeat::Infinite)
            .map_err(|e| png::PngError::Encode(e.to_string()))?;
        for frame in frames {
            let mut rgba = png::rgba(&svg::render(frame, title))?;
            let mut f = gif::Frame::from_rgba_speed(w, h, &mut rgba, 10);
            f.delay = (pace_ms / 10).min(u64::from(u16::MAX)) as u16;
            encoder
                .write_frame(&f)
                .map_err(|e| png::PngError::Encode(e.to_string()))?;
        }
    }
    Ok(bytes)
}
