#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif
package import EngineHosting
package import GlimpseVocabulary
package import Logging
package import RPCCore
package import ServiceLifecycle

/// The devices a process serves beside its default one (`DeviceScope`): each a whole server
/// of its own — engine host, journal, clock, handlers — opened on the first call that names
/// it and kept until it is deleted or the process stops. The default device is the process's
/// own server, outside this table, as it was before devices existed.
package actor DeviceTable {
    /// What one device serves, and how it is closed.
    package struct Served: Sendable {
        package var router: RPCRouter
        package var close: @Sendable () async -> Void

        package init(
            services: [any RPCService], jsonServices: [any RPCJSONService] = [],
            close: @escaping @Sendable () async -> Void
        ) {
            router = RPCRouter(services: services, jsonServices: jsonServices)
            self.close = close
        }
    }

    /// Opens (or creates) a device's server from its stored data.
    package typealias Open = @Sendable (_ device: String) async throws -> Served

    private let open: Open
    /// Where each device's data lives (a folder per device), or nil when nothing is stored.
    package nonisolated let root: URL?
    private var served: [String: Task<Served, any Error>] = [:]
    /// Devices being deleted: no call opens them again meanwhile.
    private var deleting: Set<String> = []

    /// The most devices open at once (beside the default).
    package nonisolated let limit: Int
    /// The open-files limit in force (nil: unknown), and how many devices' stores it holds
    /// open at once: past that, the least recently used idle stores are closed and reopened
    /// on their next use (`OpenDatabases`), so a device is never refused for files.
    package nonisolated let openFiles: UInt64?
    package nonisolated let fileCapacity: Int?

    /// Files an open store holds in a process: the SQLite file, its WAL and the
    /// shared-memory index.
    package static let filesPerDevice = 3

    /// How many devices `openFiles` holds: what is left after a reserve for everything else
    /// (connections, the default device, logs), a quarter of it up to 1,024.
    package static func devices(holding openFiles: UInt64) -> Int {
        let files = Int(clamping: openFiles)
        return max(0, files - min(1024, files / 4)) / filesPerDevice
    }

    /// `root`: the folder holding one folder per device (`<data-dir>/devices`); `limit`:
    /// `--max-devices`. Each open device holds files: the process's open-file limit is raised
    /// to hold `limit` of them (`OpenFiles`), or as near as the system allows, and the
    /// process's `OpenDatabases` keep what it holds; `openFiles` stands for the limit in a
    /// test (which leaves the process's pool alone).
    package init(
        root: URL?, limit: Int = ServiceConfig.defaultMaxDevices, openFiles: UInt64? = nil, open: @escaping Open
    ) {
        self.root = root
        self.limit = limit
        self.open = open
        let inForce =
            openFiles
            ?? (limit > 0
                ? OpenFiles.raise(toHold: UInt64(clamping: limit) &* UInt64(Self.filesPerDevice) &+ 1024)
                : OpenFiles.current)
        self.openFiles = inForce
        fileCapacity = inForce.map(Self.devices(holding:))
        // The default device's store is one more: within the quarter kept aside.
        if openFiles == nil, let fileCapacity { OpenDatabases.shared.limit = fileCapacity + 1 }
    }

    /// The folder of `device`'s data.
    package nonisolated func directory(of device: String) -> URL? {
        root?.appendingPathComponent(device, isDirectory: true)
    }

    /// The router of `device`'s server, opened now if it is not yet. Only `creating` may
    /// open a device that has no stored data yet (the device's own calls; an app's token
    /// names a device that exists, so an app's call never makes one).
    package func router(for device: String, creating: Bool = true) async throws(RPCError) -> RPCRouter {
        let opening: Task<Served, any Error>
        if deleting.contains(device) {
            throw RPCError(code: .aborted, message: "device \(device) is being deleted")
        }
        if let found = served[device] {
            opening = found
        } else {
            if !creating, let directory = directory(of: device),
                !FileManager.default.fileExists(atPath: directory.path)
            {
                throw RPCError(code: .unauthenticated, message: "unknown app token (no device \(device) here)")
            }
            guard served.count < limit else {
                throw RPCError(
                    code: .resourceExhausted,
                    message: "device \(device): this process serves at most \(limit) devices; delete one first")
            }
            let open = self.open
            opening = Task { try await open(device) }
            served[device] = opening
        }
        do {
            return try await opening.value.router
        } catch {
            // A failed open is not kept: the next call tries again.
            if served[device] == opening { served[device] = nil }
            if let rpc = error as? RPCError { throw rpc }
            // Not UNAVAILABLE: that is the whole service's state, and a caller resets its
            // connection on it (every other device's calls and streams with it).
            throw RPCError(code: .internal, message: "device \(device): its store could not be opened: \(error)")
        }
    }

    /// Closes `device`'s server, if open; its data stays (the next call opens it again).
    package func close(_ device: String) async {
        let opening = served.removeValue(forKey: device)
        if let opened = try? await opening?.value { await opened.close() }
    }

    /// Closes `device`'s server, if open, and deletes its stored data. Returns whether the
    /// device had anything here. Idempotent: deleting a device twice is not an error.
    @discardableResult
    package func delete(_ device: String) async throws -> Bool {
        // Across the awaits below a call may arrive: it must not open the device again.
        deleting.insert(device)
        defer { deleting.remove(device) }
        let wasOpen = served[device] != nil
        await close(device)
        var stored = false
        if let directory = directory(of: device), FileManager.default.fileExists(atPath: directory.path) {
            try FileManager.default.removeItem(at: directory)
            stored = true
        }
        return stored || wasOpen
    }

    /// The devices with stored data or an open server, sorted.
    package func list() -> [String] {
        var devices = Set(served.keys)
        if let root, let names = try? FileManager.default.contentsOfDirectory(atPath: root.path) {
            devices.formUnion(names.filter(DeviceScope.isValid))
        }
        return devices.sorted()
    }

    /// Opens every stored device that `isDevice` accepts, logging the ones that fail (at
    /// start, where a device must be open before its first call: a push to its tokens, its
    /// followers at the gateway).
    package func openAll(where isDevice: (String) -> Bool = { _ in true }, logger: Logger) async {
        for device in list() where isDevice(device) {
            do { _ = try await router(for: device) } catch {
                logger.error("device \(device): its store could not be opened", metadata: ["error": "\(error)"])
            }
        }
    }

    /// Closes every open device's server (shutdown).
    package func closeAll() async {
        for device in Array(served.keys) { await close(device) }
    }
}

/// A server transport that hands each call of a per-device service to the server of the
/// device it names (`DeviceScope`: the `glimpse-device` entry, or — with `tokenNamesDevice`,
/// the gateway's — the device an app token was issued on, `<device>.<token>`). A call that
/// names none, or the default device, and every call of a process-wide service (health,
/// reflection, device management) go to `handler`, the process's own router.
package struct DeviceDispatch: ServerTransport {
    package let base: any ServerTransport
    package let table: DeviceTable
    /// The services each device serves (their full names).
    package let perDevice: Set<String>
    package let tokenNamesDevice: Bool

    package init(
        _ base: any ServerTransport, table: DeviceTable, perDevice: Set<String>, tokenNamesDevice: Bool = false
    ) {
        self.base = base
        self.table = table
        self.perDevice = perDevice
        self.tokenNamesDevice = tokenNamesDevice
    }

    package func listen(_ handler: @escaping @Sendable (ServerStream) async -> Void) async throws {
        let table = self.table
        let perDevice = self.perDevice
        let tokenNamesDevice = self.tokenNamesDevice
        try await base.listen { stream in
            guard let service = MethodDescriptor(path: stream.head.path)?.service, perDevice.contains(service) else {
                await handler(stream)
                return
            }
            let device: String?
            switch DeviceScope.device(in: stream.head.metadata) {
            case .failure(let error):
                stream.send(.status(Status(code: error.code, message: error.message), Metadata()), flush: true)
                return
            case .success(let named):
                device = named ?? (tokenNamesDevice ? Self.device(ofToken: stream.head.metadata) : nil)
            }
            guard let device else {
                await handler(stream)
                return
            }
            do throws(RPCError) {
                let appsCall = (try? Caller.token(in: stream.head.metadata)) != nil
                let router = try await table.router(for: device, creating: !appsCall)
                await router.handle(stream)
            } catch {
                stream.send(.status(Status(code: error.code, message: error.message), Metadata()), flush: true)
            }
        }
    }

    package func beginGracefulShutdown() { base.beginGracefulShutdown() }

    /// The device an app token names (`<device>.<hex>`); nil for a default device's token
    /// (plain hex) or no token.
    static func device(ofToken metadata: Metadata) -> String? {
        guard let token = try? Caller.token(in: metadata), let dot = token.firstIndex(of: ".") else { return nil }
        let device = String(token[..<dot])
        return DeviceScope.isValid(device) && device != DeviceScope.defaultID ? device : nil
    }
}

extension DeviceTable.Served {
    /// A device's server around an engine host: the host's timer (a system clock's
    /// deadlines) and `background` run until the device is closed, then `close` closes the
    /// server.
    package static func hosting<E: Engine, C: HostCommand>(
        _ host: EngineHost<E, C>, services: [any RPCService], background: [any Service] = [],
        close: @escaping @Sendable () async throws -> Void
    ) -> Self {
        let timer = Task { try? await host.run() }
        let running = background.map { service in Task { try? await service.run() } }
        return Self(services: services) {
            // Stopped, and awaited, before the store under them closes.
            for task in [timer] + running { task.cancel() }
            for task in [timer] + running { await task.value }
            try? await close()
        }
    }
}

extension ServiceConfig {
    /// A clock of this process's mode, new: a device's own (a manual one frozen at the
    /// same start as the process's default device).
    package func hostClock() -> HostClock {
        switch clock {
        case .system: HostClock(.system)
        case .manual(let start): HostClock(.manual(start: start))
        }
    }
}
