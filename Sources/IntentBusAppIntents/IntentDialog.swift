import Foundation

/// What Siri says or shows (App Intents' `IntentDialog`): a localized text, resolved in
/// the client's locale when the reply is written.
///
/// ```swift
/// IntentDialog("Fokus-Session für \(minutes) Minuten gestartet.")
/// IntentDialog(full: "Your session of 25 minutes has started.", supporting: "Started.")
/// ```
///
/// The host has one text per dialog: `full` is sent; `supporting` (a short form for a
/// screen beside the result) has no counterpart and is not sent.
public struct IntentDialog: Sendable, Hashable, ExpressibleByStringInterpolation {
    /// The text said or shown.
    public let full: LocalizedStringResource
    /// A shorter form, for when the result is also shown.
    public let supporting: LocalizedStringResource?

    public init(_ text: LocalizedStringResource) {
        full = text
        supporting = nil
    }

    public init(full: LocalizedStringResource, supporting: LocalizedStringResource) {
        self.full = full
        self.supporting = supporting
    }

    /// `full` for speaking and `systemImageName` (no images here: the name is dropped).
    public init(full: LocalizedStringResource, systemImageName: String) {
        self.init(full)
    }

    public init(stringLiteral value: String) { self.init(LocalizedStringResource(stringLiteral: value)) }
    public init(stringInterpolation: LocalizedStringResource.StringInterpolation) {
        self.init(LocalizedStringResource(stringInterpolation: stringInterpolation))
    }

    /// The text in the request's locale.
    public var text: String { full.resolved() }
}

/// How an entity, an enum case or a value is shown: a title, a subtitle and an image
/// name (App Intents' `DisplayRepresentation`). The image has no counterpart on the
/// wire and is dropped.
public struct DisplayRepresentation: Sendable, Hashable, ExpressibleByStringInterpolation {
    public var title: LocalizedStringResource
    public var subtitle: LocalizedStringResource?
    /// Kept for source compatibility; the host shows no images.
    public var image: Image?

    /// A symbol name (App Intents' `DisplayRepresentation.Image`).
    public struct Image: Sendable, Hashable {
        public let systemName: String
        public init(systemName: String) { self.systemName = systemName }
        public init(named name: String) { systemName = name }
    }

    public init(title: LocalizedStringResource, subtitle: LocalizedStringResource? = nil, image: Image? = nil) {
        self.title = title
        self.subtitle = subtitle
        self.image = image
    }

    public init(stringLiteral value: String) { self.init(title: LocalizedStringResource(stringLiteral: value)) }
    public init(stringInterpolation: LocalizedStringResource.StringInterpolation) {
        self.init(title: LocalizedStringResource(stringInterpolation: stringInterpolation))
    }
}

/// The name of a type for people, singular and plural (App Intents'
/// `TypeDisplayRepresentation`). The host's questions use `name` ("Which Projekt?").
public struct TypeDisplayRepresentation: Sendable, Hashable, ExpressibleByStringInterpolation {
    public var name: LocalizedStringResource
    public var numericFormat: LocalizedStringResource?

    public init(name: LocalizedStringResource, numericFormat: LocalizedStringResource? = nil) {
        self.name = name
        self.numericFormat = numericFormat
    }

    public init(stringLiteral value: String) { self.init(name: LocalizedStringResource(stringLiteral: value)) }
    public init(stringInterpolation: LocalizedStringResource.StringInterpolation) {
        self.init(name: LocalizedStringResource(stringInterpolation: stringInterpolation))
    }
}
