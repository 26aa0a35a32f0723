import Foundation
import NIOCore
import NIOPosix

/// Plain HTTP/1.1 GET over loopback, read to the end (`Connection: close`).
func httpGet(port: Int, path: String, method: String = "GET") async throws -> (status: Int, body: String) {
    let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        .connect(host: "127.0.0.1", port: port) { channel in
            channel.eventLoop.makeCompletedFuture {
                try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
            }
        }
    var text = ""
    try await channel.executeThenClose { inbound, outbound in
        try await outbound.write(
            ByteBuffer(string: "\(method) \(path) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"))
        for try await var buffer in inbound { text += buffer.readString(length: buffer.readableBytes) ?? "" }
    }
    let parts = text.components(separatedBy: "\r\n\r\n")
    let statusLine = parts.first?.components(separatedBy: "\r\n").first ?? ""
    let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "") ?? 0
    return (status, parts.dropFirst().joined(separator: "\r\n\r\n"))
}

/// An executable the package builds, beside the test bundle (`swift build --show-bin-path`).
func builtExecutable(_ name: String) throws -> URL {
    let binDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        .deletingLastPathComponent()
    let url = binDirectory.appendingPathComponent(name)
    guard FileManager.default.isExecutableFile(atPath: url.path) else {
        throw ExecutableMissing(path: url.path)
    }
    return url
}

struct ExecutableMissing: Error, CustomStringConvertible {
    var path: String
    var description: String { "\(path) is missing: build it first (swift build --build-tests builds it)" }
}

/// Reads standard output line by line (blocking reads, on a thread of their own).
final class LineReader: @unchecked Sendable {
    private let handle: FileHandle
    private var buffer = Data()

    init(_ handle: FileHandle) {
        self.handle = handle
    }

    /// The next line, or nil at the end of the output.
    func nextLine() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                return line
            }
            let more = handle.availableData
            if more.isEmpty {
                guard !buffer.isEmpty else { return nil }
                defer { buffer.removeAll() }
                return String(decoding: buffer, as: UTF8.self)
            }
            buffer.append(more)
        }
    }

    func rest() -> String {
        var lines: [String] = []
        while let line = nextLine() { lines.append(line) }
        return lines.joined(separator: "\n")
    }
}
