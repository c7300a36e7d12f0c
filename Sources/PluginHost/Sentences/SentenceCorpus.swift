import Foundation
import IntentBusCore
import IntentBusManifest
import IntentBusSentences

/// Home Assistant's sentence corpus for one language (sentences/, tests/ and the test
/// fixtures of home-assistant/intents), run the way HA's own test does: the fixtures'
/// areas, floors and entity names as the `area`, `floor` and `name` lists (an entity's
/// domain as its context), each test's context as the request's, `name` the preferred
/// slot; a sentence passes when intent and slots (and context, when the test names one)
/// are the expected ones.
package struct SentenceCorpus {
    /// One expected result.
    package struct Case: Sendable {
        package let sentence: String
        package let intent: String
        package let slots: [String: JSON]
        package let context: [String: JSON]
        package let file: String
        /// HA lists it in `_test_failures.yaml`: the reference implementation fails it too.
        package let knownFailure: Bool
    }

    /// A sentence that did not give what the test expects.
    package struct Miss: Sendable, CustomStringConvertible {
        package let test: Case
        package let got: SentenceMatch?
        package init(test: Case, got: SentenceMatch?) {
            self.test = test
            self.got = got
        }
        package var description: String {
            let want = "\(test.intent) \(test.slots.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.canonicalString)" }.joined(separator: " "))"
            guard let got else { return "\"\(test.sentence)\": no match (want \(want))" }
            let have = "\(got.intent) \(got.values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.canonicalString)" }.joined(separator: " "))"
            return "\"\(test.sentence)\": got \(have) from \"\(got.template)\" (\(got.location)); want \(want)"
        }
    }

    /// What a run gave.
    package struct Score: Sendable {
        package var passed = 0
        package var total = 0
        package var misses: [Miss] = []
        package var percent: Double { total == 0 ? 0 : Double(passed) * 100 / Double(total) }
        package init() {}
    }

    package let language: String
    package let index: SentenceIndex
    package let cases: [Case]

    /// The corpus directory for tests and `make sentences`: $INTENTBUS_HASS_INTENTS, or
    /// `../shared/hass-intents` beside the package root (how CI lays it out).
    package static func defaultRoot(packageRoot: String) -> String {
        if let dir = ProcessInfo.processInfo.environment["INTENTBUS_HASS_INTENTS"], !dir.isEmpty { return dir }
        return URL(fileURLWithPath: packageRoot).deletingLastPathComponent().appendingPathComponent("shared/hass-intents").path
    }

    /// Loads `language` from `root`; throws a sentence saying what is missing or wrong.
    package init(root: String, language: String) throws(SentenceFileLoader.LoadError) {
        self.language = language
        let sentences = root + "/sentences/" + language, tests = root + "/tests/" + language
        guard FileManager.default.fileExists(atPath: sentences), FileManager.default.fileExists(atPath: tests + "/_fixtures.yaml") else {
            throw SentenceFileLoader.LoadError(description: "Home Assistant's corpus is not at \(root) (want sentences/\(language)/ and tests/\(language)/_fixtures.yaml; set INTENTBUS_HASS_INTENTS)")
        }
        var templates = try SentenceFileLoader.load(directory: sentences)
        let fixtures = try Self.yaml(tests + "/_fixtures.yaml")
        templates.lists["area"] = .values(Self.names(fixtures["areas"]))
        templates.lists["floor"] = .values(Self.names(fixtures["floors"]))
        templates.lists["name"] = .values(Self.names(fixtures["entities"], context: { entity in
            var context: [String: JSON] = [:]
            if let id = entity["id"]?.scalar?.text, let domain = id.split(separator: ".").first { context["domain"] = .string(String(domain)) }
            if let attributes = entity["attributes"] { context.merge(attributes.json.objectValue ?? [:]) { a, _ in a } }
            return context
        }))
        do {
            index = try SentenceIndex(templates, preferredSlot: "name")
        } catch {
            throw SentenceFileLoader.LoadError(description: error.description)
        }
        var failures: Set<String> = []
        if FileManager.default.fileExists(atPath: tests + "/_test_failures.yaml") {
            for s in try Self.yaml(tests + "/_test_failures.yaml")["sentences"]?.sequence ?? [] { if let t = s.scalar?.text { failures.insert(t) } }
        }
        var cases: [Case] = []
        for path in SentenceFileLoader.yamlFiles(in: tests) where !(path as NSString).lastPathComponent.hasPrefix("_") {
            for test in try Self.yaml(path)["tests"]?.sequence ?? [] {
                guard let intent = test["intent"], let name = intent["name"]?.scalar?.text else { continue }
                let slots = intent["slots"]?.json.objectValue ?? [:]
                let context = intent["context"]?.json.objectValue ?? [:]
                for s in test["sentences"]?.sequence ?? [] {
                    guard let text = s.scalar?.text else { continue }
                    cases.append(Case(sentence: text, intent: name, slots: slots, context: context,
                                      file: String(path.dropFirst(tests.count + 1)), knownFailure: failures.contains(text)))
                }
            }
        }
        self.cases = cases
    }

    private static func yaml(_ path: String) throws(SentenceFileLoader.LoadError) -> YAMLNode {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw SentenceFileLoader.LoadError(description: "\(path): cannot read the file")
        }
        do { return try YAMLParser.parseDocument(text, file: path) } catch { throw SentenceFileLoader.LoadError(description: error.description) }
    }

    /// A fixture's names as list values; a name that is a template gives each spelling.
    private static func names(_ node: YAMLNode?, context: (YAMLNode) -> [String: JSON] = { _ in [:] }) -> [SlotValue] {
        var out: [SlotValue] = []
        for item in node?.sequence ?? [] {
            guard let name = item["name"]?.scalar?.text else { continue }
            let spelled = (try? TemplateParser.parse(name, at: SentenceLocation(file: "", line: 1, column: 1)))?.spellings() ?? [name]
            for n in spelled { let t = n.trimmingCharacters(in: .whitespaces); out.append(SlotValue(text: t, context: context(item))) }
        }
        return out
    }

    /// Whether `match` is what `test` expects (HA's comparison: every slot matched is
    /// expected with that value, or one of a list; every expected slot is matched).
    package static func passes(_ test: Case, _ match: SentenceMatch?) -> Bool {
        guard let match, match.intent == test.intent else { return false }
        let got = match.values
        for (name, value) in got {
            guard let want = test.slots[name] else { return false }
            if case .array(let options) = want {
                guard options.contains(where: { same($0, value) }) else { return false }
            } else if case .array(let values) = value {
                guard values.contains(where: { same($0, want) }) else { return false }
            } else if !same(want, value) { return false }
        }
        for name in test.slots.keys where got[name] == nil { return false }
        if !test.context.isEmpty, match.context != test.context { return false }
        return true
    }

    static func same(_ a: JSON, _ b: JSON) -> Bool {
        if let x = a.doubleValue, let y = b.doubleValue { return x == y }
        return a == b
    }

    /// Runs the cases (every `stride`-th one, for a bounded pass), collecting misses.
    package func run(stride: Int = 1) -> Score {
        var score = Score()
        for (i, test) in cases.enumerated() where i % max(stride, 1) == 0 {
            score.total += 1
            let best = index.match(test.sentence, context: test.context, limit: 1).first
            if Self.passes(test, best) { score.passed += 1 } else { score.misses.append(Miss(test: test, got: best)) }
        }
        return score
    }
}
