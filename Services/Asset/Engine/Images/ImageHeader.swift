import GlimpseVocabulary
/// What a header tells without decoding: the format and the pixel dimensions.
package struct ImageInfo: Sendable, Hashable, Codable {
    package enum Format: String, Sendable, Hashable, Codable { case png, jpeg }
    package var format: Format
    package var width: Int
    package var height: Int

    package init(format: Format, width: Int, height: Int) {
        self.format = format
        self.width = width
        self.height = height
    }

    package var area: Int { width * height }
}

/// Why a header was refused.
package enum ImageHeaderError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not PNG or JPEG; `detected` names the format when its signature is known.
    case unsupportedFormat(detected: String?)
    /// The bytes ended before the dimensions.
    case truncated
    case malformedPNG(String)
    case malformedJPEG(String)
    /// No JPEG frame header within the first `limit` bytes.
    case headerTooLong(limit: Int)

    package var description: String {
        switch self {
        case .unsupportedFormat(let name?): "\(name) images are not accepted; only PNG and JPEG"
        case .unsupportedFormat(nil): "not a PNG or JPEG image"
        case .truncated: "the image ends before its dimensions"
        case .malformedPNG(let why): "malformed PNG: \(why)"
        case .malformedJPEG(let why): "malformed JPEG: \(why)"
        case .headerTooLong(let limit): "no JPEG frame header in the first \(limit) bytes"
        }
    }
}

/// Reads dimensions from the start of an image as it streams in.
package enum ImageHeaderParser {
    package enum Progress: Sendable, Hashable {
        case needMoreData
        case found(ImageInfo)
    }

    /// Looks at the bytes received so far (always from the start of the file).
    package static func inspect(_ prefix: [UInt8]) throws(ImageHeaderError) -> Progress {
        if prefix.count >= 2, prefix[0] == 0xFF, prefix[1] == 0xD8 { return try JPEGHeader.inspect(prefix) }
        if prefix.first == 0x89 { return try PNGHeader.inspect(prefix) }
        if prefix.count < 12, couldStillBeImage(prefix) { return .needMoreData }
        throw .unsupportedFormat(detected: knownFormat(prefix))
    }

    /// True while `prefix` is a prefix of a PNG or JPEG signature.
    static func couldStillBeImage(_ prefix: [UInt8]) -> Bool {
        prefix.isEmpty || PNGHeader.signature.starts(with: prefix) || [0xFF, 0xD8].starts(with: prefix)
    }

    /// Names common formats by signature, for a clearer refusal.
    static func knownFormat(_ b: [UInt8]) -> String? {
        func at(_ offset: Int, _ text: String) -> Bool {
            let t = Array(text.utf8)
            return b.count >= offset + t.count && Array(b[offset..<offset + t.count]) == t
        }
        if at(0, "GIF8") { return "GIF" }
        if at(0, "RIFF") && at(8, "WEBP") { return "WebP" }
        if at(4, "ftypheic") || at(4, "ftypheix") || at(4, "ftypmif1") { return "HEIF" }
        if at(4, "ftypavif") { return "AVIF" }
        if at(0, "BM") { return "BMP" }
        if at(0, "II*\u{0}") || at(0, "MM\u{0}*") { return "TIFF" }
        if at(0, "<svg") || at(0, "<?xml") { return "SVG" }
        return nil
    }
}
