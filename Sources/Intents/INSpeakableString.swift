import Foundation
import IntentBusCore

/// A phrase as spoken and as the app knows it (SiriKit's `INSpeakableString`): a group's
/// name, a workout's, a ride option's. On the wire it is the String parameter's text;
/// an object's `identifier` becomes the `vocabularyIdentifier`.
public final class INSpeakableString: INWireConvertible, @unchecked Sendable, CustomStringConvertible {
    // @unchecked: immutable after init.
    public let spokenPhrase: String
    public let pronunciationHint: String?
    public let vocabularyIdentifier: String?

    public init(vocabularyIdentifier: String, spokenPhrase: String, pronunciationHint: String?) {
        self.vocabularyIdentifier = vocabularyIdentifier
        self.spokenPhrase = spokenPhrase
        self.pronunciationHint = pronunciationHint
    }

    public init(spokenPhrase: String) {
        self.spokenPhrase = spokenPhrase
        self.vocabularyIdentifier = nil
        self.pronunciationHint = nil
    }

    public var description: String { spokenPhrase }

    public static func fromWire(_ value: JSON) -> INSpeakableString? {
        if let text = value.stringValue { return INSpeakableString(spokenPhrase: text) }
        guard let phrase = value["displayString"]?.stringValue ?? value["identifier"]?.stringValue else { return nil }
        return INSpeakableString(vocabularyIdentifier: value["identifier"]?.stringValue ?? phrase, spokenPhrase: phrase,
                                 pronunciationHint: value["pronunciationHint"]?.stringValue)
    }

    /// The text: the standard intents declare these parameters String.
    public var wireValue: JSON { .string(spokenPhrase) }
}
