/// How a call's messages are encoded: protobuf (gRPC) or proto3's canonical JSON (the
/// HTTP/JSON face of a service: `POST /v1/<resource>/<verb>` with a JSON body).
public enum MessageFormat: Sendable, Hashable {
    case protobuf
    case json
}

/// A service that can also be served as JSON: its methods registered once more with JSON
/// coders (`format: .json`). Every generated `Handler` is one (the generator provides
/// `registerJSONMethods(with:)` for its unary and server-streaming methods).
public protocol RPCJSONService: RPCService {
    func registerJSONMethods(with router: inout RPCRouter)
}

/// The HTTP routes of the methods a router serves as JSON, derived from their names:
///
///     /glimpse.gateway.v1.Widgets/Tap             POST /v1/widgets/tap
///     /glimpse.gateway.v1.WidgetCenter/ReloadAll  POST /v1/widget_center/reload_all
///     /glimpse.gateway.v1.Events/List             POST /v1/events/list, and POST /v1/events
///
/// The resource is the service's simple name, the verb the method's, both in lower
/// snake_case; a service's `List` method is also its bare resource. A query string is
/// ignored. Two methods may not share a route (registering the second is a programming
/// error: two services of one simple name in different packages cannot both be JSON).
public struct JSONRoutes: Sendable {
    /// Every route starts with this.
    public static let prefix = "/v1/"

    /// Route -> gRPC path.
    private var table: [String: String] = [:]

    public init() {}

    public var isEmpty: Bool { table.isEmpty }

    /// Every route with the gRPC path it calls, sorted by route.
    public var all: [(route: String, path: String)] {
        table.sorted { $0.key < $1.key }.map { (route: $0.key, path: $0.value) }
    }

    /// The route of `method`: `/v1/<resource>/<verb>`.
    public static func route(for method: MethodDescriptor) -> String {
        let simpleName = method.service.split(separator: ".").last.map(String.init) ?? method.service
        return "\(prefix)\(snakeCase(simpleName))/\(snakeCase(method.method))"
    }

    /// `WidgetCenter` -> `widget_center`, `AdvanceBy` -> `advance_by`, `GetURLPath` ->
    /// `get_url_path`, `Tap` -> `tap`: an underscore before a capital that follows a lower-case
    /// letter or a digit, or that starts a word after an acronym.
    public static func snakeCase(_ name: String) -> String {
        let characters = Array(name)
        var out = ""
        for (i, c) in characters.enumerated() {
            if c.isUppercase {
                let previous = i > 0 ? characters[i - 1] : nil
                let next = i + 1 < characters.count ? characters[i + 1] : nil
                if let previous, previous != "_" {
                    if previous.isLowercase || previous.isNumber
                        || (previous.isUppercase && (next?.isLowercase ?? false))
                    {
                        out.append("_")
                    }
                }
                out += c.lowercased()
            } else {
                out.append(c)
            }
        }
        return out
    }

    /// Adds the route(s) of `method`.
    mutating func add(_ method: MethodDescriptor) {
        add(Self.route(for: method), method)
        if method.method == "List" {
            let route = Self.route(for: method)
            add(String(route.dropLast("/list".count)), method)
        }
    }

    private mutating func add(_ route: String, _ method: MethodDescriptor) {
        if let existing = table[route] {
            preconditionFailure("JSON route \(route) of \(method) is taken by \(existing)")
        }
        table[route] = method.path
    }

    /// True if `path` is one this table answers (found or not): it is under `/v1/`.
    public func claims(_ path: String) -> Bool {
        path.utf8.starts(with: Self.prefix.utf8)
    }

    /// The gRPC path (`/pkg.Service/Method`) `path` (an HTTP request target) routes to.
    public func resolve(_ path: String) -> String? {
        if let query = path.utf8.firstIndex(of: UInt8(ascii: "?")) {
            return table[String(path[..<query])]
        }
        return table[path]
    }
}

extension StatusCode {
    /// The HTTP status of a JSON answer with this code, as google.rpc.Code (and grpc-gateway)
    /// map them.
    public var httpStatus: Int {
        switch self {
        case .ok: 200
        case .cancelled: 499
        case .unknown: 500
        case .invalidArgument: 400
        case .deadlineExceeded: 504
        case .notFound: 404
        case .alreadyExists: 409
        case .permissionDenied: 403
        case .resourceExhausted: 429
        case .failedPrecondition: 400
        case .aborted: 409
        case .outOfRange: 400
        case .unimplemented: 501
        case .internal: 500
        case .unavailable: 503
        case .dataLoss: 500
        case .unauthenticated: 401
        }
    }
}

/// The bodies a JSON answer carries for a status other than OK.
public enum JSONErrorBody {
    /// `{"code":5,"status":"NOT_FOUND","message":"…"}`: the gRPC code as a number and by
    /// name, and the status message; with `details` (a JSON array, see
    /// `NIOServerConfig.errorDetailsJSON`) also `"details":[…]`, as google.rpc.Status has them.
    public static func object(_ status: Status, details: [UInt8]? = nil) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(48 + status.message.utf8.count + (details?.count ?? 0))
        append(status, details: details, to: &out)
        return out
    }

    /// The last line of a newline-delimited stream that failed after it began:
    /// `{"error":{"code":…,"status":…,"message":…}}` and a newline.
    public static func streamLine(_ status: Status, details: [UInt8]? = nil) -> [UInt8] {
        var out = Array(#"{"error":"#.utf8)
        append(status, details: details, to: &out)
        out.append(contentsOf: "}\n".utf8)
        return out
    }

    private static func append(_ status: Status, details: [UInt8]?, to out: inout [UInt8]) {
        out.append(contentsOf: #"{"code":"#.utf8)
        out.append(contentsOf: String(status.code.rawValue).utf8)
        out.append(contentsOf: #","status":""#.utf8)
        out.append(contentsOf: status.code.description.utf8)
        out.append(contentsOf: #"","message":"#.utf8)
        appendString(status.message, to: &out)
        if let details {
            out.append(contentsOf: #","details":"#.utf8)
            out.append(contentsOf: details)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// A JSON string literal (RFC 8259: `"` `\` and control characters escaped).
    static func appendString(_ string: String, to out: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        out.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
            case 0x0A: out.append(contentsOf: #"\n"#.utf8)
            case 0x0D: out.append(contentsOf: #"\r"#.utf8)
            case 0x09: out.append(contentsOf: #"\t"#.utf8)
            case 0..<0x20:
                out.append(contentsOf: #"\u00"#.utf8)
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
