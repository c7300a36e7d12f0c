/// "Did you mean …?": the closest of the known words to a mistyped one.
package enum Suggestion {
    /// The candidate nearest to `word`, when it is near enough to be a typo: at most one
    /// edit for short words, two for longer ones (a swap of two neighbours counts as one),
    /// or a unique candidate that starts with `word`.
    package static func closest(to word: String, among candidates: [String]) -> String? {
        let typed = Array(word.lowercased())
        guard !typed.isEmpty else { return nil }
        let limit = typed.count <= 3 ? 1 : 2
        var best: (String, Int)?
        for candidate in candidates {
            let d = distance(typed, Array(candidate.lowercased()))
            if d <= limit, d < (best?.1 ?? Int.max) { best = (candidate, d) }
        }
        if let best { return best.0 }
        let prefixed = candidates.filter { $0.lowercased().hasPrefix(word.lowercased()) }
        return prefixed.count == 1 ? prefixed[0] : nil
    }

    /// " (did you mean X?)" or "", ready to append to a message.
    package static func hint(for word: String, among candidates: [String], prefix: String = "") -> String {
        closest(to: word, among: candidates).map { "; did you mean \(prefix)\($0)?" } ?? ""
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions and
    /// transpositions of neighbours each cost one ("sned" is one edit from "send").
    package static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }
}
