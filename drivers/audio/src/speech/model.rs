//! Vosk models: which one each language needs, and loading it.

use std::path::{Path, PathBuf};

/// The small Vosk model a user installs for each spoken language, as
/// alphacephei.com/vosk/models names it; `None` where none is published
/// (Hungarian: the list has no Hungarian model, small or big).
pub fn expected_model(lang: &str) -> Option<&'static str> {
    match lang {
        "de" => Some("vosk-model-small-de-0.15"),
        "pl" => Some("vosk-model-small-pl-0.22"),
        "en" => Some("vosk-model-small-en-us-0.15"),
        "es" => Some("vosk-model-small-es-0.42"),
        "fr" => Some("vosk-model-small-fr-0.22"),
        "it" => Some("vosk-model-small-it-0.22"),
        "nl" => Some("vosk-model-small-nl-0.22"),
        "pt" => Some("vosk-model-small-pt-0.3"),
        "ru" => Some("vosk-model-small-ru-0.22"),
        "uk" => Some("vosk-model-small-uk-v3-small"),
        "cs" => Some("vosk-model-small-cs-0.4-rhasspy"),
        _ => None,
    }
}

/// Why a model cannot be used. The station runs on without speech input.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    /// Nothing at the configured path, and no Vosk model is published for
    /// the language to install there.
    #[error(
        "no speech model at {dir}, and none is published for `{lang}` (alphacephei.com/vosk/models lists no {lang} model); a Vosk model made for `{lang}` works when unpacked there"
    )]
    NonePublished {
        /// Where it was expected.
        dir: PathBuf,
        /// The language.
        lang: String,
    },
    /// Nothing at the configured path.
    #[error(
        "no speech model at {dir}: install {model} there (unpacked, so that {dir}/am and {dir}/conf exist)"
    )]
    Missing {
        /// Where it was expected.
        dir: PathBuf,
        /// What to install.
        model: String,
    },
    /// The folder exists but is not a Vosk model.
    #[error("{dir} is not a Vosk model (no am/ or conf/ folder): install {model} there")]
    NotAModel {
        /// The folder.
        dir: PathBuf,
        /// What to install.
        model: String,
    },
    /// libvosk refused to load it (damaged or incompatible).
    #[error(
        "libvosk could not load the model in {dir}: it is damaged or not a Vosk model; reinstall {model}"
    )]
    Rejected {
        /// The folder.
        dir: PathBuf,
        /// What to install.
        model: String,
    },
}

/// Loads the model for `lang` from `dir` through libvosk.
pub fn load_model(dir: &Path, lang: &str) -> Result<vosk::Model, ModelError> {
    let model = expected_model(lang).map_or_else(|| format!("a Vosk model for `{lang}`"), str::to_owned);
    if !dir.is_dir() {
        if expected_model(lang).is_none() {
            return Err(ModelError::NonePublished { dir: dir.to_owned(), lang: lang.to_owned() });
        }
        return Err(ModelError::Missing { dir: dir.to_owned(), model });
    }
    if !dir.join("am").is_dir() && !dir.join("conf").is_dir() {
        return Err(ModelError::NotAModel { dir: dir.to_owned(), model });
    }
    let path =
        dir.to_str().ok_or_else(|| ModelError::Rejected { dir: dir.to_owned(), model: model.clone() })?;
    vosk::set_log_level(vosk::LogLevel::Error);
    vosk::Model::new(path).ok_or(ModelError::Rejected { dir: dir.to_owned(), model })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error_of(dir: &Path, lang: &str) -> ModelError {
        match load_model(dir, lang) {
            Ok(_) => panic!("{} loaded as a model", dir.display()),
            Err(e) => e,
        }
    }

    #[test]
    fn a_missing_model_names_the_one_to_install() {
        let err = error_of(Path::new("/nonexistent/vosk-de"), "de").to_string();
        assert!(err.contains("vosk-model-small-de-0.15") && err.contains("/nonexistent/vosk-de"), "{err}");
        let err = error_of(Path::new("/nonexistent"), "pl").to_string();
        assert!(err.contains("vosk-model-small-pl-0.22"), "{err}");
        // The nine languages of issue 36, as alphacephei.com/vosk/models names their models.
        for (lang, model) in [
            ("es", "vosk-model-small-es-0.42"),
            ("fr", "vosk-model-small-fr-0.22"),
            ("it", "vosk-model-small-it-0.22"),
            ("nl", "vosk-model-small-nl-0.22"),
            ("pt", "vosk-model-small-pt-0.3"),
            ("ru", "vosk-model-small-ru-0.22"),
            ("uk", "vosk-model-small-uk-v3-small"),
            ("cs", "vosk-model-small-cs-0.4-rhasspy"),
        ] {
            let err = error_of(Path::new("/nonexistent"), lang).to_string();
            assert!(err.contains(&format!("install {model} there")), "{err}");
        }
        // Hungarian has none: the error says so and what he can do instead.
        let err = error_of(Path::new("/nonexistent/vosk-hu"), "hu");
        assert!(matches!(err, ModelError::NonePublished { .. }), "{err}");
        let err = err.to_string();
        assert!(err.contains("none is published for `hu`") && err.contains("/nonexistent/vosk-hu"), "{err}");
    }

    #[test]
    fn libvosk_itself_rejects_a_damaged_model() {
        // Reaches the real library: a folder shaped like a model but empty inside.
        let dir = std::env::temp_dir().join(format!("station-fake-model-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("am")).unwrap();
        std::fs::create_dir_all(dir.join("conf")).unwrap();
        let err = error_of(&dir, "en");
        assert!(matches!(err, ModelError::Rejected { .. }), "{err}");
        assert!(err.to_string().contains("vosk-model-small-en-us-0.15"));
        let _ = std::fs::remove_dir_all(dir);
    }
}
