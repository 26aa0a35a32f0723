import GlimpseJSON
package import RPCCore
import ServiceKit

/// Which services keep which device, for a gateway in front of several sets of services
/// (`--shards FILE`). Each shard is a set of the four services wired to one another, as one
/// stack's are; a device lives on one shard for its whole life: every call of the device,
/// its followers and its deletion go to that shard's services. The first shard keeps the
/// default device.
///
///     {"shards": [
///       {"name": "a", "timeline": "10.0.0.1:7701", "intent": "10.0.0.1:7702",
///        "activity": "10.0.0.1:7703", "asset": "10.0.0.1:7704"},
///       {"name": "b", "timeline": "10.0.0.2:7701", …}]}
///
/// A device's shard is the one Devices.Create names, or the one its id hashes to (FNV-1a,
/// so the same id lands on the same shard in every run), and is written into the device's
/// folder with its creation (`DevicesHandler.recordedShard`): adding a shard later moves no
/// existing device.
package struct ShardMap: Sendable {
    package struct Shard: Sendable {
        package var name: String
        package var addresses: Upstreams.Addresses
    }

    /// In the map's order; never empty.
    package let shards: [Shard]

    /// No sharding: one shard, unnamed, at `addresses`.
    package init(single addresses: Upstreams.Addresses) {
        shards = [Shard(name: "", addresses: addresses)]
    }

    package init(shards: [Shard]) throws(ShardMapError) {
        guard !shards.isEmpty else { throw ShardMapError("names no shard (\"shards\": [ … ])") }
        var seen = Set<String>()
        for shard in shards {
            guard DeviceScope.isValid(shard.name) else {
                throw ShardMapError("shard name \"\(shard.name)\": 1 to 63 of a-z, 0-9 and -, not starting with -")
            }
            guard seen.insert(shard.name).inserted else {
                throw ShardMapError("shard \"\(shard.name)\" is named twice")
            }
        }
        self.shards = shards
    }

    /// The map in `bytes` (the JSON above).
    package init(json bytes: [UInt8]) throws(ShardMapError) {
        let value: JSONValue
        do { value = try JSONParser.parse(bytes) } catch { throw ShardMapError("\(error)") }
        guard case .array(let entries)? = value["shards"] else {
            throw ShardMapError("needs \"shards\": an array of {name, timeline, intent, activity, asset}")
        }
        var shards: [Shard] = []
        for (index, entry) in entries.enumerated() {
            guard let name = entry["name"]?.stringValue else {
                throw ShardMapError("shards[\(index)] has no \"name\"")
            }
            var addresses = Upstreams.Addresses()
            for service in Upstreams.Service.allCases {
                guard let text = entry[service.rawValue]?.stringValue else {
                    throw ShardMapError("shard \"\(name)\" has no \"\(service.rawValue)\" (host:port)")
                }
                guard let address = ServiceAddress(parsing: text) else {
                    throw ShardMapError("shard \"\(name)\": \(service.rawValue) \"\(text)\" is not host:port")
                }
                addresses[service] = address
            }
            shards.append(Shard(name: name, addresses: addresses))
        }
        try self.init(shards: shards)
    }

    /// Whether there is more than the unnamed single shard.
    package var isSharded: Bool { shards.count > 1 || !first.name.isEmpty }

    /// Where the default device and any device made before sharding live.
    package var first: Shard { shards[0] }

    /// The shard named `name`; the first for an empty name (a device made before sharding).
    package func shard(named name: String) -> Shard? {
        name.isEmpty ? first : shards.first { $0.name == name }
    }

    /// The name to report for a device whose marker records `recorded`: the first shard's
    /// for none, the recorded one even when the map no longer names it.
    package func reportedName(recorded: String) -> String {
        shard(named: recorded)?.name ?? recorded
    }

    /// The shard a new device lands on when Create names none.
    package func shard(forNew device: String) -> Shard {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in device.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return shards[Int(hash % UInt64(shards.count))]
    }

    /// The names, for messages.
    package var names: String { shards.map { "\"\($0.name)\"" }.joined(separator: ", ") }

    /// `device`'s shard, `recorded` the name its folder holds (empty: the first).
    package func shard(of device: String, recorded: String) throws(RPCError) -> Shard {
        guard let shard = shard(named: recorded) else {
            throw RPCError(
                code: .failedPrecondition,
                message:
                    "device \(device) lives on shard \"\(recorded)\", which the gateway's --shards no longer names (it names \(names))"
            )
        }
        return shard
    }
}

/// A shard map that does not read.
package struct ShardMapError: Error, CustomStringConvertible {
    package let description: String
    init(_ description: String) { self.description = description }
}
