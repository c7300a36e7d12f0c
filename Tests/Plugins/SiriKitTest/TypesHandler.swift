import Intents

/// TypesIntent: each parameter type's generated property, read back into one line, so
/// that a suite sees what the handler got. `resolveColor` asks for a missing color,
/// `resolveCount` turns down a negative one, and `resolvePlace` looks an address up
/// (two Berlins: the user picks one). The owner's options are provided dynamically; the
/// tag `owner?` makes `resolveOwner` ask for a missing one, so that they are offered.
class TypesHandler: TypesIntentHandling {
    func resolveColor(for intent: TypesIntent, with completion: @escaping (ColorResolutionResult) -> Void) {
        completion(intent.color == .unknown ? .needsValue() : .success(with: intent.color))
    }

    func resolveCount(for intent: TypesIntent, with completion: @escaping (INIntegerResolutionResult) -> Void) {
        guard let count = intent.count else { return completion(.notRequired()) }
        completion(count.intValue < 0 ? .unsupported() : .success(with: count.intValue))
    }

    func resolvePlace(for intent: TypesIntent, with completion: @escaping (INPlacemarkResolutionResult) -> Void) {
        guard let place = intent.place else { return completion(.notRequired()) }
        guard place.location == nil else { return completion(.success(with: place)) }
        let found = Self.places.filter { $0.name?.hasPrefix(place.name ?? "") == true }
        completion(found.count == 1 ? .success(with: found[0]) : found.isEmpty ? .unsupported() : .disambiguation(with: found))
    }

    func resolveOwner(for intent: TypesIntent, with completion: @escaping (INPersonResolutionResult) -> Void) {
        guard let owner = intent.owner else { return completion(intent.tags?.contains("owner?") == true ? .needsValue() : .notRequired()) }
        completion(.success(with: owner))
    }

    func provideOwnerOptionsCollection(for intent: TypesIntent) async throws -> INObjectCollection<INPerson> {
        INObjectCollection(sections: [
            INObjectSection(title: "Team", items: [
                INPerson(personHandle: INPersonHandle(value: "ada@example.org", type: .emailAddress), nameComponents: nil,
                         displayName: "Ada Lovelace", image: nil, contactIdentifier: nil, customIdentifier: "ada"),
                INPerson(personHandle: INPersonHandle(value: "grace@example.org", type: .emailAddress), nameComponents: nil,
                         displayName: "Grace Hopper", image: nil, contactIdentifier: nil, customIdentifier: "grace"),
            ]),
        ])
    }

    // String options, in Xcode's two forms: `flavour` with the completion, `topping` async.
    // The tags `flavour?` and `topping?` make resolve ask for a missing one.
    func resolveFlavour(for intent: TypesIntent, with completion: @escaping (INStringResolutionResult) -> Void) {
        guard let flavour = intent.flavour else { return completion(intent.tags?.contains("flavour?") == true ? .needsValue() : .notRequired()) }
        completion(.success(with: flavour))
    }

    func provideFlavourOptionsCollection(for intent: TypesIntent,
                                         with completion: @escaping (INObjectCollection<NSString>?, (any Error)?) -> Void) {
        completion(INObjectCollection(items: ["vanilla" as NSString, "chocolate" as NSString]), nil)
    }

    func resolveTopping(for intent: TypesIntent) async -> INStringResolutionResult {
        guard let topping = intent.topping else { return intent.tags?.contains("topping?") == true ? .needsValue() : .notRequired() }
        return .success(with: topping)
    }

    func provideToppingOptionsCollection(for intent: TypesIntent) async throws -> INObjectCollection<NSString> {
        INObjectCollection(sections: [INObjectSection(title: "Sauce", items: ["caramel", "fudge"]),
                                      INObjectSection(title: "Crunch", items: ["nuts"])])
    }

    static let places = [CLPlacemark(location: CLLocation(latitude: 52.52, longitude: 13.405), name: "Berlin, Deutschland"),
                         CLPlacemark(location: CLLocation(latitude: 39.6, longitude: -89.2), name: "Berlin, Illinois"),
                         CLPlacemark(location: CLLocation(latitude: 53.55, longitude: 9.99), name: "Hamburg")]

    func handle(intent: TypesIntent, completion: @escaping (TypesIntentResponse) -> Void) {
        let day = intent.day.map { "\($0.year ?? 0)-\($0.month ?? 0)-\($0.day ?? 0)" } ?? "-"
        let parts = [
            "count=\(intent.count?.intValue ?? -1)", "ratio=\(intent.ratio?.doubleValue ?? -1)",
            "flag=\(intent.flag?.boolValue.description ?? "-")", "day=\(day)", "link=\(intent.link?.host ?? "-")",
            "color=\(intent.color) (\(intent.color.rawValue))", "tags=\((intent.tags ?? []).joined(separator: "+"))",
        ] + [
            "owner=\(intent.owner.map { "\($0.displayName)/\($0.personHandle?.value ?? "-")/\($0.personHandle?.type ?? .unknown)" } ?? "-")",
            "guests=\((intent.guests ?? []).map(\.displayName).joined(separator: "+"))",
            "price=\(intent.price.map { "\($0.amount ?? 0) \($0.currencyCode ?? "")" } ?? "-")",
            "place=\(intent.place.map { "\($0.name ?? "-")@\($0.location?.coordinate.latitude ?? 0)" } ?? "-")",
            "file=\(intent.attachment.map { "\($0.filename):\(String(decoding: $0.data, as: UTF8.self))" } ?? "-")",
        ]
        // The Duration and the String options' picks only when set, so that the other tests' lines stay as they are.
        let picks = [intent.length.map { "length=\($0.doubleValue)s" }, intent.flavour.map { "flavour=\($0)" },
                     intent.topping.map { "topping=\($0)" }].compactMap { $0 }
        completion(.success(summary: (parts + picks).joined(separator: " ")))
    }
}
