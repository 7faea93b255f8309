import Foundation

/// The Java program's own `_strokes.txt` and `_keys.txt` (2.3 layout, spec §4.2), rebuilt from a log so that
/// existing lab scripts keep working: the header lines, an empty line, then one row per paired stroke or key.
public enum JavaCompanionFiles {
    /// `<stem>_strokes.txt`: `n;down_ns;release_ns;x1;y1;x2;y2`, n from 1; paired strokes only.
    public static func strokes(_ a: TrialAnalysis) -> String {
        var text = headerText(a)
        var n = 0
        for stroke in a.strokes where stroke.status == .paired {
            guard let down = stroke.downIndex, let up = stroke.upIndex,
                  let downNs = a.log.events[down].nanoseconds, let upNs = a.log.events[up].nanoseconds else { continue }
            n += 1
            let d = a.log.events[down], u = a.log.events[up]
            text += "\(n);\(downNs);\(upNs);\(coordinate(d.x));\(coordinate(d.y));\(coordinate(u.x));\(coordinate(u.y))\n"
        }
        return text
    }

    /// `<stem>_keys.txt`: `n;keyCode;location;descr;keyText;press_ns;release_ns;hold_ns`, n from 2; paired keys only.
    public static func keys(_ a: TrialAnalysis) -> String {
        var text = headerText(a)
        var n = 1
        for key in a.keys where key.status == .paired {
            guard let press = key.pressIndex, let release = key.releaseIndex,
                  let pressNs = a.log.events[press].nanoseconds, let releaseNs = a.log.events[release].nanoseconds else { continue }
            n += 1
            let code = key.code ?? 0
            text += "\(n);\(code);\(key.location ?? 0);\(key.descriptor ?? "");\(keyText(code));\(pressNs);\(releaseNs);\(releaseNs &- pressNs)\n"
        }
        return text
    }

    /// The log's header lines as `label:value` (padding as written), then an empty line.
    static func headerText(_ a: TrialAnalysis) -> String {
        var text = ""
        for line in a.log.header.lines {
            let padding = String(repeating: " ", count: max(0, line.labelWidth - line.label.count))
            text += line.label + padding + ":" + line.value + "\n"
        }
        return text + "\n"
    }

    static func coordinate(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// `java.awt.event.KeyEvent.getKeyText` in an English locale, for the common codes.
    public static func keyText(_ code: Int) -> String {
        switch code {
        case 8: "Backspace"
        case 9: "Tab"
        case 10: "Enter"
        case 16: "Shift"
        case 17: "Ctrl"
        case 18: "Alt"
        case 19: "Pause"
        case 20: "Caps Lock"
        case 27: "Escape"
        case 32: "Space"
        case 33: "Page Up"
        case 34: "Page Down"
        case 35: "End"
        case 36: "Home"
        case 37: "Left"
        case 38: "Up"
        case 39: "Right"
        case 40: "Down"
        case 44: "Comma"
        case 45: "Minus"
        case 46: "Period"
        case 47: "Slash"
        case 48...57, 65...90: String(UnicodeScalar(UInt8(code)))
        case 59: "Semicolon"
        case 61: "Equals"
        case 91: "Open Bracket"
        case 92: "Back Slash"
        case 93: "Close Bracket"
        case 127: "Delete"
        case 112...123: "F\(code - 111)"
        case 157: "Meta"
        case 192: "Back Quote"
        case 222: "Quote"
        default: "Unknown keyCode: 0x" + String(code, radix: 16)
        }
    }
}

extension JavaCompanionFiles {
    /// Whether a file's first row after the header is a companion row (spec §4.2): 7 integer fields
    /// (`_strokes.txt`) or 8 fields with integers but for the descriptor and key text (`_keys.txt`).
    public static func looksLikeCompanion(_ data: Data) -> Bool {
        // The first line that starts like an event, looked for in the first 8 KB.
        let bytes = data.prefix(8192)
        var lineStart = bytes.startIndex
        while lineStart < bytes.endIndex {
            let lineEnd = bytes[lineStart...].firstIndex(of: 0x0A) ?? bytes.endIndex
            var line = bytes[lineStart..<lineEnd]
            if line.last == 0x0D { line = line.dropLast() }
            let text = String(decoding: line, as: UTF8.self)
            if ParsedLog.startsLikeEvent(text) {
                let fields = text.split(separator: ";", omittingEmptySubsequences: false)
                func integers(_ indices: [Int]) -> Bool { indices.allSatisfy { Int64(fields[$0]) != nil } }
                switch fields.count {
                case 7: return integers(Array(0..<7))
                case 8: return integers([0, 1, 2, 5, 6, 7])
                default: return false
                }
            }
            lineStart = lineEnd + 1
        }
        return false
    }
}

extension JavaCompanionFiles {
    /// Checks a log against the Java program's own companion files given beside it (spec §4.2): when every
    /// stroke is paired and none is a duplicate, `_strokes.txt` must hold the same raw ns and coordinates;
    /// paired keys must have the hold times of `_keys.txt` (matched by press time). A difference is
    /// `W_COMPANION_MISMATCH` on the log.
    public static func crossCheck(_ analysis: inout TrialAnalysis, strokesFile: String?, keysFile: String?) {
        let events = analysis.log.events
        if let strokesFile, analysis.strokes.allSatisfy({ $0.status == .paired }), analysis.duplicateReleases == 0 {
            let expected = analysis.strokes.compactMap { stroke -> [String]? in
                guard let down = stroke.downIndex, let up = stroke.upIndex,
                      let downNs = events[down].nanoseconds, let upNs = events[up].nanoseconds else { return nil }
                return ["\(downNs)", "\(upNs)", coordinate(events[down].x), coordinate(events[down].y),
                        coordinate(events[up].x), coordinate(events[up].y)]
            }
            let found = rows(strokesFile, fields: 7).map { Array($0.dropFirst()) }
            if found != expected {
                analysis.log.anomalies.add(.companionMismatch,
                                           "_strokes.txt holds \(found.count) rows that differ from the log's \(expected.count) strokes")
            }
        }
        if let keysFile {
            var holds: [Int64: Int64] = [:]
            for key in analysis.keys where key.status == .paired {
                if let press = key.pressIndex, let release = key.releaseIndex,
                   let pressNs = events[press].nanoseconds, let releaseNs = events[release].nanoseconds {
                    holds[pressNs] = releaseNs &- pressNs
                }
            }
            let differing = rows(keysFile, fields: 8).filter { row in
                guard let press = Int64(row[5]), let hold = Int64(row[7]) else { return true }
                return holds[press] != hold
            }
            if !differing.isEmpty {
                analysis.log.anomalies.add(.companionMismatch,
                                           "\(differing.count) rows of _keys.txt have no key press with that hold time in the log",
                                           raw: differing.first?.joined(separator: ";"))
            }
        }
    }

    /// The rows of a companion file with the given number of `;`-separated fields.
    static func rows(_ text: String, fields: Int) -> [[String]] {
        text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }).compactMap { line in
            let parts = line.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
            return parts.count == fields && Int(parts[0]) != nil ? parts : nil
        }
    }
}
