#if canImport(FoundationEssentials)
package import FoundationEssentials
#else
package import Foundation
#endif

/// One input that changed the engine, in the order it was applied.
package struct JournalEntry: Sendable, Equatable {
    package enum Kind: String, Sendable {
        /// A service command; `payload` is its encoding.
        case command
        /// The host ran `fireDue()` with the clock at `instant`; `payload` is empty.
        case fireDue
    }

    /// Strictly increasing, from 1; the acknowledgement a caller may keep.
    package var sequence: Int64
    /// The clock's `now` while the input was applied (replay pins the clock to it).
    package var instant: Date
    package var kind: Kind
    package var payload: [UInt8]

    package init(sequence: Int64, instant: Date, kind: Kind, payload: [UInt8]) {
        self.sequence = sequence
        self.instant = instant
        self.kind = kind
        self.payload = payload
    }
}
