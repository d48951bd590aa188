//! `station models install --lang L ARCHIVE`: a downloaded Vosk model put
//! where the config looks for it (issue 24 §3), checked as `station doctor`
//! checks it, with the words it lacks said.
//!
//! The archive is unpacked with `unzip` or `tar` beside the model folder, checked there, and only
//! then moved in place.

use crate::config::{Config, SpeechSettings};
use crate::doctor::Level;
use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Unpacks `archive` (.zip, .tar.gz, .tgz, .tar) into the model folder of
/// `lang` (from `config`'s `[speech] models`, or the default folder), after
/// checking that libvosk loads it; a model already there is kept beside it
/// as `<folder>.previous`.
pub fn install(lang: &str, config: Option<&Path>, archive: &Path) -> Result<()> {
    if station_voices::understand::Understanding::language(lang).is_err() {
        bail!("`{lang}` is not a language the station listens to ({})", crate::lang_arg::builtin_list());
    }
    let speech = match config {
        Some(path) => Config::load(path)?.speech,
        None => SpeechSettings::default(),
    };
    let target = speech.model_dir(lang);
    let parent = target.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent).with_context(|| format!("cannot create {}", parent.display()))?;
    let staging = parent.join(format!(".annexd-install-{lang}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&staging);
    std::fs::create_dir_all(&staging).with_context(|| format!("cannot create {}", staging.display()))?;
    let result = unpack_and_place(lang, archive, &staging, &target);
    let _ = std::fs::remove_dir_all(&staging);
    let finding = result?;
    println!("{}", finding.line());
    println!("installed: {}", target.display());
    Ok(())
}

fn unpack_and_place(
    lang: &str,
    archive: &Path,
    staging: &Path,
    target: &Path,
) -> Result<crate::doctor::Finding> {
    unpack(archive, staging)?;
    let model = find_model(staging).with_context(|| {
        format!("{} holds no Vosk model (no folder with am/ and conf/)", archive.display())
    })?;
    let item = format!("speech model {lang}");
    let finding = crate::doctor::check_model(&item, lang, &model, false);
    if matches!(finding.level, Level::Fail) && station_audio::speech::load_model(&model, lang).is_err() {
        bail!("{}", finding.found);
    }
    if target.exists() {
        let previous = PathBuf::from(format!("{}.previous", target.display()));
        let _ = std::fs::remove_dir_all(&previous);
        std::fs::rename(target, &previous)
            .with_context(|| format!("cannot move the old model aside to {}", previous.display()))?;
    }
    std::fs::rename(&model, target)
        .with_context(|| format!("cannot move the model to {}", target.display()))?;
    Ok(crate::doctor::Finding {
        found: finding.found.replace(&model.display().to_string(), &target.display().to_string()),
        ..finding
    })
}

/// Unpacks with the system's unzip or tar (Debian's `unzip`, `tar`).
fn unpack(archive: &Path, into: &Path) -> Result<()> {
    if !archive.is_file() {
        bail!("{} is not a file", archive.display());
    }
    let name = archive.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_ascii_lowercase();
    let mut cmd = if name.ends_with(".zip") {
        let mut c = Command::new("unzip");
        c.arg("-q").arg(archive).arg("-d").arg(into);
        c
    } else if name.ends_with(".tar.gz") || name.ends_with(".tgz") || name.ends_with(".tar") {
        let mut c = Command::new("tar");
        c.arg("-xf").arg(archive).arg("-C").arg(into);
        c
    } else {
        bail!(
            "{}: a .zip, .tar.gz or .tar archive is expected (as alphacephei.com/vosk/models gives them)",
            archive.display()
        );
    };
    let out = cmd.output().with_context(|| format!("cannot run {:?}", cmd.get_program()))?;
    if !out.status.success() {
        bail!("cannot unpack {}: {}", archive.display(), String::from_utf8_lossy(&out.stderr).trim());
    }
    Ok(())
}

/// The model folder in what was unpacked: the folder itself or one level down.
fn find_model(dir: &Path) -> Option<PathBuf> {
    let is_model = |d: &Path| d.join("am").is_dir() && d.join("conf").is_dir();
    if is_model(dir) {
        return Some(dir.to_owned());
    }
    let entries = std::fs::read_dir(dir).ok()?;
    entries.flatten().map(|e| e.path()).find(|p| p.is_dir() && is_model(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_archive_without_a_model_is_refused_and_nothing_is_placed() {
        let dir = std::env::temp_dir().join(format!("station-models-none-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("src/junk")).unwrap();
        std::fs::write(dir.join("src/junk/readme.txt"), "not a model").unwrap();
        let archive = dir.join("junk.tar");
        assert!(
            Command::new("tar")
                .arg("-cf")
                .arg(&archive)
                .arg("-C")
                .arg(dir.join("src"))
                .arg("junk")
                .status()
                .unwrap()
                .success()
        );
        let target = dir.join("models/de");
        let config = dir.join("station.toml");
        std::fs::write(&config, format!("[speech.models]\nde = \"{}\"\n", target.display())).unwrap();
        let err = install("de", Some(&config), &archive).unwrap_err().to_string();
        assert!(err.contains("holds no Vosk model"), "{err}");
        assert!(!target.exists());
        assert_eq!(std::fs::read_dir(dir.join("models")).unwrap().count(), 0, "the staging folder is gone");
        let _ = std::fs::remove_dir_all(dir);
    }
}
