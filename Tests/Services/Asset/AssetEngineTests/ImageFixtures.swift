@testable import AssetEngine
import EngineTesting
import GlimpseVocabulary

/// Real PNG and JPEG files (headers built byte by byte; the pixel data is filler the
/// header readers never look at).
enum ImageFixtures {
    static func png(width: UInt32, height: UInt32, dataBytes: Int = 64) -> [UInt8] {
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var ihdr = be32(width) + be32(height)
        ihdr += [8, 6, 0, 0, 0]  // 8-bit RGBA, deflate, no filter, no interlace
        out += chunk("IHDR", ihdr)
        out += chunk("IDAT", (0..<dataBytes).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        out += chunk("IEND", [])
        return out
    }

    /// SOI, APP0 (JFIF), optional APP1 padding (like EXIF), DQT, SOF0, SOS, data, EOI.
    static func jpeg(
        width: UInt16, height: UInt16, app1Bytes: Int = 0, fillBytesBeforeSOF: Int = 0,
        frameMarker: UInt8 = 0xC0
    ) -> [UInt8] {
        var out: [UInt8] = [0xFF, 0xD8]
        out += segment(0xE0, Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0])
        if app1Bytes > 0 {
            out += segment(0xE1, Array("Exif".utf8) + [0, 0] + [UInt8](repeating: 0xAB, count: app1Bytes))
        }
        out += segment(0xDB, [0] + [UInt8](repeating: 1, count: 64))
        out += [UInt8](repeating: 0xFF, count: fillBytesBeforeSOF)
        out += segment(frameMarker, [8] + be16(height) + be16(width) + [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1])
        out += segment(0xDA, [3, 1, 0, 2, 0x11, 3, 0x11, 0, 0x3F, 0])
        out += [0x12, 0x34, 0xFF, 0x00, 0x56]  // entropy-coded data with a stuffed byte
        out += [0xFF, 0xD9]
        return out
    }

    static func segment(_ marker: UInt8, _ body: [UInt8]) -> [UInt8] {
        [0xFF, marker] + be16(UInt16(body.count + 2)) + body
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        return be32(UInt32(data.count)) + typeBytes + data + be32(crc32(typeBytes + data))
    }

    static func be32(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    }
    static func be16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }

    /// PNG's CRC-32 (ISO 3309), bit by bit.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            crc ^= UInt32(b)
            for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return ~crc
    }
}
