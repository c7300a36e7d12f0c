import Foundation
import IntentBusCore

/// The locale dates and numbers are formatted in. On Apple platforms `Locale.current` is
/// the user's; in a plugin process on Linux it is Foundation's fixed default (`en_001`,
/// whatever `LANG` says), so `date.formatted(date: .abbreviated, time: .omitted)` would
/// write "15 Dec 2026" in a German plugin. `Locale.intent` is the locale to pass instead:
/// the request's (REQUEST header `locale`), else the plugin's development region, else
/// `Locale.current`.
extension IntentLocale {
    private static let lock = Lock()
    // Guarded by `lock`: set once in main, read by every request's task.
    nonisolated(unsafe) private static var region: String?

    /// The language the plugin's source texts are written in (Xcode's development region,
    /// `CFBundleDevelopmentRegion`): `"de_DE"` for a plugin written in German. Set it in
    /// main, before `serve`; `APPINTENTS_DEVELOPMENT_REGION` overrides it.
    public static var developmentRegion: String? {
        get {
            if let given = ProcessInfo.processInfo.environment["APPINTENTS_DEVELOPMENT_REGION"], !given.isEmpty { return given }
            return lock.withLock { region }
        }
        set { lock.withLock { region = newValue } }
    }

    /// The locale to format in now: the request's, else the development region's, else
    /// `Locale.current`.
    public static var formatting: Locale {
        guard let identifier = current ?? developmentRegion else { return .current }
        return Locale(identifier: identifier.replacingOccurrences(of: "-", with: "_"))
    }
}

extension Locale {
    /// The locale of the request being served, for formatting in plugin code:
    /// `date.formatted(Date.FormatStyle(date: .abbreviated, time: .omitted, locale: .intent))`
    /// gives "15. Dez. 2026" in a German plugin (`IntentLocale.formatting`).
    public static var intent: Locale { IntentLocale.formatting }
}
