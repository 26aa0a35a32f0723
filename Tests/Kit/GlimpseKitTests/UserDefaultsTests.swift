import Foundation
import GlimpseMessages
import Testing

@testable import GlimpseKit

/// GlimpseKit's `UserDefaults(suiteName:)` outside a served process (no gateway): the suite is
/// this process's memory, with the App Group's value kinds and Foundation's conversions.
/// Through the device it is checked end to end by Tests/Peers/test_glimpsekit_examples.py.
@Suite struct UserDefaultsTests {
    @Test("The seeds' spelling picks GlimpseKit's type, and its values read back as Foundation's do")
    func valuesReadBack() throws {
        let defaults = try #require(UserDefaults(suiteName: "group.test.values"))
        #expect(type(of: defaults) == GlimpseKit.UserDefaults.self)
        defaults.set("checkedIn", forKey: "status")
        defaults.set(42, forKey: "count")
        defaults.set(2.5, forKey: "ratio")
        defaults.set(true, forKey: "flag")
        defaults.set(Data([1, 2]), forKey: "bytes")
        #expect(defaults.string(forKey: "status") == "checkedIn")
        #expect(defaults.integer(forKey: "count") == 42 && defaults.string(forKey: "count") == "42")
        #expect(defaults.double(forKey: "ratio") == 2.5 && defaults.integer(forKey: "ratio") == 2)
        #expect(defaults.bool(forKey: "flag") && defaults.integer(forKey: "flag") == 1)
        #expect(defaults.data(forKey: "bytes") == Data([1, 2]))
        #expect(defaults.object(forKey: "missing") == nil && defaults.integer(forKey: "missing") == 0)
        #expect(defaults.dictionaryRepresentation().count == 5)

        defaults.set(nil, forKey: "status")
        defaults.removeObject(forKey: "count")
        #expect(defaults.string(forKey: "status") == nil && defaults.object(forKey: "count") == nil)
        // An array is not an App Group value: not kept (and said on standard error).
        defaults.set(["a"], forKey: "list")
        #expect(defaults.object(forKey: "list") == nil)
        #expect(UserDefaults(suiteName: "") == nil)
    }

    @Test("A suite made while drawing is one of the manifest's App Groups, with those asked for")
    func suitesAreTheManifestsAppGroups() throws {
        _ = UserDefaults(suiteName: "group.test.drawn")
        let manifest = try Manifest(
            DrawingTests.FilmWidget().configured,
            arguments: ["--bundle-id", "com.example.films", "--endpoint", "127.0.0.1:1", "--app-group", "group.asked"])
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(manifest.json.utf8)) as? [String: Any])
        let groups = try #require(json["appGroups"] as? [String])
        #expect(groups.contains("group.asked") && groups.contains("group.test.drawn"))
        #expect(groups == groups.sorted())
    }
}
