#define _GNU_SOURCE
#include "CLinuxSupport.h"
#include <sys/prctl.h>
#include <sys/resource.h>
#include <fcntl.h>
#include <unistd.h>
#include <string.h>
#include <sys/syscall.h>
#include <spawn.h>
#include <sys/socket.h>

int ib_set_parent_death_signal(int sig) {
    return prctl(PR_SET_PDEATHSIG, sig, 0, 0, 0);
}

int ib_prlimit(int pid, int resource, unsigned long long soft, unsigned long long hard) {
    struct rlimit limit = { .rlim_cur = soft, .rlim_max = hard };
    return prlimit(pid, resource, &limit, NULL);
}

int ib_pidfd_open(int pid) {
    return (int)syscall(SYS_pidfd_open, pid, 0);
}

int ib_pidfd_send_signal(int pidfd, int sig) {
    return (int)syscall(SYS_pidfd_send_signal, pidfd, sig, NULL, 0);
}

int ib_pipe_cloexec(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}

int ib_contains_bytes(const void *haystack, unsigned long haystack_length, const void *needle,
                      unsigned long needle_length) {
    return memmem(haystack, haystack_length, needle, needle_length) != NULL;
}

int ib_spawn_file_actions_addchdir(void *actions, const char *path) {
    return posix_spawn_file_actions_addchdir_np((posix_spawn_file_actions_t *)actions, path);
}

int ib_peer_uid(int fd, unsigned int *uid) {
    struct ucred cred;
    socklen_t size = sizeof(cred);
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &size) != 0) return -1;
    *uid = cred.uid;
    return 0;
}
