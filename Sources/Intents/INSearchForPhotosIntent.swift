import Foundation

/// The standard intent that finds photos (SiriKit's `INSearchForPhotosIntent`); the host
/// knows its shape without a definition file (docs/definitions.md).
open class INSearchForPhotosIntent: INIntent, @unchecked Sendable {
    // @unchecked: an intent is made for one phase and read by its handler only.
    public var dateCreated: INDateComponentsRange? { parameterValues.object("dateCreated", as: INDateComponentsRange.self) }
    public var locationCreated: CLPlacemark? { parameterValues.object("locationCreated", as: CLPlacemark.self) }
    public var albumName: String? { parameterValues.string("albumName") }
    public var searchTerms: [String]? { parameterValues.strings("searchTerms") }
    public var includedAttributes: INPhotoAttributeOptions {
        INPhotoAttributeOptions(names: parameterValues.strings("includedAttributes") ?? [])
    }
    public var excludedAttributes: INPhotoAttributeOptions {
        INPhotoAttributeOptions(names: parameterValues.strings("excludedAttributes") ?? [])
    }
    public var peopleInPhoto: [INPerson]? { parameterValues.objects("peopleInPhoto", as: INPerson.self) }

    public required init() {}

    /// Apple's initializer.
    public convenience init(dateCreated: INDateComponentsRange?, locationCreated: CLPlacemark?, albumName: String?,
                            searchTerms: [String]?, includedAttributes: INPhotoAttributeOptions,
                            excludedAttributes: INPhotoAttributeOptions, peopleInPhoto: [INPerson]?) {
        self.init()
        parameterValues.set(dateCreated, "dateCreated")
        parameterValues.set(locationCreated, "locationCreated")
        parameterValues.set(albumName, "albumName")
        parameterValues.set(searchTerms, "searchTerms")
        parameterValues.set(includedAttributes.isEmpty ? nil : includedAttributes.names, "includedAttributes")
        parameterValues.set(excludedAttributes.isEmpty ? nil : excludedAttributes.names, "excludedAttributes")
        parameterValues.set(peopleInPhoto, "peopleInPhoto")
    }
}
