import Foundation
import Synchronization

/// The app's token at the gateway, as the stack hands it over: installing the app comes
/// after this process starts, and the token is then written to a file. It is read when a
/// call first needs it and read again after the gateway refuses it (a reinstall mints a
/// new one), so the process never needs restarting.
package final class AppToken: Sendable {
    package let path: String?
    private let cached = Mutex<String?>(nil)

    package init(path: String?) {
        self.path = path
    }

    /// A fixed token (tests, or a stack that passes it directly).
    package init(token: String) {
        self.path = nil
        cached.withLock { $0 = token }
    }

    /// The token, or nil when there is none yet.
    package func current() -> String? {
        if let token = cached.withLock({ $0 }) { return token }
        guard let path, let data = FileManager.default.contents(atPath: path),
            let text = String(data: data, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines),
            !text.isEmpty
        else { return nil }
        cached.withLock { $0 = text }
        return text
    }

    /// Forget the token read so far; the next call reads the file again.
    package func invalidate() {
        guard path != nil else { return }
        cached.withLock { $0 = nil }
    }
}
