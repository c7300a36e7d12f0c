import Foundation
import Testing
import IntentBusTestSupport

/// The declaration scan of the AppIntentsMetadata build-tool plugin
/// (Sources/intentbus-appintents-scan), run as the build runs it, on source that tries to
/// fool it. That FocusFlow's main names nothing and still serves its intents, entity and
/// shortcuts is NewStyleExamplesTests' FocusFlow tests, through a real host.
@Suite("App Intents declarations found at build time")
struct AppIntentsScanTests {
    static let source = #"""
        // struct InComment { }
        /* struct InBlock { /* nested */ struct AlsoInBlock {} } */
        let text = "struct InString { \("struct InInterpolation {")"
        let raw = #"struct InRaw "{" "#
        let multi = """
            struct InMultiline {
            """
        @main struct App { static func main() {} }
        struct Outer {
            struct Inner {}
            func make() { struct Local {} }
            var computed: Int { struct InGetter {}; return 1 }
            class func notAType() {}
        }
        extension Outer { enum More { indirect enum Tree {} } }
        extension Array { struct InArray {} }
        private struct Hidden { struct UnderHidden {} }
        fileprivate enum AlsoHidden {}
        private extension Outer { struct PrivatelyExtended {} }
        struct Generic<T> { struct InGeneric {} }
        public final class Final {}
        actor Counter {}
        protocol NotNamed { }
        struct Book {
            @Property(title: "Autor (\(1))") var author: String
            @Property(title: "Geheim") private var secret: Int
            var plain: Int
        }
        #if os(Linux)
        struct LinuxOnly {}
        #elseif os(macOS)
        struct MacOnly {}
        #else
        struct Elsewhere {}
        #endif
        """#

    @Test("every type another file can name, with its #if conditions; nothing from comments, strings, local, private or generic scopes")
    func scan() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let input = dir.write("Sources.swift", Self.source)
        let output = dir.path + "/AppIntentsDeclarations.swift"
        let result = runCommand(Products.path("intentbus-appintents-scan"), [output, input])
        #expect(result.status == 0, "\(result.stderr)")
        let generated = try String(contentsOfFile: output, encoding: .utf8)
        let named = generated.split(separator: "\n").compactMap { line -> String? in
            let t = line.trimmingCharacters(in: .whitespaces)
            guard t.hasPrefix("types.append(") else { return t.hasPrefix("#") ? t : nil }
            return String(t.dropFirst("types.append(".count).dropLast(".self)".count))
        }
        let pairs = generated.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix("pairs.append(") }
        #expect(pairs == [#"pairs.append((\Book.$author, "author"))"#], "a private @Property and a plain var are not named")
        #expect(named == ["App", "Outer", "Outer.Inner", "Outer.More", "Outer.More.Tree", "Final", "Counter", "Book",
                          "#if (os(Linux))", "LinuxOnly", "#endif",
                          "#if !(os(Linux)) && (os(macOS))", "MacOnly", "#endif",
                          "#if !(os(Linux)) && !(os(macOS)) && true", "Elsewhere", "#endif"], "\(generated)")
        #expect(generated.contains("static func serve(localizations: URL? = nil) -> Never"))
    }

    @Test("a second run with the same sources leaves the file as it is; a missing source is an error")
    func rerun() throws {
        let dir = TempDir()
        defer { dir.remove() }
        let input = dir.write("A.swift", "struct A {}\n")
        let output = dir.path + "/Out.swift"
        #expect(runCommand(Products.path("intentbus-appintents-scan"), [output, input]).status == 0)
        let before = try FileManager.default.attributesOfItem(atPath: output)[.modificationDate] as? Date
        Thread.sleep(forTimeInterval: 0.05)
        #expect(runCommand(Products.path("intentbus-appintents-scan"), [output, input]).status == 0)
        let after = try FileManager.default.attributesOfItem(atPath: output)[.modificationDate] as? Date
        #expect(before == after, "unchanged output is not rewritten (no needless recompiles)")
        let missing = runCommand(Products.path("intentbus-appintents-scan"), [output, dir.path + "/Nope.swift"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("cannot read"))
    }
}
