/// The continuous signal of one input, as `-o rec.bdf`, `-o rec.edf` or `-o rec.vhdr` writes it (docs/bids.md):
/// what a format library hands over, with no writer linked (the writers are the `SignalFiles` module).
///
/// A signal is a fixed set of channels sampled at one rate on one clock; samples arrive as frames (one value per
/// channel, in channel order) through a ``SignalSink``, annotations at any time before the end.

/// One channel of a signal.
public struct SignalChannel: Sendable, Equatable, Codable {
    /// The name as the device or app gives it (`T3`, `AF7`, `ch1`).
    public var label: String
    /// The BIDS channel type (`EEG`, `MISC`, `TRIG`).
    public var type: String
    /// The physical unit of the values handed over, as EDF writes it (ASCII: `uV`).
    public var unit: String
    /// The smallest step the values come in, in ``unit``, when they all lie on a grid (the Brainiac's whole nV:
    /// 0.001 µV); files then need no finer resolution, and one of exactly this step holds them exactly.
    public var grid: Double?
    /// The transducer (EDF's 80-character field), e.g. `dry electrode`; empty when not known.
    public var transducer: String
    /// Filters the device applied, as EDF's prefiltering field (`HP:0.5Hz LP:45Hz`); empty when not known.
    public var prefiltering: String

    public init(label: String, type: String = "EEG", unit: String = "uV", grid: Double? = nil,
                transducer: String = "", prefiltering: String = "") {
        self.label = label
        self.type = type
        self.unit = unit
        self.grid = grid
        self.transducer = transducer
        self.prefiltering = prefiltering
    }
}

/// A wall-clock start (local time as the app recorded it), for the EDF header and the BrainVision marker file.
public struct SignalStart: Sendable, Equatable, Codable {
    public var year, month, day, hour, minute: Int
    public var second: Double

    public init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Double) {
        (self.year, self.month, self.day, self.hour, self.minute, self.second) = (year, month, day, hour, minute, second)
    }
}

/// What a signal is before its first sample: channels, rate and identification.
public struct SignalDescription: Sendable, Equatable {
    public var channels: [SignalChannel]
    /// Samples per second per channel.
    public var samplingRate: Double
    /// The recording's start, when the input records it; `nil` writes EDF's "unknown" date.
    public var start: SignalStart?
    /// The equipment, for EDF+'s recording field (`Brainiac`, `Muse`, `MindAffect`).
    public var equipment: String

    public init(channels: [SignalChannel], samplingRate: Double, start: SignalStart? = nil, equipment: String = "") {
        self.channels = channels
        self.samplingRate = samplingRate
        self.start = start
        self.equipment = equipment
    }
}

/// One annotation: a time span on the signal's clock (seconds from its first sample) and what it marks.
///
/// Names starting `BAD_` mark data not to be analysed (MNE's convention): lost samples that were filled, a
/// discontinuity of the device clock, the padding of a last EDF record.
public struct SignalAnnotation: Sendable, Equatable, Codable {
    /// Seconds from the first sample.
    public var onset: Double
    /// Seconds; 0 for an instant.
    public var duration: Double
    /// What happened (`BAD_lost_samples`, `EyesOpen`, `cue_target_3`).
    public var description: String

    public init(onset: Double, duration: Double = 0, description: String) {
        self.onset = onset
        self.duration = duration
        self.description = description
    }
}

/// Receives one input's signal: its description first, then frames in order and annotations in any order.
public protocol SignalSink: AnyObject {
    /// Starts the signal; called once, before any frame.
    func begin(_ description: SignalDescription) throws
    /// Appends `frameCount` frames, `values` holding one value per channel per frame (frame-major, channel order).
    func append(_ values: UnsafeBufferPointer<Double>, frameCount: Int) throws
    /// Appends the frames of an array (frame-major). A writer that works on another thread keeps the array itself
    /// instead of a copy (a caller that changes its array afterwards gets a copy of its own then, as arrays are
    /// values); the default reads it in place.
    func append(_ values: [Double], channelCount: Int) throws
    /// Appends frames of whole steps of a grid every channel declares (``SignalChannel/grid``): each value is
    /// `counts[i] / stepsPerUnit` (the Brainiac's nV counts, 1000 to the µV). A writer that stores such counts takes
    /// them as they are (no conversion to float64 and back); the default hands their values to
    /// ``append(_:channelCount:)``.
    func append(gridCounts counts: [Int32], stepsPerUnit: Double, channelCount: Int) throws
    /// Whether the sink stores every value as a whole number of steps of the channels' grid (a BDF whose channels
    /// declare one), rounding a value off the grid to the nearest step: a source may then round its values and
    /// hand them over as ``append(gridCounts:stepsPerUnit:channelCount:)`` counts, losing nothing the sink keeps.
    /// Known once the signal has begun; the default is false.
    var storesGridCounts: Bool { get }
    /// Adds an annotation.
    func annotate(_ annotation: SignalAnnotation)
}

extension SignalSink {
    public func append(_ values: [Double], channelCount: Int) throws {
        guard channelCount > 0 else { return }
        try values.withUnsafeBufferPointer { try append($0, frameCount: values.count / channelCount) }
    }

    public var storesGridCounts: Bool { false }

    public func append(gridCounts counts: [Int32], stepsPerUnit: Double, channelCount: Int) throws {
        try append(Self.values(ofGridCounts: counts, stepsPerUnit: stepsPerUnit), channelCount: channelCount)
    }

    /// The values of grid counts, `count / stepsPerUnit`: what a sink that does not keep counts takes.
    public static func values(ofGridCounts counts: [Int32], stepsPerUnit: Double) -> [Double] {
        counts.map { Double($0) / stepsPerUnit }
    }
}

/// A format whose inputs hold a continuous signal that the tool can write as BDF, EDF or BrainVision
/// (`-o rec.bdf|rec.edf|rec.vhdr`): ``readSignal(_:into:)`` reads one input, handing its signal to the sink as it
/// goes (streaming formats keep memory flat), and returns what ``InputFormat/tables(_:)`` needs for the anomalies.
public protocol SignalExportingFormat: InputFormat {
    func readSignal(_ input: InputSource, into sink: SignalSink) throws -> Parsed
}

/// An input that holds no signal was given for a signal output (a questionnaire to `-o rec.bdf`): exit 65.
public struct NoSignalError: ReportableError, Equatable {
    public var path: String
    /// What the input is instead.
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var exitCode: SysExit { .dataError }
    public var message: String { "\(path): \(reason); only a recording can be written as a signal file" }
}

extension SignalStart {
    /// The UTC civil time of seconds since 1970 (for apps that stamp samples with epoch times).
    public init(utcSeconds: Double) {
        let whole = utcSeconds.rounded(.down)
        let days = Int((whole / 86_400).rounded(.down))
        let secondsOfDay = Int(whole) - days * 86_400
        let (year, month, day) = CivilTime.date(days: days)
        self.init(year: year, month: month, day: day, hour: secondsOfDay / 3600, minute: secondsOfDay / 60 % 60,
                  second: Double(secondsOfDay % 60) + (utcSeconds - whole))
    }
}
