import Foundation
import IntentBusCore

/// Passes one plugin's output lines on to the host's log, tagged with the plugin id and
/// pid, and keeps them in the `PluginLogBook`.
///
/// A line that is itself a JSON log object (an SDK logger in `json` format, which the host
/// asks for with `INTENTBUS_LOG_FORMAT=json`) keeps its level, message and fields such as
/// `request`; the host's `plugin` and `pid` win. Any other line is logged at info as
/// `| text`.
struct PluginOutputRelay: Sendable {
    let logger: Logger
    let logBook: PluginLogBook?
    let plugin: String
    let pid: pid_t

    func relay(_ line: String) {
        if line.hasPrefix("{"), let parsed = try? JSON.parse(line), let fields = parsed.objectValue,
           let message = fields["message"]?.stringValue {
            let level = fields["level"]?.stringValue.flatMap { Logger.Level(name: $0) } ?? .info
            var extra: [(String, String)] = []
            for (key, value) in fields.sorted(by: { $0.key < $1.key })
            where !["time", "level", "label", "message", "plugin", "pid"].contains(key) {
                extra.append((key, value.stringValue ?? value.canonicalString))
            }
            logBook?.append(plugin: plugin, pid: pid, text: "\(level.name) \(message)")
            logger.log(level, message, extra)
            return
        }
        logBook?.append(plugin: plugin, pid: pid, text: line)
        logger.info("| \(line)")
    }
}
