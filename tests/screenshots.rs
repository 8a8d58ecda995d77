//! The pictures in screenshots/ are the program itself: redrawn here, each
//! must match the committed file byte for byte. When the screen changes on
//! purpose, refresh them with `cargo run --release -- screenshots`.

use idem::export::gallery::{self, PICTURES, SIZE};
use idem::export::{self, Kind, png};
use resvg::tiny_skia::Pixmap;
use std::path::Path;

fn png(name: &str) -> Vec<u8> {
    let picture = PICTURES.iter().find(|p| p.name == name).expect("a picture");
    let shot = picture.shot().unwrap();
    export::render(&shot.buffer().unwrap(), Kind::Png, &shot.title()).unwrap()
}

const REFRESH: &str = "refresh them with `cargo run --release -- screenshots` and look at them";

/// The screen a picture shows, as the SVG its PNG is drawn from.
fn svg(name: &str) -> String {
    let picture = PICTURES.iter().find(|p| p.name == name).expect("a picture");
    let shot = picture.shot().unwrap();
    String::from_utf8(export::render(&shot.buffer().unwrap(), Kind::Svg, &shot.title()).unwrap())
        .unwrap()
}

/// Every picture shows the program's screen as it is now: the SVG each
/// PNG was drawn from (its digest is in the PNG) is the one the program
/// draws today. Checked without rasterising (most of a picture's cost);
/// `one_screenshot_is_drawn_byte_for_byte` checks that drawing itself.
#[test]
fn every_screenshot_is_current() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("screenshots");
    let stale: Vec<&str> = PICTURES
        .iter()
        .filter(|picture| {
            let committed = std::fs::read(dir.join(format!("{}.png", picture.name)))
                .unwrap_or_else(|e| panic!("screenshots/{}.png: {e}", picture.name));
            let drawn_from = png::text_chunk(&committed, png::DRAWN_FROM);
            drawn_from != Some(png::svg_digest(&svg(picture.name)))
        })
        .map(|picture| picture.name)
        .collect();
    assert!(
        stale.is_empty(),
        "these screenshots no longer match the program: {stale:?}; {REFRESH}"
    );
}

/// The drawing from SVG to PNG, byte for byte, for one picture: the
/// fonts ship with the program, so the pixels are the same everywhere.
#[test]
fn one_screenshot_is_drawn_byte_for_byte() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("screenshots");
    let name = PICTURES[0].name;
    let committed = std::fs::read(dir.join(format!("{name}.png"))).unwrap();
    assert!(
        png(name) == committed,
        "screenshots/{name}.png is not drawn as the program draws it; {REFRESH}"
    );
}

#[test]
fn the_tour_recording_is_current() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("screenshots");
    let tour = std::fs::read_to_string(dir.join(format!("{}.svg", gallery::TOUR_RECORDING)))
        .expect("screenshots/tour.svg");
    assert!(
        gallery::tour_recording().unwrap() == tour,
        "screenshots/{}.svg no longer matches the program; {REFRESH}",
        gallery::TOUR_RECORDING
    );
}

#[test]
fn a_png_has_the_screen_size_and_real_text_on_it() {
    let pixmap = Pixmap::decode_png(&png("tour-naive-double-charge")).unwrap();
    let (w, h) = export::svg::size(SIZE.0, SIZE.1);
    assert_eq!(pixmap.width(), w.round() as u32);
    assert_eq!(pixmap.height(), h.round() as u32);
    // The header row (`idem · Tour 1/4 · ...`): glyphs, not a blank grid.
    let top = 28 + 12;
    let mut colours = std::collections::BTreeSet::new();
    let mut inked = 0;
    let background = pixmap.pixel(500, top + 9).unwrap();
    for y in top..top + 18 {
        for x in 12..(w as u32 - 12) {
            let p = pixmap.pixel(x, y).unwrap();
            colours.insert((p.red(), p.green(), p.blue()));
            if (p.red(), p.green(), p.blue())
                != (background.red(), background.green(), background.blue())
            {
                inked += 1;
            }
        }
    }
    assert!(
        colours.len() > 40,
        "anti-aliased glyphs give many shades: {}",
        colours.len()
    );
    assert!(inked > 1_000, "the header's text is drawn: {inked} pixels");
}

#[test]
fn text_and_svg_exports_say_what_the_screen_says() {
    let picture = &PICTURES[0];
    let shot = picture.shot().unwrap();
    let buffer = shot.buffer().unwrap();
    let text = String::from_utf8(export::render(&buffer, Kind::Txt, "t").unwrap()).unwrap();
    assert!(text.contains("charged twice"), "{text}");
    assert_eq!(text.lines().count(), usize::from(SIZE.1));
    let svg = String::from_utf8(export::render(&buffer, Kind::Svg, "t").unwrap()).unwrap();
    assert!(
        svg.contains(">charged twice<") || svg.contains("charged twice"),
        "{svg}"
    );
    let html = String::from_utf8(export::render(&buffer, Kind::Html, "t").unwrap()).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>") && html.contains("<svg"));
    assert!(
        !html.contains("http://") || html.matches("http://").count() == 1,
        "only the SVG namespace, no network"
    );
}
