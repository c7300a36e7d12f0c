import Foundation
import IntentBus

/// List parameters (App Intents' `[Entity]`, `[String]`, `[Int]`): registered with
/// NEWSTYLE_LISTS=1.
struct BasketIntent: AppIntent {
    static let title: LocalizedStringResource = "Fill basket"
    @Parameter(title: "Items", requestValueDialog: "Which items?") var items: [TestItem]
    @Parameter(title: "Notes") var notes: [String]?
    @Parameter(title: "Ratings", default: [3], inclusiveRange: (1, 5)) var ratings: [Int]

    func perform() async throws -> some IntentResult {
        let names = items.map(\.name).joined(separator: ", ")
        return .result(value: items, dialog: "Basket: \(names).",
                       snippet: ["notes": .array((notes ?? []).map { .string($0) }), "ratings": ratings.intentJSON])
    }
}

/// A required ranged integer and an enum, for the prompt-vocabulary tests (NEWSTYLE_LISTS=1).
struct LevelIntent: AppIntent {
    static let title: LocalizedStringResource = "Set level"
    @Parameter(title: "Level", inclusiveRange: (1, 5), requestValueDialog: "Which level?") var level: Int
    @Parameter(title: "Question") var kind: QuestionKind?

    func perform() async throws -> some IntentResult {
        .result(dialog: "Level \(level).", snippet: ["kind": kind?.intentJSON ?? .null])
    }
}

/// `inRange` on an optional (NEWSTYLE_LISTS=1).
struct PauseIntent: AppIntent {
    static let title: LocalizedStringResource = "Pause"
    @Parameter(title: "Break", inclusiveRange: (1, 30)) var breakMinutes: Int?
    @Parameter(title: "Weights", inclusiveRange: (0.5, 2.0)) var weights: [Double]?

    func perform() async throws -> some IntentResult {
        .result(dialog: breakMinutes.map { "Break of \($0) minutes." } ?? "No break.",
                snippet: ["weights": weights?.intentJSON ?? .null])
    }
}
