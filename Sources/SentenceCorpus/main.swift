import Foundation
import PluginHost

// `make sentences`: every test sentence of Home Assistant's corpus through the matcher;
// prints the score per language and the misses grouped by template (docs/sentences.md).
// Usage: sentence-corpus [--root DIR] [--misses N] LANG...
var root = SentenceCorpus.defaultRoot(packageRoot: FileManager.default.currentDirectoryPath)
var languages: [String] = []
var showMisses = 20
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--root": root = arguments.popFirst() ?? root
    case "--misses": showMisses = Int(arguments.popFirst() ?? "") ?? showMisses
    default: languages.append(argument)
    }
}
if languages.isEmpty { languages = ["en", "de"] }
var failed = false
for language in languages {
    let corpus: SentenceCorpus
    do { corpus = try SentenceCorpus(root: root, language: language) } catch {
        FileHandle.standardError.write(Data("sentence-corpus: \(error)\n".utf8))
        exit(2)
    }
    let start = Date()
    let score = corpus.run()
    let seconds = Date().timeIntervalSince(start)
    let known = score.misses.filter(\.test.knownFailure).count
    print(String(format: "%@: %d/%d sentences (%.2f %%), %d templates, %.1f s; %d of the misses are in HA's _test_failures.yaml",
                 language, score.passed, score.total, score.percent, corpus.index.count, seconds, known))
    for miss in score.misses.prefix(showMisses) { print("  miss \(miss)") }
    if score.percent < 99 { failed = true }
}
exit(failed ? 1 : 0)
