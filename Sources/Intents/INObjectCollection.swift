import Foundation
import IntentBusCore
import IntentBusLegacy

/// The options a handler provides for a parameter (SiriKit's `INObjectCollection`, the
/// answer of `provide<Parameter>OptionsCollection`): items, or items in titled sections.
/// The host offers them in the prompt; a section's title becomes its items' subtitle.
public final class INObjectCollection<ObjectType: INWireConvertible>: @unchecked Sendable {
    // @unchecked: immutable after init.
    public let sections: [INObjectSection<ObjectType>]
    /// Apple's flag for an A–Z index; there is no list to index here.
    public var usesIndexedCollation = false

    public init(items: [ObjectType]) { sections = [INObjectSection(title: nil, items: items)] }
    public init(sections: [INObjectSection<ObjectType>]) { self.sections = sections }

    public var allItems: [ObjectType] { sections.flatMap(\.items) }

    /// The options as the legacy layer sends them: an object's display string as the
    /// title and its identifier as the id (unique, as INWireResolutionOptions makes them).
    var resolutionOptions: [ResolutionOption] {
        INWireResolutionOptions.options(sections.flatMap { section in
            section.items.map { item in
                let object = item as? INObject
                return (title: object?.displayString ?? String(describing: item), subtitle: section.title,
                        id: object?.identifier, value: item.wireValue)
            }
        })
    }
}

/// A titled group of options (SiriKit's `INObjectSection`).
public final class INObjectSection<ObjectType: INWireConvertible>: @unchecked Sendable {
    // @unchecked: immutable after init.
    public let title: String?
    public let items: [ObjectType]

    public init(title: String?, items: [ObjectType]) {
        self.title = title
        self.items = items
    }
}
