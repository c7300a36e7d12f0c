#ifndef CLINUXSUPPORT_H
#define CLINUXSUPPORT_H

#include <stddef.h>

/// Asks the kernel to send `sig` to this process when its parent thread exits
/// (prctl(PR_SET_PDEATHSIG)); prctl is variadic, which Swift cannot call directly.
int ib_set_parent_death_signal(int sig);

/// pipe2(fds, O_CLOEXEC): both ends close on exec, atomically (needs _GNU_SOURCE).
int ib_pipe_cloexec(int fds[2]);

/// memmem(3): Swift's Glibc module leaves out GNU extensions, so it is declared here.
void *ib_memmem(const void *haystack, size_t haystack_length, const void *needle, size_t needle_length);

#endif
