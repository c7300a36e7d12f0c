import Foundation
import Testing
import IntentBusTestSupport

/// The PostgreSQL server of a suite marked `.temporaryPostgres`: started before its first
/// test, stopped and removed after its last (TemporaryPostgres, scripts/pg-temp.sh).
enum SharedPostgres {
    @TaskLocal static var current: TemporaryPostgres?
}

/// Starts one real PostgreSQL server around a whole suite; its tests find it in
/// `SharedPostgres.current`. A server that cannot start fails the suite with why.
struct TemporaryPostgresTrait: SuiteTrait, TestScoping {
    var isRecursive: Bool { false }

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        let server = try TemporaryPostgres()
        defer { server.destroy() }
        try await SharedPostgres.$current.withValue(server) { try await function() }
    }
}

extension Trait where Self == TemporaryPostgresTrait {
    /// A PostgreSQL server of the suite's own.
    static var temporaryPostgres: Self { TemporaryPostgresTrait() }
}
