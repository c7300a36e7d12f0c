import Foundation

/// How long and how hard the benchmark runs. The defaults keep `make bench` (after the
/// release build) near two minutes on two busy cores; `--quick` is for checking that it
/// works at all.
struct BenchSettings: Encodable {
    /// Measured rounds per path and scenario. The two paths alternate so that a noisy
    /// neighbour hits both alike: request by request at one in flight, round by round
    /// (A B, B A, …) for throughput.
    var rounds = 6
    /// Requests per path in a one-in-flight round (the paths alternate request by
    /// request), and the time limit per path (the round stops at twice this).
    var latencyCount = 1_500
    var latencyCountLarge = 200
    var latencySeconds = 1.5
    /// Requests kept in flight for throughput, the requests per round and its time limit.
    var window = 200
    var throughputCount = 80_000
    var throughputSeconds = 0.75
    /// Throughput rounds per path: a round's rate swings by ±25 % on a shared 2-core
    /// machine, so more, shorter rounds give a steadier median than a few long ones.
    var throughputRounds = 12
    /// The depths and connection counts of the throughput sweep (100 B). The sweep's
    /// other depths run fewer, shorter rounds than `window`, which gets the full ones.
    var sweepWindows = [1, 16, 100, 200, 1_000]
    var sweepConnections = [1, 10, 100]
    var sweepRounds = 6
    var sweepSeconds = 0.5
    var sweepCount = 60_000
    /// 1 MB bodies: requests kept in flight and per round. 200 × 1 MB in flight would
    /// measure the machine's memory, not forwarding; 16 keeps every hop's pipe busy.
    var largeWindow = 16
    var largeCount = 1_000
    /// Requests per path and round in the legacy-cost scenario (one in flight).
    var styleCount = 500
    /// Host starts measured for the cold-start proxy.
    var coldStarts = 5
    /// The scale scenario's manifest.
    var scalePlugins = 100
    var scaleRunningPlugins = 10
    var scaleIntents = 1_000

    static let quick = BenchSettings(rounds: 2, latencyCount: 200, latencyCountLarge: 30, latencySeconds: 0.5,
                                     window: 200, throughputCount: 2_000, throughputSeconds: 0.5, throughputRounds: 2,
                                     sweepRounds: 2, sweepSeconds: 0.3, sweepCount: 2_000,
                                     largeWindow: 16, largeCount: 100, styleCount: 50, coldStarts: 2)
}

/// Command-line options of intentbus-bench.
struct BenchOptions {
    var settings = BenchSettings()
    /// Where the JSON results go.
    var outputDirectory = "bench/results"
    /// Where the executables are (defaults to this program's own directory).
    var binDirectory: String
    /// `--profile SECONDS`: only load one host, for a profiler (see Bench+Profile.swift).
    var profileSeconds: Double?
    /// `--only relay,scale,styles,cold,curve,mdp`: run only these groups of scenarios (default: all).
    /// `generator` (not in the default set) runs only the load generator's capacity check.
    var only: Set<String> = ["relay", "scale", "styles", "cold", "curve", "mdp"]
    /// `--host-prefix "CMD ARGS"`: the command the profiled host runs under.
    var hostPrefix: [String] = []
    /// `--base-bin DIR`: another build's executables, for `--only compare`.
    var baseBin: String?

    static let usage = """
    usage: intentbus-bench [--quick] [--rounds N] [--only relay,scale,styles,cold,curve,mdp,generator] [--out DIR] [--bin DIR]
           intentbus-bench --only compare --base-bin DIR   (this build's host against another build's, interleaved)
           intentbus-bench --profile SECONDS [--host-prefix "valgrind --tool=callgrind ..."]
           intentbus-bench --print-legacy-definition   (bench-plugin's legacy intent, for bench/styles/instructions.sh)

    Measures the IntentBus host against a bare zmq_proxy relay in the same run, prints a
    table with ratios and targets, and writes JSON to DIR (default bench/results).
    Build first with `swift build -c release`; `make bench` does both.
    """

    static func parse(_ argv: [String]) throws -> BenchOptions {
        let selfPath = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? argv[0]
        var options = BenchOptions(binDirectory: (selfPath as NSString).deletingLastPathComponent)
        var i = 1
        func value() throws -> String {
            i += 1
            guard i < argv.count else { throw BenchFailure("\(argv[i - 1]) needs a value\n\(usage)") }
            return argv[i]
        }
        while i < argv.count {
            switch argv[i] {
            case "--quick": options.settings = .quick
            case "--rounds":
                guard let n = Int(try value()), n > 0 else { throw BenchFailure("--rounds needs a positive number") }
                options.settings.rounds = n
            case "--only":
                let groups = Set(try value().split(separator: ",").map(String.init))
                guard !groups.isEmpty, groups.isSubset(of: ["relay", "scale", "styles", "cold", "curve", "mdp", "generator", "compare"]) else {
                    throw BenchFailure("--only takes relay, scale, styles, cold, curve, mdp, generator and/or compare, separated by commas")
                }
                options.only = groups
            case "--out": options.outputDirectory = try value()
            case "--bin": options.binDirectory = try value()
            case "--base-bin": options.baseBin = try value()
            case "--profile":
                guard let s = Double(try value()), s > 0 else { throw BenchFailure("--profile needs seconds") }
                options.profileSeconds = s
            case "--host-prefix": options.hostPrefix = try value().split(separator: " ").map(String.init)
            case "--help", "-h": print(usage); exit(0)
            case "--print-legacy-definition": print(Bench.legacyDefinition); exit(0)
            default: throw BenchFailure("unknown option \(argv[i])\n\(usage)")
            }
            i += 1
        }
        if options.only.contains("compare"), options.baseBin == nil {
            throw BenchFailure("--only compare needs --base-bin DIR (another build's .build/release)")
        }
        return options
    }
}
