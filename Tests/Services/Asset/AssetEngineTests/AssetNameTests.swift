import Testing
@testable import AssetEngine
import EngineTesting
import GlimpseVocabulary

@Suite("Asset names")
struct AssetNameTests {
    @Test("names are app/name, with optional further segments")
    func valid() throws {
        let name = try AssetName("com.example.pixar/posters/coco.png")
        #expect(name.app == "com.example.pixar")
        #expect(name.path == "posters/coco.png")
        #expect(name.description == "com.example.pixar/posters/coco.png")
    }

    @Test(
        "refused: no app, empty segments, path traversal, control characters, backslash",
        arguments: [
            ("", AssetNameError.empty),
            ("poster.png", .missingApp),
            ("/app/poster.png", .emptySegment),
            ("app//poster.png", .emptySegment),
            ("app/poster.png/", .emptySegment),
            ("app/../other/secret", .dotSegment("..")),
            ("app/./poster.png", .dotSegment(".")),
            ("app/post\u{0}er.png", .controlCharacter(0)),
            ("app/bell\u{7}", .controlCharacter(7)),
            ("app/del\u{7F}", .controlCharacter(0x7F)),
            ("app/c1\u{85}", .controlCharacter(0x85)),
            ("app\\..\\x", .backslash),
        ])
    func refused(text: String, expected: AssetNameError) {
        #expect(throws: expected) { try AssetName(text) }
    }

    @Test("the length limit counts UTF-8 bytes: 256 accepted, 257 refused")
    func lengthLimit() {
        let ok = "app/" + String(repeating: "a", count: 252)
        #expect(throws: Never.self) { try AssetName(ok) }
        #expect(throws: AssetNameError.tooLong(length: 257, limit: 256)) { try AssetName(ok + "a") }
        #expect(throws: AssetNameError.tooLong(length: 258, limit: 256)) {
            try AssetName("app/" + String(repeating: "é", count: 127))
        }
    }
}
