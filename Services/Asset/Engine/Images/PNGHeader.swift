import GlimpseVocabulary
/// PNG: the 8-byte signature, then the IHDR chunk (length 13, type "IHDR", width and
/// height as big-endian UInt32) — PNG requires IHDR first, so 24 bytes suffice.
enum PNGHeader {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    static func inspect(_ b: [UInt8]) throws(ImageHeaderError) -> ImageHeaderParser.Progress {
        let seen = min(b.count, 8)
        guard Array(b[0..<seen]) == Array(signature[0..<seen]) else { throw .malformedPNG("bad signature") }
        guard b.count >= 24 else { return .needMoreData }
        guard uint32(b, 8) == 13, Array(b[12..<16]) == Array("IHDR".utf8) else {
            throw .malformedPNG("the first chunk is not a 13-byte IHDR")
        }
        let width = uint32(b, 16), height = uint32(b, 20)
        guard width > 0, height > 0, width <= 0x7FFF_FFFF, height <= 0x7FFF_FFFF else {
            throw .malformedPNG("width and height must be 1…2³¹−1, got \(width)×\(height)")
        }
        return .found(ImageInfo(format: .png, width: Int(width), height: Int(height)))
    }

    static func uint32(_ b: [UInt8], _ at: Int) -> UInt32 {
        UInt32(b[at]) << 24 | UInt32(b[at + 1]) << 16 | UInt32(b[at + 2]) << 8 | UInt32(b[at + 3])
    }
}
