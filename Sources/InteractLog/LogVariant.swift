/// The variant codes of spec §2, detected from the file itself.
public enum LogVariant {
    /// Detects the variant of a parsed log (spec §2, "Detection"), recording `W_VARIANT` for unknown Java layouts.
    /// `unpaddedIDs` (an id below 100 written with fewer than 3 digits) and `shortDecimals` (a timestamp without
    /// exactly 6 decimals) are what the reader saw of the ids' and timestamps' texts.
    static func detect(program: LogProgram, header: LogHeader, events: LogEvents, unpaddedIDs: Bool,
                       shortDecimals: Bool, anomalies: inout AnomalyRecorder) -> String {
        // Every distinct name occurs in some event.
        func anyEvent(_ phase: String) -> Bool { events.names.contains { $0.kind.stimulus?.phase == phase } }
        switch program {
        case .java:
            switch header.nameLabelWidth {
            case 21: return "java-2.2"
            case 18:
                if header.hasSingularStimulusFile { return "java-1.0" }
                if anyEvent("InitialStimulus") { return "java-1.2" }
                if anyEvent("Familiarisation") { return "java-2.0" }
                return "java-1.2|2.0"
            default:
                let width = header.nameLabelWidth.map { "\($0)" } ?? "no 'Name' line"
                anomalies.add(.variant, "expected a 'Name' label 18 or 21 characters wide, found \(width)")
                return "java-unknown"
            }
        case .ipad:
            if header.appVersionGlued { return "ipad-1.0.1-glued" }
            if header.appVersion == nil {
                return header.hasFamiliarisationFile || unpaddedIDs || shortDecimals ? "ipad-pre" : "ipad-1.0"
            }
            if skipsAfterRelease(events) { return "ipad-1.1" }
            return events.names.contains { $0.kind.isButton } ? "ipad-1.0.x" : "ipad-1.0.x|1.1"
        }
    }

    /// Whether some id after a `ButtonReleased` is skipped (a hidden Pencil record).
    static func skipsAfterRelease(_ events: LogEvents) -> Bool {
        events.indices.dropLast().contains { index in
            let id = events.id(at: index)
            return events.kind(at: index) == .buttonReleased && id < Int.max - 1 && events.id(at: index + 1) == id + 2
        }
    }
}
