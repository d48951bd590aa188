//! DGT electronic boards (in progress).
