import ArgumentParser
import GlimpseMessages
import GlimpseRPC
import RPCCore

/// `glimpse devices`: the devices of one gateway (a CI job's own device: create, run the
/// tests with `--device-id`, delete).
struct DevicesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "Create, list and delete devices on a gateway that holds several.",
        discussion: """
            A device has its own apps, placements, Live Activities, settings, event log and \
            clock, at the gateway and at every service. Every other command takes \
            --device-id ID (or $GLIMPSE_DEVICE_ID) to act on one; without it, on the default \
            device. An app's token names the device it was installed on.
            """,
        subcommands: [Create.self, Delete.self, List.self], defaultSubcommand: List.self)

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create an empty device.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "1 to 63 of a-z, 0-9 and -, not starting with -.") var id: String
        @Option(help: "On a sharded gateway (--shards): the shard to keep it (default: the one its id hashes to).")
        var shard: String?

        func run() async throws {
            let response = try await global.withGateway { gateway in
                try await gateway.devices.create(.init(message: .init(deviceId: id, shard: shard ?? ""))).message
            }
            global.emit(response) {
                "created device \($0.deviceId)" + ($0.shard.isEmpty ? "" : " on shard \($0.shard)")
            }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete a device and everything of it, at the gateway and at every service.")
        @OptionGroup var global: GlobalOptions
        @Argument var id: String

        func run() async throws {
            let response = try await global.withGateway { gateway in
                try await gateway.devices.delete(.init(message: .init(deviceId: id))).message
            }
            global.emit(response) { $0.existed ? "deleted device \(id)" : "no device \(id) (nothing to delete)" }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the devices, the default one first.")
        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let response = try await global.withGateway { gateway in
                try await gateway.devices.list(.init(message: .init())).message
            }
            global.emit(response) { response in
                let sharded = response.devices.contains { !$0.shard.isEmpty }
                return Table.render(
                    header: ["DEVICE", "MODEL", "CREATED"] + (sharded ? ["SHARD"] : []),
                    rows: response.devices.map { device in
                        [device.deviceId, device.model, device.createdAt.map(ISO8601Text.format) ?? "-"]
                            + (sharded ? [device.shard] : [])
                    })
            }
        }
    }
}
