//! A progress bar on stderr, drawn only when stderr is a terminal and the input's size is
//! known; otherwise every call does nothing.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Progress through the input, in bytes.
pub struct Progress {
    bar: Option<ProgressBar>,
}

impl Progress {
    /// A bar for `total` bytes of input, or a silent one when the size is unknown or
    /// stderr is not a terminal.
    pub fn new(total: Option<u64>) -> Progress {
        let bar = total
            .filter(|_| std::io::stderr().is_terminal())
            .map(|total| {
                let style = ProgressStyle::with_template(
                    "{bar:40} {bytes}/{total_bytes} {bytes_per_sec} eta {eta}",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar());
                ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr())
                    .with_style(style)
            });
        Progress { bar }
    }

    /// `bytes` more of the input are done.
    pub fn inc(&self, bytes: u64) {
        if let Some(bar) = &self.bar {
            bar.inc(bytes);
        }
    }

    /// Runs `f` (which writes to stderr) with the bar hidden.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        match &self.bar {
            Some(bar) => bar.suspend(f),
            None => f(),
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
