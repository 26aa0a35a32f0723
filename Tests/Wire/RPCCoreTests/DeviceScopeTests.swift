import RPCCore
import Testing

@Suite struct DeviceScopeTests {
    @Test(arguments: ["a", "ci-42", "job-7f3a", "0", String(repeating: "a", count: 63)])
    func takesDNSLabelsAsDeviceIDs(_ id: String) {
        #expect(DeviceScope.isValid(id))
    }

    @Test(arguments: ["", "-a", "A", "a.b", "a/b", "a b", "ä", "..", String(repeating: "a", count: 64)])
    func refusesAnythingElse(_ id: String) {
        #expect(!DeviceScope.isValid(id))
    }

    @Test func theMetadataEntryNamesTheDeviceAndNoneOrDefaultIsTheDefault() throws {
        #expect(try DeviceScope.device(in: Metadata()).get() == nil)
        #expect(try DeviceScope.device(in: Metadata(["glimpse-device": "default"])).get() == nil)
        #expect(try DeviceScope.device(in: Metadata(["glimpse-device": "ci-1"])).get() == "ci-1")
        guard case .failure(let bad) = DeviceScope.device(in: Metadata(["glimpse-device": "CI 1"])) else {
            Issue.record("an invalid id was taken")
            return
        }
        #expect(bad.code == .invalidArgument && bad.message.contains("CI 1"))
        var twice = Metadata(["glimpse-device": "a"])
        twice.addString("b", forKey: "glimpse-device")
        guard case .failure(let both) = DeviceScope.device(in: twice) else {
            Issue.record("two devices were taken")
            return
        }
        #expect(both.code == .invalidArgument)
    }

    @Test func splitsAScopedJSONPathIntoDeviceAndRoute() {
        let split = DeviceScope.splitJSONPath("/v1/devices/ci-1/widgets/tap")
        #expect(split?.device == "ci-1" && split?.route == "/v1/widgets/tap")
        #expect(DeviceScope.splitJSONPath("/v1/devices/ci-1/events")?.route == "/v1/events")
        // The device service's own routes, and paths elsewhere, are not scoped.
        #expect(DeviceScope.splitJSONPath("/v1/devices/create") == nil)
        #expect(DeviceScope.splitJSONPath("/v1/devices") == nil)
        #expect(DeviceScope.splitJSONPath("/v1/devices/ci-1/") == nil)
        #expect(DeviceScope.splitJSONPath("/v1/widgets/tap") == nil)
    }
}

extension JSONRoutesTests {
    @Test func aDevicePrefixScopesARouteToThatDevice() throws {
        let head = try parse([
            (":method", "POST"), (":path", "/v1/devices/ci-1/listing/get?x"), ("glimpse-device", "other"),
        ]).get()
        #expect(head.format == .json && head.path == "/t.Listing/Get")
        // The path's device replaces a header's.
        #expect(head.metadata[stringValues: "glimpse-device"] == ["ci-1"])
        let bad = rejection(parse([(":method", "POST"), (":path", "/v1/devices/CI/listing/get")]))
        #expect(bad?.jsonHTTPStatus == 400 && bad?.status.code == .invalidArgument)
        let unknown = rejection(parse([(":method", "POST"), (":path", "/v1/devices/ci-1/listing/nope")]))
        #expect(unknown?.jsonHTTPStatus == 404)
    }
}
