/// The face a browser sees on a transport's HTTP/1.1 connections, beside the JSON routes
/// (`NIOServerConfig.web`; nil: JSON by POST only, as scripts call it):
///
/// - `GET /` and `GET /web/<name>`: the `staticFiles` (see `StaticFiles`);
/// - `GET /v1/<resource>/<verb>?json=<URL-encoded proto3 JSON>`: the method runs as with
///   POST and that body (no `json` parameter: the empty request);
/// - a JSON call whose `Accept` names `text/event-stream` (what `EventSource` sends) is
///   answered as server-sent events (see `EventStreamFraming`), with a comment every
///   `eventStreamKeepalive` while nothing else is sent.
///
/// HTTP/2 connections are not affected: no browser speaks h2c.
public struct WebConfig: Sendable {
    public var staticFiles: StaticFiles
    /// How long an event stream may stay silent before a `: keepalive` comment goes out
    /// (proxies and browsers drop connections that say nothing for long). At least
    /// `shortestKeepalive`: zero would send nothing but comments, as fast as the loop turns.
    public var eventStreamKeepalive: Duration {
        didSet { eventStreamKeepalive = max(eventStreamKeepalive, Self.shortestKeepalive) }
    }

    public static let shortestKeepalive: Duration = .milliseconds(10)

    public init(staticFiles: StaticFiles, eventStreamKeepalive: Duration = .seconds(15)) {
        self.staticFiles = staticFiles
        self.eventStreamKeepalive = max(eventStreamKeepalive, Self.shortestKeepalive)
    }
}
