/// Where a piece of a template was written: file, line and column (1-based), so that a
/// load error points at the character. Templates given without a file use `file: ""`.
package struct SentenceLocation: Sendable, Hashable, CustomStringConvertible {
    package let file: String
    package let line: Int
    package let column: Int

    package init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// The location `offset` characters further on the same line (a template is one line).
    func advanced(by offset: Int) -> SentenceLocation {
        SentenceLocation(file: file, line: line, column: column + offset)
    }

    package var description: String { file.isEmpty ? "\(line):\(column)" : "\(file):\(line):\(column)" }
}
