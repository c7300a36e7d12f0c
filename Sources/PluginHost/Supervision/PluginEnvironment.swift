import Foundation

/// The environment a plugin process starts with: a short allow-list of the host's
/// variables, those its entry names in `inherit_env:`, its `env:`, then what the host sets
/// (`INTENTBUS_BACKEND`, `INTENTBUS_TOKEN`, …).
///
/// A plugin never inherits the host's whole environment: that holds cloud keys, database
/// passwords, `INTENTBUS_CREDENTIAL` and the like, which a plugin has no business with
/// (issue 23; docs/security.md, "Plugin environment").
package enum PluginEnvironment {
    /// What every plugin gets from the host's environment, when the host has it: where
    /// programs are, whose home, the language, time zone and temporary directory, and
    /// what the sanitizers and coverage tools need to follow a child. None is a secret.
    package static let allowed: Set<String> = [
        "PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LANGUAGE", "TZ", "TMPDIR", "TERM",
        "INTENTBUS_LOG", "INTENTBUS_LOG_FORMAT",
        "ASAN_OPTIONS", "TSAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS", "LLVM_PROFILE_FILE",
    ]

    /// Prefixes allowed likewise: the locale's categories.
    package static let allowedPrefixes = ["LC_"]

    /// The base environment of a plugin whose entry names `inherited`, from the host's
    /// `environment`; the entry's `env:` and the host's own variables go on top.
    package static func base(from environment: [String: String], inheriting inherited: [String]) -> [String: String] {
        let named = Set(inherited)
        return environment.filter { name, _ in
            allowed.contains(name) || named.contains(name) || allowedPrefixes.contains { name.hasPrefix($0) }
        }
    }
}
