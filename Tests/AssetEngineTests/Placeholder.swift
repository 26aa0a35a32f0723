import Testing
@testable import AssetEngine
