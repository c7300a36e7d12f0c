import Foundation
import IntentBusCore
import IntentBusPlugin

/// How a client may show a number parameter (App Intents' `IntControlStyle` and
/// `DoubleControlStyle`). The host has no controls: the style is accepted for source
/// compatibility and not sent.
public enum ParameterControlStyle: Sendable {
    case automatic, field, stepper, slider
}

/// The inclusive ranges of number parameters, as App Intents writes them:
/// `inclusiveRange: (5, 180)`. The host checks the range at HELLO (a default outside it
/// is refused) and on every value, given or answered (`must be within 5…180`). An
/// optional number may stay absent; every item of a list must be in range.
///
/// Dates have no range: a bound on a date needs the user's time zone and "now", which the
/// host does not have (docs/migration.md, "Ranges on dates"); check dates in `perform()`.
extension IntentParameter where Value: IntentNumber {
    /// `@Parameter(title: "Dauer", default: 25, controlStyle: .field, inclusiveRange: (5, 180)) var minutes: Int`.
    public convenience init(title: LocalizedStringResource, description: LocalizedStringResource? = nil, default defaultValue: Value? = nil,
                            controlStyle: ParameterControlStyle = .automatic, inclusiveRange: (Value, Value),
                            requestValueDialog: IntentDialog? = nil) {
        self.init(title: title, description: description, default: defaultValue,
                  range: (inclusiveRange.0.intentJSON, inclusiveRange.1.intentJSON), requestValueDialog: requestValueDialog)
    }

    /// A number with a control style and no range.
    public convenience init(title: LocalizedStringResource, description: LocalizedStringResource? = nil, default defaultValue: Value? = nil,
                            controlStyle: ParameterControlStyle, requestValueDialog: IntentDialog? = nil) {
        self.init(title: title, description: description, default: defaultValue, range: nil, requestValueDialog: requestValueDialog)
    }
}

extension IntentParameter {
    /// An optional number with a range: `@Parameter(title: "Pause", inclusiveRange: (1, 30)) var breakMinutes: Int?`.
    public convenience init<N: IntentNumber>(title: LocalizedStringResource, description: LocalizedStringResource? = nil,
                                             default defaultValue: N? = nil, controlStyle: ParameterControlStyle = .automatic,
                                             inclusiveRange: (N, N), requestValueDialog: IntentDialog? = nil) where Value == N? {
        self.init(title: title, description: description, default: defaultValue.map { .some($0) },
                  range: (inclusiveRange.0.intentJSON, inclusiveRange.1.intentJSON), requestValueDialog: requestValueDialog)
    }

    /// A list of numbers whose every item lies in a range: `inclusiveRange: (1, 5)` on `[Int]`.
    public convenience init<N: IntentNumber>(title: LocalizedStringResource, description: LocalizedStringResource? = nil,
                                             default defaultValue: [N]? = nil, inclusiveRange: (N, N),
                                             requestValueDialog: IntentDialog? = nil) where Value == [N] {
        self.init(title: title, description: description, default: defaultValue,
                  range: (inclusiveRange.0.intentJSON, inclusiveRange.1.intentJSON), requestValueDialog: requestValueDialog)
    }

    /// An optional list of numbers whose every item lies in a range.
    public convenience init<N: IntentNumber>(title: LocalizedStringResource, description: LocalizedStringResource? = nil,
                                             default defaultValue: [N]? = nil, inclusiveRange: (N, N),
                                             requestValueDialog: IntentDialog? = nil) where Value == [N]? {
        self.init(title: title, description: description, default: defaultValue.map { .some($0) },
                  range: (inclusiveRange.0.intentJSON, inclusiveRange.1.intentJSON), requestValueDialog: requestValueDialog)
    }

    /// A text parameter with input options (App Intents' `String.IntentInputOptions`;
    /// kept for source compatibility, the host shows no keyboard).
    public convenience init(title: LocalizedStringResource, description: LocalizedStringResource? = nil, default defaultValue: String? = nil,
                            inputOptions: String.IntentInputOptions, requestValueDialog: IntentDialog? = nil) where Value == String {
        self.init(title: title, description: description, default: defaultValue, requestValueDialog: requestValueDialog)
    }

    /// An optional text parameter with input options.
    public convenience init(title: LocalizedStringResource, description: LocalizedStringResource? = nil, default defaultValue: String? = nil,
                            inputOptions: String.IntentInputOptions, requestValueDialog: IntentDialog? = nil) where Value == String? {
        self.init(title: title, description: description, default: defaultValue.map { .some($0) }, requestValueDialog: requestValueDialog)
    }
}

extension String {
    /// How a client's keyboard should behave for a text parameter (App Intents'
    /// `String.IntentInputOptions`). Not sent: the host has no keyboard.
    public struct IntentInputOptions: Sendable {
        public enum KeyboardType: Sendable { case `default`, numberPad, emailAddress, URL, phonePad, asciiCapable, decimalPad }
        public enum CapitalizationType: Sendable { case none, words, sentences, allCharacters }
        public var keyboardType: KeyboardType
        public var capitalizationType: CapitalizationType
        public var multiline: Bool
        public var autocorrect: Bool
        public var smartQuotes: Bool
        public var smartDashes: Bool

        public init(keyboardType: KeyboardType = .default, capitalizationType: CapitalizationType = .sentences,
                    multiline: Bool = false, autocorrect: Bool = true, smartQuotes: Bool = true, smartDashes: Bool = true) {
            self.keyboardType = keyboardType
            self.capitalizationType = capitalizationType
            self.multiline = multiline
            self.autocorrect = autocorrect
            self.smartQuotes = smartQuotes
            self.smartDashes = smartDashes
        }
    }
}
