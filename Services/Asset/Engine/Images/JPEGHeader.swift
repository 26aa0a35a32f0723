import GlimpseVocabulary
/// JPEG: SOI (FF D8), then marker segments up to the first frame header (SOFn), whose
/// body is precision (1), height (2), width (2). Markers may be preceded by fill
/// bytes (FF); RSTn and TEM stand alone; SOS or EOI before a frame header is refused.
enum JPEGHeader {
    /// SOF0–3, 5–7, 9–11, 13–15 (C4 DHT, C8 JPG and CC DAC are not frame headers).
    static func isFrameHeader(_ marker: UInt8) -> Bool {
        (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
    }

    static func inspect(_ b: [UInt8]) throws(ImageHeaderError) -> ImageHeaderParser.Progress {
        var i = 2
        while true {
            guard i < b.count else { return .needMoreData }
            guard b[i] == 0xFF else { throw .malformedJPEG("expected a marker at byte \(i)") }
            while i < b.count && b[i] == 0xFF { i += 1 }  // fill bytes
            guard i < b.count else { return .needMoreData }
            let marker = b[i]
            i += 1
            if (0xD0...0xD7).contains(marker) || marker == 0x01 { continue }
            if marker == 0xDA || marker == 0xD9 { throw .malformedJPEG("no frame header before the image data") }
            if marker == 0x00 { throw .malformedJPEG("stuffed byte outside entropy-coded data") }
            guard i + 2 <= b.count else { return .needMoreData }
            let length = Int(b[i]) << 8 | Int(b[i + 1])
            guard length >= 2 else { throw .malformedJPEG("segment length \(length)") }
            if isFrameHeader(marker) {
                guard length >= 8 else { throw .malformedJPEG("frame header too short") }
                guard i + 7 <= b.count else { return .needMoreData }
                let height = Int(b[i + 3]) << 8 | Int(b[i + 4])
                let width = Int(b[i + 5]) << 8 | Int(b[i + 6])
                guard width > 0, height > 0 else {
                    throw .malformedJPEG("zero dimension \(width)×\(height) (DNL-defined height is not supported)")
                }
                return .found(ImageInfo(format: .jpeg, width: width, height: height))
            }
            i += length
        }
    }
}
