/// A call that a client transport ended itself before its request left (the connection
/// closed, or the server's GOAWAY refused new streams, while the request was still on its
/// way to the wire): nothing reached the server, so the call may be made again, on a new
/// connection. The transport marks such an ending with this trailing metadata (made
/// locally, never sent). A server's idle timeout makes the race ordinary: a call issued
/// just as the server says GOAWAY to an idle connection.
public enum RequestNotSent {
    public static let key = "glimpse-request-not-sent"

    /// How many times a call is made in all while its request never leaves: bounded, so a
    /// server that closes every connection at once cannot keep a call going forever.
    public static let maximumAttempts = 3

    /// The trailing metadata of such an ending.
    public static var trailers: Metadata { Metadata([key: "1"]) }

    /// Whether `error` ended a call whose request never left.
    public static func marks(_ error: RPCError) -> Bool {
        error.code == .unavailable && !error.metadata[stringValues: key].isEmpty
    }
}
