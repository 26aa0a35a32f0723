/// Header rules the APNs endpoint applies before anything else looks at a request
/// (package-visible for the fuzz target, Fuzz/).
package enum APNsHeaders {
    /// The first of `authorization` and the `apns-*` headers that appears more than once
    /// (Apple: 400 DuplicateHeaders). Names are lowercase, as HTTP/2 sends them.
    package static func duplicated(in headers: [(name: String, value: String)]) -> String? {
        // A push carries a handful: compared with those before, no set is built (or hashed).
        if headers.count <= 16 {
            for (index, header) in headers.enumerated()
            where header.name.hasPrefix("apns-") || header.name == "authorization" {
                if headers[..<index].contains(where: { $0.name == header.name }) { return header.name }
            }
            return nil
        }
        var seen = Set<String>()
        for (name, _) in headers where name.hasPrefix("apns-") || name == "authorization" {
            guard seen.insert(name).inserted else { return name }
        }
        return nil
    }
}
