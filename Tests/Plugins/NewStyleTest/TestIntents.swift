import Foundation
import IntentBus

// New-style intents for the end-to-end tests (Tests/IntentBusTests/NewStyle*.swift).

/// Defaults and ranges: every parameter has a default or is optional.
struct DefaultsIntent: AppIntent {
    static let title: LocalizedStringResource = "Defaults"
    static let description = IntentDescription("Echoes its parameters.", categoryName: "Tests")

    @Parameter(title: "Minutes", default: 25, inclusiveRange: (5, 180)) var minutes: Int
    @Parameter(title: "Ratio", default: 0.5, inclusiveRange: (0, 1)) var ratio: Double
    @Parameter(title: "Label") var label: String?
    @Parameter(title: "Loud", default: false) var loud: Bool

    func perform() async throws -> some IntentResult {
        .result(dialog: "\(minutes) minutes", snippet: ["minutes": minutes.intentJSON, "ratio": ratio.intentJSON,
                                                        "label": label.intentJSON, "loud": loud.intentJSON])
    }
}

/// A required parameter without a default: the host asks for it before perform().
struct RequiredIntent: AppIntent {
    static let title: LocalizedStringResource = "Required"

    @Parameter(title: "Name", requestValueDialog: "Who is it for?") var name: String
    @Parameter(title: "Count", default: 1, inclusiveRange: (1, 10)) var count: Int

    func perform() async throws -> some IntentResult {
        .result(dialog: "For \(name), \(count) times", snippet: ["name": .string(name), "count": count.intentJSON])
    }
}

/// Which mid-perform question QuestionsIntent asks.
enum QuestionKind: String, AppEnum {
    case value, confirmParameter = "confirm_parameter", confirmIntent = "confirm_intent", disambiguation, needsValue = "needs_value"
    static let typeDisplayRepresentation: TypeDisplayRepresentation = "Question"
    static let caseDisplayRepresentations: [QuestionKind: DisplayRepresentation] = [
        .value: "Ask a value", .confirmParameter: "Confirm a parameter", .confirmIntent: "Confirm the intent",
        .disambiguation: "Pick one", .needsValue: "Needs a value",
    ]
}

/// Counts perform() runs per token, to show the needs-value restart.
actor Attempts {
    static let shared = Attempts()
    private var counts: [String: Int] = [:]
    func next(_ token: String) -> Int {
        counts[token, default: 0] += 1
        return counts[token]!
    }
}

/// Asks one question of each kind in the middle of perform().
struct QuestionsIntent: AppIntent {
    static let title: LocalizedStringResource = "Questions"

    @Parameter(title: "Question") var ask: QuestionKind
    @Parameter(title: "Minutes", default: 30, inclusiveRange: (5, 180)) var minutes: Int
    @Parameter(title: "Code") var code: Int?
    @Parameter(title: "Token", default: "t") var token: String

    func perform() async throws -> some IntentResult {
        let attempt = await Attempts.shared.next(token)
        switch ask {
        case .value:
            let m = try await $minutes.requestValue("How many minutes instead?")
            return .result(snippet: ["minutes": m.intentJSON])
        case .confirmParameter:
            let ok = try await $minutes.requestConfirmation(for: minutes, dialog: "Really \(minutes) minutes?")
            return .result(snippet: ["confirmed": .bool(ok)])
        case .confirmIntent:
            // Apple's intent confirmation throws when declined.
            var ok = true
            do { try await requestConfirmation(dialog: "Run the questions intent?") } catch is UserCancelledError { ok = false }
            return .result(snippet: ["confirmed": .bool(ok)])
        case .disambiguation:
            let pick = try await $minutes.requestDisambiguation(among: [15, 30, 45], dialog: "Which length?")
            return .result(snippet: ["minutes": pick.intentJSON])
        case .needsValue:
            guard let code, code >= 100 else { throw $code.needsValueError("Give a code of at least 100.") }
            return .result(snippet: ["code": code.intentJSON, "attempt": attempt.intentJSON])
        }
    }
}

/// A fruit, for the entity tests.
struct TestItem: AppEntity {
    static let typeDisplayRepresentation: TypeDisplayRepresentation = "Item"
    static let defaultQuery = TestItemQuery()
    static let all = [TestItem(id: "apple-1", name: "Apple"), TestItem(id: "apricot-2", name: "Apricot"),
                      TestItem(id: "banana-3", name: "Banana")]
    let id: String
    let name: String
    var displayRepresentation: DisplayRepresentation { DisplayRepresentation(title: "\(name)", subtitle: "fruit") }
}

/// Looks items up by id and by text; offers two suggestions; can't list them all.
struct TestItemQuery: EntityStringQuery {
    func entities(for identifiers: [String]) async throws -> [TestItem] {
        TestItem.all.filter { identifiers.contains($0.id) }
    }
    func suggestedEntities() async throws -> [TestItem] { Array(TestItem.all.prefix(2)) }
    func entities(matching string: String) async throws -> [TestItem] {
        TestItem.all.filter { $0.name.lowercased().hasPrefix(string.lowercased()) }
    }
}

/// Takes an entity, given by id or by text.
struct PickItemIntent: AppIntent {
    static let title: LocalizedStringResource = "Pick item"
    @Parameter(title: "Item", requestValueDialog: "Which item?") var item: TestItem

    func perform() async throws -> some IntentResult {
        .result(value: item, dialog: "You picked \(item.name).")
    }
}

/// Needs an authenticated client.
struct SecretIntent: AppIntent {
    static let title: LocalizedStringResource = "Secret"
    static let authenticationPolicy = IntentAuthenticationPolicy.requiresAuthentication
    func perform() async throws -> some IntentResult { .result(dialog: "the secret is 42") }
}

/// Replaces the plain LegacyGreetIntent; `shout` of the legacy version has no counterpart.
struct GreetAppIntent: CustomIntentMigratedAppIntent {
    static let title: LocalizedStringResource = "Greet"
    static let intentClassName = "LegacyGreetIntent"

    @Parameter(title: "Name") var name: String
    @Parameter(title: "Times", default: 1, inclusiveRange: (1, 5)) var times: Int

    func perform() async throws -> some IntentResult {
        .result(dialog: "\(Array(repeating: "Hello \(name)!", count: times).joined(separator: " "))",
                snippet: ["style": "new", "name": .string(name), "times": times.intentJSON])
    }
}

// Broken declarations, for the metadata checks (NEWSTYLE_BROKEN=1).

/// A default outside its range, and a parameter without a title.
struct BrokenRangeIntent: AppIntent {
    static let title: LocalizedStringResource = "Broken range"
    @Parameter(title: "Minutes", default: 500, inclusiveRange: (5, 180)) var minutes: Int
    @Parameter(title: "") var untitled: String?
    func perform() async throws -> some IntentResult { .result() }
}

/// Two intent types claiming one identifier.
struct DuplicateOneIntent: AppIntent {
    static let title: LocalizedStringResource = "Duplicate one"
    static let persistentIdentifier = "DuplicateIntent"
    func perform() async throws -> some IntentResult { .result() }
}

struct DuplicateTwoIntent: AppIntent {
    static let title: LocalizedStringResource = "Duplicate two"
    static let persistentIdentifier = "DuplicateIntent"
    func perform() async throws -> some IntentResult { .result() }
}

/// Date and URL parameters: a required date, a date and a URL with defaults, an
/// optional URL. The snippet shows what the SDK decoded (seconds since 1970, absolute
/// URL), so a test sees the Foundation values, not the wire text.
struct ScheduleIntent: AppIntent {
    static let title: LocalizedStringResource = "Schedule"
    static let description = IntentDescription("Schedules by date and link.")

    @Parameter(title: "Due", requestValueDialog: "When is it due?") var due: Date
    @Parameter(title: "Start", default: Date(timeIntervalSince1970: 1_796_083_200)) var start: Date  // 2026-12-01
    @Parameter(title: "Link") var link: URL?
    @Parameter(title: "Home", default: URL(string: "https://example.com/home")) var home: URL

    func perform() async throws -> some IntentResult {
        .result(dialog: "Due \(IntentDateText.format(due))",
                snippet: ["due": due.intentJSON, "due_seconds": .double(due.timeIntervalSince1970),
                          "start_seconds": .double(start.timeIntervalSince1970),
                          "link_host": link.flatMap { $0.host }.map { .string($0) } ?? .null,
                          "home": .string(home.absoluteString)])
    }
}
