/// Finds the nominal types (struct, enum, class, actor) a target's Swift sources declare,
/// with what decides whether another file of the target can name them: generic or not,
/// private, local to a function, nested in which type, under which `#if` conditions.
///
/// It reads tokens, not a syntax tree (the project takes no swift-syntax), and it need not
/// know which types are intents: the generated code names every type it found and the
/// compiler and `as? any AppIntent.Type` decide. A type it cannot name safely is left
/// out; conformance through a refined protocol or an extension in another file is found
/// all the same.
struct DeclarationScanner {
    struct Declaration {
        /// `Outer.Inner` for nested types.
        var path: [String]
        var generic = false
        /// private, fileprivate, local to a function, or inside a protocol.
        var hidden = false
        /// A type extended here, not declared (`extension X { struct Y }` makes X a parent only).
        var isExtension = false
        /// The `#if` conditions in force, each already combined with earlier branches.
        var conditions: [String] = []
        var name: String { path.joined(separator: ".") }
    }

    private enum Scope {
        case type(Declaration)
        case other
    }

    private static let typeKeywords: Set<String> = ["struct", "enum", "class", "actor", "protocol", "extension"]
    /// Words after `class` that make it a modifier, not a type declaration.
    private static let classModifiedWords: Set<String> = ["func", "var", "let", "subscript", "init", "deinit", "override",
                                                          "final", "static", "public", "private", "internal", "open"]
    /// Words that begin another declaration: a `private` before them is theirs.
    private static let otherDeclarationWords: Set<String> = ["var", "let", "func", "init", "subscript", "typealias", "case",
                                                             "import", "deinit", "associatedtype", "operator", "macro"]

    /// An `@Property var name` of an entity: the type's path and the property's name.
    struct EntityPropertyDeclaration {
        var type: [String]
        var name: String
        var hidden: Bool
        var conditions: [String]
    }

    private(set) var declarations: [Declaration] = []
    private(set) var entityProperties: [EntityPropertyDeclaration] = []
    /// Set by `@Property` / `@EntityProperty`, taken by the `var` that follows.
    private var pendingEntityProperty = false
    private var scopes: [Scope] = []
    private var pending: Declaration?
    private var pendingHidden = false
    /// One frame per open `#if`: the conditions of the branches before, and the current one.
    private var conditionFrames: [(earlier: [String], current: String)] = []

    /// Scans one file's source.
    mutating func scan(_ source: String) {
        scopes = []
        pending = nil
        pendingHidden = false
        conditionFrames = []
        let tokens = SwiftTokenizer.tokens(of: source)
        var k = 0
        while k < tokens.count {
            switch tokens[k] {
            case .directive(let name, let condition):
                directive(name, condition)
            case .punctuation("{"):
                if let declaration = pending {
                    scopes.append(.type(declaration))
                    pending = nil
                } else {
                    scopes.append(.other)
                }
                pendingHidden = false
                pendingEntityProperty = false
            case .punctuation("}"):
                if !scopes.isEmpty { scopes.removeLast() }
                pendingHidden = false
                pendingEntityProperty = false
            case .punctuation(";"):
                pendingHidden = false
                pendingEntityProperty = false
            case .punctuation("@"):
                if k + 1 < tokens.count, case .word(let name) = tokens[k + 1], name == "Property" || name == "EntityProperty" {
                    pendingEntityProperty = true
                    k += 1
                }
            case .word("var") where pendingEntityProperty:
                if k + 1 < tokens.count, case .word(let name) = tokens[k + 1], case .type(let owner)? = scopes.last {
                    entityProperties.append(EntityPropertyDeclaration(type: owner.path, name: name, hidden: pendingHidden,
                                                                      conditions: conditions))
                }
                pendingEntityProperty = false
                pendingHidden = false
            case .word("private"), .word("fileprivate"):
                pendingHidden = true
            case .word(let word) where Self.otherDeclarationWords.contains(word):
                pendingHidden = false
            case .word(let keyword) where Self.typeKeywords.contains(keyword):
                k = declaration(keyword, tokens, at: k)
            default:
                break
            }
            k += 1
        }
    }

    /// Reads `keyword Name[.Name…] [<…]` at `k`; returns the index of the last token read.
    private mutating func declaration(_ keyword: String, _ tokens: [SwiftTokenizer.Token], at k: Int) -> Int {
        var j = k + 1
        guard j < tokens.count, case .word(let first) = tokens[j] else { return k }
        if keyword == "class" && Self.classModifiedWords.contains(first) { return k }
        var names = [first]
        while j + 2 < tokens.count, tokens[j + 1] == .punctuation("."), case .word(let next) = tokens[j + 2] {
            names.append(next)
            j += 2
        }
        var declaration = Declaration(path: names)
        declaration.isExtension = keyword == "extension"
        declaration.generic = j + 1 < tokens.count && tokens[j + 1] == .punctuation("<")
        declaration.hidden = pendingHidden || keyword == "protocol"
        declaration.conditions = conditions
        switch scopes.last {
        case .type(let parent)?:
            declaration.path = parent.path + names
            declaration.hidden = declaration.hidden || parent.hidden
            declaration.generic = declaration.generic || parent.generic
        case .other?:
            declaration.hidden = true  // local to a function or closure
        case nil:
            break
        }
        if !declaration.isExtension { declarations.append(declaration) }
        pending = declaration
        pendingHidden = false
        return j
    }

    private var conditions: [String] {
        conditionFrames.map { frame in
            (frame.earlier.map { "!(\($0))" } + [frame.current.isEmpty ? "true" : "(\(frame.current))"]).joined(separator: " && ")
        }
    }

    private mutating func directive(_ name: String, _ condition: String) {
        switch name {
        case "if":
            conditionFrames.append((earlier: [], current: condition))
        case "elseif":
            guard var frame = conditionFrames.popLast() else { return }
            frame.earlier.append(frame.current)
            frame.current = condition
            conditionFrames.append(frame)
        case "else":
            guard var frame = conditionFrames.popLast() else { return }
            frame.earlier.append(frame.current)
            frame.current = ""
            conditionFrames.append(frame)
        default:  // endif
            _ = conditionFrames.popLast()
        }
    }

    /// The `@Property` declarations of nameable types, not private, with the type's
    /// conditions before their own: what `\Type.$name` can be written for in another file.
    var nameableEntityProperties: [EntityPropertyDeclaration] {
        let types = Dictionary(nameable.map { ($0.name, $0) }) { a, _ in a }
        return entityProperties.compactMap { p in
            guard !p.hidden, let owner = types[p.type.joined(separator: ".")] else { return nil }
            var out = p
            out.conditions = owner.conditions + p.conditions  // a repeated condition is harmless
            return out
        }
    }

    /// The declarations another file can name: not hidden, not generic, and every
    /// enclosing type declared in the target and nameable itself. Each carries the
    /// conditions of its enclosing types as well as its own.
    var nameable: [Declaration] {
        var byName: [String: Declaration] = [:]
        for d in declarations where byName[d.name] == nil { byName[d.name] = d }
        return declarations.compactMap { d in
            guard !d.hidden, !d.generic else { return nil }
            var out = d
            for length in stride(from: d.path.count - 1, through: 1, by: -1) {
                guard let parent = byName[d.path.prefix(length).joined(separator: ".")], !parent.hidden, !parent.generic else { return nil }
                out.conditions = parent.conditions + out.conditions
            }
            return out
        }
    }
}
