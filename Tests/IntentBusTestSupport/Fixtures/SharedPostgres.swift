import Foundation
import Testing

/// Shared by the state-store unit tests (IntentBusStoreTests) and the end-to-end ones.
/// The PostgreSQL server of a suite marked `.temporaryPostgres`: started before its first
/// test, stopped and removed after its last (TemporaryPostgres, scripts/pg-temp.sh).
package enum SharedPostgres {
    /// The server of the suite that is running, nil outside one.
    @TaskLocal package static var current: TemporaryPostgres?
}

/// Starts one real PostgreSQL server around a whole suite; its tests find it in
/// `SharedPostgres.current`. A server that cannot start fails the suite with why.
package struct TemporaryPostgresTrait: SuiteTrait, TestScoping {
    /// Once for the suite, not once per test.
    package var isRecursive: Bool { false }

    /// Runs the suite with a server of its own, removed afterwards.
    package func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        let server = try TemporaryPostgres()
        defer { server.destroy() }
        try await SharedPostgres.$current.withValue(server) { try await function() }
    }
}

extension Trait where Self == TemporaryPostgresTrait {
    /// A PostgreSQL server of the suite's own.
    package static var temporaryPostgres: Self { TemporaryPostgresTrait() }
}
