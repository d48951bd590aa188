// Shared by the build scripts of every package whose binaries may link libvosk:
// the library comes from the vosk==0.3.45 wheel that scripts/setup unpacks into
// .deps/vosk (or from VOSK_LIB_DIR), and binaries find it again through an rpath,
// so nothing has to be installed system-wide.
fn link_vosk() {
    println!("cargo:rerun-if-env-changed=VOSK_LIB_DIR");
    let dir = match std::env::var("VOSK_LIB_DIR") {
        Ok(dir) => std::path::PathBuf::from(dir),
        Err(_) => {
            let manifest = std::path::PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
            let mut root = manifest.as_path();
            // Walk up to the workspace root (the folder with .deps or Cargo.lock).
            while !root.join("Cargo.lock").exists() && !root.join(".deps").exists() {
                match root.parent() {
                    Some(p) => root = p,
                    None => break,
                }
            }
            root.join(".deps/vosk")
        }
    };
    if !dir.join("libvosk.so").exists() {
        println!("cargo:warning=libvosk.so not found in {} - run scripts/setup", dir.display());
    }
    println!("cargo:rerun-if-changed={}", dir.join("libvosk.so").display());
    println!("cargo:rustc-link-search=native={}", dir.display());
    println!("cargo:rustc-link-arg=-Wl,-rpath,{}", dir.display());
}
