/// Generated code's text: lines indented as blocks open and close, and
/// lists wrapped at ``width`` columns. `indentUnit` is four spaces for
/// Swift and Python, two for C.
struct Output {
    var width: Int
    var indentUnit: String
    private(set) var text = ""
    private var depth = 0

    init(width: Int = 140, indentUnit: String = "    ") {
        self.width = width
        self.indentUnit = indentUnit
    }

    private var indentation: String { String(repeating: indentUnit, count: depth) }

    mutating func line(_ content: String) {
        text += content.isEmpty ? "\n" : indentation + content + "\n"
    }

    mutating func blank() { text += "\n" }

    /// `header {`, and what follows indented until ``close()``.
    mutating func open(_ header: String) {
        line(header + " {")
        depth += 1
    }

    mutating func close() {
        depth -= 1
        line("}")
    }

    mutating func indent() { depth += 1 }

    mutating func outdent() { depth -= 1 }

    /// `prefix` + items joined by ", " + `suffix` + `opening`, on one line if
    /// it fits, else an item a line.
    mutating func wrapped(prefix: String, items: [String], suffix: String, opening: String = "") {
        let single = prefix + items.joined(separator: ", ") + suffix + opening
        if indentation.count + single.count <= width {
            line(single)
            return
        }
        line(prefix)
        depth += 1
        for (index, item) in items.enumerated() { line(index == items.count - 1 ? item : item + ",") }
        depth -= 1
        line(suffix + opening)
    }
}
