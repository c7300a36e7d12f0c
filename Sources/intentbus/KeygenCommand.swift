import Foundation
import IntentBus
import IntentBusCLI
import PluginHost

/// `intentbus keygen NAME`: writes a CURVE key pair for a client or a remote plugin
/// (docs/security.md): NAME.key (the secret key, mode 0600) and NAME.pub (the public key,
/// to list in the host's manifest).
enum KeygenCommand {
    static let spec = CommandSpec(
        name: "keygen", summary: "write a CURVE key pair (NAME.key, 0600, and NAME.pub)",
        discussion: """
        Makes a CURVE key pair with libzmq and writes NAME.key (the secret key, readable by
        you only) and NAME.pub (the public key). List the public key in the host's manifest
        (host.clients, or a remote plugin's public_key); give the secret key file to the
        client (--key, INTENTBUS_CLIENT_KEY) or the plugin (INTENTBUS_CURVE_SECRET).
        An existing NAME.key is never overwritten.
        """,
        positionals: [PositionalSpec("NAME")],
        options: [.value("dir", "DIR", "where to write the files (default: the current directory)", completion: .file)],
        footer: "Exit codes: 0 written, 2 usage, 6 the files could not be written (or NAME.key exists).")

    static func run(_ args: Arguments) throws -> Int32 {
        guard args.positionals.count == 1, let name = args.positionals.first, !name.isEmpty, !name.contains("/") else {
            throw UsageError("keygen needs one NAME (letters, digits, . _ -), for NAME.key and NAME.pub")
        }
        guard CurveKeyPair.isAvailable else {
            printError("intentbus keygen: this libzmq was built without CURVE (zmq_has(\"curve\") is false)")
            return ExitCode.configError
        }
        let dir = args.value("dir") ?? FileManager.default.currentDirectoryPath
        let keys = try CurveKeyPair.generate()
        do {
            try StateDirectory.writeKeyFiles(keys, secretPath: "\(dir)/\(name).key", publicPath: "\(dir)/\(name).pub",
                                             comment: name)
        } catch {
            printError("intentbus keygen: \(error)")
            return ExitCode.configError
        }
        print("wrote \(dir)/\(name).key (secret, 0600) and \(dir)/\(name).pub")
        print("public key: \(keys.publicKey)")
        return ExitCode.success
    }
}
