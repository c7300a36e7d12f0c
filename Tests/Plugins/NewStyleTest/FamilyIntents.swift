import Foundation
import IntentBus

// One intent per App Intents API family that the other test intents don't cover, for
// AppIntentsFamiliesTests (NEWSTYLE_APPINTENTS=1): string tables, dependencies, entity
// properties with Int ids, openAppWhenRun, donations, hidden intents.

/// "Hallo %@!" from the string tables in the client's locale.
struct GreetingIntent: AppIntent {
    static let title: LocalizedStringResource = "Begrüßen"
    static let description = IntentDescription("Grüßt.", categoryName: "Tests", searchKeywords: ["hallo"])
    @Parameter(title: "Name") var name: String
    func perform() async throws -> some IntentResult & ProvidesDialog {
        .result(dialog: IntentDialog(LocalizedStringResource("greeting", defaultValue: "Hallo \(name)!", table: "Intents")))
    }
}

/// A counter the main adds with AppDependencyManager.
actor VisitCounter {
    private var visits = 0
    func next() -> Int { visits += 1; return visits }
}

/// Reads a @Dependency.
struct CountVisitIntent: AppIntent {
    static let title: LocalizedStringResource = "Count a visit"
    @Dependency var counter: VisitCounter
    func perform() async throws -> some IntentResult & ReturnsValue<Int> {
        .result(value: await counter.next())
    }
}

/// An entity with an Int id and a @Property.
struct BookEntity: AppEntity {
    static let typeDisplayRepresentation = TypeDisplayRepresentation(name: "Buch")
    static let defaultQuery = BookQuery()
    let id: Int
    @Property(title: "Autor") var author: String
    let name: String
    init(id: Int, name: String, author: String) {
        self.id = id
        self.name = name
        self.author = author
    }
    var displayRepresentation: DisplayRepresentation {
        DisplayRepresentation(title: "\(name)", subtitle: "\(author)", image: .init(systemName: "book"))
    }
}

/// Every book, listed (EnumerableEntityQuery answers ids from allEntities()).
struct BookQuery: EnumerableEntityQuery {
    typealias Entity = BookEntity  // inference does not look through allEntities() when entities(for:) is the default
    static let shelf = [BookEntity(id: 7, name: "Momo", author: "Michael Ende"), BookEntity(id: 12, name: "Emil", author: "Erich Kästner")]
    func allEntities() async throws -> [BookEntity] { Self.shelf }
}

/// Returns the book it is given, and opens the app (openAppWhenRun).
struct ReadBookIntent: AppIntent {
    static let title: LocalizedStringResource = "Read a book"
    static let openAppWhenRun = true
    @Parameter(title: "Buch") var book: BookEntity
    func perform() async throws -> some IntentResult & ReturnsValue<BookEntity> & ProvidesDialog {
        .result(value: book, dialog: "\(book.name) von \(book.author)")
    }
}

/// Donates itself with its parameters; hidden from listings.
struct DonatingIntent: AppIntent {
    static let title: LocalizedStringResource = "Donating"
    static let isDiscoverable = false
    @Parameter(title: "Topic") var topic: String
    func perform() async throws -> some IntentResult {
        try await IntentDonationManager.shared.donate(intent: self)
        return .result()
    }
}
