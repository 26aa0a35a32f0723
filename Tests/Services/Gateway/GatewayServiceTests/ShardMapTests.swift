@testable import GatewayService
import RPCCore
import ServiceKit
import Testing

/// `--shards`: which services keep which device.
@Suite struct ShardMapTests {
    static let two = """
        {"shards": [
          {"name": "a", "timeline": "10.0.0.1:7701", "intent": "10.0.0.1:7702", "activity": "10.0.0.1:7703", "asset": "10.0.0.1:7704"},
          {"name": "b", "timeline": "10.0.0.2:7701", "intent": "10.0.0.2:7702", "activity": "10.0.0.2:7703", "asset": "10.0.0.2:7704"}
        ]}
        """

    @Test("a map reads into its shards, in order, each with its four addresses")
    func reads() throws {
        let map = try ShardMap(json: Array(Self.two.utf8))
        #expect(map.shards.map(\.name) == ["a", "b"])
        #expect(map.shards[1].addresses.activity == ServiceAddress(host: "10.0.0.2", port: 7703))
        #expect(map.isSharded)
        #expect(!ShardMap(single: Upstreams.Addresses()).isSharded)
    }

    @Test("a new device's shard is its id's hash: the same every time, and ids spread over the shards")
    func hashed() throws {
        let map = try ShardMap(json: Array(Self.two.utf8))
        var counts: [String: Int] = [:]
        for number in 1...1000 {
            let device = "fleet-\(number)"
            let shard = map.shard(forNew: device).name
            #expect(map.shard(forNew: device).name == shard)
            counts[shard, default: 0] += 1
        }
        // FNV-1a over 1,000 ids: each shard gets a fair share (not exactly half).
        #expect(counts.keys.sorted() == ["a", "b"])
        #expect(counts.values.allSatisfy { $0 > 400 }, "\(counts)")
    }

    @Test("a recorded shard is found by name; an empty record is the first shard; a missing one is FAILED_PRECONDITION")
    func recorded() throws {
        let map = try ShardMap(json: Array(Self.two.utf8))
        #expect(try map.shard(of: "d", recorded: "b").name == "b")
        #expect(try map.shard(of: "d", recorded: "").name == "a")
        let error = #expect(throws: RPCError.self) { try map.shard(of: "d", recorded: "c") }
        #expect(error?.code == .failedPrecondition)
        #expect(error?.message.contains("shard \"c\"") == true)
        // Devices.List reports a device made before sharding on the first, and keeps the name
        // of a shard the map no longer has.
        #expect(map.reportedName(recorded: "") == "a")
        #expect(map.reportedName(recorded: "b") == "b")
        #expect(map.reportedName(recorded: "c") == "c")
    }

    @Test("a map with no shard, a bad name, a name twice or a missing address is refused with what is wrong")
    func refused() {
        let cases: [(String, String)] = [
            ("[]", "needs \"shards\""),
            (#"{"shards": []}"#, "names no shard"),
            (#"{"shards": [{"timeline": "h:1"}]}"#, "has no \"name\""),
            (#"{"shards": [{"name": "a", "timeline": "h:1", "intent": "h:2", "activity": "h:3"}]}"#, "no \"asset\""),
            (
                #"{"shards": [{"name": "a", "timeline": "h", "intent": "h:2", "activity": "h:3", "asset": "h:4"}]}"#,
                "not host:port"
            ),
            (
                #"{"shards": [{"name": "-a", "timeline": "h:1", "intent": "h:2", "activity": "h:3", "asset": "h:4"}]}"#,
                "shard name"
            ),
        ]
        for (json, says) in cases {
            let error = #expect(throws: ShardMapError.self) { try ShardMap(json: Array(json.utf8)) }
            #expect(error?.description.contains(says) == true, "\(json): \(String(describing: error))")
        }
        let twice = #"{"name": "a", "timeline": "h:1", "intent": "h:2", "activity": "h:3", "asset": "h:4"}"#
        let error = #expect(throws: ShardMapError.self) {
            try ShardMap(json: Array("{\"shards\": [\(twice), \(twice)]}".utf8))
        }
        #expect(error?.description.contains("named twice") == true)
    }
}
