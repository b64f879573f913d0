//! How a subcommand fails: a message for stderr (exit code 1).

use std::io;

use crate::text::TextError;

pub(super) enum Failure {
    Message(String),
}

impl Failure {
    pub(super) fn msg(m: impl Into<String>) -> Self {
        Failure::Message(m.into())
    }
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Self {
        Failure::Message(format!("I/O error: {e}"))
    }
}

impl From<TextError> for Failure {
    fn from(e: TextError) -> Self {
        Failure::Message(e.to_string())
    }
}

pub(super) type Res = Result<(), Failure>;
