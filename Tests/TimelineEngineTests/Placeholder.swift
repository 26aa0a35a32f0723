import Testing
@testable import TimelineEngine
