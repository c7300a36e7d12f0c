import Foundation
import IntentBus
import IntentBusSentences
import PluginHost

// `make sentences` / `make bench-sentences`: every test sentence of Home Assistant's corpus
// through the matcher; prints per language the score, the matching time per sentence
// (p50, p99) and the misses, then the memory with every language loaded (docs/sentences.md).
// Usage: sentence-corpus [--root DIR] [--misses N] [--stride N] [--dump FILE] [--min PERCENT] LANG...
var root = SentenceCorpus.defaultRoot(packageRoot: FileManager.default.currentDirectoryPath)
var languages: [String] = []
var showMisses = 20
var stride = 1
var minimum = 99.0
var dump: FileHandle?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--root": root = arguments.popFirst() ?? root
    case "--misses": showMisses = Int(arguments.popFirst() ?? "") ?? showMisses
    case "--stride": stride = max(1, Int(arguments.popFirst() ?? "") ?? 1)
    case "--min": minimum = Double(arguments.popFirst() ?? "") ?? minimum
    case "--dump":
        let path = arguments.popFirst() ?? "/dev/stdout"
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        dump = FileHandle(forWritingAtPath: path)
    default: languages.append(argument)
    }
}
if languages.isEmpty { languages = ["en", "de"] }

/// This thread's CPU time in µs. Wall time on a shared machine counts the time the
/// scheduler gave others (a 2-core machine at load 12 runs this process ~40 % of the
/// time, and one preemption is a whole time slice, milliseconds): CPU time is what
/// matching itself costs.
func threadCPUMicros() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) * 1e6 + Double(ts.tv_nsec) / 1e3
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
}

var failed = false
var loaded: [SentenceCorpus] = []
for language in languages {
    let corpus: SentenceCorpus
    let loadStart = Date()
    do { corpus = try SentenceCorpus(root: root, language: language) } catch {
        FileHandle.standardError.write(Data("sentence-corpus: \(error)\n".utf8))
        exit(2)
    }
    let loadSeconds = Date().timeIntervalSince(loadStart)
    loaded.append(corpus)
    var score = SentenceCorpus.Score()
    var micros: [Double] = [], cpuMicros: [Double] = []
    let clock = ContinuousClock()
    for (i, test) in corpus.cases.enumerated() where i % stride == 0 {
        var best: SentenceMatch?
        let cpuStart = threadCPUMicros()
        let elapsed = clock.measure { best = corpus.index.match(test.sentence, context: test.context, limit: 1).first }
        let cpu = threadCPUMicros() - cpuStart
        let us = Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6
        micros.append(us)
        cpuMicros.append(cpu)
        score.total += 1
        if SentenceCorpus.passes(test, best) { score.passed += 1 } else { score.misses.append(.init(test: test, got: best)) }
        if let dump {
            var line: [String: JSON] = ["language": .string(language), "sentence": .string(test.sentence),
                                        "context": .object(test.context), "micros": .double(us), "cpu_micros": .double(cpu)]
            if let best { line["intent"] = .string(best.intent); line["slots"] = .object(best.values) }
            dump.write(Data((JSON.object(line).canonicalString + "\n").utf8))
        }
    }
    micros.sort()
    cpuMicros.sort()
    let known = score.misses.filter(\.test.knownFailure).count
    print(String(format: "%@: %d/%d sentences (%.2f %%), %d templates loaded in %.2f s; match p50 %.1f µs, p99 %.1f µs, max %.1f µs (CPU p50 %.1f µs, p99 %.1f µs, max %.1f µs); %d of the misses are in HA's _test_failures.yaml",
                 language, score.passed, score.total, score.percent, corpus.index.count, loadSeconds,
                 percentile(micros, 0.5), percentile(micros, 0.99), micros.last ?? 0,
                 percentile(cpuMicros, 0.5), percentile(cpuMicros, 0.99), cpuMicros.last ?? 0, known))
    var byTemplate: [String: [SentenceCorpus.Miss]] = [:]
    for miss in score.misses { byTemplate[miss.got.map { "\($0.location) \"\($0.template)\"" } ?? "no template matched", default: []].append(miss) }
    for (template, misses) in byTemplate.sorted(by: { $0.value.count > $1.value.count }).prefix(showMisses) {
        print("  \(misses.count) × \(template)")
        for miss in misses.prefix(3) { print("      \(miss)") }
    }
    if score.percent < minimum { failed = true }
}
var usage = rusage()
getrusage(RUSAGE_SELF.rawValue, &usage)
print("memory with \(languages.joined(separator: "+")) loaded: \(usage.ru_maxrss / 1024) MiB max resident (the whole process)")
exit(failed ? 1 : 0)
