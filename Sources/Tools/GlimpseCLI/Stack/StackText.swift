/// What `glimpse up` prints about the stack: where everything listens and how to reach it.
enum StackText {
    static func addresses(
        _ plan: StackPlan, directory: String, key: (team: String, keyID: String, path: String), caPath: String?,
        context: CLIContext
    ) {
        var lines = ["", "Glimpse is up (data, logs and screens under \(directory)):"]
        let width = plan.members.map(\.name.count).max() ?? 0
        for member in plan.members {
            lines.append(
                "  \(member.name + String(repeating: " ", count: width - member.name.count))  127.0.0.1:\(member.port)  \(member.role)"
            )
        }
        let gateway = StackPlan.loopback(plan.gatewayPort)
        lines.append("  the device in a browser       http://\(gateway)/")
        lines.append(
            "  APNs endpoint                 https://127.0.0.1:\(plan.apnsTLSPort) (CA \(caPath ?? "in \(directory)/activity")), h2c http://127.0.0.1:\(plan.apnsH2CPort)"
        )
        for shard in plan.shards.dropFirst() {
            lines.append(
                "  APNs endpoint, shard \(shard.name)        https://127.0.0.1:\(shard.apnsTLS), h2c http://127.0.0.1:\(shard.apnsH2C) (its devices' tokens)"
            )
        }
        lines.append("  APNs provider key             team \(key.team), key id \(key.keyID), \(key.path)")
        lines.append("  screens                       \(directory)/screens/{home,lock,island}.{svg,png}")
        lines.append("")
        if plan.gatewayPort != StackPlan.gatewayPort {
            lines.append(
                "The gateway is not on its default port: export GLIMPSE_GATEWAY=\(gateway) (or pass --gateway \(gateway))."
            )
        }
        lines.append(
            "Try: glimpse widgets · glimpse render · glimpse tap <placement> <element> · glimpse clock advance 15m · glimpse events"
        )
        context.say(lines.joined(separator: "\n"))
    }

    static func seconds(_ duration: Duration) -> String {
        "\((duration.seconds * 100).rounded() / 100) s"
    }
}
