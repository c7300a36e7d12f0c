#define _GNU_SOURCE
#include "CLinuxSupport.h"
#include <sys/prctl.h>
#include <fcntl.h>
#include <unistd.h>
#include <string.h>

int ib_set_parent_death_signal(int sig) {
    return prctl(PR_SET_PDEATHSIG, sig, 0, 0, 0);
}

int ib_pipe_cloexec(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}

int ib_contains_bytes(const void *haystack, unsigned long haystack_length, const void *needle,
                      unsigned long needle_length) {
    return memmem(haystack, haystack_length, needle, needle_length) != NULL;
}
