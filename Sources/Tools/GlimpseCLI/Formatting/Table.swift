/// Aligned columns: each column as wide as its widest cell, two spaces between, the last
/// column unpadded (no trailing blanks).
package enum Table {
    package static func render(header: [String], rows: [[String]]) -> String {
        let all = [header] + rows
        let columns = all.map(\.count).max() ?? 0
        var widths = [Int](repeating: 0, count: columns)
        for row in all {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        var lines: [String] = []
        for row in all {
            var line = ""
            for (index, cell) in row.enumerated() {
                if index == row.count - 1 {
                    line += cell
                } else {
                    line += cell + String(repeating: " ", count: widths[index] - cell.count + 2)
                }
            }
            while line.hasSuffix(" ") { line.removeLast() }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    /// `label  value` lines with the labels padded to one width.
    package static func fields(_ pairs: [(String, String)]) -> String {
        let width = pairs.map(\.0.count).max() ?? 0
        return pairs.map { label, value in
            value.isEmpty ? label : label + String(repeating: " ", count: width - label.count + 2) + value
        }.joined(separator: "\n")
    }
}

extension String {
    /// Every line prefixed with `prefix`.
    func indented(_ prefix: String) -> String {
        split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : prefix + $0 }.joined(
            separator: "\n")
    }
}
