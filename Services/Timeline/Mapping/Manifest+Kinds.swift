import GlimpseVocabulary
package import GlimpseMessages
package import ProtoMapping
package import TimelineEngine

extension GlimpseAppV1.AppManifest {
    /// The widget kinds an app declares, checked: each kind named once, known families
    /// (none listed: all, as WidgetKit), well-formed configuration parameters.
    package func widgetKinds() throws(InvalidField) -> [WidgetKind] {
        var seen = Set<String>()
        var kinds: [WidgetKind] = []
        for (i, widget) in widgets.enumerated() {
            let field = "manifest.widgets[\(i)]"
            guard !widget.kind.isEmpty else { throw InvalidField(field + ".kind", "a kind is required") }
            guard seen.insert(widget.kind).inserted else {
                throw InvalidField(field + ".kind", "kind \"\(widget.kind)\" is declared twice")
            }
            var families = Set<WidgetFamily>()
            for (j, family) in widget.supportedFamilies.enumerated() {
                families.insert(try WidgetFamily(family, field: "\(field).supported_families[\(j)]"))
            }
            var parameters: [ConfigurationParameter] = []
            for (j, declaration) in widget.configuration.enumerated() {
                parameters.append(try IntentParameter(declaration, field: "\(field).configuration[\(j)]"))
            }
            kinds.append(
                WidgetKind(
                    kind: widget.kind, displayName: widget.displayName.isEmpty ? widget.kind : widget.displayName,
                    description: widget.description, supportedFamilies: families, parameters: parameters))
        }
        return kinds
    }

    /// The WidgetProvider endpoint for `kind`: its own, else the app's default.
    package func providerEndpoint(of kind: String) -> String? {
        let own = widgets.first { $0.kind == kind }?.providerEndpoint ?? ""
        let endpoint = own.isEmpty ? defaultEndpoint : own
        return endpoint.isEmpty ? nil : endpoint
    }
}
