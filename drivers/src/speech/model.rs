//! Vosk models: which one each language needs, and loading it.

use std::path::{Path, PathBuf};

/// The small Vosk model a user installs for each spoken language.
pub fn expected_model(lang: &str) -> Option<&'static str> {
    match lang {
        "de" => Some("vosk-model-small-de-0.15"),
        "pl" => Some("vosk-model-small-pl-0.22"),
        "en" => Some("vosk-model-small-en-us-0.15"),
        _ => None,
    }
}

/// Why a model cannot be used. The station runs on without speech input.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
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
