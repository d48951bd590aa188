//! `station hall credentials --boards N`: one password per station and one
//! for the hall view, a Mosquitto password file (hashed by `mosquitto_passwd`
//! when it is installed) and an ACL that lets each station write only under
//! its own board's topic.

use super::check_name;
use anyhow::{Context, Result, bail};
use std::fmt::Write as _;
use std::path::Path;

/// Writes `passwd`, `acl`, `board-N.login` and `hall-view.login` into `out`.
pub fn write(hall: &str, boards: u32, out: &Path) -> Result<()> {
    check_name("hall", hall)?;
    if boards == 0 || boards > 10_000 {
        bail!("--boards must be 1 to 10000");
    }
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    let mut passwd = String::new();
    let mut acl = String::new();
    let _ = writeln!(acl, "# Written by `station hall credentials`: each station writes only its own board.");
    let view_pass = password()?;
    let _ = writeln!(passwd, "hall-view:{view_pass}");
    let _ = writeln!(acl, "\nuser hall-view\ntopic read annexd/{hall}/#\ntopic write annexd/{hall}/replay");
    secret(&out.join("hall-view.login"), &format!("hall-view:{view_pass}\n"))?;
    for n in 1..=boards {
        let user = format!("board-{n}");
        let pass = password()?;
        let _ = writeln!(passwd, "{user}:{pass}");
        let _ =
            writeln!(acl, "\nuser {user}\ntopic write annexd/{hall}/{n}/#\ntopic read annexd/{hall}/replay");
        secret(&out.join(format!("{user}.login")), &format!("{user}:{pass}\n"))?;
    }
    let passwd_path = out.join("passwd");
    secret(&passwd_path, &passwd)?;
    std::fs::write(out.join("acl"), acl).context("cannot write the ACL")?;
    // Mosquitto wants hashed passwords; its own tool hashes the file in place.
    match std::process::Command::new("mosquitto_passwd").arg("-U").arg(&passwd_path).status() {
        Ok(s) if s.success() => println!("credentials: {} (hashed)", passwd_path.display()),
        _ => println!(
            "credentials: {} is plain text: run `mosquitto_passwd -U {}`",
            passwd_path.display(),
            passwd_path.display()
        ),
    }
    println!("acl: {}", out.join("acl").display());
    println!("logins: {} stations and the hall view in {}", boards, out.display());
    Ok(())
}

/// A file only its owner may read.
fn secret(path: &Path, text: &str) -> Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(path)
        .with_context(|| format!("cannot write {}", path.display()))?;
    f.write_all(text.as_bytes())?;
    Ok(())
}

/// 128 random bits as hex.
fn password() -> Result<String> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|e| anyhow::anyhow!("no random source: {e}"))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}
