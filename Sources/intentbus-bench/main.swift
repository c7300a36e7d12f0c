import Foundation
import IntentBus

// intentbus-bench: the host against a bare ZeroMQ relay, measured side by side in one
// run (docs/performance.md). This process is also the load generator for both paths.

/// The JSON document written to bench/results/.
struct BenchResults: Encodable {
    var startedAt: String
    var finishedAt: String
    var durationSeconds: Double
    var machine: MachineInfo
    /// /proc/loadavg (1, 5, 15 minutes) before and after: the machine is shared.
    var loadAverageBefore: [Double]
    var loadAverageAfter: [Double]
    var settings: BenchSettings
    var rows: [ResultRow]
    var scenarios: [ScenarioDetail]
}

func runBenchmark() -> Int32 {
    let options: BenchOptions
    do { options = try BenchOptions.parse(CommandLine.arguments) } catch {
        FileHandle.standardError.write(Data("intentbus-bench: \(error)\n".utf8))
        return 64
    }
    signal(SIGPIPE, SIG_IGN)
    let bench: Bench
    do { bench = try Bench(options: options) } catch {
        FileHandle.standardError.write(Data("intentbus-bench: \(error)\n".utf8))
        return 1
    }
    bench.registry.stopOnSignals()
    if let seconds = options.profileSeconds {
        do { try bench.runProfile(seconds: seconds, hostPrefix: options.hostPrefix) } catch {
            FileHandle.standardError.write(Data("intentbus-bench: \(error)\n".utf8))
            bench.cleanUp(keepLogs: true)
            return 1
        }
        bench.cleanUp(keepLogs: false)
        return 0
    }
    let started = Date()
    let startClock = MonotonicClock.now()
    let loadBefore = loadAverage()
    var failed = false
    do {
        if options.only.contains("relay") { try bench.runHostAgainstRelay() }
        if options.only.contains("generator") && !options.only.contains("relay") { try bench.runGeneratorCheckAlone() }
        if options.only.contains("scale") { try bench.runScale() }
        if options.only.contains("styles") { try bench.runLegacyCost() }
        if options.only.contains("cold") { try bench.runColdStart() }
        if options.only.contains("cold") { try bench.runActivation() }
        if options.only.contains("curve") { try bench.runCurve() }
        if options.only.contains("mdp") { try bench.runMajordomo() }
        if options.only.contains("compare"), let baseBin = options.baseBin { try bench.runCompare(baseBin: baseBin) }
    } catch {
        FileHandle.standardError.write(Data("intentbus-bench: \(error)\n".utf8))
        failed = true
    }
    bench.cleanUp(keepLogs: failed)
    if failed { return 1 }

    let iso = ISO8601DateFormatter()
    let results = BenchResults(
        startedAt: iso.string(from: started), finishedAt: iso.string(from: Date()),
        durationSeconds: Double(MonotonicClock.now() - startClock) / 1e9,
        machine: MachineInfo.current(zmqVersion: ZMQContext.version),
        loadAverageBefore: loadBefore, loadAverageAfter: loadAverage(),
        settings: options.settings, rows: bench.recorder.rows, scenarios: bench.recorder.details)
    let m = results.machine
    print("IntentBus benchmark, \(results.startedAt): \(m.cpuModel), \(m.onlineCPUs) CPUs, libzmq \(m.libzmq), load \(loadBefore.map { String(format: "%.2f", $0) }.joined(separator: " ")) → \(results.loadAverageAfter.map { String(format: "%.2f", $0) }.joined(separator: " ")), \(String(format: "%.0f", results.durationSeconds)) s")
    print("")
    print(renderTable(results.rows))
    do {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        // A path that gave no samples has NaN figures; JSON has no NaN.
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let data = try encoder.encode(results)
        try FileManager.default.createDirectory(atPath: options.outputDirectory, withIntermediateDirectories: true)
        let stamp = results.startedAt.replacingOccurrences(of: ":", with: "").replacingOccurrences(of: "-", with: "")
        let file = "\(options.outputDirectory)/\(stamp).json"
        try data.write(to: URL(fileURLWithPath: file))
        try data.write(to: URL(fileURLWithPath: "\(options.outputDirectory)/latest.json"))
        print("\nwrote \(file) and latest.json")
    } catch {
        FileHandle.standardError.write(Data("intentbus-bench: could not write the results: \(error)\n".utf8))
        return 1
    }
    return 0
}

exit(runBenchmark())
