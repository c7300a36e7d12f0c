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
/// prlimit(pid, resource, {soft, hard}, NULL): sets a limit of another process (a plugin
/// just spawned); Swift's Glibc module does not declare prlimit. 0 or -1 with errno.
int ib_prlimit(int pid, int resource, unsigned long long soft, unsigned long long hard);

/// pidfd_open(pid, 0), close-on-exec: a descriptor that becomes readable when the process
/// exits, and through which it can be signalled without a pid-reuse race. -1 with errno
/// (ENOSYS before Linux 5.3, EPERM under some seccomp filters).
int ib_pidfd_open(int pid);

/// pidfd_send_signal(pidfd, sig, NULL, 0): 0 or -1 with errno (ESRCH once it has exited).
int ib_pidfd_send_signal(int pidfd, int sig);

/// posix_spawn_file_actions_addchdir_np(actions, path) (a GNU extension, hidden from
/// Swift's Glibc module): the child changes to `path` before the exec. `actions` is a
/// posix_spawn_file_actions_t *. 0 or an errno.
int ib_spawn_file_actions_addchdir(void *actions, const char *path);

/// getsockopt(SO_PEERCRED) (struct ucred needs _GNU_SOURCE): the uid of the process at
/// the other end of a unix-domain socket. 0, or -1 with errno (ENOTSOCK, EBADF; a TCP
/// socket has no peer credentials).
int ib_peer_uid(int fd, unsigned int *uid);

#endif
