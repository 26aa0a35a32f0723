import ServiceKit
import ActivityEngine
import ActivityService
import Crypto
import EngineHosting
import GlimpseVocabulary
import Foundation
import GlimpseJSON
import GlimpseMessages
import Testing

@Suite("The APNs-compatible endpoint: Apple's answers, the device's outcomes")
struct APNsEndpointTests {
    @Test("an update is applied, answered 200 with the apns-id echoed, and logged with the state before and after")
    func updateApplied() async throws {
        let f = try await Fixture.make()
        let (id, token) = try await f.requestActivity()
        let apnsID = "0c2d4f6a-1b3c-4d5e-8f70-123456789abc"
        let response = await f.livePush(token, body: update(5, at: start), extra: [("apns-id", apnsID)])
        #expect(response.status == 200)
        #expect(response.headers["apns-id"] == apnsID)
        #expect(response.body.isEmpty)
        let record = try #require(try await f.pushes.last)
        #expect(record.status == 200 && record.event == "update" && record.bundleId == app)
        #expect(record.outcomes.first?.kind == .applied)
        #expect(record.states.first?.activityId == id)
        #expect(record.states.first?.before == .active && record.states.first?.after == .active)
        let state = await f.server.host.read { $0.manager.activity(ActivityID(id)!)?.content.state.bytes }
        #expect(state.map { String(decoding: $0, as: UTF8.self) } == #"{"eta":5}"#)
    }

    @Test("what the device drops is still a 200, as Apple answers it, and the log says why")
    func deviceDropsAreLogged() async throws {
        let f = try await Fixture.make()
        let (_, token) = try await f.requestActivity()
        #expect(await f.livePush(token, body: update(5, at: start)).status == 200)
        #expect(await f.livePush(token, body: update(6, at: start.addingTimeInterval(-60))).status == 200)
        #expect(try await f.pushes.last?.outcomes.first?.kind == .droppedAsOlder)
        let end =
            #"{"aps":{"timestamp":\#(Int(start.timeIntervalSince1970) + 1),"event":"end","content-state":{"eta":0}}}"#
        #expect(await f.livePush(token, body: end).status == 200)
        #expect(try await f.pushes.last?.states.first?.after == .ended)
        #expect(await f.livePush(token, body: update(1, at: start.addingTimeInterval(2))).status == 200)
        #expect(try await f.pushes.last?.outcomes.first?.kind == .ignoredAfterEnd)
    }

    @Test("Apple's refusals: status and reason for each header and body rule")
    func refusals() async throws {
        let f = try await Fixture.make()
        let (_, token) = try await f.requestActivity()
        let body = update(5, at: start)
        let cases: [(APNsResponse, Int, String)] = [
            (
                await f.push(
                    "/3/device/xyz", body: body, headers: [("apns-push-type", "liveactivity"), ("apns-topic", topic)]),
                400, "BadDeviceToken"
            ),
            (await f.livePush(String(repeating: "ab", count: 32), body: body), 400, "BadDeviceToken"),
            (
                await f.push("/3/device/\(token)", body: body, headers: [("apns-push-type", "liveactivity")]), 400,
                "MissingTopic"
            ),
            (
                await f.push(
                    "/3/device/\(token)", body: body,
                    headers: [("apns-push-type", "liveactivity"), ("apns-topic", app)]), 400, "BadTopic"
            ),
            (
                await f.push(
                    "/3/device/\(token)", body: body, headers: [("apns-push-type", "alert"), ("apns-topic", topic)]),
                400, "InvalidPushType"
            ),
            (await f.livePush(token, body: body, extra: [("apns-priority", "7")]), 400, "BadPriority"),
            (await f.livePush(token, body: body, extra: [("apns-expiration", "soon")]), 400, "BadExpirationDate"),
            (
                await f.livePush(token, body: body, extra: [("apns-collapse-id", String(repeating: "c", count: 65))]),
                400, "BadCollapseId"
            ),
            (await f.livePush(token, body: body, extra: [("apns-id", "not-a-uuid")]), 400, "BadMessageId"),
            (
                await f.livePush(token, body: body, extra: [("apns-priority", "5"), ("apns-priority", "10")]), 400,
                "DuplicateHeaders"
            ),
            (await f.livePush(token, body: ""), 400, "PayloadEmpty"),
            (
                await f.livePush(token, body: "{\"aps\":{}," + String(repeating: " ", count: 4096) + "}"), 413,
                "PayloadTooLarge"
            ),
            (await f.push("/3/push/\(token)", body: body), 404, "BadPath"),
            (
                await f.push(
                    "/3/device/\(token)", body: body,
                    headers: [("apns-push-type", "liveactivity"), ("apns-topic", topic)], method: "GET"), 405,
                "MethodNotAllowed"
            ),
            (
                await f.push(
                    "/3/device/\(token)", body: body,
                    headers: [
                        ("apns-push-type", "liveactivity"), ("apns-topic", "com.example.other.push-type.liveactivity"),
                    ]), 400, "DeviceTokenNotForTopic"
            ),
        ]
        for (response, status, expected) in cases {
            #expect(response.status == status, "\(expected)")
            #expect(reason(response) == expected)
            #expect(response.headers["apns-id"] != nil)
        }
        // Every one of them is in the push log with its answer.
        #expect(try await f.pushes.map(\.reason).suffix(cases.count) == cases.map(\.2)[...])
    }

    @Test("a rotated token answers 410 ExpiredToken with the time it stopped working")
    func rotatedTokenIsGone() async throws {
        let f = try await Fixture.make()
        let (id, old) = try await f.requestActivity()
        try await f.advance(seconds: 60)
        let rotatedAt = f.server.host.clock.now
        _ = try await f.server.host.submit(
            ActivityCommand(.rotatePushToken(GlimpseActivityV1.RotatePushTokenRequest(activityId: id))))
        try await f.advance(seconds: 1)
        let response = await f.livePush(old, body: update(1, at: rotatedAt.addingTimeInterval(1)))
        #expect(response.status == 410)
        #expect(reason(response) == "ExpiredToken")
        let json = try JSONParser.parse(response.body)
        #expect(json["timestamp"]?.doubleValue == (rotatedAt.timeIntervalSince1970 * 1000).rounded())
    }

    @Test("an injected fault answers the next pushes for the token (with a GOAWAY), then pushes go through again")
    func injectedFault() async throws {
        let f = try await Fixture.make()
        let (_, token) = try await f.requestActivity()
        var fault = GlimpseActivityV1.InjectFaultRequest()
        fault.target = .deviceToken(token)
        fault.count = 2
        fault.status = 503
        fault.reason = "ServiceUnavailable"
        fault.goaway = true
        _ = try await f.server.host.submit(ActivityCommand(.injectFault(fault)))
        for second in 1...2 {
            let response = await f.livePush(token, body: update(second, at: start.addingTimeInterval(Double(second))))
            #expect(response.status == 503 && reason(response) == "ServiceUnavailable" && response.goaway)
        }
        let after = await f.livePush(token, body: update(3, at: start.addingTimeInterval(3)))
        #expect(after.status == 200 && !after.goaway)
        // The faulted pushes never reached the device: the third is the only one applied.
        #expect(try await f.pushes.suffix(3).map(\.outcomes.count) == [0, 0, 1])
    }

    @Test("over the hourly budget priority-10 pushes are throttled on the device (logged); priority 5 is not counted")
    func budget() async throws {
        var settings = ActivitySettings.defaults
        settings.hourlyPushBudget = 3
        let f = try await Fixture.make(settings: settings)
        let (_, token) = try await f.requestActivity()
        for n in 1...4 {
            #expect(await f.livePush(token, body: update(n, at: start.addingTimeInterval(Double(n)))).status == 200)
        }
        #expect(try await f.pushes.last?.outcomes.first?.kind == .throttled)
        #expect(
            await f.livePush(token, body: update(9, at: start.addingTimeInterval(9)), extra: [("apns-priority", "5")])
                .status == 200)
        #expect(try await f.pushes.last?.outcomes.first?.kind != .throttled)
    }

    @Test("broadcast: channel management, an activity following a channel, a broadcast update, deletion")
    func broadcast() async throws {
        let f = try await Fixture.make()
        let created = await f.push(
            "/1/apps/\(app)/channels", body: #"{"message-storage-policy":1,"push-type":"LiveActivity"}"#)
        #expect(created.status == 201)
        let channel = try #require(created.headers["apns-channel-id"])
        let read = await f.push(
            "/1/apps/\(app)/channels", body: "", headers: [("apns-channel-id", channel)], method: "GET")
        #expect(read.status == 200)
        let listed = await f.push("/1/apps/\(app)/all-channels", body: "", method: "GET")
        #expect(try JSONParser.parse(listed.body)["channels"] == .array([.string(channel)]))

        let activity = try await f.subscribe(to: channel)
        let sent = await f.push(
            "/4/broadcasts/apps/\(app)", body: update(4, at: start),
            headers: [("apns-push-type", "LiveActivity"), ("apns-channel-id", channel)])
        #expect(sent.status == 200 && sent.headers["apns-request-id"] != nil)
        #expect(try await f.pushes.last?.states.map(\.activityId) == [activity.activityId])
        #expect(try await f.pushes.last?.outcomes.first?.kind == .applied)

        let deleted = await f.push(
            "/1/apps/\(app)/channels", body: "", headers: [("apns-channel-id", channel)], method: "DELETE")
        #expect(deleted.status == 204)
        let gone = await f.push(
            "/4/broadcasts/apps/\(app)", body: update(5, at: start.addingTimeInterval(1)),
            headers: [("apns-push-type", "LiveActivity"), ("apns-channel-id", channel)])
        #expect(gone.status == 400 && reason(gone) == "ChannelNotRegistered")
        let missing = await f.push(
            "/4/broadcasts/apps/\(app)", body: update(5, at: start), headers: [("apns-push-type", "LiveActivity")])
        #expect(reason(missing) == "MissingChannelId")
    }

    @Test("a widget push to the app's widget token is accepted and logged as a reloadAllTimelines()")
    func widgetPush() async throws {
        let f = try await Fixture.make()
        guard
            case .token(let token) = try await f.server.host.submit(
                ActivityCommand(.widgetPushToken(GlimpseActivityV1.WidgetPushTokenRequest(bundleId: app))))
        else {
            Issue.record("no token")
            return
        }
        let ok = await f.push(
            "/3/device/\(token)", body: #"{"aps":{"content-changed":true}}"#,
            headers: [("apns-push-type", "widgets"), ("apns-topic", "\(app).push-type.widgets")])
        #expect(ok.status == 200)
        #expect(try await f.pushes.last?.outcomes.first?.kind == .applied)
        let wrongTopic = await f.push(
            "/3/device/\(token)", body: #"{"aps":{"content-changed":true}}"#,
            headers: [("apns-push-type", "widgets"), ("apns-topic", topic)])
        #expect(reason(wrongTopic) == "BadTopic")
    }
}

@Suite("Provider tokens (JWT ES256): Apple's rules on the service's clock")
struct ProviderTokenTests {
    @Test(
        "missing, forged, expired, too-frequent and unrelated tokens get Apple's 403/429; iat as int, float or string")
    func rules() async throws {
        let key = P256.Signing.PrivateKey()
        let other = P256.Signing.PrivateKey()
        let tokens = ProviderTokens(keys: [
            try ProviderTokens.Key(teamID: "TEAM1", keyID: "KEY1", pem: key.pemRepresentation),
            try ProviderTokens.Key(teamID: "TEAM2", keyID: "KEY2", pem: other.publicKey.pemRepresentation),
        ])
        let f = try await Fixture.make(authentication: .providerTokens(tokens))
        let (_, token) = try await f.requestActivity()
        let now = Int(start.timeIntervalSince1970)
        func send(_ jwt: String?, connection: String = "c1", at offset: Int = 0) async -> APNsResponse {
            await f.livePush(
                token, body: update(offset + 1, at: start.addingTimeInterval(Double(offset + 1))),
                extra: jwt.map { [("authorization", "bearer \($0)")] } ?? [], connection: connection)
        }
        #expect(reason(await send(nil)) == "MissingProviderToken")
        #expect(reason(await send("not.a.jwt")) == "InvalidProviderToken")
        let forged = providerToken(key: other, keyID: "KEY1", team: "TEAM1", iat: "\(now)")
        #expect(reason(await send(forged)) == "InvalidProviderToken")
        let wrongTeam = providerToken(key: key, keyID: "KEY1", team: "TEAM2", iat: "\(now)")
        #expect(reason(await send(wrongTeam)) == "InvalidProviderToken")
        let stale = providerToken(key: key, keyID: "KEY1", team: "TEAM1", iat: "\(now - 3601)")
        let staleResponse = await send(stale)
        #expect(staleResponse.status == 403 && reason(staleResponse) == "ExpiredProviderToken")

        let good = providerToken(key: key, keyID: "KEY1", team: "TEAM1", iat: "\(now)")
        #expect(await send(good).status == 200)
        #expect(await send(good, at: 1).status == 200)  // the same token again
        let early = providerToken(key: key, keyID: "KEY1", team: "TEAM1", iat: "\(now + 60)")
        #expect(reason(await send(early, at: 2)) == "TooManyProviderTokenUpdates")
        let unrelated = providerToken(key: other, keyID: "KEY2", team: "TEAM2", iat: "\(now)")
        #expect(reason(await send(unrelated, at: 3)) == "UnrelatedKeyIdInToken")
        // iat as a float and as a string, on fresh connections.
        #expect(
            await send(providerToken(key: key, keyID: "KEY1", team: "TEAM1", iat: "\(now).25"), connection: "c2", at: 4)
                .status == 200)
        #expect(
            await send(
                providerToken(key: key, keyID: "KEY1", team: "TEAM1", iat: "\"\(now)\""), connection: "c3", at: 5
            ).status == 200)
        // An hour on, the token of c1 has expired: the service's clock decides.
        try await f.advance(seconds: 3601)
        #expect(reason(await send(good, at: 3700)) == "ExpiredProviderToken")
        let refreshed = providerToken(key: key, keyID: "KEY1", team: "TEAM1", iat: "\(now + 3601)")
        #expect(await send(refreshed, at: 3701).status == 200)
    }

    /// A manual device clock does not age provider tokens: push servers sign with the time
    /// of day and APNs is not the device. Moving the device two hours on leaves a token signed
    /// now valid; an hour on APNs's own clock expires it.
    @Test func providerTokensAgeOnAPNssClockNotTheDevices() async throws {
        let key = P256.Signing.PrivateKey()
        let tokens = ProviderTokens(keys: [
            try ProviderTokens.Key(teamID: "TEAM1", keyID: "KEY1", pem: key.pemRepresentation)
        ])
        let apnsClock = VirtualClock(start: Date(timeIntervalSince1970: 1_795_000_000))
        let f = try await Fixture.make(authentication: .providerTokens(tokens), tokenClock: apnsClock)
        let (_, token) = try await f.requestActivity()
        let signedNow = providerToken(
            key: key, keyID: "KEY1", team: "TEAM1", iat: "\(Int(apnsClock.now.timeIntervalSince1970))")
        func send(_ offset: Int, connection: String) async -> APNsResponse {
            await f.livePush(
                token, body: update(offset, at: f.server.host.clock.now.addingTimeInterval(1)),
                extra: [("authorization", "bearer \(signedNow)")], connection: connection)
        }
        #expect(await send(1, connection: "c1").status == 200)
        try await f.advance(seconds: 7_200)
        #expect(await send(2, connection: "c2").status == 200)
        try apnsClock.advance(by: 3601)
        #expect(reason(await send(3, connection: "c3")) == "ExpiredProviderToken")
    }
}

@Suite("Push log details")
struct PushLogTests {
    @Test("text a push server sent with NUL in it is logged (as U+FFFD) and the log still encodes")
    func nulInPushText() async throws {
        let f = try await Fixture.make()
        let (_, token) = try await f.requestActivity()
        let response = await f.livePush(token, body: #"{"aps":{"timestamp":1767258000,"event":"up\u0000date"}}"#)
        #expect(response.status == 200)
        let record = try #require(try await f.pushes.last)
        #expect(record.event == "up\u{FFFD}date")
        #expect(record.outcomes.first?.kind == .rejected)
        _ = try record.serializedBytes()
    }
}
