package import Foundation
package import GlimpseMessages
import GlimpseRPC
package import RPCCore

/// One `ActivityConfiguration(for: Attributes.self) { … } dynamicIsland: { … }`: the
/// views of every presentation from the attributes and the content state.
package protocol LiveActivityConfiguration: Sendable {
    associatedtype Attributes: Decodable
    associatedtype ContentState: Decodable
    /// The struct's name, as `attributes-type` carries it.
    static var attributesType: String { get }
    func views(_ context: WireActivityContext<Attributes, ContentState>) -> GlimpseWidgetV1.ActivityViews
}

/// ActivityViewContext: what the configuration's closures receive.
package struct WireActivityContext<Attributes, ContentState> {
    package var activityID: String
    package var attributes: Attributes
    package var state: ContentState
    package var isStale: Bool
    package var now: Date

    package init(activityID: String, attributes: Attributes, state: ContentState, isStale: Bool, now: Date) {
        self.activityID = activityID
        self.attributes = attributes
        self.state = state
        self.isStale = isStale
        self.now = now
    }
}

extension GlimpseAppV1.ActivityViewsRequest {
    /// The attributes and the content state, decoded as ActivityKit does: the default
    /// JSONDecoder (dates as seconds since 2001-01-01; any other strategy fails on a phone too).
    /// A value that does not decode is INVALID_ARGUMENT naming `typeName`'s part.
    func decoded<Attributes: Decodable, State: Decodable>(
        _: Attributes.Type, _: State.Type, typeName: String
    ) throws -> (attributes: Attributes, state: State) {
        let decoder = JSONDecoder()
        let attributes: Attributes
        do { attributes = try decoder.decode(Attributes.self, from: Data(attributesJson.utf8)) } catch {
            throw RPCError(code: .invalidArgument, message: "\(typeName) attributes: \(error)")
        }
        do { return (attributes, try decoder.decode(State.self, from: Data(stateJson.utf8))) } catch {
            throw RPCError(code: .invalidArgument, message: "\(typeName).ContentState: \(error)")
        }
    }
}

extension LiveActivityConfiguration {
    package func views(for request: GlimpseAppV1.ActivityViewsRequest) throws -> GlimpseWidgetV1.ActivityViews {
        let (attributes, state) = try request.decoded(Attributes.self, ContentState.self, typeName: Self.attributesType)
        return views(
            WireActivityContext(
                activityID: request.activityId, attributes: attributes, state: state, isStale: request.isStale,
                now: request.now.dateOrNow))
    }
}

/// One Live Activity configuration: its attributes type and the views of a request.
struct ActivityDefinition: Sendable {
    let attributesType: String
    let views: @Sendable (GlimpseAppV1.ActivityViewsRequest) throws -> GlimpseWidgetV1.ActivityViews
}

/// `glimpse.app.v1.ActivityConfiguration`: the app's Live Activity configurations by
/// attributes type; an unknown type is NOT_FOUND.
package struct ActivityConfigurationService: GlimpseAppV1.ActivityConfiguration.Handler {
    package let configurations:
        [String: @Sendable (GlimpseAppV1.ActivityViewsRequest) throws -> GlimpseWidgetV1.ActivityViews]

    package init(_ configurations: [any LiveActivityConfiguration]) {
        self.init(
            configurations.map { configuration in
                ActivityDefinition(attributesType: type(of: configuration).attributesType) {
                    try configuration.views(for: $0)
                }
            })
    }

    init(_ definitions: [ActivityDefinition]) {
        var table: [String: @Sendable (GlimpseAppV1.ActivityViewsRequest) throws -> GlimpseWidgetV1.ActivityViews] = [:]
        for definition in definitions where table[definition.attributesType] == nil {
            table[definition.attributesType] = definition.views
        }
        self.configurations = table
    }

    package func views(
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
    package static func region(_ view: WireView, priority: Double = 0) -> Self {
        Self(view: view, priority: priority)
    }
}
