/// The images of one phase, as the header lists them.
public struct PhaseImages: Sendable, Equatable {
    /// `Familiarisation`, `Stimulus` or an iPad phase name (`Copy`).
    public var phase: String
    public var images: [String]
}

/// The typed header of a log (spec §1.1); values that do not parse are `nil` (with `W_HEADER_VALUE`).
public struct LogHeader: Sendable {
    /// Every header line in file order (the lossless `header` table).
    public var lines: [HeaderLine] = []
    /// The first `App Version` value.
    public var appVersion: String?
    /// Whether `App Version` appears a second time (the glued variant).
    public var appVersionGlued = false
    public var name: String?
    public var experimentStart: Double?
    public var trialStart: Double?
    public var trialEnd: Double?
    /// `#RRGGBBAA`.
    public var strokeColour: String?
    public var backgroundColour: String?
    public var strokeWidth: Double?
    public var padWidth: Double?
    public var padHeight: Double?
    public var trialNumber: Int?
    public var inputMaskFile: String?
    /// Java `Familiarisation File`, or the iPad `Familiarisation Files` joined with `;`.
    public var familiarisationFile: String?
    /// The `Stimulus File(s)` list.
    public var stimulusFiles: [String] = []
    /// Phases with their images: iPad in header order; Java familiarisation first, then stimuli.
    public var phases: [PhaseImages] = []
    /// Whether the Java 1.0–1.1 singular `Stimulus File` label is present.
    public var hasSingularStimulusFile = false
    /// Whether the Java `Familiarisation File` label is present.
    public var hasFamiliarisationFile = false
    /// Whether a `<X> Files` label other than `Stimulus Files` is present (an iPad phase).
    public var hasOtherPhaseFiles = false
    /// The width of the `Name` label, padding included.
    public var nameLabelWidth: Int?

    /// The header labels every log should have (`W_HEADER_MISSING`).
    static let required = ["Name", "Experiment Start", "Trial Number", "Trial Start", "Trial End"]
    static let known: Set<String> = ["App Version", "Name", "Experiment Start", "Stroke Colour", "Background Colour",
                                     "Stroke Width", "Stimulus Files", "Stimulus File", "Familiarisation File",
                                     "Input Mask File", "Drawing Pad Size", "Trial Number", "Trial Start",
                                     "Trial End"]

    /// Types the header lines, recording value problems, repeats, unknown and missing labels.
    public static func build(_ lines: [HeaderLine], anomalies: inout AnomalyRecorder) -> LogHeader {
        var header = LogHeader(lines: lines)
        var seen: Set<String> = []
        var familiarisation: PhaseImages?
        var stimuli: PhaseImages?
        var iPadPhases: [PhaseImages] = []
        for line in lines {
            let label = line.label, value = line.value
            if seen.contains(label) {
                if label == "App Version" {
                    header.appVersionGlued = true
                    anomalies.add(.gluedAppVersion, line: line.line,
                                  "'App Version' repeated after the header (glued iPad variant)")
                } else {
                    anomalies.add(.headerDup, line: line.line, "header label '\(label)' repeats; the first is kept",
                                  raw: "\(label):\(value)")
                }
                continue
            }
            seen.insert(label)
            func bad(_ expected: String) {
                anomalies.add(.headerValue, line: line.line, "expected \(expected) for '\(label)', found \(LogText.quoted(value))",
                              raw: "\(label):\(value)")
            }
            func date() -> Double? {
                guard !value.isEmpty else { return nil }
                guard let seconds = LocalDateTime.parse(value) else { bad("a date dd/MM/yyyy - HH:mm:ss"); return nil }
                return seconds
            }
            switch label {
            case "App Version": header.appVersion = value
            case "Name":
                header.name = value
                header.nameLabelWidth = line.labelWidth
            case "Experiment Start": header.experimentStart = date()
            case "Trial Start": header.trialStart = date()
            case "Trial End": header.trialEnd = date()
            case "Stroke Colour", "Background Colour":
                let colour = hexColour(value)
                if colour == nil { bad("R,G,B,A with values 0-255") }
                if label == "Stroke Colour" { header.strokeColour = colour } else { header.backgroundColour = colour }
            case "Stroke Width":
                header.strokeWidth = Double(value)
                if header.strokeWidth == nil { bad("a number") }
            case "Drawing Pad Size":
                let parts = value.split(separator: ",", omittingEmptySubsequences: false)
                if parts.count == 2, let width = Double(parts[0].trimmingSpaces), let height = Double(parts[1].trimmingSpaces) {
                    header.padWidth = width; header.padHeight = height
                } else {
                    bad("w,h")
                }
            case "Trial Number":
                header.trialNumber = Int(value)
                if header.trialNumber == nil { bad("an integer") }
            case "Input Mask File": header.inputMaskFile = value.isEmpty ? nil : value
            case "Familiarisation File":
                header.hasFamiliarisationFile = true
                header.familiarisationFile = value.isEmpty ? nil : value
                familiarisation = PhaseImages(phase: "Familiarisation", images: value.isEmpty ? [] : [value])
            case "Stimulus File":
                header.hasSingularStimulusFile = true
                header.stimulusFiles = value.isEmpty ? [] : [value]
                stimuli = PhaseImages(phase: "Stimulus", images: header.stimulusFiles)
            default:
                if label.hasSuffix(" Files") {
                    let phase = String(label.dropLast(6))
                    let images = splitList(value)
                    if phase == "Stimulus" {
                        header.stimulusFiles = images
                        stimuli = PhaseImages(phase: phase, images: images)
                    } else {
                        header.hasOtherPhaseFiles = true
                        if phase == "Familiarisation" { header.familiarisationFile = images.isEmpty ? nil : images.joined(separator: ";") }
                    }
                    iPadPhases.append(PhaseImages(phase: phase, images: images))
                } else if !known.contains(label) {
                    anomalies.add(.unknownLabel, line: line.line, "unknown header label '\(label)' (kept in the header table)",
                                  raw: "\(label):\(value)")
                }
            }
        }
        header.phases = header.hasOtherPhaseFiles ? iPadPhases : [familiarisation, stimuli].compactMap { $0 }
        for label in required where !seen.contains(label) {
            anomalies.add(.headerMissing, "header label '\(label)' is absent")
        }
        return header
    }

    static func splitList(_ value: String) -> [String] {
        value.split(separator: ",").map { String($0.trimmingSpaces) }.filter { !$0.isEmpty }
    }

    /// `R,G,B,A` (0–255) as `#RRGGBBAA`.
    static func hexColour(_ value: String) -> String? {
        let parts = value.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var hex = "#"
        for part in parts {
            guard let component = Int(part.trimmingSpaces), (0...255).contains(component) else { return nil }
            let digits = String(component, radix: 16, uppercase: true)
            hex += digits.count == 1 ? "0" + digits : digits
        }
        return hex
    }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs.
    var trimmingSpaces: Substring {
        let whole = self
        let utf8 = whole.utf8
        var start = utf8.startIndex, end = utf8.endIndex
        while start != end, utf8[start] == 0x20 || utf8[start] == 0x09 { start = utf8.index(after: start) }
        while end != start {
            let before = utf8.index(before: end)
            guard utf8[before] == 0x20 || utf8[before] == 0x09 else { break }
            end = before
        }
        return whole[start..<end]
    }

    /// Whether the text holds nothing but spaces and tabs.
    var isBlank: Bool { utf8.allSatisfy { $0 == 0x20 || $0 == 0x09 } }
}
