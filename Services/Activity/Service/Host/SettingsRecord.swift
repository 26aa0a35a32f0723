#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ActivityEngine

/// The activity settings a journal was written with, kept beside it: its entries replay
/// under the same caps and budgets (an activity acknowledged under a cap of 20 would be
/// refused again under 5), so a service started with other settings on it does not start.
enum SettingsRecord {
    static let fileName = "activity-settings.txt"

    /// The settings a process may set (`glimpse-activity --max-activities-per-app …`), a line
    /// each, named as the flags are.
    static func text(_ settings: ActivitySettings) -> String {
        [
            "max-activities-per-app \(settings.targetMaximum)",
            "max-activities \(settings.globalMaximum.map(String.init) ?? "none")",
            "hourly-push-budget \(settings.hourlyPushBudget)",
            "frequent-hourly-push-budget \(settings.frequentHourlyPushBudget)",
        ].joined(separator: "\n") + "\n"
    }

    /// Before the journal in `directory` is opened (its entries replay under `settings`):
    /// throws when it was written with others. A journal older than the record was written
    /// with the defaults; none yet: anything goes.
    static func check(_ settings: ActivitySettings, in directory: URL, journal: String) throws {
        let file = directory.appendingPathComponent(fileName)
        let kept: String
        if FileManager.default.fileExists(atPath: file.path) {
            kept = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        } else if FileManager.default.fileExists(atPath: directory.appendingPathComponent(journal).path) {
            kept = text(.defaults)
        } else {
            return
        }
        let wanted = text(settings)
        guard kept == wanted else { throw SettingsMismatch(kept: kept, wanted: wanted, directory: directory.path) }
    }

    /// Once the journal is open and new: writes `settings` beside it.
    static func write(_ settings: ActivitySettings, in directory: URL) throws {
        try Data(text(settings).utf8).write(to: directory.appendingPathComponent(fileName), options: .atomic)
    }
}

/// A service started with other activity settings than its journal was written with.
package struct SettingsMismatch: Error, CustomStringConvertible {
    let kept: String
    let wanted: String
    let directory: String

    package var description: String {
        let flags = { (text: String) in text.split(separator: "\n").map { "--\($0)" }.joined(separator: " ") }
        return
            "the journal in \(directory) was written with \(flags(kept)); started with \(flags(wanted)). Its entries replay under the settings they were written with: start with those, or on a fresh --data-dir"
    }
}
