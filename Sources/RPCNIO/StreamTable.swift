/// The streams of a connection by id, remembering the last one looked up: nghttp2 calls
/// back for the same stream several times in a row (headers, data, frame end), and the
/// cache spares most of the hashing.
///
/// Invariant: `last`, when set, is the value stored under `lastID`.
struct StreamTable<Stream: AnyObject> {
    private var byID: [Int32: Stream] = [:]
    private var lastID: Int32 = -1
    private var last: Stream?

    subscript(id: Int32) -> Stream? {
        mutating get {
            if id == lastID, let last { return last }
            guard let stream = byID[id] else { return nil }
            lastID = id
            last = stream
            return stream
        }
        set {
            if id == lastID { last = newValue }
            byID[id] = newValue
        }
    }

    @discardableResult
    mutating func removeValue(forKey id: Int32) -> Stream? {
        if id == lastID {
            lastID = -1
            last = nil
        }
        return byID.removeValue(forKey: id)
    }

    var values: Dictionary<Int32, Stream>.Values { byID.values }
    var isEmpty: Bool { byID.isEmpty }

    mutating func removeAll() {
        byID.removeAll()
        lastID = -1
        last = nil
    }
}
