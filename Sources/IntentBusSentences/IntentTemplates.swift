import IntentBusCore

/// Sentence templates as loaded: intents with their blocks of sentences, the lists,
/// expansion rules and skip words they share. Value data; `SentenceIndex` compiles it.
public struct IntentTemplates: Sendable {
    /// One template line, parsed, with where it was written.
    public struct Sentence: Sendable {
        public var text: String
        public var expression: SentenceExpression
        public var location: SentenceLocation

        /// Parses `text`, written at `location`.
        public init(_ text: String, at location: SentenceLocation = SentenceLocation(file: "", line: 1, column: 1)) throws(SentenceError) {
            self.text = text
            self.location = location
            expression = try TemplateParser.parse(text, at: location)
        }
    }

    /// A group of sentences for one intent, sharing fixed slots and context conditions
    /// (a `data:` entry of hassil's files).
    public struct Block: Sendable {
        public var intent: String
        public var sentences: [Sentence]
        /// Slots every match of this block gets (`slots: {domain: light}`).
        public var slots: [String: JSON]
        /// Context the request must have: a value, a list of values, null for any, or
        /// `{value, slot: true|"name"}` to copy it into a slot.
        public var requiresContext: [String: JSON]
        /// Context values the request must not have.
        public var excludesContext: [String: JSON]
        /// Lists and rules only this block's sentences see.
        public var lists: [String: SlotList]
        public var rules: [String: Sentence]
        /// The response key (hassil's `response:`), passed on.
        public var response: String?
        /// Who declared it (a plugin id in the host), passed on.
        public var owner: String?

        public init(intent: String, sentences: [Sentence], slots: [String: JSON] = [:],
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

    public var blocks: [Block]
    public var lists: [String: SlotList]
    public var rules: [String: Sentence]
    public var skipWords: [String]

    public init(blocks: [Block] = [], lists: [String: SlotList] = [:], rules: [String: Sentence] = [:], skipWords: [String] = []) {
        self.blocks = blocks
        self.lists = lists
        self.rules = rules
        self.skipWords = skipWords
    }

    /// Adds `other`'s blocks, lists, rules and skip words (another file of the same language).
    public mutating func merge(_ other: IntentTemplates) {
        blocks += other.blocks
        lists.merge(other.lists) { _, new in new }
        rules.merge(other.rules) { _, new in new }
        skipWords += other.skipWords.filter { !skipWords.contains($0) }
    }
}
