/// Header rules the APNs endpoint applies before anything else looks at a request
/// (package-visible for the fuzz target, Fuzz/).
package enum APNsHeaders {
    /// The first of `authorization` and the `apns-*` headers that appears more than once
    /// (Apple: 400 DuplicateHeaders). Names are lowercase, as HTTP/2 sends them.
    package static func duplicated(in headers: [(name: String, value: String)]) -> String? {
        var seen = Set<String>()
        for (name, _) in headers where name.hasPrefix("apns-") || name == "authorization" {
            guard seen.insert(name).inserted else { return name }
        }
        return nil
    }
}
