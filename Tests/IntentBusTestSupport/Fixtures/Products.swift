import Foundation

/// The package's build products, where `swift build` put the executables: the host, the
/// example plugins (Sources/Plugins) and the test plugins (Tests/Plugins).
package enum Products {
    /// The package's root: the first directory above this file that holds Package.swift.
    package static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url.path }
        }
        fatalError("no Package.swift above \(#filePath)")
    }()

    /// `INTENTBUS_BIN` when set (to test another build), else the debug build.
    package static var binDir: String { ProcessInfo.processInfo.environment["INTENTBUS_BIN"] ?? "\(root)/.build/debug" }
    package static func path(_ name: String) -> String { "\(binDir)/\(name)" }
    /// A file of the package, by its path from the root (`definitions/balance.yaml`).
    package static func file(_ relative: String) -> String { "\(root)/\(relative)" }
}
