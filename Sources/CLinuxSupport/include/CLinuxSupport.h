#ifndef CLINUXSUPPORT_H
#define CLINUXSUPPORT_H

/// Asks the kernel to send `sig` to this process when its parent thread exits
/// (prctl(PR_SET_PDEATHSIG)); prctl is variadic, which Swift cannot call directly.
int ib_set_parent_death_signal(int sig);

/// pipe2(fds, O_CLOEXEC): both ends close on exec, atomically (needs _GNU_SOURCE).
int ib_pipe_cloexec(int fds[2]);

/// memmem(3) (a GNU extension, hidden from Swift's Glibc module): whether `needle`
/// occurs in `haystack`.
int ib_contains_bytes(const void *haystack, unsigned long haystack_length, const void *needle,
                      unsigned long needle_length);

#endif
