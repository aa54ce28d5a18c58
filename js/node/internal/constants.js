// Linux's signal and errno numbers, as Node's os.constants has them; fs,
// child_process, os and process all read them from here.
export const SIGNALS = {
  SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGILL: 4, SIGTRAP: 5, SIGABRT: 6, SIGIOT: 6, SIGBUS: 7, SIGFPE: 8, SIGKILL: 9,
  SIGUSR1: 10, SIGSEGV: 11, SIGUSR2: 12, SIGPIPE: 13, SIGALRM: 14, SIGTERM: 15, SIGSTKFLT: 16, SIGCHLD: 17,
  SIGCONT: 18, SIGSTOP: 19, SIGTSTP: 20, SIGTTIN: 21, SIGTTOU: 22, SIGURG: 23, SIGXCPU: 24, SIGXFSZ: 25,
  SIGVTALRM: 26, SIGPROF: 27, SIGWINCH: 28, SIGIO: 29, SIGPOLL: 29, SIGPWR: 30, SIGSYS: 31,
};

/** Signal names by number; the first name wins where two share one (SIGABRT, not SIGIOT). */
export const SIGNAL_NAMES = {};
for (const [name, number] of Object.entries(SIGNALS)) SIGNAL_NAMES[number] ??= name;

export const ERRNO = {
  EPERM: 1, ENOENT: 2, ESRCH: 3, EINTR: 4, EIO: 5, E2BIG: 7, EBADF: 9, ECHILD: 10, EAGAIN: 11, ENOMEM: 12,
  EACCES: 13, EBUSY: 16, EEXIST: 17, ENOTDIR: 20, EISDIR: 21, EINVAL: 22, EMFILE: 24, ENOSPC: 28, EPIPE: 32,
  ENOTEMPTY: 39, ELOOP: 40, EADDRINUSE: 98, ECONNRESET: 104, ETIMEDOUT: 110, ECONNREFUSED: 111,
};

/** The `errno` Node puts on a system error: the negated number, -1 when unknown. */
export function errnoOf(code) {
  return ERRNO[code] === undefined ? -1 : -ERRNO[code];
}
