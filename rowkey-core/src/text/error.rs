//! [`TextError`]: bad text input, naming the field.

use core::fmt;

/// Bad text input: names the field (its dotted path) and what was expected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextError {
    field: String,
    message: String,
}

impl TextError {
    /// An error about `field`.
    pub fn new(field: &str, message: impl Into<String>) -> Self {
        Self {
            field: field.to_owned(),
            message: message.into(),
        }
    }

    /// The field path (`a`, `inner.b`), empty when the error is about the whole input.
    pub fn field(&self) -> &str {
        &self.field
    }

    /// What is wrong.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for TextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.field.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "field `{}`: {}", self.field, self.message)
        }
    }
}

impl std::error::Error for TextError {}
