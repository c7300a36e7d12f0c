// The host's connection gate (docs/reliability.md, "File descriptors" and "Memory").
//
// libzmq 4.3 decides alone what to accept and reads a peer's frames into memory until the
// last one of a message has come: it has no hook at accept time, and nothing bounds the
// frames of one message (ZMQ_MAXMSGSIZE bounds each frame; the high-water marks count
// whole messages). Its listeners and engines call accept4(2), recv(2) and close(2)
// through the PLT, so a program that defines those functions sees every call: these
// definitions, linked into the executable, run the host's decisions on libzmq's I/O
// thread, at the moment libzmq acts, on the descriptor it acts on. Until
// ib_gate_install is called they only pass the call on, so other programs that link
// this target (plugins, tests) are unaffected.
//
// On a watched connection (one the gate kept) recv() follows ZMTP 3's framing of what
// libzmq reads (a 64-byte greeting, then frames: a flags byte, a 1- or 8-byte size, the
// body). A NULL-mechanism connection whose current message passes the frame or byte
// limit gets ECONNRESET from recv(): libzmq ends the connection as for any reset and
// frees what it held of the message. Under CURVE the MORE flag is inside the encrypted
// box, so such a connection is not followed (ZAP has authenticated it first).
#define _GNU_SOURCE
#include "CLinuxSupport.h"
#include <dlfcn.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <unistd.h>

typedef int (*accept4_fn)(int, struct sockaddr *, socklen_t *, int);
typedef int (*accept_fn)(int, struct sockaddr *, socklen_t *);
typedef ssize_t (*recv_fn)(int, void *, size_t, int);
typedef int (*close_fn)(int);
typedef ssize_t (*send_fn)(int, const void *, size_t, int);

static accept4_fn real_accept4;
static accept_fn real_accept;
static recv_fn real_recv;
static close_fn real_close;
static send_fn real_send;

// Resolved on first use: libraries' constructors may close a descriptor before this
// program's own constructors run. Two threads resolving at once store the same value.
#define REAL(name, type) (real_##name != NULL ? real_##name : (real_##name = (type)dlsym(RTLD_NEXT, #name)))

enum phase { GREETING, FLAGS, SIZE, BODY, UNFOLLOWED };

/// One descriptor's state. `tracked` is set by accept and cleared by close, both on the
/// I/O thread that owns the connection; the parser fields are that thread's alone.
struct connection {
    _Atomic unsigned char tracked;
    unsigned char phase;
    unsigned char flags;
    unsigned char size_left;
    unsigned char greeting[32];
    unsigned short greeting_read;
    uint64_t size;
    uint64_t body_left;
    uint64_t message_frames;
    uint64_t message_bytes;
    // What libzmq sends on it, followed until its READY command: the handshake is over
    // (under CURVE, the peer's keys were checked and ZAP said yes) once the host says READY.
    unsigned char out_phase;
    unsigned char out_flags;
    unsigned char out_size_left;
    unsigned char out_name[6];
    unsigned short out_greeting_sent;
    uint64_t out_size;
    uint64_t out_body_left;
    uint64_t out_body_seen;
};

static struct connection *connections;
static int connection_count;
static ib_gate_accept_callback on_accept;
static ib_gate_close_callback on_close;
static ib_gate_close_callback on_handshake;
static uint64_t max_frames;
static uint64_t max_bytes;
static _Atomic unsigned long cut_count;
static _Atomic unsigned long long cut_frames;
static _Atomic unsigned long long cut_bytes;

void ib_gate_install(int descriptors, ib_gate_accept_callback accept_callback, ib_gate_close_callback close_callback,
                     ib_gate_close_callback handshake_callback, unsigned long long message_frames,
                     unsigned long long message_bytes) {
    if (connections != NULL || descriptors <= 0) return;
    on_handshake = handshake_callback;
    max_frames = message_frames;
    max_bytes = message_bytes;
    on_close = close_callback;
    connection_count = descriptors;
    connections = calloc((size_t)descriptors, sizeof(struct connection));
    if (connections == NULL) return;
    on_accept = accept_callback;  // last: the gate acts once everything is set
}

unsigned long ib_gate_cuts(unsigned long long *frames, unsigned long long *bytes) {
    *frames = atomic_load(&cut_frames);
    *bytes = atomic_load(&cut_bytes);
    return atomic_load(&cut_count);
}

static int admit(int listener, int fd) {
    if (fd < 0 || on_accept == NULL) return fd;
    int verdict = on_accept(listener, fd);
    if (verdict == IB_GATE_REFUSE) {
        REAL(close, close_fn)(fd);
        errno = ECONNABORTED;  // what libzmq's listeners ignore: the peer simply went away
        return -1;
    }
    if (verdict != IB_GATE_UNTRACKED && fd < connection_count) {
        struct connection *c = &connections[fd];
        memset((char *)c + sizeof c->tracked, 0, sizeof *c - sizeof c->tracked);
        c->phase = verdict == IB_GATE_KEEP_FOLLOWED ? GREETING : UNFOLLOWED;
        c->out_phase = verdict == IB_GATE_KEEP_FOLLOWED ? GREETING : UNFOLLOWED;
        atomic_store(&c->tracked, 1);
    }
    return fd;
}

int accept4(int listener, struct sockaddr *address, socklen_t *length, int flags) {
    return admit(listener, REAL(accept4, accept4_fn)(listener, address, length, flags));
}

int accept(int listener, struct sockaddr *address, socklen_t *length) {
    return admit(listener, REAL(accept, accept_fn)(listener, address, length));
}

int close(int fd) {
    if (connections != NULL && fd >= 0 && fd < connection_count && atomic_load(&connections[fd].tracked)) {
        // Before the number can be reused by the next accept.
        atomic_store(&connections[fd].tracked, 0);
        if (on_close != NULL) on_close(fd);
    }
    return REAL(close, close_fn)(fd);
}

/// Follows `n` bytes libzmq read from `c`; 0, or -1 when its message is over the limits.
static int follow(struct connection *c, const unsigned char *p, size_t n) {
    while (n > 0) {
        switch (c->phase) {
        case GREETING: {
            // Signature (10), version (2), mechanism (20), as-server, filler: 64 bytes.
            unsigned short at = c->greeting_read++;
            if (at < sizeof c->greeting) c->greeting[at] = *p;
            p++, n--;
            if (at == 10 && (c->greeting[0] != 0xFF || c->greeting[10] < 3)) c->phase = UNFOLLOWED;  // ZMTP 1 or 2
            if (at == 31) {
                static const char null_mechanism[20] = "NULL";
                if (memcmp(c->greeting + 12, null_mechanism, 20) != 0) c->phase = UNFOLLOWED;
            }
            if (c->greeting_read == 64 && c->phase == GREETING) c->phase = FLAGS;
            break;
        }
        case FLAGS:
            c->flags = *p++, n--;
            c->size = 0;
            c->size_left = (c->flags & 0x02) ? 8 : 1;
            c->phase = SIZE;
            break;
        case SIZE:
            c->size = (c->size << 8) | *p++, n--;
            if (--c->size_left > 0) break;
            if (!(c->flags & 0x04)) {  // a message frame, not a command
                c->message_frames += 1;
                c->message_bytes += c->size;
                if ((max_frames && c->message_frames > max_frames) || (max_bytes && c->message_bytes > max_bytes)) {
                    atomic_fetch_add(&cut_count, 1);
                    atomic_store(&cut_frames, c->message_frames);
                    atomic_store(&cut_bytes, c->message_bytes);
                    c->phase = UNFOLLOWED;
                    return -1;
                }
                if (!(c->flags & 0x01)) c->message_frames = c->message_bytes = 0;  // its last frame
            }
            c->body_left = c->size;
            c->phase = c->body_left > 0 ? BODY : FLAGS;
            break;
        case BODY: {
            size_t take = c->body_left < n ? (size_t)c->body_left : n;
            c->body_left -= take;
            p += take, n -= take;
            if (c->body_left == 0) c->phase = FLAGS;
            break;
        }
        default:
            return 0;
        }
    }
    return 0;
}

ssize_t recv(int fd, void *buffer, size_t length, int flags) {
    ssize_t n = REAL(recv, recv_fn)(fd, buffer, length, flags);
    if (n <= 0 || connections == NULL || fd >= connection_count || fd < 0 || (flags & MSG_PEEK)) return n;
    struct connection *c = &connections[fd];
    if (!atomic_load_explicit(&c->tracked, memory_order_relaxed) || c->phase == UNFOLLOWED) return n;
    if (follow(c, buffer, (size_t)n) != 0) {
        shutdown(fd, SHUT_RDWR);
        errno = ECONNRESET;
        return -1;
    }
    return n;
}

int ib_socket_key(int fd, char *buffer, unsigned long length) {
    struct sockaddr_storage address;
    socklen_t size = sizeof address;
    if (length == 0 || getsockname(fd, (struct sockaddr *)&address, &size) != 0) return -1;
    if (address.ss_family == AF_UNIX) {
        const struct sockaddr_un *u = (const struct sockaddr_un *)&address;
        size_t n = size > offsetof(struct sockaddr_un, sun_path) ? strnlen(u->sun_path, size - offsetof(struct sockaddr_un, sun_path)) : 0;
        return snprintf(buffer, length, "ipc:%.*s", (int)n, u->sun_path) < (int)length ? 0 : -1;
    }
    if (address.ss_family == AF_INET) {
        return snprintf(buffer, length, "tcp:%u", ntohs(((const struct sockaddr_in *)&address)->sin_port)) < (int)length ? 0 : -1;
    }
    if (address.ss_family == AF_INET6) {
        return snprintf(buffer, length, "tcp:%u", ntohs(((const struct sockaddr_in6 *)&address)->sin6_port)) < (int)length ? 0 : -1;
    }
    return -1;
}

/// Follows what libzmq sends on `c` until its READY command; 1 when that was just sent.
static int follow_out(struct connection *c, const unsigned char *p, size_t n) {
    while (n > 0) {
        switch (c->out_phase) {
        case GREETING: {
            size_t take = 64 - c->out_greeting_sent < n ? 64 - c->out_greeting_sent : n;
            c->out_greeting_sent += (unsigned short)take;
            p += take, n -= take;
            if (c->out_greeting_sent == 64) c->out_phase = FLAGS;
            break;
        }
        case FLAGS:
            c->out_flags = *p++, n--;
            c->out_size = 0;
            c->out_size_left = (c->out_flags & 0x02) ? 8 : 1;
            c->out_phase = SIZE;
            break;
        case SIZE:
            c->out_size = (c->out_size << 8) | *p++, n--;
            if (--c->out_size_left > 0) break;
            c->out_body_left = c->out_size;
            c->out_body_seen = 0;
            c->out_phase = c->out_size > 0 ? BODY : FLAGS;
            break;
        case BODY: {
            while (n > 0 && c->out_body_left > 0 && c->out_body_seen < sizeof c->out_name) {
                c->out_name[c->out_body_seen++] = *p++;
                n--, c->out_body_left--;
            }
            size_t take = c->out_body_left < n ? (size_t)c->out_body_left : n;
            c->out_body_left -= take;
            p += take, n -= take;
            if (c->out_body_left > 0) break;
            c->out_phase = FLAGS;
            if ((c->out_flags & 0x04) && c->out_body_seen == sizeof c->out_name && memcmp(c->out_name, "\x05READY", 6) == 0) {
                c->out_phase = UNFOLLOWED;
                return 1;
            }
            break;
        }
        default:
            return 0;
        }
    }
    return 0;
}

ssize_t send(int fd, const void *buffer, size_t length, int flags) {
    ssize_t n = REAL(send, send_fn)(fd, buffer, length, flags);
    if (n <= 0 || connections == NULL || fd >= connection_count || fd < 0) return n;
    struct connection *c = &connections[fd];
    if (!atomic_load_explicit(&c->tracked, memory_order_relaxed) || c->out_phase == UNFOLLOWED) return n;
    if (follow_out(c, buffer, (size_t)n) && on_handshake != NULL) on_handshake(fd);
    return n;
}
