import Foundation
import IntentBusCore

/// What Siri says or shows (App Intents' `IntentDialog`): a localized text, resolved in
/// the client's locale when the reply is written.
///
/// ```swift
/// IntentDialog("Fokus-Session für \(minutes) Minuten gestartet.")
/// IntentDialog(full: "Your session of 25 minutes has started.", supporting: "Started.")
/// ```
///
/// `full` is the REPLY's `dialog` (what a client without a screen says); `supporting`, the
/// short form for a client that shows the result beside it, goes as `supporting_dialog`,
/// and `systemImageName` as `dialog_image` (docs/appintents.md).
public struct IntentDialog: Sendable, Hashable, ExpressibleByStringInterpolation {
    /// The text said or shown.
    public let full: LocalizedStringResource
    /// A shorter form, for when the result is also shown.
    public let supporting: LocalizedStringResource?
    /// A symbol name to show with the dialog.
    public let systemImageName: String?

    public init(_ text: LocalizedStringResource) {
        full = text
        supporting = nil
        systemImageName = nil
    }

    public init(full: LocalizedStringResource, supporting: LocalizedStringResource) {
        self.full = full
        self.supporting = supporting
        systemImageName = nil
    }

    public init(full: LocalizedStringResource, supporting: LocalizedStringResource, systemImageName: String) {
        self.full = full
        self.supporting = supporting
        self.systemImageName = systemImageName
    }

    public init(full: LocalizedStringResource, systemImageName: String) {
        self.full = full
        supporting = nil
        self.systemImageName = systemImageName
    }

    public init(stringLiteral value: String) { self.init(LocalizedStringResource(stringLiteral: value)) }
    public init(stringInterpolation: LocalizedStringResource.StringInterpolation) {
        self.init(LocalizedStringResource(stringInterpolation: stringInterpolation))
    }

    /// The text in the request's locale.
    public var text: String { full.resolved() }
}

/// How an entity, an enum case or a value is shown: a title, a subtitle and an image
/// (App Intents' `DisplayRepresentation`). The image goes in the entity's wire form as
/// `image`: `{"system_name": "folder"}`, `{"name": "cover"}` or `{"url": "https://…"}`;
/// the client draws it, or not.
public struct DisplayRepresentation: Sendable, Hashable, ExpressibleByStringInterpolation {
    public var title: LocalizedStringResource
    public var subtitle: LocalizedStringResource?
    public var image: Image?

    /// An image by symbol name, asset name or URL (App Intents' `DisplayRepresentation.Image`).
    public struct Image: Sendable, Hashable {
        public let systemName: String?
        public let name: String?
        public let url: URL?
        public init(systemName: String) { self.systemName = systemName; name = nil; url = nil }
        public init(named name: String) { systemName = nil; self.name = name; url = nil }
        public init(url: URL) { systemName = nil; name = nil; self.url = url }

        /// The wire form.
        var json: JSON {
            if let systemName { return ["system_name": .string(systemName)] }
            if let name { return ["name": .string(name)] }
            return ["url": .string(url?.absoluteString ?? "")]
        }
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
