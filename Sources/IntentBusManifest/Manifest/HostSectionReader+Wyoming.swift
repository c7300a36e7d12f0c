import Foundation

extension HostSectionReader {
    /// The module the default command runs.
    static let wyomingModule = "intentbus.wyoming_service"

    /// How the service is started: `command` as given (its program resolved like a
    /// plugin's `exec`), else the first of
    /// 1. `.venv/bin/python` beside the manifest (the repository's venv, `make python-venv`),
    /// 2. `intentbus-wyoming` on `PATH` (`pip install intentbus[wyoming]`),
    /// 3. `python3` on `PATH`,
    /// the Pythons with `-m intentbus.wyoming_service`.
    func wyomingCommand(_ command: Marked<ExecCommandLine>?) -> (PluginExec, String) {
        if let command {
            let program = command.value.program
            let path = program.contains("/") || program.hasPrefix("~")
                ? resolve(program) : Self.searchPATH(for: program) ?? resolve(program)
            if !FileManager.default.isExecutableFile(atPath: path) {
                let state = FileManager.default.fileExists(atPath: path) ? "is not executable" : "does not exist (yet)"
                context.withPath(.key("command")) {
                    context.warning("\(path) \(state); the host will retry starting the service", at: command.mark)
                }
            }
            return (PluginExec(path: path, arguments: command.value.arguments), "host.wyoming.command")
        }
        let venv = resolve(".venv/bin/python")
        if FileManager.default.isExecutableFile(atPath: venv) {
            return (PluginExec(path: venv, arguments: ["-m", Self.wyomingModule]), "the .venv beside the manifest")
        }
        if let script = Self.searchPATH(for: "intentbus-wyoming") {
            return (PluginExec(path: script, arguments: []), "intentbus-wyoming on PATH")
        }
        let python = Self.searchPATH(for: "python3") ?? "/usr/bin/python3"
        return (PluginExec(path: python, arguments: ["-m", Self.wyomingModule]),
                "python3 on PATH (no .venv beside the manifest, no intentbus-wyoming on PATH)")
    }

    /// The endpoint the service connects to: the frontend, whose wildcard tcp address
    /// (`0.0.0.0`, `*`, `[::]`) it reaches on loopback. An inproc (or other) frontend is
    /// out of another process's reach: an error.
    func wyomingEndpoint(_ host: HostSettings, at mark: SourceMark) -> String? {
        let frontend = host.frontend
        if frontend.hasPrefix("ipc://") { return frontend }
        guard frontend.hasPrefix("tcp://") else {
            context.error("the service connects to the host's frontend from its own process, so the frontend must be ipc:// or tcp://, not \(frontend)", at: mark)
            return nil
        }
        let address = frontend.dropFirst(6)
        guard let colon = address.lastIndex(of: ":") else { return frontend }
        let port = address[colon...]
        switch address[..<colon] {
        case "0.0.0.0", "*": return "tcp://127.0.0.1\(port)"
        case "[::]": return "tcp://[::1]\(port)"
        default: return frontend
        }
    }

    /// On a CURVE frontend (tcp without `insecure`), the service is a client like any
    /// other: `client_key` is its secret key file (its public key listed in `host.clients`),
    /// and the host's public key is `host.pub` in the state directory. Elsewhere
    /// `client_key` does nothing (a warning).
    func wyomingKeys(_ clientKey: Marked<String>?, host: HostSettings, at mark: SourceMark) -> (String?, String?) {
        let curve = host.frontend.hasPrefix("tcp://") && !host.insecure
        guard curve else {
            if let clientKey {
                context.withPath(.key("client_key")) {
                    context.warning("does nothing: the frontend \(host.frontend) takes no CURVE keys", at: clientKey.mark)
                }
            }
            return (nil, nil)
        }
        guard let clientKey else {
            context.error("the frontend \(host.frontend) takes CURVE clients only: set client_key to the service's secret key file (its public key listed in host.clients)", at: mark)
            return (nil, nil)
        }
        let path = resolve(clientKey.value)
        if !FileManager.default.isReadableFile(atPath: path) {
            error("cannot read \(path)", key: "client_key", at: clientKey.mark)
            return (nil, nil)
        }
        return (path, "\(host.stateDirectory)/host.pub")
    }
}
