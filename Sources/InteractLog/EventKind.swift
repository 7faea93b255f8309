/// What an event line's fifth field says happened (spec §3.1).
public enum EventKind: Sendable, Equatable {
    case drawingEnabled
    case buttonDown
    case buttonReleased
    case keyPressed(KeyDescriptor)
    case keyReleased(KeyDescriptor)
    /// An image of a phase shown; `image` is `nil` for a bare java-1.0 event without a `Stimulus File`.
    case stimulusOn(phase: String, image: String?)
    case stimulusOff(phase: String, image: String?)
    /// An event name the grammar does not know (`W_UNKNOWN_EVENT`).
    case other

    /// The values of the `type` column.
    public enum EventType: String, CaseIterable, Sendable {
        case drawingEnabled = "drawing_enabled", buttonDown = "button_down", buttonReleased = "button_released"
        case keyPressed = "key_pressed", keyReleased = "key_released", stimulusOn = "stim_on", stimulusOff = "stim_off"
        case other
    }

    /// The kind without its values: what the `type` column says.
    public var eventType: EventType {
        switch self {
        case .drawingEnabled: .drawingEnabled
        case .buttonDown: .buttonDown
        case .buttonReleased: .buttonReleased
        case .keyPressed: .keyPressed
        case .keyReleased: .keyReleased
        case .stimulusOn: .stimulusOn
        case .stimulusOff: .stimulusOff
        case .other: .other
        }
    }

    /// The `type` column: `drawing_enabled`, `button_down`, `button_released`, `key_pressed`, `key_released`,
    /// `stim_on`, `stim_off` or `other`.
    public var type: String { eventType.rawValue }

    /// Whether this is a mouse or Pencil button event.
    public var isButton: Bool { self == .buttonDown || self == .buttonReleased }

    /// The phase and image of a stimulus event.
    public var stimulus: (phase: String, image: String?)? {
        switch self {
        case .stimulusOn(let phase, let image), .stimulusOff(let phase, let image): (phase, image)
        default: nil
        }
    }

    /// The key of a key event.
    public var key: KeyDescriptor? {
        switch self {
        case .keyPressed(let key), .keyReleased(let key): key
        default: nil
        }
    }
}

/// Classifies event names against the phases a log knows.
public struct EventNameGrammar: Sendable {
    /// Known phase names, longest first.
    let phases: [String]
    /// The image of bare java-1.0 `StimulusOn`/`Off` events: the header's `Stimulus File`.
    let bareImage: String?

    /// Java's phases plus the iPad phases of a header.
    public init(header: LogHeader) {
        let names = Set(["Familiarisation", "Stimulus", "InitialStimulus"] + header.phases.map(\.phase))
        phases = names.sorted { $0.count != $1.count ? $0.count > $1.count : $0 < $1 }
        bareImage = header.hasSingularStimulusFile ? header.stimulusFiles.first : nil
    }

    /// The kind of an event name (already trimmed).
    public func classify(_ name: Substring) -> EventKind {
        switch name {
        case "DrawingEnabled": return .drawingEnabled
        case "ButtonDown": return .buttonDown
        case "ButtonReleased": return .buttonReleased
        default: break
        }
        if name.hasPrefix("KeyPressed_") { return .keyPressed(KeyDescriptor.parse(name.dropFirst(11))) }
        if name.hasPrefix("KeyReleased_") { return .keyReleased(KeyDescriptor.parse(name.dropFirst(12))) }
        for phase in phases where name.hasPrefix(phase) {
            let rest = name.dropFirst(phase.count)
            if rest.hasPrefix("On_") { return .stimulusOn(phase: phase, image: String(rest.dropFirst(3))) }
            if rest.hasPrefix("Off_") { return .stimulusOff(phase: phase, image: String(rest.dropFirst(4))) }
            if rest == "On" { return .stimulusOn(phase: phase, image: bareImage) }
            if rest == "Off" { return .stimulusOff(phase: phase, image: bareImage) }
        }
        let on = name.range(of: "On_"), off = name.range(of: "Off_")
        if let on, on.lowerBound > name.startIndex, off.map({ on.lowerBound < $0.lowerBound }) ?? true {
            return .stimulusOn(phase: String(name[..<on.lowerBound]), image: String(name[on.upperBound...]))
        }
        if let off, off.lowerBound > name.startIndex {
            return .stimulusOff(phase: String(name[..<off.lowerBound]), image: String(name[off.upperBound...]))
        }
        return .other
    }
}
