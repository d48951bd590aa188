//! Tracking a board that senses pieces, not only pegs (DGT e-boards) (in progress).
