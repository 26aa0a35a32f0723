import Foundation
import RPCCore
@testable import Web
import Testing

/// The browser face's I/O-free parts: `StaticFiles`, `BrowserRequest`, `EventStreamFraming`.
@Suite("Web: static files, browser requests, event-stream framing")
struct WebUnitTests {
    static let page = Array("<!doctype html><title>Glimpse</title>".utf8)
    static let script = Array("console.log(1)\n".utf8)
    static let files = StaticFiles([
        "index.html": page, "app.js": script, "app.css": Array("body{}".utf8), "logo.svg": Array("<svg/>".utf8),
        "icon.png": [0x89, 0x50, 0x4E, 0x47], "data.json": Array("{}".utf8), "favicon.ico": [0, 0, 1, 0],
        "notes.txt": Array("hi".utf8), "blob.bin": [1, 2, 3], "README": Array("x".utf8),
        "old.HTM": Array("<p>".utf8), "mod.mjs": Array("export {}".utf8),
    ])

    func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
    func header(_ answer: StaticAnswer, _ name: String) -> String? { answer.headers.first { $0.0 == name }?.1 }

    // MARK: StaticFiles

    @Test func rootIsTheIndexWithItsTypeTagAndNoCache() {
        let answer = Self.files.answer(method: "GET", target: "/", ifNoneMatch: nil)
        #expect(answer.status == 200)
        #expect(answer.body == Self.page)
        #expect(answer.contentLength == Self.page.count)
        #expect(header(answer, "content-type") == "text/html; charset=utf-8")
        #expect(header(answer, "cache-control") == "no-cache")
        #expect(header(answer, "etag") == Self.files["index.html"]?.etag)
        // A query string is no part of the name.
        #expect(Self.files.answer(method: "GET", target: "/?v=2", ifNoneMatch: nil).body == Self.page)
        #expect(Self.files.answer(method: "GET", target: "/web/app.js?v=2", ifNoneMatch: nil).body == Self.script)
    }

    @Test(arguments: [
        ("app.js", "text/javascript; charset=utf-8"), ("mod.mjs", "text/javascript; charset=utf-8"),
        ("app.css", "text/css; charset=utf-8"), ("logo.svg", "image/svg+xml"), ("icon.png", "image/png"),
        ("data.json", "application/json"), ("favicon.ico", "image/x-icon"), ("notes.txt", "text/plain; charset=utf-8"),
        ("blob.bin", "application/octet-stream"), ("README", "application/octet-stream"),
        ("old.HTM", "text/html; charset=utf-8"), ("index.html", "text/html; charset=utf-8"),
    ])
    func eachFileHasTheContentTypeOfItsExtension(_ name: String, _ type: String) {
        let answer = Self.files.answer(method: "GET", target: "/web/\(name)", ifNoneMatch: nil)
        #expect(answer.status == 200)
        #expect(header(answer, "content-type") == type)
        #expect(StaticFiles.contentType(of: name) == type)
    }

    @Test func theTagIsStrongQuotedStableAndFollowsTheBytes() {
        let tag = StaticFiles.etag(of: Self.page)
        #expect(tag.hasPrefix("\"") && tag.hasSuffix("\"") && tag.count > 2)
        #expect(!tag.hasPrefix("W/"))
        #expect(!tag.dropFirst().dropLast().contains("\""))
        #expect(StaticFiles.etag(of: Self.page) == tag, "the same bytes: the same tag")
        #expect(StaticFiles([StaticFiles.index: Self.page])[StaticFiles.index]?.etag == tag, "across instances")
        #expect(StaticFiles.etag(of: Self.page + [0x20]) != tag)
        #expect(StaticFiles.etag(of: []) != StaticFiles.etag(of: [0]))
        #expect(StaticFiles.etag(of: Self.script) != tag)
    }

    @Test func ifNoneMatchWithTheTagIs304WithTheValidatorsAndNoBody() throws {
        let tag = try #require(Self.files["app.js"]?.etag)
        for ifNoneMatch in [tag, "*", " * ", "\"other\", \(tag)", "\"a\",\t\(tag) ,\"b\"", "W/\(tag)"] {
            let answer = Self.files.answer(method: "GET", target: "/web/app.js", ifNoneMatch: ifNoneMatch)
            #expect(answer.status == 304, "If-None-Match: \(ifNoneMatch)")
            #expect(answer.body.isEmpty && answer.contentLength == nil)
            #expect(header(answer, "etag") == tag)
            #expect(header(answer, "cache-control") == "no-cache")
            #expect(header(answer, "content-type") == nil)
        }
        #expect(Self.files.answer(method: "HEAD", target: "/web/app.js", ifNoneMatch: tag).status == 304)
        let unquoted = String(tag.dropFirst().dropLast())
        for ifNoneMatch in ["", "\"other\"", unquoted, "\"a\", \"b\"", Self.files["index.html"]!.etag, "**"] {
            let answer = Self.files.answer(method: "GET", target: "/web/app.js", ifNoneMatch: ifNoneMatch)
            #expect(answer.status == 200, "If-None-Match: \(ifNoneMatch)")
            #expect(answer.body == Self.script)
        }
    }

    @Test func headAnswersTheLengthWithoutTheBody() {
        let answer = Self.files.answer(method: "HEAD", target: "/web/app.js", ifNoneMatch: nil)
        #expect(answer.status == 200)
        #expect(answer.body.isEmpty)
        #expect(answer.contentLength == Self.script.count)
        #expect(header(answer, "content-type") == "text/javascript; charset=utf-8")
        #expect(header(answer, "etag") == Self.files["app.js"]?.etag)
    }

    @Test(arguments: ["/web/missing.js", "/web/", "/web/../index.html", "/web/APP.JS", "/web/app.js/"])
    func anUnknownFileIs404AsJSON(_ target: String) {
        let answer = Self.files.answer(method: "GET", target: target, ifNoneMatch: nil)
        #expect(answer.status == 404)
        #expect(header(answer, "content-type") == "application/json")
        #expect(text(answer.body).hasPrefix(#"{"code":5,"status":"NOT_FOUND","message":"No such file: "#))
        #expect(answer.contentLength == answer.body.count)
        let head = Self.files.answer(method: "HEAD", target: target, ifNoneMatch: nil)
        #expect(head.status == 404 && head.body.isEmpty && head.contentLength == answer.body.count)
    }

    @Test func withoutAnIndexTheRootIs404() {
        let files = StaticFiles(["app.js": Self.script])
        #expect(files.answer(method: "GET", target: "/", ifNoneMatch: nil).status == 404)
        #expect(files.names == ["app.js"])
    }

    @Test(arguments: ["POST", "PUT", "DELETE", "OPTIONS", "PATCH", "get"])
    func otherMethodsAre405WithAllow(_ method: String) {
        for target in ["/", "/web/app.js", "/web/missing"] {
            let answer = Self.files.answer(method: method, target: target, ifNoneMatch: nil)
            #expect(answer.status == 405, "\(method) \(target)")
            #expect(header(answer, "allow") == "GET, HEAD")
            #expect(header(answer, "content-type") == "application/json")
            #expect(text(answer.body).hasPrefix(#"{"code":12,"status":"UNIMPLEMENTED""#))
            #expect(answer.contentLength == answer.body.count)
        }
    }

    @Test func claimsTheRootAndTheWebFolderOnly() {
        for target in ["/", "/?x=1", "/web/", "/web/app.js", "/web/nothing", "/web/a/b"] {
            #expect(Self.files.claims(target), "\(target)")
        }
        for target in ["/web", "/webx/app.js", "/index.html", "/v1/clock/now", "", "/v1/web/x", "*"] {
            #expect(!Self.files.claims(target), "\(target)")
        }
    }

    // MARK: BrowserRequest

    func json(_ target: String) -> String? { BrowserRequest.jsonParameter(target).map(text) }

    @Test func theJSONParameterIsFormDecoded() {
        #expect(json("/v1/clock/now?json=%7B%22a%22%3A1%7D") == #"{"a":1}"#)
        #expect(json("/v1/x?json={\"a\":\"b+c%2Bd\"}") == #"{"a":"b c+d"}"#)
        #expect(json("/v1/x?json=%e2%9c%93") == "✓", "lower-case hex, a multi-byte character")
        #expect(json("/v1/x?other=1&json=%5B%5D&json=2") == "[]", "the first json parameter, others ignored")
        #expect(json("/v1/x?%6Ason=7") == "7", "the name is decoded too")
        #expect(json("/v1/x?&&json=1&") == "1")
        #expect(json("/v1/x?json=a=b") == "a=b", "only the first = splits")
        #expect(json("/v1/x?json=a?b") == "a?b")
    }

    @Test func noJSONParameterIsTheEmptyRequest() {
        #expect(json("/v1/clock/now") == "")
        #expect(json("/v1/clock/now?") == "")
        #expect(json("/v1/clock/now?json") == "")
        #expect(json("/v1/clock/now?json=") == "")
        #expect(json("/v1/clock/now?jsonx=1&xjson=2&JSON=3") == "")
        #expect(json("/v1/clock/now?=1") == "")
        #expect(json("/v1/x?bad%zz=1&json=2") == "2", "a bad name elsewhere is ignored")
        #expect(json("/v1/x?other=%zz&json=2") == "2", "a bad value elsewhere is ignored")
    }

    @Test(arguments: ["json=%", "json=%7", "json=%zz", "json=%7g", "json=ab%", "json=%%41", "json=%G0"])
    func badPercentEncodingOfTheJSONParameterIsNil(_ query: String) {
        #expect(BrowserRequest.jsonParameter("/v1/x?\(query)") == nil)
    }

    @Test func formDecoding() {
        func decode(_ s: String) -> String? { BrowserRequest.formDecoded(ArraySlice(s.utf8)).map(text) }
        #expect(decode("") == "")
        #expect(decode("a+b") == "a b")
        #expect(decode("%2B%2b") == "++")
        #expect(decode("%41%4a%4A") == "AJJ")
        #expect(decode("%00") == "\0")
        #expect(decode("100%") == nil)
        #expect(decode("%4") == nil)
        #expect(decode("%-1") == nil)
        #expect(BrowserRequest.formDecoded([0x25, 0x46, 0x46]) == [0xFF], "any byte, not only UTF-8")
        // A slice that does not start at zero.
        let bytes = Array("xx%41+".utf8)
        #expect(BrowserRequest.formDecoded(bytes[2...]).map(text) == "A ")
    }

    @Test func acceptsEventStreamWhereverTheAcceptFieldNamesIt() {
        #expect(BrowserRequest.acceptsEventStream(["text/event-stream"]))
        #expect(BrowserRequest.acceptsEventStream(["Text/Event-Stream"]))
        #expect(BrowserRequest.acceptsEventStream(["application/json, text/event-stream;q=0.9"]))
        #expect(BrowserRequest.acceptsEventStream([" text/event-stream ; charset=utf-8"]))
        #expect(BrowserRequest.acceptsEventStream(["application/json", "text/event-stream"]))
        #expect(BrowserRequest.acceptsEventStream(["text/html,\ttext/event-stream"]))
        #expect(!BrowserRequest.acceptsEventStream([]))
        #expect(!BrowserRequest.acceptsEventStream([""]))
        #expect(!BrowserRequest.acceptsEventStream(["*/*"]))
        #expect(!BrowserRequest.acceptsEventStream(["text/*"]))
        #expect(!BrowserRequest.acceptsEventStream(["application/json"]))
        #expect(!BrowserRequest.acceptsEventStream(["text/event-streams"]))
        #expect(!BrowserRequest.acceptsEventStream(["application/text/event-stream"]))
        #expect(!BrowserRequest.acceptsEventStream(["text/plain; note=text/event-stream"]))
    }

    // MARK: EventStreamFraming

    func frame(_ message: String) -> String { text(EventStreamFraming.data(Array(message.utf8))) }

    @Test func aMessageIsOneDataLineAndABlankLine() {
        #expect(frame(#"{"sequence":"7"}"#) == "data: {\"sequence\":\"7\"}\n\n")
        #expect(frame("") == "data: \n\n", "an empty message is still an event")
        #expect(EventStreamFraming.contentType == "text/event-stream")
    }

    @Test func aMessageWithLineBreaksIsOneDataLineEach() {
        #expect(frame("{\n  \"a\": 1\n}") == "data: {\ndata:   \"a\": 1\ndata: }\n\n")
        #expect(frame("a\r\nb\r\n") == "data: a\ndata: b\ndata: \n\n", "CRLF: the CR goes")
        #expect(frame("a\n\nb") == "data: a\ndata: \ndata: b\n\n", "an empty line stays (a reader joins it back)")
        #expect(frame("a\rb") == "data: a\ndata: b\n\n", "a lone CR ends a line for a reader: it must not pass through")
        #expect(frame("\r") == "data: \ndata: \n\n")
        // Whatever the message, no line of the event is anything but data, and the event ends once.
        for message in ["x\revent: injected", "x\n\ndata: y", "x\r\n\r\nid: 9", "\r\r\n\n"] {
            let framed = frame(message)
            #expect(framed.hasSuffix("\n\n"))
            let lines = framed.dropLast(2).split(omittingEmptySubsequences: false) {
                $0 == "\n" || $0 == "\r" || $0 == "\r\n"
            }
            #expect(lines.allSatisfy { $0.hasPrefix("data: ") }, "\(framed.debugDescription)")
        }
    }

    /// A reader (WHATWG's algorithm, data fields only) gets the message back, its line
    /// breaks as LF.
    @Test(arguments: ["{}", "a\nb", "a\r\nb", "line\n", "\n", "a\rb", " leading space", "data: x"])
    func aReaderGetsTheMessageBack(_ message: String) {
        let framed = frame(message)
        var data: [String] = []
        var events: [String] = []
        for line in framed.split(
            omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" })
        {
            if line.isEmpty {
                if !data.isEmpty { events.append(data.joined(separator: "\n")) }
                data = []
            } else if line.hasPrefix("data:") {
                var value = line.dropFirst(5)
                if value.first == " " { value = value.dropFirst() }
                data.append(String(value))
            }
        }
        let expected = message.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        #expect(events == [expected])
    }

    @Test func theErrorEventCarriesTheStatus() {
        let framed = text(EventStreamFraming.error(Status(code: .notFound, message: "No placement 9")))
        #expect(
            framed == "event: error\ndata: {\"code\":5,\"status\":\"NOT_FOUND\",\"message\":\"No placement 9\"}\n\n")
        let quoted = text(EventStreamFraming.error(Status(code: .invalidArgument, message: "bad \"x\"\nline")))
        #expect(quoted.hasPrefix("event: error\ndata: {\"code\":3,\"status\":\"INVALID_ARGUMENT\""))
        #expect(quoted.hasSuffix("}\n\n"))
        #expect(quoted.split(separator: "\n").count == 2, "the JSON escapes the line break: \(quoted.debugDescription)")
    }

    @Test func theKeepaliveIsAComment() {
        #expect(text(EventStreamFraming.keepalive) == ": keepalive\n\n")
    }

    @Test func theDefaultKeepaliveIsFifteenSeconds() {
        #expect(WebConfig(staticFiles: Self.files).eventStreamKeepalive == .seconds(15))
    }

    @Test func aKeepaliveOfZeroOrLessIsTheShortestOne() {
        #expect(
            WebConfig(staticFiles: Self.files, eventStreamKeepalive: .zero).eventStreamKeepalive
                == WebConfig.shortestKeepalive)
        var config = WebConfig(staticFiles: Self.files, eventStreamKeepalive: .seconds(1))
        #expect(config.eventStreamKeepalive == .seconds(1))
        config.eventStreamKeepalive = .seconds(-3)
        #expect(config.eventStreamKeepalive == WebConfig.shortestKeepalive)
    }
}
