import Foundation
import IntentBus

// An entity with a property query (EntityPropertyQuery), for AppIntentsPropertyQueryTests
// (NEWSTYLE_APPINTENTS=1). The properties' wire names come from the AppIntentsMetadata
// build-tool plugin's scan (IntentPlugin.declaredEntityProperties); NEWSTYLE_BROKEN=unnamed
// leaves them out, as a target without the plugin would.

/// What a comparator's block makes of a filter: the app's own predicate.
enum TaskFilter: Sendable {
    case titleIs(String), titleContains(String), priorityAbove(Int), priorityBetween(Int, Int)

    func holds(_ task: TaskEntity) -> Bool {
        switch self {
        case .titleIs(let t): task.title == t
        case .titleContains(let t): task.title.localizedCaseInsensitiveContains(t)
        case .priorityAbove(let p): task.priority > p
        case .priorityBetween(let lo, let hi): (lo...hi).contains(task.priority)
        }
    }
}

struct TaskEntity: AppEntity {
    static let typeDisplayRepresentation = TypeDisplayRepresentation(name: "Aufgabe")
    static let defaultQuery = TaskQuery()
    let id: String
    @Property(title: "Titel") var title: String
    @Property(title: "Priorität") var priority: Int
    init(id: String, title: String, priority: Int) {
        self.id = id
        self.title = title
        self.priority = priority
    }
    var displayRepresentation: DisplayRepresentation { "\(title)" }
}

struct TaskQuery: EntityPropertyQuery {
    static let tasks = [TaskEntity(id: "t1", title: "Steuer", priority: 3), TaskEntity(id: "t2", title: "Steuererklärung", priority: 5),
                        TaskEntity(id: "t3", title: "Garten", priority: 1), TaskEntity(id: "t4", title: "Gartenzaun", priority: 4)]

    static let properties = QueryProperties<TaskEntity, TaskFilter> {
        Property(\TaskEntity.$title) {
            EqualToComparator { .titleIs($0) }
            ContainsComparator { .titleContains($0) }
        }
        Property(\TaskEntity.$priority) {
            GreaterThanComparator { .priorityAbove($0) }
            IsBetweenComparator { .priorityBetween($0, $1) }
        }
    }

    static let sortingOptions = SortingOptions<TaskEntity> {
        SortableBy(\TaskEntity.$priority)
    }

    func entities(for identifiers: [String]) async throws -> [TaskEntity] { Self.tasks.filter { identifiers.contains($0.id) } }

    // Ignores `limit` on purpose: the SDK holds a query to it.
    func entities(matching comparators: [TaskFilter], mode: ComparatorMode, sortedBy: [EntityQuerySort<TaskEntity>],
                  limit: Int?) async throws -> [TaskEntity] {
        var found = Self.tasks.filter { task in
            mode == .and ? comparators.allSatisfy { $0.holds(task) } : comparators.contains { $0.holds(task) }
        }
        for sort in sortedBy where sort.by == \TaskEntity.$priority {
            found.sort { sort.order == .ascending ? $0.priority < $1.priority : $0.priority > $1.priority }
        }
        return found
    }
}
