import IntentBusCore
import IntentBusManifest

/// The allowed range of the numbers in an intent definition file (docs/definitions.md).
///
/// `minimum` and `maximum` are compared with request values as doubles and echoed in
/// dialogs; past 10^15 a double no longer holds every integer a dialog would show, and
/// no intent needs such a bound. Response code numbers fit a 32-bit value, as in
/// SiriKit.
package enum DefinitionLimits {
    /// `minimum` and `maximum` of a ranged parameter.
    package static let bound = -1e15...1e15
    /// `value` of a standard intent's response code.
    package static let codeValue = 0...1_000_000
    /// The largest `.intentdefinition` (or `Intents.strings`) read: Foundation parses a
    /// property list whole, so the size bounds the memory; home-assistant's 10 intents take 83 KB.
    package static let xcodeFileBytes = 4 << 20
}

extension DefinitionAssembler {
    /// Reports a parameter bound outside `DefinitionLimits.bound`, naming the key.
    func checkBound(_ bound: Marked<Double>?, key: String) {
        guard let bound, !DefinitionLimits.bound.contains(bound.value) else { return }
        context.withPath(.key(key)) {
            context.error("must be within -1e15…1e15, got \(JSON.double(bound.value).displayText)", at: bound.mark)
        }
    }

    /// Reports a response code number outside `DefinitionLimits.codeValue`.
    func checkCodeValue(_ value: Marked<Int>?) {
        guard let value, !DefinitionLimits.codeValue.contains(value.value) else { return }
        let range = DefinitionLimits.codeValue
        context.withPath(.key("value")) {
            context.error("must be within \(range.lowerBound)…\(range.upperBound), got \(value.value)", at: value.mark)
        }
    }
}
