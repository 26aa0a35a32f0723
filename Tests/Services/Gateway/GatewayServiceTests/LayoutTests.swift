@testable import GatewayService
import GlimpseMessages
import GlimpseVocabulary
import RPCCore
import Testing

@Suite struct LayoutTests {
    static func place(
        _ device: DeviceState, _ id: UInt64, _ family: GlimpseWidgetV1.WidgetFamily,
        page: UInt32 = 0, stackWith: UInt64 = 0
    ) async throws -> GlimpseGatewayV1.Location {
        var request = GlimpseGatewayV1.PlaceRequest()
        request.family = family
        request.page = page
        request.stackWith = stackWith
        let vocabulary: WidgetFamily =
            switch family {
            case .systemSmall: .systemSmall
            case .systemMedium: .systemMedium
            case .systemLarge: .systemLarge
            case .accessoryCircular: .accessoryCircular
            case .accessoryRectangular: .accessoryRectangular
            default: .accessoryInline
            }
        let location = try await device.location(for: request, family: vocabulary)
        var stored = GlimpseGatewayV1.StoredPlacement()
        stored.placementId = id
        stored.family = family
        stored.location = location
        try await device.placed(stored)
        return location
    }

    @Test func homePagesFillThenFlowToTheNextPage() async throws {
        let device = try DeviceState(store: .inMemory())
        var pages: [UInt32] = []
        for id in 1...7 { pages.append(try await Self.place(device, UInt64(id), .systemSmall).page) }
        #expect(pages == [0, 0, 0, 0, 0, 0, 1])  // 6 small widgets (2×2) fill a 4×6 page
        #expect(try await Self.place(device, 8, .systemLarge).page == 1)
        #expect(try await Self.place(device, 9, .systemMedium).page == 2)
        try await device.removePlacement(1)
        #expect(try await Self.place(device, 10, .systemSmall).page == 0)  // the freed cells are used again
    }

    @Test func smartStacksShareASlotUpToTenOfOneSize() async throws {
        let device = try DeviceState(store: .inMemory())
        let base = try await Self.place(device, 1, .systemSmall)
        for id in 2...10 {
            let location = try await Self.place(device, UInt64(id), .systemSmall, stackWith: 1)
            #expect((location.page, location.slot, location.stackPosition) == (base.page, base.slot, UInt32(id - 1)))
        }
        await #expect(throws: RPCError.self) { try await Self.place(device, 11, .systemSmall, stackWith: 1) }
        await #expect(throws: RPCError.self) { try await Self.place(device, 12, .systemMedium, stackWith: 1) }
    }

    @Test func theLockScreenHoldsFourUnitsAndOneInline() async throws {
        let device = try DeviceState(store: .inMemory())
        _ = try await Self.place(device, 1, .accessoryRectangular)
        _ = try await Self.place(device, 2, .accessoryCircular)
        _ = try await Self.place(device, 3, .accessoryCircular)
        _ = try await Self.place(device, 4, .accessoryInline)
        await #expect(throws: RPCError.self) { try await Self.place(device, 5, .accessoryCircular) }
        await #expect(throws: RPCError.self) { try await Self.place(device, 6, .accessoryInline) }
        try await device.removePlacement(2)
        #expect(try await Self.place(device, 7, .accessoryCircular).screen == .lock)
    }
}
