import GlimpseVocabulary
package import GlimpseMessages
package import IntentEngine
package import ProtoMapping

extension GlimpseAppV1.AppManifest {
    /// The manifest's intents as the executor takes them, each field checked (also what
    /// `glimpse verify` checks a manifest's intents with).
    package func intentDefinitions() throws(InvalidField) -> [IntentDefinition] {
        var definitions: [IntentDefinition] = []
        for (i, wire) in intents.enumerated() {
            let field = "manifest.intents[\(i)]"
            guard !wire.type.isEmpty else { throw InvalidField(field + ".type", "an intent type is required") }
            var parameters: [IntentParameter] = []
            for (j, parameter) in wire.parameters.enumerated() {
                parameters.append(try IntentParameter(parameter, field: "\(field).parameters[\(j)]"))
            }
            let action: IntentAction
            var reloads = IntentReloads.tappedWidget
            switch wire.action {
            case .store(let store)?:
                guard !store.appGroup.isEmpty else {
                    throw InvalidField(field + ".store.app_group", "an App Group is required")
                }
                var operations: [StoreOperation] = []
                for (k, operation) in store.operations.enumerated() {
                    operations.append(try StoreOperation(operation, field: "\(field).store.operations[\(k)]"))
                }
                action = .store(group: GroupID(store.appGroup), operations: operations)
                switch store.reloads?.scope {
                case .allTimelines(true)?: reloads = .allTimelines
                case .kinds(let list)?: reloads = .kinds(Set(list.kinds))
                case .allTimelines(false)?, nil: break
                }
            case .handlerEndpoint?: action = .handler
            case nil: throw InvalidField(field + ".action", "a store action or a handler endpoint is required")
            }
            let declared = Set(activityAttributes.map(\.typeName))
            for (j, type) in wire.activityAttributes.enumerated() where !declared.contains(type) {
                throw InvalidField(
                    "\(field).activity_attributes[\(j)]",
                    type.isEmpty
                        ? "an ActivityAttributes type is required"
                        : "\(type) is not among the manifest's activity_attributes")
            }
            definitions.append(
                IntentDefinition(
                    type: wire.type, title: wire.title, parameters: parameters, action: action,
                    widgetKinds: Set(wire.widgetKinds), reloads: reloads,
                    activityAttributes: Set(wire.activityAttributes)))
        }
        return definitions
    }
}

extension StoreOperation {
    package init(_ wire: GlimpseAppV1.StoreOperation, field: String) throws(InvalidField) {
        switch wire.kind {
        case .set(let set)?:
            guard !set.key.isEmpty else { throw InvalidField(field + ".set.key", "a key is required") }
            switch set.source {
            case .literal(let value)?:
                self = .set(key: set.key, to: .literal(try TypedValue(value, field: field + ".set.literal")))
            case .parameter(let name)?: self = .set(key: set.key, to: .parameter(name))
            case nil: throw InvalidField(field + ".set", "a literal or a parameter is required")
            }
        case .toggle(let key)?:
            guard !key.isEmpty else { throw InvalidField(field + ".toggle", "a key is required") }
            self = .toggle(key: key)
        case .increment(let increment)?:
            guard !increment.key.isEmpty else { throw InvalidField(field + ".increment.key", "a key is required") }
            self = .increment(key: increment.key, by: increment.by)
        case nil: throw InvalidField(field, "an operation is required")
        }
    }
}

extension IntentReloads {
    /// What an app's `perform()` asked `WidgetCenter` for, from its answer (none: only the
    /// tapped widget's own reload).
    package init(_ wire: GlimpseAppV1.PerformResponse.Reloads?) {
        guard let wire else {
            self = .tappedWidget
            return
        }
        if wire.allTimelines {
            self = .allTimelines
        } else if !wire.kinds.isEmpty {
            self = .kinds(Set(wire.kinds))
        } else {
            self = .tappedWidget
        }
    }
}
