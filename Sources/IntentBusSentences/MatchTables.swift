/// Names numbered in the order first seen. Matching compares these numbers: a word, a
/// list or a slot is hashed once, when a template is compiled or a sentence is said, and
/// never during the walk (String hashing was a third of matching, callgrind,
/// docs/sentences.md).
struct Interner: Sendable {
    private(set) var names: [String] = []
    private var ids: [String: Int32] = [:]

    /// The number of `name`, given one if it has none yet.
    mutating func id(_ name: String) -> Int32 {
        if let id = ids[name] { return id }
        let id = Int32(names.count)
        ids[name] = id
        names.append(name)
        return id
    }

    /// The number of `name`, or nil when no template has it.
    func lookup(_ name: String) -> Int32? { ids[name] }

    var count: Int { names.count }
}

/// The numbering a compiled index shares: the words of every template and list value, the
/// list names (every list any template may refer to, numbered at load) and the slot names.
struct MatchTables: Sendable {
    var words = Interner()
    var lists = Interner()
    var slots = Interner()

    /// The said words as numbers; a word no template has is -1 (it can only fill a
    /// wildcard or a range).
    func ids(_ tokens: [SentenceText.Token]) -> [Int32] {
        tokens.map { words.lookup($0.key) ?? -1 }
    }
}
