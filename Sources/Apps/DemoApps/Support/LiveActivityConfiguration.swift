import Foundation
import GlimpseMessages
import GlimpseRPC
import RPCCore

/// One `ActivityConfiguration(for: Attributes.self) { … } dynamicIsland: { … }`: the
/// views of every presentation from the attributes and the content state.
protocol LiveActivityConfiguration: Sendable {
    associatedtype Attributes: Decodable
    associatedtype ContentState: Decodable
    /// The struct's name, as `attributes-type` carries it.
    static var attributesType: String { get }
    func views(_ context: ActivityViewContext<Attributes, ContentState>) -> GlimpseWidgetV1.ActivityViews
}

/// ActivityViewContext: what the configuration's closures receive.
struct ActivityViewContext<Attributes, ContentState> {
    var activityID: String
    var attributes: Attributes
    var state: ContentState
    var isStale: Bool
    var now: Date
}

extension LiveActivityConfiguration {
    /// Decodes as ActivityKit does: the default JSONDecoder (dates as seconds since
    /// 2001-01-01; any other strategy fails on a phone too).
    func views(for request: GlimpseAppV1.ActivityViewsRequest) throws -> GlimpseWidgetV1.ActivityViews {
        let decoder = JSONDecoder()
        let attributes: Attributes
        let state: ContentState
        do {
            attributes = try decoder.decode(Attributes.self, from: Data(request.attributesJson.utf8))
        } catch {
            throw RPCError(code: .invalidArgument, message: "\(Self.attributesType) attributes: \(error)")
        }
        do {
            state = try decoder.decode(ContentState.self, from: Data(request.stateJson.utf8))
        } catch {
            throw RPCError(code: .invalidArgument, message: "\(Self.attributesType).ContentState: \(error)")
        }
        return views(
            ActivityViewContext(
                activityID: request.activityId, attributes: attributes, state: state, isStale: request.isStale,
                now: request.now.dateOrNow))
    }
}

/// `glimpse.app.v1.ActivityConfiguration`: the app's Live Activity configurations by
/// attributes type; an unknown type is NOT_FOUND.
struct ActivityConfigurationService: GlimpseAppV1.ActivityConfiguration.Handler {
    let configurations: [String: @Sendable (GlimpseAppV1.ActivityViewsRequest) throws -> GlimpseWidgetV1.ActivityViews]

    init(_ configurations: [any LiveActivityConfiguration]) {
        var table: [String: @Sendable (GlimpseAppV1.ActivityViewsRequest) throws -> GlimpseWidgetV1.ActivityViews] = [:]
        for configuration in configurations {
            table[type(of: configuration).attributesType] = { try configuration.views(for: $0) }
        }
        self.configurations = table
    }

    func views(
        request: ServerRequest<GlimpseAppV1.ActivityViewsRequest>, context: ServerContext
    ) async throws -> ServerResponse<GlimpseAppV1.ActivityViewsResponse> {
        guard let configuration = configurations[request.message.attributesType] else {
            throw RPCError(
                code: .notFound, message: "no ActivityConfiguration for \"\(request.message.attributesType)\"")
        }
        return ServerResponse(message: GlimpseAppV1.ActivityViewsResponse(views: try configuration(request.message)))
    }
}

extension GlimpseWidgetV1.ExpandedRegion {
    /// DynamicIslandExpandedRegion(_:priority:) { view }.
    static func region(_ view: View, priority: Double = 0) -> Self {
        Self(view: view, priority: priority)
    }
}
