import IntentBusCore

/// Sentence templates as loaded: intents with their blocks of sentences, the lists,
/// expansion rules and skip words they share. Value data; `SentenceIndex` compiles it.
package struct IntentTemplates: Sendable {
    /// One template line, parsed, with where it was written.
    package struct Sentence: Sendable {
        package var text: String
        package var expression: SentenceExpression
        package var location: SentenceLocation

        /// Parses `text`, written at `location`.
        package init(_ text: String, at location: SentenceLocation = SentenceLocation(file: "", line: 1, column: 1)) throws(SentenceError) {
            self.text = text
            self.location = location
            expression = try TemplateParser.parse(text, at: location)
        }
    }

    /// A group of sentences for one intent, sharing fixed slots and context conditions
    /// (a `data:` entry of hassil's files).
    package struct Block: Sendable {
        package var intent: String
        package var sentences: [Sentence]
        /// Slots every match of this block gets (`slots: {domain: light}`).
        package var slots: [String: JSON]
        /// Context the request must have: a value, a list of values, null for any, or
        /// `{value, slot: true|"name"}` to copy it into a slot.
        package var requiresContext: [String: JSON]
        /// Context values the request must not have.
        package var excludesContext: [String: JSON]
        /// Lists and rules only this block's sentences see.
        package var lists: [String: SlotList]
        package var rules: [String: Sentence]
        /// The response key (hassil's `response:`), passed on.
        package var response: String?
        /// Who declared it (a plugin id in the host), passed on.
        package var owner: String?

        package init(intent: String, sentences: [Sentence], slots: [String: JSON] = [:],
                    requiresContext: [String: JSON] = [:], excludesContext: [String: JSON] = [:],
                    lists: [String: SlotList] = [:], rules: [String: Sentence] = [:], response: String? = nil,
                    owner: String? = nil) {
            self.intent = intent
            self.sentences = sentences
            self.slots = slots
            self.requiresContext = requiresContext
            self.excludesContext = excludesContext
            self.lists = lists
            self.rules = rules
            self.response = response
            self.owner = owner
        }
    }

    package var blocks: [Block]
    package var lists: [String: SlotList]
    package var rules: [String: Sentence]
    package var skipWords: [String]

    package init(blocks: [Block] = [], lists: [String: SlotList] = [:], rules: [String: Sentence] = [:], skipWords: [String] = []) {
        self.blocks = blocks
        self.lists = lists
        self.rules = rules
        self.skipWords = skipWords
    }

    /// Adds `other`'s blocks, lists, rules and skip words (another file of the same language).
    package mutating func merge(_ other: IntentTemplates) {
        blocks += other.blocks
        lists.merge(other.lists) { _, new in new }
        rules.merge(other.rules) { _, new in new }
        skipWords += other.skipWords.filter { !skipWords.contains($0) }
    }
}
