//! The few PDF objects a large-print scoresheet needs, written by hand: pages
//! of text in the base-14 fonts Helvetica and Helvetica-Bold (never embedded:
//! every PDF reader has them), straight rules, a title and a language.
//!
//! Text is WinAnsi-encoded; the 32 codes 0x80–0x9F are given the Polish
//! letters and a few punctuation marks by a `/Differences` array (glyph names
//! of the Adobe Glyph List), so the words come back out of `pdftotext` and
//! screen readers. A character outside that set is written as `?`.

use std::fmt::Write as _;

/// A4 portrait, in points.
pub const A4: (f32, f32) = (595.0, 842.0);

/// The two faces used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Font {
    /// Helvetica.
    Regular,
    /// Helvetica-Bold.
    Bold,
}

impl Font {
    fn resource(self) -> &'static str {
        match self {
            Font::Regular => "F1",
            Font::Bold => "F2",
        }
    }
}

/// Codes 0x80–0x9F: the character and its glyph name.
const UPPER_CODES: [(char, &str); 32] = [
    ('Ą', "Aogonek"),
    ('ą', "aogonek"),
    ('Ć', "Cacute"),
    ('ć', "cacute"),
    ('Ę', "Eogonek"),
    ('ę', "eogonek"),
    ('Ł', "Lslash"),
    ('ł', "lslash"),
    ('Ń', "Nacute"),
    ('ń', "nacute"),
    ('Ś', "Sacute"),
    ('ś', "sacute"),
    ('Ź', "Zacute"),
    ('ź', "zacute"),
    ('Ż', "Zdotaccent"),
    ('ż', "zdotaccent"),
    ('–', "endash"),
    ('—', "emdash"),
    ('‘', "quoteleft"),
    ('’', "quoteright"),
    ('“', "quotedblleft"),
    ('”', "quotedblright"),
    ('„', "quotedblbase"),
    ('…', "ellipsis"),
    ('Š', "Scaron"),
    ('š', "scaron"),
    ('Ž', "Zcaron"),
    ('ž', "zcaron"),
    ('Č', "Ccaron"),
    ('č', "ccaron"),
    ('€', "Euro"),
    ('•', "bullet"),
];

/// The byte a character is written as.
pub fn encode_char(c: char) -> u8 {
    match c {
        ' '..='~' => c as u8,
        '\u{a0}'..='\u{ff}' => c as u32 as u8,
        _ => UPPER_CODES.iter().position(|(u, _)| *u == c).map_or(b'?', |i| 0x80 + i as u8),
    }
}

/// Helvetica's advance widths (1/1000 em) for ' ' to '~' (Adobe's AFM).
const REGULAR_ASCII: [u16; 95] = [
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, // ' ' to '/'
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, // '0' to '?'
    1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, // '@' to 'O'
    667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, // 'P' to '_'
    333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, // '`' to 'o'
    556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584, // 'p' to '~'
];

/// Helvetica-Bold's advance widths (1/1000 em) for ' ' to '~' (Adobe's AFM).
const BOLD_ASCII: [u16; 95] = [
    278, 333, 474, 556, 556, 889, 722, 238, 333, 333, 389, 584, 278, 333, 278, 278, // ' ' to '/'
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 333, 333, 584, 584, 584, 611, // '0' to '?'
    975, 722, 722, 722, 722, 667, 611, 778, 722, 278, 556, 722, 611, 833, 722, 778, // '@' to 'O'
    667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 333, 278, 333, 584, 556, // 'P' to '_'
    333, 556, 611, 556, 611, 556, 333, 611, 611, 278, 278, 556, 278, 889, 611, 611, // '`' to 'o'
    611, 611, 389, 556, 333, 611, 556, 778, 556, 556, 500, 389, 280, 389, 584, // 'p' to '~'
];

/// The letter an accented letter is built on (its width is close enough for layout).
fn base_letter(c: char) -> Option<char> {
    Some(match c {
        'À'..='Å' | 'Ą' => 'A',
        'à'..='å' | 'ą' => 'a',
        'Ç' | 'Ć' | 'Č' => 'C',
        'ç' | 'ć' | 'č' => 'c',
        'È'..='Ë' | 'Ę' => 'E',
        'è'..='ë' | 'ę' => 'e',
        'Ì'..='Ï' => 'I',
        'ì'..='ï' => 'i',
        'Ð' => 'D',
        'Ñ' | 'Ń' => 'N',
        'ñ' | 'ń' => 'n',
        'Ò'..='Ö' | 'Ø' => 'O',
        'ò'..='ö' | 'ø' | 'ð' => 'o',
        'Ù'..='Ü' => 'U',
        'ù'..='ü' => 'u',
        'Ý' | 'Ÿ' => 'Y',
        'ý' | 'ÿ' => 'y',
        'Þ' => 'P',
        'þ' => 'p',
        'Ł' => 'L',
        'ł' => 'l',
        'Ś' | 'Š' => 'S',
        'ś' | 'š' => 's',
        'Ź' | 'Ż' | 'Ž' => 'Z',
        'ź' | 'ż' | 'ž' => 'z',
        _ => return None,
    })
}

/// A character's advance width in 1/1000 em.
fn char_width(font: Font, c: char) -> u16 {
    let table = match font {
        Font::Regular => &REGULAR_ASCII,
        Font::Bold => &BOLD_ASCII,
    };
    let ascii = |c: char| table[(c as usize) - 0x20];
    match c {
        ' '..='~' => ascii(c),
        'ß' => 611,
        'Æ' | '—' | '…' => 1000,
        'æ' => 889,
        '×' | '÷' => 584,
        '•' => 350,
        // Anything else: a letter's base, or an average glyph.
        _ => base_letter(c).map_or(556, ascii),
    }
}

/// The width of `text` in points at `size`.
pub fn width(font: Font, size: f32, text: &str) -> f32 {
    text.chars().map(|c| f32::from(char_width(font, c))).sum::<f32>() * size / 1000.0
}

/// `text` as a PDF string literal: parentheses and backslashes escaped, every
/// byte outside printable ASCII in octal (the file stays 7-bit text).
fn literal(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('(');
    for c in text.chars() {
        match encode_char(c) {
            b @ (b'(' | b')' | b'\\') => {
                out.push('\\');
                out.push(char::from(b));
            }
            b @ 0x20..=0x7e => out.push(char::from(b)),
            b => {
                let _ = write!(out, "\\{b:03o}");
            }
        }
    }
    out.push(')');
    out
}

/// A text string of the document's information (title): UTF-16BE with its byte order mark.
fn info_string(text: &str) -> String {
    let mut out = String::from("<FEFF");
    for unit in text.encode_utf16() {
        let _ = write!(out, "{unit:04X}");
    }
    out.push('>');
    out
}

/// One page: its size and its content stream (black on white).
#[derive(Clone, Debug)]
pub struct Page {
    size: (f32, f32),
    content: String,
}

impl Page {
    /// An empty page of `size` points (width, height).
    pub fn new(size: (f32, f32)) -> Self {
        Page { size, content: String::new() }
    }

    /// `text` with its baseline starting at (`x`, `y`), `y` from the bottom.
    pub fn text(&mut self, font: Font, size: f32, x: f32, y: f32, text: &str) {
        let _ = writeln!(
            self.content,
            "BT /{} {size:.1} Tf 0 g {x:.2} {y:.2} Td {} Tj ET",
            font.resource(),
            literal(text)
        );
    }

    /// A horizontal rule `thickness` points thick from `x0` to `x1` at height `y`.
    pub fn rule(&mut self, x0: f32, x1: f32, y: f32, thickness: f32) {
        let _ = writeln!(self.content, "0 G {thickness:.2} w {x0:.2} {y:.2} m {x1:.2} {y:.2} l S");
    }
}

/// A document: its pages, a title and the language of its text.
#[derive(Clone, Debug)]
pub struct Document {
    /// The pages, in order.
    pub pages: Vec<Page>,
    /// The title readers show instead of the file name.
    pub title: String,
    /// A BCP 47 language tag (`en`).
    pub lang: String,
}

impl Document {
    /// The PDF file: header, objects, cross-reference table, trailer.
    pub fn to_bytes(&self) -> Vec<u8> {
        // 1 catalog, 2 page tree, 3 and 4 fonts, 5 encoding, 6 information,
        // then a page and its content stream for every page.
        let page_id = |i: usize| 7 + 2 * i;
        let mut objects: Vec<String> = Vec::new();
        objects.push(format!(
            "<< /Type /Catalog /Pages 2 0 R /Lang {} /ViewerPreferences << /DisplayDocTitle true >> >>",
            literal(&self.lang)
        ));
        let kids: Vec<String> = (0..self.pages.len()).map(|i| format!("{} 0 R", page_id(i))).collect();
        objects.push(format!("<< /Type /Pages /Kids [{}] /Count {} >>", kids.join(" "), self.pages.len()));
        for name in ["Helvetica", "Helvetica-Bold"] {
            objects.push(format!("<< /Type /Font /Subtype /Type1 /BaseFont /{name} /Encoding 5 0 R >>"));
        }
        let names: Vec<String> = UPPER_CODES.iter().map(|(_, n)| format!("/{n}")).collect();
        objects.push(format!(
            "<< /Type /Encoding /BaseEncoding /WinAnsiEncoding /Differences [128 {}] >>",
            names.join(" ")
        ));
        objects.push(format!("<< /Title {} /Producer (Annex D station) >>", info_string(&self.title)));
        for (i, page) in self.pages.iter().enumerate() {
            objects.push(format!(
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {} {}] \
                 /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents {} 0 R >>",
                page.size.0,
                page.size.1,
                page_id(i) + 1
            ));
            objects.push(format!("<< /Length {} >>\nstream\n{}endstream", page.content.len(), page.content));
        }
        // A binary comment after the header tells transfer programs the file is binary.
        let mut out: Vec<u8> = b"%PDF-1.4\n%\xE2\xE3\xCF\xD3\n".to_vec();
        let mut offsets = Vec::with_capacity(objects.len());
        for (i, body) in objects.iter().enumerate() {
            offsets.push(out.len());
            out.extend_from_slice(format!("{} 0 obj\n{body}\nendobj\n", i + 1).as_bytes());
        }
        let xref = out.len();
        let mut table = format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1);
        for offset in offsets {
            // Each entry is 20 bytes: the end of line is a space and a newline.
            let _ = writeln!(table, "{offset:010} 00000 n ");
        }
        let _ = write!(
            table,
            "trailer\n<< /Size {} /Root 1 0 R /Info 6 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            objects.len() + 1
        );
        out.extend_from_slice(table.as_bytes());
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn polish_and_german_letters_have_codes_and_the_rest_is_a_question_mark() {
        assert_eq!(encode_char('e'), b'e');
        assert_eq!(encode_char('ü'), 0xfc);
        assert_eq!(encode_char('ß'), 0xdf);
        assert_eq!(encode_char('ł'), 0x87);
        assert_eq!(encode_char('ż'), 0x8f);
        assert_eq!(encode_char('♔'), b'?');
        assert_eq!(literal("Wróbel (ł)\\"), "(Wr\\363bel \\(\\207\\)\\\\)");
    }

    #[test]
    fn widths_follow_the_fonts_metrics() {
        // "1:29:59": five digits of 556 and two colons of 278 (bold: 333).
        assert_eq!(width(Font::Regular, 20.0, "1:29:59"), (5.0 * 556.0 + 2.0 * 278.0) * 0.02);
        assert_eq!(width(Font::Bold, 10.0, "1:29:59"), (5.0 * 556.0 + 2.0 * 333.0) * 0.01);
        assert_eq!(width(Font::Bold, 1000.0, "W"), 944.0);
        assert_eq!(width(Font::Regular, 1000.0, "ł"), width(Font::Regular, 1000.0, "l"));
    }

    #[test]
    fn the_cross_reference_table_points_at_every_object() {
        let mut page = Page::new(A4);
        page.text(Font::Bold, 24.0, 48.0, 700.0, "1. e4 e5");
        page.rule(48.0, 547.0, 690.0, 2.0);
        let doc =
            Document { pages: vec![page.clone(), page], title: "Łódź – test".into(), lang: "en".into() };
        let bytes = doc.to_bytes();
        // Offsets count bytes: the binary comment after the header included.
        let text = String::from_utf8_lossy(&bytes);
        let start: usize =
            text.rsplit("startxref\n").next().unwrap().lines().next().unwrap().parse().unwrap();
        let table = std::str::from_utf8(&bytes[start..]).unwrap();
        assert!(table.starts_with("xref\n0 11\n"), "{table}");
        for (n, line) in table.lines().skip(3).take(10).enumerate() {
            let offset: usize = line[..10].parse().unwrap();
            assert!(bytes[offset..].starts_with(format!("{} 0 obj\n", n + 1).as_bytes()), "object {}", n + 1);
        }
        assert!(text.contains("/Count 2"));
        assert!(text.contains("(1. e4 e5) Tj"));
        assert!(text.ends_with("%%EOF\n"));
    }
}
