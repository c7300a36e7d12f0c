/// A decoded value together with where it was written, for checks that come after
/// decoding (duplicates, cross-references) and still need to point at the source.
///
/// `m.require("IntentsSupported", as: [Marked<String>].self)` gives every intent name
/// with its own line and column.
package struct Marked<Value> {
    package var value: Value
    package var mark: SourceMark

    package init(_ value: Value, at mark: SourceMark) {
        self.value = value
        self.mark = mark
    }
}

extension Marked: Sendable where Value: Sendable {}
extension Marked: Equatable where Value: Equatable {}
extension Marked: Hashable where Value: Hashable {}

extension Marked: YAMLDecodable where Value: YAMLDecodable {
    package static var yamlExpectation: String { Value.yamlExpectation }

    package static func decode(_ node: YAMLNode, in context: YAMLDecodingContext) -> Marked<Value>? {
        Value.decode(node, in: context).map { Marked($0, at: node.mark) }
    }
}
