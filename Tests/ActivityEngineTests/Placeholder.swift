import Testing
@testable import ActivityEngine
