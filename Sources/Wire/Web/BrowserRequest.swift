/// What a browser's request says beyond a script's POST: the request message in the query
/// string (`?json=<URL-encoded JSON>`, as a link or `EventSource` can carry it) and whether
/// it wants server-sent events.
package enum BrowserRequest {
    /// The `json` parameter of `target`'s query, decoded (`+` is a space, `%XX` a byte, as
    /// form encoding has them); none: empty (the empty request). Other parameters are
    /// ignored. nil: the parameter is not valid percent-encoding.
    package static func jsonParameter(_ target: String) -> [UInt8]? {
        let utf8 = Array(target.utf8)
        guard let question = utf8.firstIndex(of: UInt8(ascii: "?")) else { return [] }
        for pair in utf8[(question + 1)...].split(separator: UInt8(ascii: "&")) {
            let parts = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = formDecoded(parts[0]), name == Array("json".utf8) else { continue }
            return parts.count > 1 ? formDecoded(parts[1]) : []
        }
        return []
    }

    /// True if an `Accept` field lists `text/event-stream` (any parameters, any case).
    package static func acceptsEventStream(_ values: [String]) -> Bool {
        values.contains { value in
            value.split(separator: ",").contains { range in
                let type = range.split(separator: ";", maxSplits: 1).first ?? ""
                return type.filter { $0 != " " && $0 != "\t" }.lowercased() == "text/event-stream"
            }
        }
    }

    /// Form decoding: `+` is a space, `%XX` the byte XX; nil on a `%` without two hex digits.
    package static func formDecoded(_ bytes: ArraySlice<UInt8>) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard bytes.endIndex - index >= 3, let high = hexValue(bytes[index + 1]),
                    let low = hexValue(bytes[index + 2])
                else { return nil }
                out.append(high << 4 | low)
                index += 3
            } else {
                out.append(byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        return out
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
