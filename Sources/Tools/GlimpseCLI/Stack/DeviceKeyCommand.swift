import ArgumentParser
import ServiceKit

/// `glimpse device-key FILE`: a new device key in FILE (0600; a missing folder is made
/// 0700), for `--device-key` of the services, the gateway and the CLI on a stack that
/// listens beyond loopback. A file that holds a key already is kept, so running it again
/// (a compose stack brought up twice) changes nothing.
struct DeviceKeyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device-key",
        abstract: "Write a new device key to a file (kept if the file holds one already).",
        discussion: """
            Every service and the gateway started with --device-key FILE (or GLIMPSE_DEVICE_KEY) \
            then refuse device-scope calls without `authorization: Device <key>`; glimpse sends it \
            with --device-key FILE or GLIMPSE_DEVICE_KEY. Apps keep using their app tokens.
            """)

    @Argument(help: ArgumentHelp("Where the key goes.", valueName: "file"))
    var file: String

    func run() async throws {
        let context = Current.context
        if Files.exists(file) {
            guard case .success = DeviceKey.load(path: file) else {
                throw CLIFailure.local("\(file) exists and holds no device key; remove it or name another file")
            }
            Files.makePrivate(file)
            context.say("\(file): kept (it holds a device key already)")
            return
        }
        do {
            let folder = Files.directory(of: file)
            if !Files.exists(folder) { try Files.makeDirectory(folder, mode: 0o700) }
            try Files.writeSecret(DeviceKey.generate().fileText, to: file)
        } catch {
            throw CLIFailure.local("cannot write \(error.description)")
        }
        context.say("\(file): a new device key (mode 0600)")
    }
}
