//! Key-sequence tests: the app driven without a terminal.
