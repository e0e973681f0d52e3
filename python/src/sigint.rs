//! Ctrl-C during a run on the calling thread: while at least one run is in progress, SIGINT
//! goes first to [`on_sigint`], which raises every stop flag
//! ([`zeroone::backend::stop::raise_all`]) and then hands the signal to the handler that was
//! there before (Python's, which marks the signal for `check_signals`), so the run stops at its
//! next check and Python raises `KeyboardInterrupt` (or runs the user's handler) when it
//! returns. The handler is installed when the first run starts and put back when the last one
//! ends: two `sigaction` calls, a few microseconds, far less than a thread per run.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// The handler (address) and flags that were installed before ours, read by [`on_sigint`].
static PREVIOUS_HANDLER: AtomicUsize = AtomicUsize::new(libc::SIG_DFL);
static PREVIOUS_FLAGS: AtomicUsize = AtomicUsize::new(0);

/// Runs in progress, and the action to put back when the last one ends.
static INSTALLED: Mutex<(usize, Option<Saved>)> = Mutex::new((0, None));

struct Saved(libc::sigaction);

// SAFETY: a sigaction holds plain integers and a function address.
unsafe impl Send for Saved {}

extern "C" fn on_sigint(sig: libc::c_int, info: *mut libc::siginfo_t, context: *mut libc::c_void) {
    let handler = PREVIOUS_HANDLER.load(Ordering::Relaxed);
    if handler == libc::SIG_IGN {
        return;
    }
    // One atomic addition: async-signal-safe.
    zeroone::backend::stop::raise_all();
    // SAFETY: the address is the handler sigaction returned, called as its flags say; signal
    // and raise are async-signal-safe.
    unsafe {
        if handler == libc::SIG_DFL {
            libc::signal(sig, libc::SIG_DFL);
            libc::raise(sig);
        } else if PREVIOUS_FLAGS.load(Ordering::Relaxed) & libc::SA_SIGINFO as usize != 0 {
            let previous: extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void) =
                std::mem::transmute(handler);
            previous(sig, info, context);
        } else {
            let previous: extern "C" fn(libc::c_int) = std::mem::transmute(handler);
            previous(sig);
        }
    }
}

/// Our handler stays installed while a guard lives.
pub struct Guard(());

/// Installs the handler (if no run has it installed already).
pub fn guard() -> Guard {
    let mut installed = INSTALLED.lock().unwrap_or_else(|p| p.into_inner());
    if installed.0 == 0 {
        // SAFETY: zeroed sigaction structs filled here; sigaction reads and writes only them.
        unsafe {
            let mut ours: libc::sigaction = std::mem::zeroed();
            let handler: extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void) =
                on_sigint;
            ours.sa_sigaction = handler as usize;
            ours.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
            libc::sigemptyset(&mut ours.sa_mask);
            let mut previous: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(libc::SIGINT, &ours, &mut previous) == 0 {
                PREVIOUS_HANDLER.store(previous.sa_sigaction, Ordering::Relaxed);
                PREVIOUS_FLAGS.store(previous.sa_flags as usize, Ordering::Relaxed);
                installed.1 = Some(Saved(previous));
            }
        }
    }
    installed.0 += 1;
    Guard(())
}

impl Drop for Guard {
    fn drop(&mut self) {
        let mut installed = INSTALLED.lock().unwrap_or_else(|p| p.into_inner());
        installed.0 -= 1;
        if installed.0 == 0 {
            if let Some(Saved(previous)) = installed.1.take() {
                // SAFETY: puts back the action sigaction gave us.
                unsafe { libc::sigaction(libc::SIGINT, &previous, std::ptr::null_mut()) };
            }
        }
    }
}
