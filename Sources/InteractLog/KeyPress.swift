/// A key press and its release, or an unpaired row (spec §5.7).
public struct KeyPress: Sendable, Equatable {
    public enum Status: String, Sendable { case paired, unpairedPress = "unpaired_press", unpairedRelease = "unpaired_release" }

    public var key: Int
    public var status: Status
    public var code: Int?
    public var descriptor: String?
    /// The release's descriptor, only where it differs from the press's.
    public var releaseDescriptor: String?
    public var location: Int?
    /// `show`, `next`, `previous`, `hide`, `end`, `return` or `other`.
    public var role: String
    public var pressIndex: Int?
    public var releaseIndex: Int?
    /// A final ESC or RETURN press, or the Ctrl press just before a final RETURN.
    public var endsTrial = false

    /// The role of a key (spec §5.7).
    /// Java 1.0–1.1 descriptors may end in a colon (`Enter:`, `Stimulus key:`); it is ignored here.
    static func role(code: Int?, descriptor: String?, variant: String) -> String {
        let name = descriptor.map { $0.count > 1 && $0.hasSuffix(":") ? String($0.dropLast()) : $0 }
        switch name {
        case "UP", "Repeat Stimulus", "Stimulus key": return "show"
        case "RIGHT", "Next Stimulus": return "next"
        case "LEFT", "Previous Stimulus": return "previous"
        case "DOWN", "Hide Stimulus": return "hide"
        case "ESCAPE": return "end"
        case "RETURN", "Enter": return "return"
        default: break
        }
        if code == 27 { return "end" }
        if code == 32 && variant == "java-1.0" { return "show" }
        return "other"
    }
}

/// Pairs each `key_released` with the earliest open `key_pressed` of its code (FIFO).
enum KeyPairing {
    static func pair(_ log: ParsedLog, anomalies: inout AnomalyRecorder) -> [KeyPress] {
        var rows: [KeyPress] = []
        var openByCode: [Int: [Int]] = [:]  // code → indices into rows, oldest first
        let events = log.events
        let lastIndex = events.count - 1
        for (index, event) in events.enumerated() {
            switch event.kind {
            case .keyPressed(let key):
                var row = KeyPress(key: 0, status: .unpairedPress, code: key.code, descriptor: key.descriptor,
                                   location: key.location, role: KeyPress.role(code: key.code, descriptor: key.descriptor,
                                                                                variant: log.variant),
                                   pressIndex: index)
                if index == lastIndex, key.code == 27 || key.code == 10 { row.endsTrial = true }
                if key.code == 17, index + 1 == lastIndex, case .keyPressed(let next) = events[lastIndex].kind, next.code == 10 {
                    row.endsTrial = true
                }
                rows.append(row)
                openByCode[key.code ?? -1, default: []].append(rows.count - 1)
            case .keyReleased(let key):
                if var queue = openByCode[key.code ?? -1], !queue.isEmpty {
                    let rowIndex = queue.removeFirst()
                    openByCode[key.code ?? -1] = queue
                    rows[rowIndex].status = .paired
                    rows[rowIndex].releaseIndex = index
                    if key.descriptor != rows[rowIndex].descriptor { rows[rowIndex].releaseDescriptor = key.descriptor }
                } else {
                    rows.append(KeyPress(key: 0, status: .unpairedRelease, code: key.code, descriptor: key.descriptor,
                                         location: key.location,
                                         role: KeyPress.role(code: key.code, descriptor: key.descriptor, variant: log.variant),
                                         releaseIndex: index))
                }
            default: break
            }
        }
        for index in rows.indices {
            rows[index].key = index + 1
            let row = rows[index]
            let line = events[row.pressIndex ?? row.releaseIndex ?? 0].line
            if row.endsTrial {
                anomalies.add(.endKey, line: line, "the trial ends with this key press (its release is never logged)")
            } else if row.status != .paired {
                anomalies.add(.unpairedKey, line: line,
                              row.status == .unpairedPress ? "key press without a release" : "key release without a press",
                              raw: String(events[row.pressIndex ?? row.releaseIndex ?? 0].name))
            }
        }
        return rows
    }
}
