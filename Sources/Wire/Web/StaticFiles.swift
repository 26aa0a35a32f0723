import RPCCore

/// Files served on GET: `/` is `index.html`, `/web/<name>` the file of that name. Each is
/// held with its content type (from its extension) and an entity tag (a hash of its
/// bytes); answers carry `Cache-Control: no-cache`, so a browser revalidates every time
/// and gets 304 while the bytes are the same.
///
/// `answer` is I/O-free: what to write for a request on one of these paths.
public struct StaticFiles: Sendable {
    public struct File: Sendable, Hashable {
        public let bytes: [UInt8]
        public let contentType: String
        /// A strong validator, quoted as it goes on the wire.
        public let etag: String
    }

    public static let index = "index.html"
    public static let folder = "/web/"

    private let files: [String: File]

    /// - Parameter files: the bytes of each file by name (`index.html`, `app.js`, …).
    public init(_ files: [String: [UInt8]]) {
        var table: [String: File] = [:]
        for (name, bytes) in files {
            table[name] = File(bytes: bytes, contentType: Self.contentType(of: name), etag: Self.etag(of: bytes))
        }
        self.files = table
    }

    public var names: [String] { files.keys.sorted() }

    public subscript(name: String) -> File? { files[name] }

    /// True for the paths these files answer, found or not: `/` and everything under `/web/`.
    public func claims(_ target: String) -> Bool {
        let path = Self.path(of: target)
        return path == "/" || path.hasPrefix(Self.folder)
    }

    /// The answer to `method` on `target` (a path these files claim).
    public func answer(method: String, target: String, ifNoneMatch: String?) -> StaticAnswer {
        let path = Self.path(of: target)
        let name = path == "/" ? Self.index : String(path.dropFirst(Self.folder.count))
        guard method == "GET" || method == "HEAD" else {
            return .error(405, Status(code: .unimplemented, message: "\(path) takes GET or HEAD"), headOnly: false)
        }
        guard let file = files[name] else {
            return .error(404, Status(code: .notFound, message: "No such file: \(path)"), headOnly: method == "HEAD")
        }
        let validators = [("cache-control", "no-cache"), ("etag", file.etag)]
        if let ifNoneMatch, Self.matches(ifNoneMatch, file.etag) {
            return StaticAnswer(status: 304, headers: validators, body: [], contentLength: nil)
        }
        return StaticAnswer(
            status: 200, headers: [("content-type", file.contentType)] + validators,
            body: method == "HEAD" ? [] : file.bytes, contentLength: file.bytes.count)
    }

    /// The content type of a file by its extension.
    public static func contentType(of name: String) -> String {
        let ext = name.split(separator: ".").last.map { $0.lowercased() } ?? ""
        switch ext {
        case "html", "htm": return "text/html; charset=utf-8"
        case "js", "mjs": return "text/javascript; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "svg": return "image/svg+xml"
        case "png": return "image/png"
        case "json": return "application/json"
        case "ico": return "image/x-icon"
        case "txt": return "text/plain; charset=utf-8"
        default: return "application/octet-stream"
        }
    }

    /// `If-None-Match`: a list of tags (weak ones compare by their opaque part) or `*`.
    static func matches(_ header: String, _ etag: String) -> Bool {
        header.split(separator: ",").contains { candidate in
            var tag = candidate.trimmed(" \t")
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag = String(tag.dropFirst(2)) }
            return tag == etag
        }
    }

    /// FNV-1a (64 bits) of the bytes and their count: enough to tell versions of a file apart.
    static func etag(of bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return "\"\(String(hash, radix: 16))-\(String(bytes.count, radix: 16))\""
    }

    private static func path(of target: String) -> Substring {
        target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
    }
}

/// What to write for a static file request: status, header fields, body.
public struct StaticAnswer: Sendable {
    public var status: Int
    public var headers: [(String, String)]
    public var body: [UInt8]
    /// The `content-length` to announce (for HEAD: the length GET would send).
    public var contentLength: Int?

    static func error(_ httpStatus: Int, _ status: Status, headOnly: Bool) -> StaticAnswer {
        let body = JSONErrorBody.object(status)
        var headers = [("content-type", "application/json")]
        if httpStatus == 405 { headers.append(("allow", "GET, HEAD")) }
        return StaticAnswer(status: httpStatus, headers: headers, body: headOnly ? [] : body, contentLength: body.count)
    }
}

extension StringProtocol {
    fileprivate func trimmed(_ set: String) -> String {
        let drop = Set(set)
        return String(self.drop { drop.contains($0) }.reversed().drop { drop.contains($0) }.reversed())
    }
}
