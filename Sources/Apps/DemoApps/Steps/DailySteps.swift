import Foundation

/// Seed 003's data source for "Daily Steps": today's step count as of an instant. A
/// stand-in pedometer: a steady walking pace from 07:00 (UTC) that grows through the
/// day, so each reload 15 minutes later shows a new count.
struct DailySteps: Sendable {
    /// Steps per minute while the day is under way.
    var pace: Int = 14
    /// The day's goal, the gauge's full scale.
    var goal: Int = 10_000
    var dayStartsAtHour: Int = 7

    func steps(at date: Date) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let start = calendar.date(bySettingHour: dayStartsAtHour, minute: 0, second: 0, of: date) ?? date
        let minutes = Int(date.timeIntervalSince(start) / 60)
        return max(0, minutes) * pace
    }
}
