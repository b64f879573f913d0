//! Error accumulator (serde_derive's `Ctxt`): every error of one input is reported together.
//! An accumulator dropped without [`Ctxt::check`] is a bug in the derive (errors would be lost),
//! so dropping one unchecked panics.

use std::cell::RefCell;
use std::fmt::Display;

use quote::ToTokens;

pub struct Ctxt {
    errors: RefCell<Option<Vec<syn::Error>>>,
}

impl Ctxt {
    pub fn new() -> Self {
        Ctxt {
            errors: RefCell::new(Some(Vec::new())),
        }
    }

    pub fn error_spanned_by<T: ToTokens, M: Display>(&self, obj: T, msg: M) {
        self.syn_error(syn::Error::new_spanned(obj.into_token_stream(), msg));
    }

    pub fn syn_error(&self, err: syn::Error) {
        if let Some(errors) = self.errors.borrow_mut().as_mut() {
            errors.push(err);
        }
    }

    pub fn check(self) -> syn::Result<()> {
        let mut errors = self
            .errors
            .borrow_mut()
            .take()
            .unwrap_or_default()
            .into_iter();
        let Some(mut combined) = errors.next() else {
            return Ok(());
        };
        for rest in errors {
            combined.combine(rest);
        }
        Err(combined)
    }
}

impl Drop for Ctxt {
    fn drop(&mut self) {
        if !std::thread::panicking() && self.errors.borrow().is_some() {
            panic!("rowkey-derive: an error accumulator was dropped without check()");
        }
    }
}
