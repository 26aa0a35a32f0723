import Testing
@testable import AssetEngine
import EngineTesting
import GlimpseVocabulary

@Suite("Image headers without decoding (spec §7)")
struct ImageHeaderTests {
    @Test(
        "PNG dimensions come from IHDR", arguments: [(1, 1), (135, 110), (1024, 1024), (4000, 3)] as [(UInt32, UInt32)])
    func png(width: UInt32, height: UInt32) throws {
        let progress = try ImageHeaderParser.inspect(ImageFixtures.png(width: width, height: height))
        #expect(progress == .found(ImageInfo(format: .png, width: Int(width), height: Int(height))))
    }

    @Test(
        "JPEG dimensions come from the SOFn segment, past APPn segments and fill bytes",
        arguments: [(0xC0, 0, 0), (0xC2, 0, 0), (0xC0, 30_000, 0), (0xC1, 0, 3)] as [(UInt8, Int, Int)])
    func jpeg(marker: UInt8, app1: Int, fill: Int) throws {
        let bytes = ImageFixtures.jpeg(
            width: 500, height: 750, app1Bytes: app1, fillBytesBeforeSOF: fill, frameMarker: marker)
        #expect(try ImageHeaderParser.inspect(bytes) == .found(ImageInfo(format: .jpeg, width: 500, height: 750)))
    }

    @Test("the header is found however the bytes are split: one byte at a time")
    func byteAtATime() throws {
        for file in [
            ImageFixtures.png(width: 40, height: 30), ImageFixtures.jpeg(width: 40, height: 30, app1Bytes: 100),
        ] {
            var prefix: [UInt8] = []
            var found: ImageInfo?
            for byte in file where found == nil {
                prefix.append(byte)
                if case .found(let info) = try ImageHeaderParser.inspect(prefix) { found = info }
            }
            #expect(found?.width == 40 && found?.height == 30)
        }
    }

    @Test(
        "anything but PNG and JPEG is refused, naming the format when known",
        arguments: [
            (Array("GIF89a\u{1}\u{0}\u{1}\u{0}\u{0}\u{0}".utf8), "GIF"),
            (Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8), "WebP"),
            ([0, 0, 0, 0x18] + Array("ftypheic\u{0}\u{0}\u{0}\u{0}".utf8), "HEIF"),
            (Array("BM\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}".utf8), "BMP"),
            (Array("<svg xmlns='http://www.w3.org/2000/svg'/>".utf8), "SVG"),
        ] as [([UInt8], String)])
    func unsupported(bytes: [UInt8], name: String) {
        #expect(throws: ImageHeaderError.unsupportedFormat(detected: name)) { try ImageHeaderParser.inspect(bytes) }
    }

    @Test("plain text is not an image")
    func text() {
        #expect(throws: ImageHeaderError.unsupportedFormat(detected: nil)) {
            try ImageHeaderParser.inspect(Array("hello, world".utf8))
        }
    }

    @Test("a JPEG whose scan starts before any frame header is malformed")
    func jpegWithoutFrame() {
        let bytes: [UInt8] = [0xFF, 0xD8] + ImageFixtures.segment(0xDA, [1, 1, 0, 0, 0x3F, 0]) + [0xFF, 0xD9]
        #expect { try ImageHeaderParser.inspect(bytes) } throws: {
            ($0 as? ImageHeaderError).map { if case .malformedJPEG = $0 { true } else { false } } ?? false
        }
    }

    @Test("a PNG whose first chunk is not IHDR, or with a zero dimension, is malformed")
    func pngMalformed() {
        var wrongChunk = ImageFixtures.png(width: 10, height: 10)
        wrongChunk.replaceSubrange(12..<16, with: Array("IDAT".utf8))
        let zero = ImageFixtures.png(width: 0, height: 10)
        for bytes in [wrongChunk, zero] {
            #expect { try ImageHeaderParser.inspect(bytes) } throws: {
                ($0 as? ImageHeaderError).map { if case .malformedPNG = $0 { true } else { false } } ?? false
            }
        }
    }
}
