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

/// The connection gate (connection_gate.c): the decision on a connection libzmq just
/// accepted on `listener`, as descriptor `fd`, called on libzmq's I/O thread.
enum { IB_GATE_REFUSE = 0, IB_GATE_UNTRACKED = 1, IB_GATE_KEEP = 2, IB_GATE_KEEP_FOLLOWED = 3 };
typedef int (*ib_gate_accept_callback)(int listener, int fd);
/// A kept connection's descriptor is being closed (before the number can be reused).
typedef void (*ib_gate_close_callback)(int fd);

/// Turns the gate on, once, for descriptors below `descriptors` (the soft RLIMIT_NOFILE):
/// `accept_callback` decides on every accepted connection (IB_GATE_KEEP_FOLLOWED: kept,
/// and its ZMTP frames followed), `close_callback` hears of each kept one's close, and a
/// followed NULL-mechanism connection whose message passes `message_frames` frames or
/// `message_bytes` bytes (0: no limit) is reset. `handshake_callback` hears of each
/// followed connection whose handshake the host completed (it sent READY).
void ib_gate_install(int descriptors, ib_gate_accept_callback accept_callback, ib_gate_close_callback close_callback,
                     ib_gate_close_callback handshake_callback, unsigned long long message_frames,
                     unsigned long long message_bytes);

/// How many connections the gate has reset for a message over its limits; `frames` and
/// `bytes` are the last one's counts when it was cut.
unsigned long ib_gate_cuts(unsigned long long *frames, unsigned long long *bytes);

/// The local address of socket `fd` as "ipc:PATH" or "tcp:PORT", into `buffer`: 0, or -1.
int ib_socket_key(int fd, char *buffer, unsigned long length);

#endif
