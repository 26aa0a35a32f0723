import GlimpseVocabulary
/// An asset's name, `app/name` with optional further segments (`app/posters/coco`).
///
/// Invariants, checked once at construction:
/// - at least two `/`-separated segments, none empty (no leading, trailing or double `/`)
/// - no `.` or `..` segment (no path traversal), no `\`
/// - no control characters (Unicode general category Cc: C0, DEL, C1)
/// - at most `maximumLength` UTF-8 bytes in all
package struct AssetName: Sendable, Hashable, Comparable, CustomStringConvertible {
    package static let defaultMaximumLength = 256

    /// The owning app (the first segment).
    package let app: String
    /// The rest, after the first `/`.
    package let path: String

    package var description: String { app + "/" + path }

    package init(_ text: String, maximumLength: Int = AssetName.defaultMaximumLength) throws(AssetNameError) {
        guard !text.isEmpty else { throw .empty }
        let length = text.utf8.count
        guard length <= maximumLength else { throw .tooLong(length: length, limit: maximumLength) }
        if let bad = text.unicodeScalars.first(where: { $0.properties.generalCategory == .control }) {
            throw .controlCharacter(bad.value)
        }
        guard !text.contains("\\") else { throw .backslash }
        let segments = text.split(separator: "/", omittingEmptySubsequences: false)
        guard segments.count >= 2 else { throw .missingApp }
        for segment in segments {
            guard !segment.isEmpty else { throw .emptySegment }
            guard segment != "." && segment != ".." else { throw .dotSegment(String(segment)) }
        }
        app = String(segments[0])
        path = segments.dropFirst().joined(separator: "/")
    }

    package init(app: String, name: String, maximumLength: Int = AssetName.defaultMaximumLength) throws(AssetNameError)
    {
        try self.init(app + "/" + name, maximumLength: maximumLength)
    }

    package static func < (a: Self, b: Self) -> Bool { a.description < b.description }
}

/// Why a name was refused.
package enum AssetNameError: Error, Sendable, Hashable, CustomStringConvertible {
    case empty
    case tooLong(length: Int, limit: Int)
    case controlCharacter(UInt32)
    case backslash
    /// No `/`: a name is `app/name`.
    case missingApp
    case emptySegment
    case dotSegment(String)

    package var description: String {
        switch self {
        case .empty: "an asset name cannot be empty"
        case .tooLong(let length, let limit): "the name is \(length) bytes; the limit is \(limit)"
        case .controlCharacter(let v): "the name contains control character U+\(String(v, radix: 16, uppercase: true))"
        case .backslash: "the name contains a backslash"
        case .missingApp: "a name is app/name"
        case .emptySegment: "the name has an empty segment (leading, trailing or double '/')"
        case .dotSegment(let s): "the name has a '\(s)' segment"
        }
    }
}

/// Read back under no length limit: a name stored under a larger limit stays readable.
extension AssetName: StringCoded {
    package var codedString: String { description }
    package init?(codedString: String) { try? self.init(codedString, maximumLength: .max) }
}
