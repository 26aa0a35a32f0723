/// Numbers as the CLI prints them.
enum Numbers {
    /// `value` with exactly `digits` decimals: fixed(2.5) is "2.5", fixed(3, 2) "3.00".
    static func fixed(_ value: Double, _ digits: Int = 1) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        let text = String(rounded)
        guard let dot = text.firstIndex(of: ".") else { return text + "." + String(repeating: "0", count: digits) }
        let decimals = text[text.index(after: dot)...].count
        return decimals >= digits ? text : text + String(repeating: "0", count: digits - decimals)
    }
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
