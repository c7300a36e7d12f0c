import Foundation
internal import CLinuxSupport

extension ChildProcess {
    /// Starts `spec.executable` with posix_spawn: its streams as the spec says, default
    /// signal handling and an empty signal mask, a process group of its own if asked;
    /// then opens its pidfd and sets its limits.
    ///
    /// Throws when it could not start (a missing or non-executable file, a stream's file
    /// that can't be opened); nothing is left running or open then.
    package static func spawn(_ spec: ProcessSpec) throws(SpawnError) -> ChildProcess {
        var streams = StreamSetup()
        defer { streams.closeChildEnds() }
        do {
            try streams.prepare(spec)
        } catch {
            streams.closeParentEnds()
            throw error
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (target, source) in streams.dup2s { posix_spawn_file_actions_adddup2(&actions, source, target) }
        if let directory = spec.workingDirectory {
            let rc = ib_spawn_file_actions_addchdir(&actions, directory)
            guard rc == 0 else {
                streams.closeParentEnds()
                throw SpawnError(path: directory, errno: rc, reason: "could not use working directory \(directory): \(String(cString: strerror(rc)))")
            }
        }

        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        var flags = POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK
        if spec.ownProcessGroup {
            posix_spawnattr_setpgroup(&attr, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        // Children start with default signal handling and nothing blocked, whatever this
        // process ignores or blocks (ignored signals would otherwise survive the exec).
        var all = sigset_t()
        sigfillset(&all)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attr, &all)
        posix_spawnattr_setsigmask(&attr, &none)
        posix_spawnattr_setflags(&attr, Int16(flags))

        let argv = [spec.executable] + spec.arguments
        let target = spec.executableDescriptor.map { "/proc/self/fd/\($0)" } ?? spec.executable
        let envp = spec.environment.map { "\($0.key)=\($0.value)" }.sorted()
        var pid: pid_t = 0
        let rc = withCStrings(argv) { cArgv in
            withCStrings(envp) { cEnv in posix_spawn(&pid, target, &actions, &attr, cArgv, cEnv) }
        }
        guard rc == 0 else {
            streams.closeParentEnds()
            // ENOENT from the working directory would otherwise read "executable not found".
            if rc == ENOENT, let directory = spec.workingDirectory, !FileManager.default.fileExists(atPath: directory) {
                throw SpawnError(path: directory, errno: rc, reason: "working directory not found: \(directory)")
            }
            throw SpawnError(path: spec.executable, errno: rc)
        }

        let pidfd = spec.opensPidfd ? ib_pidfd_open(pid) : -1
        let pidfdErrno = pidfd < 0 ? (spec.opensPidfd ? errno : ENOSYS) : nil
        var failures: [ResourceLimitFailure] = []
        for limit in spec.limits where ib_prlimit(pid, limit.resource.rawValue, limit.soft, limit.hard) != 0 {
            failures.append(ResourceLimitFailure(limit: limit, errno: errno))
        }
        return ChildProcess(pid: pid, executable: spec.executable, pidfd: pidfd >= 0 ? pidfd : nil,
                            pidfdErrno: pidfdErrno, pipes: streams.parentEnds, limitFailures: failures)
    }
}

/// The descriptors behind a spec's three streams: what the child gets on 0, 1 and 2,
/// and the parent's pipe ends. Every descriptor opened here is close-on-exec; dup2 onto
/// 0–2 in the child clears the flag there.
private struct StreamSetup {
    /// (child's descriptor, descriptor to put there).
    var dup2s: [(Int32, Int32)] = []
    var parentEnds: [Int32?] = [nil, nil, nil]
    private var childEnds: [Int32] = []

    mutating func prepare(_ spec: ProcessSpec) throws(SpawnError) {
        for (fd, stream) in [spec.standardInput, spec.standardOutput, spec.standardError].enumerated() {
            let target = Int32(fd)
            switch stream {
            case .inherit:
                break
            case .null:
                dup2s.append((target, try open("/dev/null", forOutput: target != 0, append: false)))
            case .file(let path, let append):
                dup2s.append((target, try open(path, forOutput: target != 0, append: append)))
            case .pipe:
                var fds: [Int32] = [-1, -1]
                guard ib_pipe_cloexec(&fds) == 0 else {
                    throw SpawnError(path: spec.executable, errno: errno,
                                     reason: "could not make a pipe for \(spec.executable): \(String(cString: strerror(errno)))")
                }
                // Input: the child reads fds[0]. Output: the child writes fds[1].
                let (childEnd, parentEnd) = target == 0 ? (fds[0], fds[1]) : (fds[1], fds[0])
                childEnds.append(childEnd)
                parentEnds[fd] = parentEnd
                dup2s.append((target, childEnd))
            case .sameAsOutput:
                guard target == 2 else {
                    throw SpawnError(path: spec.executable, errno: EINVAL,
                                     reason: "only standard error can be the same as standard output")
                }
                // Runs after 1 is set up, in the child: 2 becomes whatever 1 is.
                dup2s.append((2, 1))
            }
        }
    }

    private mutating func open(_ path: String, forOutput: Bool, append: Bool) throws(SpawnError) -> Int32 {
        let flags = forOutput ? O_WRONLY | O_CREAT | (append ? O_APPEND : O_TRUNC) : O_RDONLY
        let fd = Glibc.open(path, flags | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            let code = errno
            throw SpawnError(path: path, errno: code, reason: "could not open \(path) for the child's \(forOutput ? "output" : "input"): \(String(cString: strerror(code)))")
        }
        childEnds.append(fd)
        return fd
    }

    func closeChildEnds() { childEnds.forEach { close($0) } }

    func closeParentEnds() { parentEnds.forEach { if let fd = $0 { close(fd) } } }
}

/// Calls `body` with a NULL-terminated C array of the strings.
private func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
    let cStrings = strings.map { strdup($0) }
    defer { cStrings.forEach { free($0) } }
    return body(cStrings + [nil])
}
