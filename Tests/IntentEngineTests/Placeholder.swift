import Testing
@testable import IntentEngine
