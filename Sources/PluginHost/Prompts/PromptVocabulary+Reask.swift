import Foundation
import IntentBusCore

extension PromptVocabulary {
    /// The same question again after an answer that did not fit: `problem` says why, in
    /// front of the question's own dialog. A reason the question carried before (an
    /// `unsupported` text, an earlier `problem`) is dropped, so the client sees the new
    /// reason and not the previous one.
    static func reasked(_ prompt: JSON, problem: String) -> JSON {
        var o = prompt.objectValue ?? [:]
        var dialog = o["dialog"]?.stringValue ?? ""
        if let earlier = o.removeValue(forKey: "unsupported")?["dialog"]?.stringValue, dialog.hasPrefix(earlier + " ") {
            dialog.removeFirst(earlier.count + 1)
        }
        o["dialog"] = .string(problem + " " + dialog)
        o["problem"] = .string(problem)
        return .object(o)
    }
}
