import ServiceKit
import ActivityEngine
import ActivityService
import Crypto
import EngineHosting
import Foundation
import GlimpseJSON
import GlimpseMessages
import GlimpseVocabulary
import Testing

/// The endpoint where it used to differ from Apple's (issue 28, point 9): the first pushes
/// of a connection with one new token, a duplicated `authorization`, what trusts a
/// connection. Broadcast: `BroadcastChannelTests`.
@Suite("The APNs endpoint, as Apple's")
struct APNsAsAppleTests {
    static let key = P256.Signing.PrivateKey()

    static func tokens() throws -> ProviderTokens {
        ProviderTokens(keys: [try ProviderTokens.Key(teamID: "TEAM1", keyID: "KEY1", pem: key.pemRepresentation)])
    }

    static func jwt(iat: Int = Int(start.timeIntervalSince1970)) -> String {
        providerToken(key: key, keyID: "KEY1", team: "TEAM1", iat: "\(iat)")
    }

    @Test("pushes checked at once on a new connection with the same new token are all accepted (no 429)")
    func firstPushesAtOnce() async throws {
        let tokens = try Self.tokens()
        let authorization = "bearer \(Self.jwt())"
        // Each connection's pushes run in parallel: each verifies the token before any has
        // stored it (the window where a read and a later store used to disagree).
        let refusals = await withTaskGroup(of: ProviderTokens.Refusal?.self) { group in
            for connection in 0..<200 {
                for _ in 0..<4 {
                    group.addTask {
                        tokens.check(authorization: authorization, connection: "c\(connection)", now: start)
                    }
                }
            }
            var refusals: [ProviderTokens.Refusal] = []
            for await refusal in group { if let refusal { refusals.append(refusal) } }
            return refusals
        }
        #expect(
            refusals.isEmpty,
            "\(refusals.count) refused, e.g. \(refusals.first.map { "\($0.status) \($0.reason)" } ?? "")")
    }

    @Test("a duplicated authorization header is 400 DuplicateHeaders, logged, whatever the tokens")
    func duplicatedAuthorization() async throws {
        let f = try await Fixture.make(authentication: .providerTokens(try Self.tokens()))
        let (_, token) = try await f.requestActivity()
        let good = "bearer \(Self.jwt())"
        for (index, second) in [good, "bearer not.a.jwt"].enumerated() {
            let response = await f.livePush(
                token, body: update(5, at: start), extra: [("authorization", good), ("authorization", second)],
                connection: "dup\(index)")
            #expect(response.status == 400 && reason(response) == "DuplicateHeaders", "\(second)")
            #expect(!response.tokenAccepted)
            #expect(try await f.pushes.last?.reason == "DuplicateHeaders")
        }
        let channels = await f.push(
            "/1/apps/\(app)/all-channels", body: "", headers: [("authorization", good), ("authorization", good)],
            connection: "dup2", method: "GET")
        #expect(channels.status == 400 && reason(channels) == "DuplicateHeaders")
    }

    @Test("only a valid provider token trusts the connection (its stream limit rises)")
    func tokenAcceptedOnlyWhenValid() async throws {
        let f = try await Fixture.make(authentication: .providerTokens(try Self.tokens()))
        let (_, token) = try await f.requestActivity()
        let missing = await f.livePush(token, body: update(5, at: start))
        #expect(missing.status == 403 && !missing.tokenAccepted)
        let forged = await f.livePush(token, body: update(5, at: start), extra: [("authorization", "bearer a.b.c")])
        #expect(forged.status == 403 && !forged.tokenAccepted)
        // A valid token trusts the connection even when the push itself is refused.
        let badTopic = await f.push(
            "/3/device/\(token)", body: update(5, at: start),
            headers: [
                ("apns-push-type", "liveactivity"), ("apns-topic", app), ("authorization", "bearer \(Self.jwt())"),
            ])
        #expect(reason(badTopic) == "BadTopic" && badTopic.tokenAccepted)
        let without = try await Fixture.make()  // --apns-auth none: nothing to trust
        #expect(
            !(await without.livePush(try await without.requestActivity().1, body: update(5, at: start))).tokenAccepted)
    }
}
