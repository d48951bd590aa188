//! Record tests.
