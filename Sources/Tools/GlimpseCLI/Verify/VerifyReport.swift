package import GlimpseJSON

/// One line of `glimpse verify`: a check's outcome, what it is about and why.
package struct VerifyFinding: Sendable, Hashable {
    package enum Status: String, Sendable, Hashable, CaseIterable {
        case ok, warning, error
    }

    package var status: Status
    /// What was checked: "manifest", "asset", "placeholder", "snapshot", "timeline",
    /// "spacing", "reload policy", "image", "intent", "endpoint", "sample", "content state",
    /// "views".
    package var check: String
    /// What it is about: a widget kind, an ActivityAttributes type, an asset's name, an
    /// endpoint, or the manifest file.
    package var subject: String
    /// The widget family (`systemSmall`) or Live Activity presentation, when there is one.
    package var family: String
    /// What was found and, for a warning or an error, why it matters.
    package var message: String

    package init(_ status: Status, _ check: String, subject: String, family: String = "", _ message: String) {
        self.status = status
        self.check = check
        self.subject = subject
        self.family = family
        self.message = message
    }
}

/// Everything `glimpse verify` found, as text for people or JSON for scripts.
package struct VerifyReport: Sendable, Hashable {
    package var manifest: String
    package var bundleID: String
    /// The verify run's clock, as every call carried it (ISO 8601).
    package var now: String
    package var findings: [VerifyFinding]

    package init(manifest: String, bundleID: String, now: String, findings: [VerifyFinding]) {
        self.manifest = manifest
        self.bundleID = bundleID
        self.now = now
        self.findings = findings
    }

    package func count(_ status: VerifyFinding.Status) -> Int { findings.count { $0.status == status } }

    /// 0 when nothing is an error (warnings allowed), 1 otherwise.
    package var exitStatus: Int32 { count(.error) == 0 ? 0 : 1 }

    package var summary: String {
        let ok = count(.ok), warnings = count(.warning), errors = count(.error)
        let verdict = errors == 0 ? "passes" : "fails"
        return
            "\(bundleID.isEmpty ? manifest : bundleID) \(verdict): \(ok) ok, \(warnings) warning\(warnings == 1 ? "" : "s"), \(errors) error\(errors == 1 ? "" : "s")"
    }

    /// One line per check (`status  subject [family]  check: message`), then the summary.
    package var text: String {
        var lines = ["glimpse verify \(manifest)" + (bundleID.isEmpty ? "" : " (\(bundleID))") + " at \(now)"]
        let width = min(44, findings.map { Self.about($0).count }.max() ?? 0)
        for finding in findings {
            let about = Self.about(finding)
            let padded = about.count < width ? about + String(repeating: " ", count: width - about.count) : about
            let status = finding.status.rawValue
            lines.append(
                status + String(repeating: " ", count: 8 - status.count) + padded
                    + "  \(finding.check): \(finding.message)")
        }
        lines.append(summary)
        return lines.joined(separator: "\n")
    }

    static func about(_ finding: VerifyFinding) -> String {
        finding.family.isEmpty ? finding.subject : "\(finding.subject) \(finding.family)"
    }

    /// `{"manifest", "bundleId", "now", "passed", "summary": {ok, warnings, errors}, "checks": [...]}`.
    package var json: JSONValue {
        let checks: [JSONValue] = findings.map { finding in
            var members = [
                JSONMember("status", .string(finding.status.rawValue)),
                JSONMember("check", .string(finding.check)),
                JSONMember("subject", .string(finding.subject)),
            ]
            if !finding.family.isEmpty { members.append(JSONMember("family", .string(finding.family))) }
            members.append(JSONMember("message", .string(finding.message)))
            return .object(members)
        }
        return .object([
            JSONMember("manifest", .string(manifest)),
            JSONMember("bundleId", .string(bundleID)),
            JSONMember("now", .string(now)),
            JSONMember("passed", .bool(exitStatus == 0)),
            JSONMember(
                "summary",
                .object([
                    JSONMember("ok", .number(count(.ok))),
                    JSONMember("warnings", .number(count(.warning))),
                    JSONMember("errors", .number(count(.error))),
                ])),
            JSONMember("checks", .array(checks)),
        ])
    }
}
