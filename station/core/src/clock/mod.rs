//! The chess clock (in progress).
