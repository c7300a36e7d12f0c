/// Bounds the protocol sets on a request's parameter values, the same for both
/// multi-phase styles (docs/protocol.md): the legacy definitions' coercion and the
/// new-style checks both read them here.
package enum ParameterLimits {
    /// The most items a list (`multiple`) parameter takes: a bound on what one request
    /// makes the host check and the plugin resolve.
    package static let listItems = 1000
}
