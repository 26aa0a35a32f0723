/// Which device a call is for, where one process serves several (a shared Glimpse with a
/// device per CI job): the `glimpse-device` metadata entry on gRPC, the
/// `/v1/devices/{id}/…` path prefix on JSON. A call that names none is the default
/// device's, so a single-device caller never names one.
public enum DeviceScope {
    /// The metadata key naming the device.
    public static let metadataKey = "glimpse-device"
    /// The default device's id; naming it is the same as naming none.
    public static let defaultID = "default"
    /// The JSON path prefix before a device's id.
    public static let jsonPrefix = "/v1/devices/"

    /// Whether `id` is a device id: 1 to 63 of `a-z`, `0-9` and `-`, starting with a letter
    /// or digit (a DNS label: it names directories, database keys and Kubernetes objects).
    public static func isValid(_ id: String) -> Bool {
        let bytes = Array(id.utf8)
        guard (1...63).contains(bytes.count), bytes[0] != UInt8(ascii: "-") else { return false }
        return bytes.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "-")
        }
    }

    /// What is wrong with `id` as a device id named by `field`, or nil when it is one.
    /// `defaultAllowed: false` where a real device must be named (creating or deleting one).
    /// Every place that reads a device id refuses with this text.
    public static func problem(with id: String, field: String, defaultAllowed: Bool = true) -> String? {
        if isValid(id), defaultAllowed || id != defaultID { return nil }
        let rule = "1 to 63 of a-z, 0-9 and -, not starting with -" + (defaultAllowed ? "" : "; not \(defaultID)")
        return "\(field): \"\(id.prefix(80))\" is no device id (\(rule))"
    }

    /// `id` if it names a device other than the default one, else INVALID_ARGUMENT.
    public static func requireNamed(_ id: String, field: String) throws(RPCError) -> String {
        if let problem = problem(with: id, field: field, defaultAllowed: false) {
            throw RPCError(code: .invalidArgument, message: problem)
        }
        return id
    }

    /// The device `metadata` names: nil for none (or the default's id); an id that is not
    /// valid is an error naming it.
    public static func device(in metadata: Metadata) -> Result<String?, RPCError> {
        let named = metadata[stringValues: metadataKey]
        guard let id = named.first else { return .success(nil) }
        guard named.count == 1 else {
            return .failure(RPCError(code: .invalidArgument, message: "\(metadataKey): named \(named.count) times"))
        }
        if let problem = problem(with: id, field: metadataKey) {
            return .failure(RPCError(code: .invalidArgument, message: problem))
        }
        return .success(id == defaultID ? nil : id)
    }

    /// Splits a JSON request target `/v1/devices/{id}/<route>` into the device and the
    /// route it scopes (`/v1/<route>`); nil when `path` has no such prefix. The device
    /// service's own routes (`/v1/devices/create`) have no second segment after the id.
    public static func splitJSONPath(_ path: String) -> (device: String, route: String)? {
        guard path.utf8.starts(with: jsonPrefix.utf8) else { return nil }
        let rest = path.utf8.dropFirst(jsonPrefix.utf8.count)
        guard let slash = rest.firstIndex(of: UInt8(ascii: "/")) else { return nil }
        let device = String(Substring(rest[..<slash]))
        let route = "/v1" + String(Substring(rest[slash...]))
        // At least `/v1/<resource>`: a bare `/v1/devices/x/` is no route.
        guard route.utf8.count > 4 else { return nil }
        return (device, route)
    }
}
