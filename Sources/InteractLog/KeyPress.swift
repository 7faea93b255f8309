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

/// The key presses of a log, held compactly (event indices; code, descriptor and location are the events').
/// `keys[i]` makes a ``KeyPress``.
public struct KeyPresses: RandomAccessCollection, Sendable {
    /// One key row as stored.
    struct Record: Sendable {
        /// Event indices of the press and release; -1 for none.
        var press: Int
        var release: Int
        var status: KeyPress.Status
        var endsTrial = false
    }

    let records: [Record]
    let events: LogEvents
    /// The log's variant, for the keys' roles.
    let variant: String

    public var startIndex: Int { 0 }
    public var endIndex: Int { records.count }

    public subscript(index: Int) -> KeyPress {
        let record = records[index]
        let key = events.kind(at: record.press >= 0 ? record.press : record.release).key
        var releaseDescriptor: String?
        if record.status == .paired, let release = events.kind(at: record.release).key, release.descriptor != key?.descriptor {
            releaseDescriptor = release.descriptor
        }
        return KeyPress(key: index + 1, status: record.status, code: key?.code, descriptor: key?.descriptor,
                        releaseDescriptor: releaseDescriptor, location: key?.location,
                        role: KeyPress.role(code: key?.code, descriptor: key?.descriptor, variant: variant),
                        pressIndex: record.press >= 0 ? record.press : nil,
                        releaseIndex: record.release >= 0 ? record.release : nil, endsTrial: record.endsTrial)
    }
}

/// Pairs each `key_released` with the earliest open `key_pressed` of its code (FIFO).
enum KeyPairing {
    /// The presses of one code not yet released, oldest first (a queue that does not move its elements).
    private struct OpenPresses {
        var rows: [Int] = []
        var head = 0
        var isEmpty: Bool { head == rows.count }
        mutating func removeFirst() -> Int {
            defer { head += 1; if head == rows.count { rows.removeAll(keepingCapacity: true); head = 0 } }
            return rows[head]
        }
    }

    static func pair(_ log: ParsedLog, anomalies: inout AnomalyRecorder) -> [KeyPresses.Record] {
        var rows: [KeyPresses.Record] = []
        var openByCode: [Int: OpenPresses] = [:]  // code → indices into rows, oldest first
        let events = log.events
        let lastIndex = events.count - 1
        for index in events.indices {
            switch events.kind(at: index) {
            case .keyPressed(let key):
                var row = KeyPresses.Record(press: index, release: -1, status: .unpairedPress)
                if index == lastIndex, key.code == 27 || key.code == 10 { row.endsTrial = true }
                if key.code == 17, index + 1 == lastIndex, case .keyPressed(let next) = events.kind(at: lastIndex), next.code == 10 {
                    row.endsTrial = true
                }
                rows.append(row)
                openByCode[key.code ?? -1, default: OpenPresses()].rows.append(rows.count - 1)
            case .keyReleased(let key):
                if openByCode[key.code ?? -1]?.isEmpty == false, let rowIndex = openByCode[key.code ?? -1]?.removeFirst() {
                    rows[rowIndex].status = .paired
                    rows[rowIndex].release = index
                } else {
                    rows.append(KeyPresses.Record(press: -1, release: index, status: .unpairedRelease))
                }
            default: break
            }
        }
        for row in rows {
            let at = row.press >= 0 ? row.press : row.release
            let line = events.line(at: at)
            if row.endsTrial {
                anomalies.add(.endKey, line: line, "the trial ends with this key press (its release is never logged)")
            } else if row.status != .paired {
                anomalies.add(.unpairedKey, line: line,
                              row.status == .unpairedPress ? "key press without a release" : "key release without a press",
                              raw: events.name(at: at).text)
            }
        }
        return rows
    }
}
