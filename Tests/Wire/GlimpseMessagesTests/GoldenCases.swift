import GlimpseMessages
import GlimpseTestMessages

/// The values golden.py builds with stock protobuf, built here by hand in Swift.
/// Any difference between the two builds is a failure of one side.
enum GoldenCases {
    typealias FK = GlimpseTestingV1
    typealias W = GlimpseWidgetV1

    static let all: [(name: String, value: any GlimpseMessage)] = [
        ("all_kinds", allKinds),
        ("defaults", FK.AllKinds()),
        ("oneof_empty", oneofEmpty),
        ("tree", tree),
        ("health_serving", GrpcHealthV1.HealthCheckResponse(status: .serving)),
        ("pixar_timeline", pixarTimeline),
    ]

    static var allKinds: FK.AllKinds {
        var m = FK.AllKinds()
        m.fDouble = 3.141592653589793
        m.fFloat = 1.5
        m.fInt64 = .min
        m.fUint64 = .max
        m.fInt32 = .min
        m.fFixed64 = 1_234_567_890_123
        m.fFixed32 = .max
        m.fBool = true
        m.fString = "héllo ☺ 😈"
        m.fMessage = FK.Leaf(name: "leaf", weight: 7)
        m.fBytes = [0, 1, 2, 255]
        m.fUint32 = 3_000_000_000
        m.fEnum = .grumpy
        m.fSfixed32 = -42
        m.fSfixed64 = -4_242_424_242
        m.fSint32 = -1
        m.fSint64 = -9_223_372_036_854_775_807
        m.rDouble = [1.0, -2.5, .infinity]
        m.rFloat = [0.25, -0.5]
        m.rInt64 = [1, -1, .max]
        m.rUint64 = [0, .max]
        m.rInt32 = [-7, 0, 7]
        m.rFixed64 = [1, 2]
        m.rFixed32 = [3, 4]
        m.rBool = [true, false, true]
        m.rString = ["a", "", "ü"]
        m.rMessage = [FK.Leaf(name: "x", weight: 1), FK.Leaf(name: "y", weight: -2)]
        m.rBytes = [[], [0, 1]]
        m.rUint32 = [1, 4_000_000_000]
        m.rEnum = [.happy, .negative, .unrecognized(99)]
        m.rSfixed32 = [-1, 1]
        m.rSfixed64 = [-2, 2]
        m.rSint32 = [-3, 3]
        m.rSint64 = [-4, 4]
        m.oInt32 = 0
        m.oString = ""
        m.oBool = false
        m.oEnum = .unspecified
        m.oBytes = []
        m.oDouble = 0
        m.choice = .cMessage(FK.Leaf(name: "chosen", weight: 3))
        m.mStringInt32 = ["b": 2, "a": 1]
        m.mInt64String = [-5: "minus five", 5: "five"]
        m.mBoolLeaf = [true: FK.Leaf(name: "yes"), false: FK.Leaf(weight: 0)]
        m.mUint32Enum = [1: .happy, 2: .unrecognized(77)]
        m.mStringBytes = ["k": [0xff]]
        return m
    }

    static var oneofEmpty: FK.AllKinds {
        FK.AllKinds(oInt32: 5, choice: .cEmpty)
    }

    /// golden.py: root and l0…l3 each get `left` = the next level and one child "c{i}".
    static var tree: FK.Tree {
        var node = FK.Tree(label: "l4")
        for i in (0..<4).reversed() {
            node = FK.Tree(label: "l\(i)", left: node, children: [FK.Tree(label: "c\(i + 1)")])
        }
        return FK.Tree(label: "root", left: node, children: [FK.Tree(label: "c0")])
    }

    /// The Pixar Film Tracker's widget (seed 000): four entries 15 minutes apart, atEnd.
    static var pixarTimeline: W.Timeline {
        var timeline = W.Timeline(reloadPolicy: .atEnd)
        for i in 0..<4 {
            let title = W.View(
                kind: .text(W.Text(content: "Coco")),
                modifiers: [
                    W.Modifier(kind: .font(W.Font(textStyle: .headline))),
                    W.Modifier(kind: .lineLimit(2)),
                ])
            let progress = W.View(
                kind: .text(W.Text(content: "\(42 + i)% watched")),
                modifiers: [
                    W.Modifier(kind: .font(W.Font(textStyle: .caption))),
                    W.Modifier(kind: .foregroundStyle(W.ShapeStyle(kind: .hierarchical(.secondary)))),
                ])
            let button = W.View(
                kind: .button(
                    W.Button(
                        intent: W.IntentInvocation(
                            intentType: "MarkFilmWatchedIntent",
                            parameters: [
                                "filmID": W.ParameterValue(kind: .stringValue("coco")),
                                "filmTitle": W.ParameterValue(kind: .stringValue("Coco")),
                            ]),
                        label: W.View(kind: .symbol(W.SymbolImage(systemName: "checkmark.circle.fill"))),
                        style: .plain)))
            let gauge = W.View(
                kind: .gauge(
                    W.Gauge(
                        value: 0.42,
                        label: W.View(kind: .symbol(W.SymbolImage(systemName: "film"))),
                        style: .accessoryCircularCapacity)))
            let stack = W.Stack(
                axis: .vertical, spacing: 4,
                alignment: W.Alignment(horizontal: .leading),
                children: [title, progress, button, gauge])
            timeline.entries.append(
                W.TimelineEntry(
                    date: GoogleProtobuf.Timestamp(seconds: 1_767_225_600 + Int64(i) * 900),
                    relevance: W.TimelineEntryRelevance(
                        score: 0.5 + Float(i), duration: GoogleProtobuf.Duration(seconds: 900)),
                    view: W.View(
                        kind: .stack(stack),
                        modifiers: [
                            W.Modifier(kind: .padding(W.Padding(edges: .all))),
                            W.Modifier(
                                kind: .containerBackground(
                                    W.ContainerBackground(
                                        style: W.ShapeStyle(kind: .fill(.tertiary))))),
                        ]),
                    widgetUrl: "pixartracker://film/coco"))
        }
        return timeline
    }
}
