import Foundation
import IntentBusCore
import IntentBusPlugin

/// How a client may show a number parameter (App Intents' `IntControlStyle` and
/// `DoubleControlStyle`): the metadata's and the value PROMPT's `control_style`
/// (`field`, `stepper`, `slider`; `automatic` is not sent).
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
                  range: (inclusiveRange.0.intentJSON, inclusiveRange.1.intentJSON), requestValueDialog: requestValueDialog,
                  controlStyle: controlStyle)
    }

    /// A number with a control style and no range.
    public convenience init(title: LocalizedStringResource, description: LocalizedStringResource? = nil, default defaultValue: Value? = nil,
                            controlStyle: ParameterControlStyle, requestValueDialog: IntentDialog? = nil) {
        self.init(title: title, description: description, default: defaultValue, range: nil, requestValueDialog: requestValueDialog,
                  controlStyle: controlStyle)
    }
}

extension IntentParameter {
    /// An optional number with a range: `@Parameter(title: "Pause", inclusiveRange: (1, 30)) var breakMinutes: Int?`.
    public convenience init<N: IntentNumber>(title: LocalizedStringResource, description: LocalizedStringResource? = nil,
                                             default defaultValue: N? = nil, controlStyle: ParameterControlStyle = .automatic,
                                             inclusiveRange: (N, N), requestValueDialog: IntentDialog? = nil) where Value == N? {
        self.init(title: title, description: description, default: defaultValue.map { .some($0) },
                  range: (inclusiveRange.0.intentJSON, inclusiveRange.1.intentJSON), requestValueDialog: requestValueDialog,
                  controlStyle: controlStyle)
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

    /// A text parameter with input options (App Intents' `String.IntentInputOptions`):
    /// the metadata's and the value PROMPT's `input_options`, for a client's keyboard.
    public convenience init(title: LocalizedStringResource, description: LocalizedStringResource? = nil, default defaultValue: String? = nil,
                            inputOptions: String.IntentInputOptions, requestValueDialog: IntentDialog? = nil) where Value == String {
        self.init(title: title, description: description, default: defaultValue, range: nil, requestValueDialog: requestValueDialog,
                  inputOptions: inputOptions)
    }

    /// An optional text parameter with input options.
    public convenience init(title: LocalizedStringResource, description: LocalizedStringResource? = nil, default defaultValue: String? = nil,
                            inputOptions: String.IntentInputOptions, requestValueDialog: IntentDialog? = nil) where Value == String? {
        self.init(title: title, description: description, default: defaultValue.map { .some($0) }, range: nil,
                  requestValueDialog: requestValueDialog, inputOptions: inputOptions)
    }
}

extension String {
    /// How a client's keyboard should behave for a text parameter (App Intents'
    /// `String.IntentInputOptions`), sent as `input_options`.
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

        /// The wire form: `{"keyboard_type": "email_address", "capitalization": "none", "multiline": false, …}`.
        var json: JSON {
            let keyboard: String = switch keyboardType {
            case .default: "default"
            case .numberPad: "number_pad"
            case .emailAddress: "email_address"
            case .URL: "url"
            case .phonePad: "phone_pad"
            case .asciiCapable: "ascii_capable"
            case .decimalPad: "decimal_pad"
            }
            let capitalization: String = switch capitalizationType {
            case .none: "none"
            case .words: "words"
            case .sentences: "sentences"
            case .allCharacters: "all_characters"
            }
            return ["keyboard_type": .string(keyboard), "capitalization": .string(capitalization), "multiline": .bool(multiline),
                    "autocorrect": .bool(autocorrect), "smart_quotes": .bool(smartQuotes), "smart_dashes": .bool(smartDashes)]
        }
    }
}
