//! Gives the `station` binary an rpath to the libvosk that station-audio
//! linked (`DEP_VOSK_LIB_DIR`, from its `links = "vosk"` build script), so
//! `target/*/station` runs without Cargo and without `LD_LIBRARY_PATH`.
//! scripts/package sets the packaged binary's own RUNPATH (`$ORIGIN`).

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=DEP_VOSK_LIB_DIR");
    if let Some(dir) = std::env::var_os("DEP_VOSK_LIB_DIR") {
        println!("cargo:rustc-link-arg-bins=-Wl,-rpath,{}", dir.to_string_lossy());
    }
}
