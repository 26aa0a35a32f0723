import Foundation
import NIOCore
import NIOPosix
import Synchronization
import Testing

/// A bare TCP client for HTTP/1.1 tests: it sends bytes as given (pipelined requests,
/// `Expect: 100-continue`, bodies in pieces) and parses every response that comes back.
final class RawHTTP1Client: Sendable {
    /// One response as it came: interim (1xx) statuses before it, header names lower-cased.
    struct Response: Sendable {
        var interim: [Int] = []
        var status = 0
        var headers: [(String, String)] = []
        var body: [UInt8] = []
        var chunked = false

        func header(_ name: String) -> String? { headers.first { $0.0 == name }?.1 }
        var text: String { String(decoding: body, as: UTF8.self) }
        var lines: [String] { text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
    }

    private struct State {
        var bytes: [UInt8] = []
        var closed = false
    }

    private final class Collector: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        let state = Mutex(State())

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let buffer = unwrapInboundIn(data)
            state.withLock { $0.bytes.append(contentsOf: buffer.readableBytesView) }
        }

        func channelInactive(context: ChannelHandlerContext) {
            state.withLock { $0.closed = true }
        }
    }

    private let channel: any Channel
    private let collector: Collector

    private init(channel: any Channel, collector: Collector) {
        self.channel = channel
        self.collector = collector
    }

    static func connect(port: Int) async throws -> RawHTTP1Client {
        let collector = Collector()
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(collector) }
            }
            .connect(host: "127.0.0.1", port: port).get()
        return RawHTTP1Client(channel: channel, collector: collector)
    }

    private func snapshot() -> State { collector.state.withLock { $0 } }

    func send(_ text: String) async throws {
        try await send(Array(text.utf8))
    }

    func send(_ bytes: [UInt8]) async throws {
        try await channel.writeAndFlush(ByteBuffer(bytes: bytes))
    }

    /// A POST with a body and its `content-length`.
    static func post(_ path: String, _ body: String = "", headers: [String] = []) -> String {
        var request = "POST \(path) HTTP/1.1\r\nhost: test\r\ncontent-length: \(body.utf8.count)\r\n"
        for header in headers { request += header + "\r\n" }
        return request + "\r\n" + body
    }

    /// Waits until `count` final responses have arrived; returns every one so far.
    func responses(_ count: Int, sourceLocation: SourceLocation = #_sourceLocation) async throws -> [Response] {
        let giveUp = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < giveUp {
            let state = snapshot()
            let parsed = Self.parse(state.bytes, closed: state.closed)
            if parsed.responses.count >= count { return parsed.responses }
            if state.closed {
                Issue.record("closed after \(parsed.responses.count) responses", sourceLocation: sourceLocation)
                return parsed.responses
            }
            try await Task.sleep(for: .milliseconds(2))
        }
        Issue.record("no \(count) responses in 30 s", sourceLocation: sourceLocation)
        return Self.parse(snapshot().bytes, closed: false).responses
    }

    /// The interim statuses (1xx) received ahead of any final response so far.
    var interimSoFar: [Int] { Self.parse(snapshot().bytes, closed: false).pendingInterim }

    /// The bytes of the response still arriving (for a stream in progress).
    var receivedText: String { String(decoding: snapshot().bytes, as: UTF8.self) }

    var isClosed: Bool { snapshot().closed }

    /// Waits until the server has closed the connection.
    func waitUntilClosed(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let giveUp = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < giveUp {
            if snapshot().closed { return }
            try await Task.sleep(for: .milliseconds(2))
        }
        Issue.record("the server kept the connection open", sourceLocation: sourceLocation)
    }

    /// Waits until `predicate` holds of the raw text received.
    func waitForText(sourceLocation: SourceLocation = #_sourceLocation, _ predicate: (String) -> Bool) async throws {
        let giveUp = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < giveUp {
            if predicate(receivedText) { return }
            try await Task.sleep(for: .milliseconds(2))
        }
        Issue.record("the text never came: \(receivedText)", sourceLocation: sourceLocation)
    }

    func close() async {
        try? await channel.close()
    }

    // MARK: Parsing

    static func parse(_ bytes: [UInt8], closed: Bool) -> (responses: [Response], pendingInterim: [Int]) {
        var responses: [Response] = []
        var interim: [Int] = []
        var offset = 0
        while let headEnd = find([13, 10, 13, 10], in: bytes, from: offset) {
            let head = String(decoding: bytes[offset..<headEnd], as: UTF8.self)
            var lines = head.components(separatedBy: "\r\n")
            let statusLine = lines.removeFirst().split(separator: " ")
            var response = Response()
            response.status = statusLine.count > 1 ? Int(statusLine[1]) ?? 0 : 0
            for line in lines {
                guard let colon = line.firstIndex(of: ":") else { continue }
                response.headers.append(
                    (
                        line[..<colon].lowercased(),
                        line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                    ))
            }
            var cursor = headEnd + 4
            if (100..<200).contains(response.status) {
                interim.append(response.status)
                offset = cursor
                continue
            }
            if response.status == 204 || response.status == 304 {
                // Never a body, whatever the header fields say (RFC 9112 section 6.3).
            } else if let length = response.header("content-length").flatMap(Int.init) {
                guard bytes.count - cursor >= length else { break }
                response.body = Array(bytes[cursor..<cursor + length])
                cursor += length
            } else if response.header("transfer-encoding") == "chunked" {
                response.chunked = true
                var complete = false
                while let sizeEnd = find([13, 10], in: bytes, from: cursor) {
                    let size = Int(String(decoding: bytes[cursor..<sizeEnd], as: UTF8.self), radix: 16) ?? 0
                    guard bytes.count >= sizeEnd + 2 + size + 2 else { break }
                    response.body.append(contentsOf: bytes[sizeEnd + 2..<sizeEnd + 2 + size])
                    cursor = sizeEnd + 2 + size + 2
                    if size == 0 {
                        complete = true
                        break
                    }
                }
                guard complete else { break }
            } else {
                guard closed else { break }  // the body ends with the connection
                response.body = Array(bytes[cursor...])
                cursor = bytes.count
            }
            response.interim = interim
            interim = []
            responses.append(response)
            offset = cursor
        }
        return (responses, interim)
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= needle.count, start <= bytes.count - needle.count else { return nil }
        for i in start...(bytes.count - needle.count) where bytes[i..<i + needle.count].elementsEqual(needle) {
            return i
        }
        return nil
    }
}
