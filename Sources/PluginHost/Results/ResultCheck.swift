import IntentBusCore

/// The checks on the parts of a result that the host acts on or that a client renders
/// (docs/results.md): `opens_intent`, the intent a result opens next, and `view`, an
/// interactive snippet whose rows offer follow-up intents. Like every plugin output, they
/// are checked for shape and size before anything is done with them; a result that fails
/// ends its request with `plugin_error` naming the problem.
///
/// Pure value code: no state, callable from any thread.
enum ResultCheck {
    /// Most intents one request may run, the first included: A opens B opens C … at most
    /// this many, so two intents that open each other end instead of looping.
    static let maximumChain = 8
    /// Most rows in a view.
    static let maximumRows = 20
    /// Most actions in one row, and in a whole view.
    static let maximumActionsPerRow = 4
    static let maximumActions = 40
    /// Longest title, subtitle or action title, in characters.
    static let maximumTextLength = 200

    /// An intent a result opens: its name and parameters.
    struct Opened: Equatable {
        let intent: String
        let parameters: JSON
    }

    /// `opens_intent` read and checked: the intent to open, or the problem.
    static func opened(_ value: JSON) -> Result<Opened, ResultProblem> {
        guard case .object(let fields) = value else {
            return .failure(ResultProblem("opens_intent must be an object {\"intent\", \"parameters\"?}, got \(value.typeName)"))
        }
        if let problem = intentNameProblem(fields["intent"], at: "opens_intent.intent") { return .failure(problem) }
        let parameters = fields["parameters"] ?? .object([:])
        guard parameters.objectValue != nil else {
            return .failure(ResultProblem("opens_intent.parameters must be an object, got \(parameters.typeName)"))
        }
        return .success(Opened(intent: fields["intent"]!.stringValue!, parameters: parameters))
    }

    /// The problem with a `view` (an interactive snippet), or nil when it may be shown.
    static func viewProblem(_ view: JSON) -> ResultProblem? {
        guard case .object(let fields) = view else {
            return ResultProblem("view must be an object {\"title\"?, \"rows\"}, got \(view.typeName)")
        }
        if let title = fields["title"], let problem = textProblem(title, at: "view.title", required: false) { return problem }
        guard case .array(let rows)? = fields["rows"] else {
            return ResultProblem("view.rows must be an array of rows")
        }
        if rows.count > maximumRows {
            return ResultProblem("view.rows has \(rows.count) rows; a view shows at most \(maximumRows)")
        }
        var actionCount = 0
        for (i, row) in rows.enumerated() {
            let at = "view.rows[\(i)]"
            guard case .object(let r) = row else { return ResultProblem("\(at) must be an object, got \(row.typeName)") }
            if let problem = textProblem(r["title"] ?? .null, at: "\(at).title", required: true) { return problem }
            if let subtitle = r["subtitle"], let problem = textProblem(subtitle, at: "\(at).subtitle", required: false) {
                return problem
            }
            guard let actions = r["actions"] else { continue }
            guard case .array(let list) = actions else { return ResultProblem("\(at).actions must be an array") }
            if list.count > maximumActionsPerRow {
                return ResultProblem("\(at).actions has \(list.count) actions; a row offers at most \(maximumActionsPerRow)")
            }
            actionCount += list.count
            if actionCount > maximumActions {
                return ResultProblem("view has more than \(maximumActions) actions")
            }
            for (j, action) in list.enumerated() {
                if let problem = actionProblem(action, at: "\(at).actions[\(j)]") { return problem }
            }
        }
        return nil
    }

    private static func actionProblem(_ action: JSON, at: String) -> ResultProblem? {
        guard case .object(let a) = action else { return ResultProblem("\(at) must be an object, got \(action.typeName)") }
        if let problem = textProblem(a["title"] ?? .null, at: "\(at).title", required: true) { return problem }
        if let problem = intentNameProblem(a["intent"], at: "\(at).intent") { return problem }
        if let parameters = a["parameters"], parameters.objectValue == nil {
            return ResultProblem("\(at).parameters must be an object, got \(parameters.typeName)")
        }
        return nil
    }

    /// An intent a result may name: a non-empty string of at most 255 bytes that is not
    /// a host intent (`ib.…`): a plugin never runs the host's own intents for a client.
    private static func intentNameProblem(_ value: JSON?, at: String) -> ResultProblem? {
        guard let name = value?.stringValue, !name.isEmpty else {
            return ResultProblem("\(at) must be a non-empty string (an intent name)")
        }
        if name.utf8.count > WireProtocol.maxNameLength {
            return ResultProblem("\(at) is \(name.utf8.count) bytes; an intent name is at most \(WireProtocol.maxNameLength)")
        }
        if name.hasPrefix("ib.") { return ResultProblem("\(at) names the host intent \(name); a result may open only plugins' intents") }
        return nil
    }

    private static func textProblem(_ value: JSON, at: String, required: Bool) -> ResultProblem? {
        guard case .string(let text) = value else {
            return ResultProblem("\(at) must be a string, got \(value.typeName)")
        }
        if required && text.isEmpty { return ResultProblem("\(at) must not be empty") }
        if text.count > maximumTextLength {
            return ResultProblem("\(at) is \(text.count) characters; at most \(maximumTextLength)")
        }
        return nil
    }
}

/// What is wrong with a result's `opens_intent` or `view`.
struct ResultProblem: Error, Equatable, CustomStringConvertible {
    let message: String
    init(_ message: String) { self.message = message }
    var description: String { message }
}
