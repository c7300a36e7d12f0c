/// A test's own failure with a message (a host that did not start, an error that did not
/// come), thrown so that the test stops there.
package struct TestFailure: Error, CustomStringConvertible {
    package let description: String
    package init(_ d: String) { description = d }
}
