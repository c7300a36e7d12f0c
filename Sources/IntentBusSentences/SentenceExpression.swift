/// A parsed template, as hassil writes it: text, `(a|b)` alternatives, `[x]` optionals,
/// `(a; b)` permutations, `{list}` / `{list:slot}` references and `<rule>` references.
///
/// Value data: parsed once, compiled (`SentenceCompiler`) into the form matching walks.
package indirect enum SentenceExpression: Sendable, Hashable {
    /// One item of a sequence, and whether it touches the item before it with no space
    /// between ("light[s]": the optional is glued to "light", so the two form one word).
    package struct Item: Sendable, Hashable {
        package var expression: SentenceExpression
        package var glued: Bool
    }

    /// Literal text as written (may hold several words).
    case text(String)
    case sequence([Item])
    /// `(a|b)`; `[a|b]` is the same with `optional: true`.
    case alternative([SentenceExpression], optional: Bool)
    /// `(a; b; c)`: the items in any order.
    case permutation([SentenceExpression])
    /// `{name}` or `{name:slot}`.
    case list(name: String, slot: String, at: SentenceLocation)
    /// `<name>`.
    case rule(name: String, at: SentenceLocation)

    /// The empty expression (`[]`, or an empty alternative's branch).
    static let empty = SentenceExpression.sequence([])

    /// Every list this expression names, with where.
    package func lists(into out: inout [(String, SentenceLocation)]) {
        switch self {
        case .text: break
        case .sequence(let items): for item in items { item.expression.lists(into: &out) }
        case .alternative(let items, _), .permutation(let items): for item in items { item.lists(into: &out) }
        case .list(let name, _, let at): out.append((name, at))
        case .rule: break
        }
    }

    /// Every rule this expression names, with where.
    package func rules(into out: inout [(String, SentenceLocation)]) {
        switch self {
        case .text, .list: break
        case .sequence(let items): for item in items { item.expression.rules(into: &out) }
        case .alternative(let items, _), .permutation(let items): for item in items { item.rules(into: &out) }
        case .rule(let name, let at): out.append((name, at))
        }
    }
}
