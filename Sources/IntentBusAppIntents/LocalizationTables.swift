import Foundation
import IntentBusCore

/// The plugin's string tables, by language, table and key, loaded from a directory
/// laid out as an Xcode project's: `de.lproj/Localizable.strings` (`"key" = "value";`)
/// and String Catalogs, `Localizable.xcstrings` (JSON; every language in one file).
///
/// The directory is `APPINTENTS_LOCALIZATIONS` when set, else what the plugin's main
/// passes to `IntentPlugin.serve(…, localizations:)` (a SwiftPM resource folder,
/// `Bundle.module.resourceURL`). A language is matched exactly (`de-DE`), then by its
/// language code (`de`); a key no table has keeps its default value.
///
/// Threading: loaded before `run()`, read afterwards; the lock makes a late load safe.
public final class LocalizationTables: @unchecked Sendable {
    // @unchecked: `tables` is only touched under `lock`.
    public static let shared = LocalizationTables()

    private let lock = Lock()
    private static let logger = Logger(label: "localization", minimumLevel: Logger.levelFromEnvironment)
    /// language → table → key → value.
    private var tables: [String: [String: [String: String]]] = [:]

    init() {
        if let dir = ProcessInfo.processInfo.environment["APPINTENTS_LOCALIZATIONS"], !dir.isEmpty {
            load(directory: URL(fileURLWithPath: dir))
        }
    }

    /// The languages with at least one table.
    public var languages: [String] { lock.withLock { tables.keys.sorted() } }

    /// Adds the `.lproj/*.strings` and `*.xcstrings` files under `directory` (not
    /// recursive beyond the `.lproj` folders). A file that does not parse is skipped and
    /// logged: a broken translation must not stop the plugin.
    public func load(directory: URL) {
        let fm = FileManager.default
        guard let entries = try? fm.contentsOfDirectory(atPath: directory.path) else { return }
        for entry in entries.sorted() {
            let url = directory.appendingPathComponent(entry)
            if entry.hasSuffix(".lproj") {
                let language = Self.normalised(String(entry.dropLast(6)))
                for file in ((try? fm.contentsOfDirectory(atPath: url.path)) ?? []).sorted() where file.hasSuffix(".strings") {
                    loadStrings(url.appendingPathComponent(file), language: language, table: String(file.dropLast(8)))
                }
            } else if entry.hasSuffix(".xcstrings") {
                loadCatalog(url, table: String(entry.dropLast(10)))
            }
        }
    }

    /// The translation of `key` in `table` for `locale`, or nil.
    public func lookup(_ key: String, table: String, locale: String?) -> String? {
        guard let locale else { return nil }
        let exact = Self.normalised(locale)
        let language = String(exact.prefix { $0 != "-" })
        return lock.withLock { tables[exact]?[table]?[key] ?? tables[language]?[table]?[key] }
    }

    private func add(_ pairs: [String: String], language: String, table: String) {
        lock.withLock { tables[language, default: [:]][table, default: [:]].merge(pairs) { _, new in new } }
    }

    private func loadStrings(_ url: URL, language: String, table: String) {
        // The old-style property list format: Foundation's parser reads it.
        guard let data = try? Data(contentsOf: url),
              let list = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: String] else {
            Self.logger.warning("skipping \(url.path): not a .strings file of \"key\" = \"value\"; pairs")
            return
        }
        add(list, language: language, table: table)
    }

    private func loadCatalog(_ url: URL, table: String) {
        guard let data = try? Data(contentsOf: url), let root = try? JSON.parse(data),
              let strings = root["strings"]?.objectValue else {
            Self.logger.warning("skipping \(url.path): not a String Catalog (JSON with \"strings\")")
            return
        }
        var byLanguage: [String: [String: String]] = [:]
        for (key, entry) in strings {
            for (language, localization) in entry["localizations"]?.objectValue ?? [:] {
                if let value = localization["stringUnit"]?["value"]?.stringValue {
                    byLanguage[Self.normalised(language), default: [:]][key] = value
                }
            }
        }
        for (language, pairs) in byLanguage { add(pairs, language: language, table: table) }
    }

    /// `de_DE` and `de-de` → `de-DE`; a language code alone in lower case.
    static func normalised(_ identifier: String) -> String {
        let parts = identifier.replacingOccurrences(of: "_", with: "-").split(separator: "-")
        guard let first = parts.first else { return identifier }
        return ([first.lowercased()] + parts.dropFirst().map { $0.count == 2 ? $0.uppercased() : String($0) }).joined(separator: "-")
    }
}
