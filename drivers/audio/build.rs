//! Links libvosk for this crate, the one that uses it (`links = "vosk"`).
//!
//! The library comes from the vosk==0.3.45 wheel that scripts/setup unpacks
//! into the workspace's `.deps/vosk` (or from `VOSK_LIB_DIR`), so nothing has
//! to be installed system-wide. Two things follow from it:
//!
//! * The library is also copied into `OUT_DIR` and searched there: Cargo puts
//!   link-search folders inside the target folder on the library path of
//!   `cargo test`, `cargo run` and `cargo bench`, so every test and binary of
//!   the crates above this one finds libvosk at run time with nothing set.
//! * The folder it was found in is handed to the build scripts of the crates
//!   that depend on this one (`DEP_VOSK_LIB_DIR`): the `station` binary sets
//!   its rpath from it, to run from `target/` without Cargo.

use std::path::{Path, PathBuf};
use std::{env, fs, io};

const LIB: &str = "libvosk.so";

fn main() {
    println!("cargo:rerun-if-env-changed=VOSK_LIB_DIR");
    let dir = lib_dir();
    let lib = dir.join(LIB);
    println!("cargo:rerun-if-changed={}", lib.display());
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    if lib.exists() {
        if let Err(e) = place(&lib, &out.join(LIB)) {
            println!("cargo:warning=cannot copy {} into {}: {e}", lib.display(), out.display());
        }
    } else {
        println!("cargo:warning={LIB} not found in {} - run scripts/setup", dir.display());
    }
    println!("cargo:rustc-link-search=native={}", out.display());
    println!("cargo:lib_dir={}", dir.display());
}

/// `VOSK_LIB_DIR`, or `.deps/vosk` in the workspace's root: the first folder
/// up from this crate with `.deps` or `Cargo.lock` in it.
fn lib_dir() -> PathBuf {
    if let Some(dir) = env::var_os("VOSK_LIB_DIR") {
        return PathBuf::from(dir);
    }
    let manifest = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let root = manifest
        .ancestors()
        .find(|dir| dir.join(".deps").exists() || dir.join("Cargo.lock").exists())
        .unwrap_or(&manifest);
    root.join(".deps/vosk")
}

/// Puts `lib` at `to`: a hard link when both are on one file system (26 MB
/// not copied on every change), a copy otherwise.
fn place(lib: &Path, to: &Path) -> io::Result<()> {
    match fs::remove_file(to) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
        _ => {}
    }
    fs::hard_link(lib, to).or_else(|_| fs::copy(lib, to).map(|_| ()))
}
