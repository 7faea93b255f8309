/// The variant codes of spec §2, detected from the file itself.
public enum LogVariant {
    /// Detects the variant of a parsed log (spec §2, "Detection"), recording `W_VARIANT` for unknown Java layouts.
    static func detect(program: LogProgram, header: LogHeader, events: [LogEvent],
                       anomalies: inout AnomalyRecorder) -> String {
        switch program {
        case .java:
            switch header.nameLabelWidth {
            case 21: return "java-2.2"
            case 18:
                if header.hasSingularStimulusFile { return "java-1.0" }
                if events.contains(where: { $0.kind.stimulus?.phase == "InitialStimulus" }) { return "java-1.2" }
                if events.contains(where: { $0.kind.stimulus?.phase == "Familiarisation" }) { return "java-2.0" }
                return "java-1.2|2.0"
            default:
                let width = header.nameLabelWidth.map { "\($0)" } ?? "no 'Name' line"
                anomalies.add(.variant, "expected a 'Name' label 18 or 21 characters wide, found \(width)")
                return "java-unknown"
            }
        case .ipad:
            if header.appVersionGlued { return "ipad-1.0.1-glued" }
            if header.appVersion == nil {
                let unpadded = events.contains { $0.id < 100 && $0.idText.count < 3 }
                let shortDecimals = events.contains { event in
                    guard let dot = event.timestampText.firstIndex(of: ".") else { return true }
                    return event.timestampText[event.timestampText.index(after: dot)...].count != 6
                }
                return header.hasFamiliarisationFile || unpadded || shortDecimals ? "ipad-pre" : "ipad-1.0"
            }
            if skipsAfterRelease(events) { return "ipad-1.1" }
            return events.contains { $0.kind.isButton } ? "ipad-1.0.x" : "ipad-1.0.x|1.1"
        }
    }

    /// Whether some id after a `ButtonReleased` is skipped (a hidden Pencil record).
    static func skipsAfterRelease(_ events: [LogEvent]) -> Bool {
        zip(events, events.dropFirst()).contains { $0.kind == .buttonReleased && $1.id == $0.id + 2 }
    }
}
