import Foundation

/// Matches said text against one phrase template. Pure value code, any thread.
///
/// A slot takes one or more words; where a slot could end in several places, the
/// shortest capture that lets the rest of the phrase match wins, and `accept` may refuse
/// a capture (an enum slot takes only one of its cases), which makes the matcher try the
/// next split. A phrase with several slots could make that search grow with the power
/// of the number of words said, so each match has a step budget: past it the phrase
/// counts as not matching (hostile input gets no match, never a stuck router).
struct PhraseMatcher {
    /// Most steps one phrase's match may take.
    static let stepBudget = 5_000

    /// What a match captured: slot name → the words as said.
    struct Match: Equatable {
        var captures: [String: String]
        /// Literal and application-name words matched: more means a more specific phrase.
        var score: Int
    }

    let tokens: [PhraseText.Token]
    let text: String

    init(_ text: String) {
        self.text = text
        tokens = PhraseText.tokens(text)
    }

    /// The match of `template`, with the application name being any of `names` (each
    /// already split into words), or nil.
    func match(_ template: PhraseTemplate, names: [[String]],
               accept: (String, String) -> Bool = { _, _ in true }) -> Match? {
        var captures: [String: String] = [:]
        var score = 0
        var budget = Self.stepBudget
        guard step(template.parts[...], at: 0, names: names, accept: accept, captures: &captures, score: &score,
                   budget: &budget) else {
            return nil
        }
        return Match(captures: captures, score: score)
    }

    private func step(_ parts: ArraySlice<PhraseTemplate.Part>, at position: Int, names: [[String]],
                      accept: (String, String) -> Bool, captures: inout [String: String], score: inout Int,
                      budget: inout Int) -> Bool {
        budget -= 1
        guard budget > 0 else { return false }
        guard let part = parts.first else { return position == tokens.count }
        let rest = parts.dropFirst()
        switch part {
        case .words(let words):
            guard matches(words, at: position) else { return false }
            score += words.count
            if step(rest, at: position + words.count, names: names, accept: accept, captures: &captures, score: &score, budget: &budget) { return true }
            score -= words.count
            return false
        case .applicationName:
            for name in names.sorted(by: { $0.count > $1.count }) where matches(name, at: position) {
                score += name.count
                if step(rest, at: position + name.count, names: names, accept: accept, captures: &captures, score: &score, budget: &budget) { return true }
                score -= name.count
            }
            return false
        case .slot(let slot):
            guard position < tokens.count else { return false }
            for end in (position + 1)...tokens.count {
                let said = String(text[tokens[position].range.lowerBound..<tokens[end - 1].range.upperBound])
                guard accept(slot, said) else { continue }
                captures[slot] = said
                if step(rest, at: end, names: names, accept: accept, captures: &captures, score: &score, budget: &budget) { return true }
                captures.removeValue(forKey: slot)
            }
            return false
        }
    }

    private func matches(_ words: [String], at position: Int) -> Bool {
        guard !words.isEmpty, position + words.count <= tokens.count else { return words.isEmpty }
        for (i, w) in words.enumerated() where tokens[position + i].key != w { return false }
        return true
    }

    /// How alike the said words and a phrase's words are (0…1), for "did you mean".
    static func similarity(_ said: [String], _ phrase: [String]) -> Double {
        let a = Set(said), b = Set(phrase)
        guard !a.isEmpty || !b.isEmpty else { return 0 }
        return Double(a.intersection(b).count) / Double(a.union(b).count)
    }
}
