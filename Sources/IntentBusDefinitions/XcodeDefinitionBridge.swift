import Foundation
import IntentBusCore
import IntentBusManifest
import IntentDefinitionFormat

/// Joins Xcode's `.intentdefinition` form to the host's YAML form: a file's shape
/// (`IntentDefinitionFormat`) becomes YAML nodes for `DefinitionAssembler`, which checks
/// both forms alike, or YAML text; YAML nodes become a shape for the writer.
enum XcodeDefinitionBridge {
    /// The shape as YAML nodes whose marks name the `.intentdefinition` key path.
    static func nodes(_ shape: ShapedNode, file: String) -> YAMLNode {
        let mark = SourceMark(file: file, keyPath: shape.origin)
        switch shape.value {
        case .scalar(let value):
            switch value {
            case .string(let s): return YAMLNode(.scalar(YAMLScalar(s, style: .doubleQuoted)), mark: mark)
            case .null: return YAMLNode(.scalar(YAMLScalar("")), mark: mark)
            case .array(let items):
                return YAMLNode(.sequence(items.map { nodes(.scalar($0, origin: shape.origin), file: file) }), mark: mark)
            case .object(let object):
                return nodes(ShapedNode(.map(object.sorted { $0.key < $1.key }.map { .init($0.key, .scalar($0.value, origin: shape.origin)) }),
                                        origin: shape.origin), file: file)
            default: return YAMLNode(.scalar(YAMLScalar(value.canonicalString)), mark: mark)
            }
        case .list(let items):
            return YAMLNode(.sequence(items.map { nodes($0, file: file) }), mark: mark)
        case .map(let entries):
            return YAMLNode(.mapping(entries.map {
                YAMLNode.Pair(key: YAMLNode(.scalar(YAMLScalar($0.key)), mark: SourceMark(file: file, keyPath: $0.node.origin)),
                              value: nodes($0.node, file: file))
            }), mark: mark)
        }
    }

    /// A YAML definition's nodes as a shape (origins are `line:column`).
    static func shape(_ node: YAMLNode) -> ShapedNode {
        let origin = "\(node.mark.line):\(node.mark.column)"
        switch node.content {
        case .scalar: return .scalar(node.json, origin: origin)
        case .sequence(let items): return ShapedNode(.list(items.map(shape)), origin: origin)
        case .mapping(let pairs):
            return ShapedNode(.map(pairs.map { ShapedNode.Entry($0.key.scalar?.text ?? "", shape($0.value)) }), origin: origin)
        }
    }

    /// The shape as YAML text (`definitions convert` to YAML).
    static func yaml(_ shape: ShapedNode, header: String) -> String {
        func node(_ s: ShapedNode) -> YAMLEmitter.Node {
            switch s.value {
            case .scalar(let value): return scalar(value)
            case .list(let items): return .list(items.map(node))
            case .map(let entries): return .map(entries.map { ($0.key, node($0.node)) })
            }
        }
        func scalar(_ value: JSON) -> YAMLEmitter.Node {
            switch value {
            case .string(let s): .text(s)
            case .array(let items): .list(items.map(scalar))
            case .object(let o): .map(o.sorted { $0.key < $1.key }.map { ($0.key, scalar($0.value)) })
            case .null: .plain("null")
            default: .plain(value.canonicalString)
            }
        }
        return header + (YAMLEmitter.emit(node(shape)) ?? "")
    }
}
