/// A template compiled for matching: rules inlined, permutations spelled out as
/// alternatives, words glued to optionals ("light[s]") joined into whole words.
indirect enum SentenceNode: Sendable {
    /// Literal words; `chars` is how much literal text they are (hassil's score).
    case words([String], chars: Int)
    case sequence([SentenceNode])
    /// One of the options; an optional has the empty sequence among them. Beside each
    /// option, the words it can start with (nil: it may start with anything, or nothing),
    /// so that matching skips options the next said word rules out.
    case alternative([SentenceNode], [Set<String>?])

    /// An alternative of `options`, with their first words worked out.
    static func choice(_ options: [SentenceNode]) -> SentenceNode {
        .alternative(options, options.map(\.firstWords))
    }

    /// The words a match of this node can start with; nil when it may match nothing or
    /// start with a list.
    var firstWords: Set<String>? {
        switch self {
        case .words(let w, _): return w.first.map { [$0] }
        case .sequence(let items): return items.first?.firstWords
        case .alternative(_, let firsts):
            var out = Set<String>()
            for f in firsts { guard let f else { return nil }; out.formUnion(f) }
            return out
        case .list: return nil
        }
    }
    /// A list reference, by the list's name, filling `slot`.
    case list(name: String, slot: String)

    /// Words any match must contain: the sentence can't match text that lacks one.
    var requiredWords: Set<String> {
        switch self {
        case .words(let w, _): return Set(w)
        case .sequence(let items): return items.reduce(into: Set<String>()) { $0.formUnion($1.requiredWords) }
        case .alternative(let options, _):
            guard var common = options.first?.requiredWords else { return [] }
            for option in options.dropFirst() where !common.isEmpty { common.formIntersection(option.requiredWords) }
            return common
        case .list: return []
        }
    }

    /// The list names at the very start and end, for hassil's wildcard-edge skip-word rule.
    var edgeLists: (first: String?, last: String?, only: Bool) {
        guard case .sequence(let items) = self, let first = items.first, let last = items.last else {
            if case .list(let name, _) = self { return (name, name, true) }
            return (nil, nil, false)
        }
        func name(_ n: SentenceNode) -> String? { if case .list(let l, _) = n { return l }; return nil }
        return (name(first), name(last), items.count == 1 && name(first) != nil)
    }
}
