//! Finds the built-in phrasebooks: every `phrasebooks/*.toml` file is compiled
//! in, so a new language is one new file and nothing in the code lists the
//! languages. Writes `builtin_phrasebooks.rs` into `OUT_DIR` with the codes
//! (file stems, in file-name order) and their `include_str!` texts.

use std::fmt::Write as _;
use std::path::Path;
use std::{env, fs};

fn main() {
    let dir = Path::new(&env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"))
        .join("phrasebooks");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut books: Vec<(String, String)> = fs::read_dir(&dir)
        .expect("the phrasebooks folder is readable")
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "toml"))
        .filter_map(|path| {
            let code = path.file_stem()?.to_str()?.to_owned();
            Some((code, path.to_str()?.to_owned()))
        })
        .collect();
    books.sort();
    for (_, path) in &books {
        println!("cargo:rerun-if-changed={path}");
    }
    let n = books.len();
    let mut out = String::new();
    let codes: Vec<String> = books.iter().map(|(code, _)| format!("{code:?}")).collect();
    let _ = writeln!(
        out,
        "/// Codes of the phrasebooks compiled into the binary: one per file in `phrasebooks/`."
    );
    let _ = writeln!(out, "pub const BUILTIN_LANGUAGES: [&str; {n}] = [{}];", codes.join(", "));
    let _ = writeln!(out, "const BUILTIN_SOURCES: [(&str, &str); {n}] = [");
    for (code, path) in &books {
        let _ = writeln!(out, "    ({code:?}, include_str!({path:?})),");
    }
    let _ = writeln!(out, "];");
    let target = Path::new(&env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("builtin_phrasebooks.rs");
    fs::write(target, out).expect("OUT_DIR is writable");
}
