//! A buffer as a self-contained HTML page: the screen's SVG inline, with the
//! plain text beneath it for search engines and screen readers.

use ratatui::buffer::Buffer;

pub fn render(buffer: &Buffer, title: &str) -> String {
    let svg = super::svg::render(buffer, title);
    let text = super::svg::escape(&super::text::render(buffer));
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n<style>\nbody {{ background: #111; margin: 2em; }}\nfigure {{ margin: 0; }}\nsvg {{ max-width: 100%; height: auto; }}\ndetails {{ color: #ccc; font-family: sans-serif; margin-top: 1em; }}\npre {{ color: #ddd; }}\n</style>\n</head>\n<body>\n<figure>\n{svg}</figure>\n<details><summary>The screen as text</summary>\n<pre>{text}</pre>\n</details>\n</body>\n</html>\n",
        super::svg::escape(title)
    )
}
