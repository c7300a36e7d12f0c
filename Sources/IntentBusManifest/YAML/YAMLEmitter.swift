internal import CYAML
import Foundation

/// Writes YAML text with libyaml's emitter: what `intentbus definitions convert` writes
/// a definition as. Block style, keys in the order given; strings that YAML would read
/// as something else (`true`, `10`, `""`) are quoted by libyaml's own rules.
package enum YAMLEmitter {
    /// A tree to write: scalars carry whether they are text (quoted when needed) or a
    /// YAML number/boolean (written plain).
    package indirect enum Node {
        case text(String)
        case plain(String)
        case list([Node])
        case map([(String, Node)])
    }

    /// Whether a plain scalar `text` would read as something else than text.
    package static func readsAsNonText(_ text: String) -> Bool {
        ["", "~", "null", "Null", "NULL"].contains(text) || Bool(yamlCoreText: text) != nil
            || Int(yamlCoreText: text) != nil || Double(yamlCoreText: text) != nil
    }

    /// The document's text; nil only if libyaml refuses an event (it does not for
    /// valid UTF-8 scalars).
    package static func emit(_ root: Node) -> String? {
        var emitter = yaml_emitter_t()
        guard yaml_emitter_initialize(&emitter) == 1 else { return nil }
        defer { yaml_emitter_delete(&emitter) }
        final class Sink { var bytes: [UInt8] = [] }
        let sink = Sink()
        let context = Unmanaged.passUnretained(sink).toOpaque()
        yaml_emitter_set_output(&emitter, { data, buffer, size in
            guard let data, let buffer else { return 0 }
            let sink = Unmanaged<Sink>.fromOpaque(data).takeUnretainedValue()
            sink.bytes.append(contentsOf: UnsafeBufferPointer(start: buffer, count: size))
            return 1
        }, context)
        yaml_emitter_set_unicode(&emitter, 1)
        yaml_emitter_set_width(&emitter, 120)
        var ok = true
        func send(_ make: (UnsafeMutablePointer<yaml_event_t>) -> Int32) {
            guard ok else { return }
            var event = yaml_event_t()
            ok = make(&event) == 1 && yaml_emitter_emit(&emitter, &event) == 1
        }
        func scalar(_ text: String, plain: Bool) {
            var bytes = Array(text.utf8)
            // Text that YAML's core schema would read as null, a boolean or a number is
            // quoted; other text libyaml writes plain when its characters allow.
            let quote = !plain && readsAsNonText(text)
            send { event in
                yaml_scalar_event_initialize(event, nil, nil, &bytes, Int32(bytes.count), quote ? 0 : 1, 1,
                                             plain ? YAML_PLAIN_SCALAR_STYLE : quote ? YAML_DOUBLE_QUOTED_SCALAR_STYLE : YAML_ANY_SCALAR_STYLE)
            }
        }
        func node(_ n: Node) {
            switch n {
            case .text(let s): scalar(s, plain: false)
            case .plain(let s): scalar(s, plain: true)
            case .list(let items):
                // Short lists of plain values read best on one line (`[a, b]`).
                let flow = !items.isEmpty && items.count <= 6 && items.allSatisfy { if case .plain = $0 { true } else if case .text(let s) = $0 { s.count < 30 } else { false } }
                send { yaml_sequence_start_event_initialize($0, nil, nil, 1, flow ? YAML_FLOW_SEQUENCE_STYLE : YAML_BLOCK_SEQUENCE_STYLE) }
                items.forEach(node)
                send { yaml_sequence_end_event_initialize($0) }
            case .map(let entries):
                send { yaml_mapping_start_event_initialize($0, nil, nil, 1, YAML_BLOCK_MAPPING_STYLE) }
                for (key, value) in entries {
                    scalar(key, plain: true)
                    node(value)
                }
                send { yaml_mapping_end_event_initialize($0) }
            }
        }
        send { yaml_stream_start_event_initialize($0, YAML_UTF8_ENCODING) }
        send { yaml_document_start_event_initialize($0, nil, nil, nil, 1) }
        node(root)
        send { yaml_document_end_event_initialize($0, 1) }
        send { yaml_stream_end_event_initialize($0) }
        guard ok, yaml_emitter_flush(&emitter) == 1 else { return nil }
        return String(decoding: sink.bytes, as: UTF8.self)
    }
}
