#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
package import GlimpseMessages
import GlimpseRPC
import GlimpseVocabulary
import ProtoMapping
import Rendering
package import RPCCore

extension Gateway {
    /// The widget gallery (the Add Widget sheet): each kind of the app in each family it
    /// supports that this device has, as the app's getSnapshot(in:) draws it with
    /// `isPreview`, asked through glimpse-timeline (which calls providers). The calls run
    /// side by side; a failed one is a preview with its error. Nothing is placed.
    package func gallery(
        _ request: GlimpseGatewayV1.GalleryRequest
    ) async throws(RPCError)
        -> GlimpseGatewayV1
        .GalleryResponse
    {
        guard let manifest = await device.app(request.bundleId)?.manifest else {
            throw RPCError(code: .notFound, message: "bundle_id: \(request.bundleId) is not installed")
        }
        let kinds = manifest.widgets.filter { request.kind.isEmpty || $0.kind == request.kind }
        guard !kinds.isEmpty else {
            throw RPCError(code: .notFound, message: "kind: \(request.bundleId) has no widget kind \(request.kind)")
        }
        let screen = await device.screen
        var asked: [GlimpseGatewayV1.GalleryResponse.Preview] = []
        for declaration in kinds {
            let declared = declaration.supportedFamilies.compactMap { try? WidgetFamily($0, field: "") }
            for family in WidgetFamily.allCases
            where (declared.isEmpty || declared.contains(family)) && screen.displaySize(of: family) != nil {
                var preview = GlimpseGatewayV1.GalleryResponse.Preview()
                preview.kind = declaration.kind
                preview.displayName = declaration.displayName
                preview.description = declaration.description
                preview.family = family.wire
                asked.append(preview)
            }
        }
        let upstreams = upstreams
        let bundle = request.bundleId
        typealias Answer = Swift.Result<GlimpseTimelineV1.PreviewResponse, RPCError>
        let answered = await withTaskGroup(of: (Int, Answer).self) { group in
            for (i, preview) in asked.enumerated() {
                group.addTask {
                    var call = GlimpseTimelineV1.PreviewRequest()
                    call.bundleId = bundle
                    call.kind = preview.kind
                    call.family = preview.family
                    do {
                        let answer = try await upstreams.call(.timeline) { options in
                            try await upstreams.timeline().preview(ClientRequest(message: call), options: options)
                                .message
                        }
                        return (i, .success(answer))
                    } catch let error as RPCError {
                        return (i, .failure(error))
                    } catch {
                        return (i, .failure(RPCError(code: .internal, message: "\(error)")))
                    }
                }
            }
            var all: [Int: Answer] = [:]
            for await (i, answer) in group { all[i] = answer }
            return all
        }
        var previews = asked
        for i in previews.indices {
            // A provider's failure is the preview's error; glimpse-timeline's is the call's.
            guard let answer = try answered[i]?.get() else { continue }
            previews[i].displaySize = answer.displaySize
            switch answer.result {
            case .entry(let entry)?: previews[i].result = .entry(entry)
            case .error(let error)?: previews[i].result = .error(error)
            case nil: break
            }
        }
        if request.text { await drawText(&previews, bundle: bundle, columns: Int(request.columns)) }
        return GlimpseGatewayV1.GalleryResponse(previews: previews)
    }

    /// Each preview drawn as text, as `Device.Render` draws a placed widget.
    private func drawText(
        _ previews: inout [GlimpseGatewayV1.GalleryResponse.Preview], bundle: String, columns: Int
    )
        async
    {
        var keys = Set<AssetKey>()
        for preview in previews {
            guard case .entry(let entry)? = preview.result, let view = entry.view else { continue }
            for name in Renderer.assetNames(in: view) { keys.insert(AssetKey(bundleID: bundle, name: name)) }
        }
        let renderer = Renderer(
            environment: RenderEnvironment(device: await device.screen, now: now(), assets: await assets.images(keys)))
        for i in previews.indices {
            guard case .entry(let entry)? = previews[i].result else { continue }
            var widget = GlimpseGatewayV1.Widget()
            widget.bundleId = bundle
            widget.kind = previews[i].kind
            widget.family = previews[i].family
            widget.entry = entry
            previews[i].text = TextWriter.text(
                renderer.widget(widget, mode: .unspecified), columns: columns == 0 ? 60 : columns)
        }
    }
}
