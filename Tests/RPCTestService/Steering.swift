import RPCCore

/// What a call's request metadata asks the steered test service to do.
struct Steering {
    var sleepMilliseconds = 0
    var failCode: StatusCode?
    var failMessage = ""
    var failAfter = 0
    var failMessageRepeat = 1
    var replyCount = 1
    var replySize: Int?
    var initialEcho = Metadata()
    var trailingEcho = Metadata()

    init(_ metadata: Metadata) {
        for entry in metadata where entry.key.hasPrefix("x-") {
            let text: String? = if case .string(let s) = entry.value { s } else { nil }
            switch entry.key {
            case "x-sleep-ms": sleepMilliseconds = Int(text ?? "") ?? 0
            case "x-fail-code": failCode = Int(text ?? "").map(StatusCode.init(wireValue:))
            case "x-fail-message": failMessage = text ?? ""
            case "x-fail-message-bin":
                if case .binary(let bytes) = entry.value { failMessage = String(decoding: bytes, as: UTF8.self) }
            case "x-fail-after": failAfter = Int(text ?? "") ?? 0
            case "x-reply-count": replyCount = Int(text ?? "") ?? 1
            case "x-reply-size": replySize = Int(text ?? "")
            case "x-fail-message-repeat": failMessageRepeat = Int(text ?? "") ?? 1
            case "x-pad-initial":
                initialEcho.add(.string(String(repeating: "p", count: Int(text ?? "") ?? 0)), forKey: "x-padding")
            case "x-pad-trailing":
                trailingEcho.add(.string(String(repeating: "p", count: Int(text ?? "") ?? 0)), forKey: "x-padding")
            default:
                if entry.key.hasPrefix("x-echo-initial") { initialEcho.add(entry.value, forKey: entry.key) }
                if entry.key.hasPrefix("x-echo-trailing") { trailingEcho.add(entry.value, forKey: entry.key) }
            }
        }
    }

    func sleep() async throws {
        if sleepMilliseconds > 0 { try await Task.sleep(for: .milliseconds(sleepMilliseconds)) }
    }

    func failIfAsked(afterReplies sent: Int) throws {
        guard let failCode, failCode != .ok, sent >= failAfter else { return }
        throw RPCError(
            code: failCode, message: String(repeating: failMessage, count: max(1, failMessageRepeat)),
            metadata: trailingEcho)
    }

    func reply(to request: [UInt8]) -> [UInt8] {
        guard let replySize else { return request }
        return [UInt8](repeating: UInt8(ascii: "r"), count: replySize)
    }
}
