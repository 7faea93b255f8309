import HDF5
import Tables

/// The `/Paradigm` group of a recording: the scenario's conditions and timing (spec §3.1, §5.1).
public struct Paradigm: Sendable, Equatable, Codable {
    /// `Paradigm` attribute: the scenario (`rest`).
    public var name: String?
    /// `BaseTime` in s (−3): the baseline before a condition onset.
    public var baseTime: Double?
    /// `TrialTime` in s (60 rest, 30 music/memories): the length of a condition epoch.
    public var trialTime: Double?
    /// `ConditionCount`.
    public var conditionCount: Int?
    /// `ConditionLabels` (EyesOpen, EyesClosed).
    public var conditionLabels: [String]
    /// `ConditionMarkers` (320, 420).
    public var conditionMarkers: [Int]
    /// `BaseMarkers` (310, 410).
    public var baseMarkers: [Int]

    /// The label of a marker: the condition whose marker has the same hundreds.
    public func condition(ofMarker code: Int) -> (label: String, index: Int)? {
        guard let index = conditionMarkers.firstIndex(where: { $0 / 100 == code / 100 }),
              index < conditionLabels.count else { return nil }
        return (conditionLabels[index], index)
    }
}

/// One HDF5 attribute as stored, for the record of every attribute.
public struct StoredAttribute: Sendable, Equatable, Codable {
    public var group: String
    public var name: String
    public var value: HDF5AttributeValue

    /// The value as text (arrays `;`-joined).
    public var text: String {
        switch value {
        case .string(let text): text
        case .strings(let texts): texts.joined(separator: ";")
        case .int(let number): String(number)
        case .ints(let numbers): numbers.map(String.init).joined(separator: ";")
        case .double(let number): String(number)
        case .doubles(let numbers): numbers.map { String($0) }.joined(separator: ";")
        }
    }
}

/// An EEG recording `r_*.hdf` of one completed block, format Version 3 (spec §3): metadata, channels, samples,
/// markers and timestamps, with row 0 dropped when it is the recorder's replayed pre-recording sample.
public struct MYNDRecording: Sendable, Codable {
    public var sourceFile: String
    public var fileName: MYNDFileName?
    /// Every attribute of `/Recording` and `/Paradigm`, in the order HDF5 lists them.
    public var attributes: [StoredAttribute]
    public var subjectID: String?
    public var day: Int?
    public var sessionID: Int?
    public var runID: Int?
    public var version: Int?
    /// `muse` or `oscillator`.
    public var device: String?
    /// Sampling rate in Hz (the `samplingRate` attribute, else the device's nominal rate).
    public var samplingRate: Double
    /// Channel names as stored (`/Recording/ChannelNames`).
    public var channelNames: [String]
    /// One array of samples (µV) per channel, row 0 dropped where it is the quirk.
    public var channels: [[Double]]
    /// Marker per retained sample (0 = none).
    public var markers: [Int]
    /// TimeStamp per retained sample (µs since 1970 for Muse).
    public var timestamps: [Int64]
    /// Whether row 0 (TimeStamp 0) was dropped.
    public var droppedRowZero: Bool
    public var fittingTime: Double?
    public var recordingTime: Double?
    public var recordingStart: LocalizedTime?
    public var recordingEnd: LocalizedTime?
    public var sessionStart: LocalizedTime?
    public var locale: String?
    public var paradigm: Paradigm
    /// Recoverable oddities.
    public var anomalies: [Anomaly]

    /// The highest sampling rate taken from a file (Hz); above it the attribute is not believed.
    public static let maximumRate = 100_000.0

    /// The longest `TrialTime` or `|BaseTime|` taken from a file (s); beyond it the attribute is not believed.
    public static let maximumTrialTime = 1_000_000.0

    /// Number of retained samples.
    public var sampleCount: Int { markers.count }

    /// The first retained TimeStamp in UTC seconds, when it is epoch µs (≥ 10^15).
    public var firstTimestampUTC: Double? {
        guard let first = timestamps.first, first >= 1_000_000_000_000_000 else { return nil }
        return Double(first) / 1e6
    }

    /// The last retained TimeStamp in UTC seconds, when it is epoch µs.
    public var lastTimestampUTC: Double? {
        guard let last = timestamps.last, firstTimestampUTC != nil, last >= 1_000_000_000_000_000 else { return nil }
        return Double(last) / 1e6
    }

    /// The scenario: the `Paradigm` attribute, else the name's.
    public var scenario: String? { paradigm.name ?? fileName?.scenario }

    /// Reads an open HDF5 file. Throws ``MYNDError`` for a missing required object or a wrong shape (spec §9).
    public static func read(_ file: HDF5Location, sourceFile: String) throws(MYNDError) -> MYNDRecording {
        do {
            var reader = RecordingLayoutReader(file: file, sourceFile: sourceFile)
            return try reader.read()
        } catch let error as MYNDError {
            throw error
        } catch let error as HDF5Error {
            throw .hdf5(file: sourceFile, message: error.description)
        } catch {
            throw .hdf5(file: sourceFile, message: "\(error)")
        }
    }
}

/// Reads the layout of spec §3.1.
private struct RecordingLayoutReader {
    let file: HDF5Location
    let sourceFile: String
    var anomalies: [Anomaly] = []

    init(file: HDF5Location, sourceFile: String) {
        self.file = file
        self.sourceFile = sourceFile
    }

    mutating func warn(_ code: AnomalyCode, _ location: String?, _ message: String, raw: String? = nil) {
        anomalies.append(Anomaly(sourceFile: sourceFile, location: location, code: code, message: message, raw: raw))
    }

    func layout(_ path: String, _ message: String) -> MYNDError {
        .layout(file: sourceFile, path: path, message: message)
    }

    func group(_ parent: HDF5Location, _ name: String) throws -> HDF5Group {
        let path = parent.path == "/" ? "/\(name)" : "\(parent.path)/\(name)"
        guard parent.kind(of: name) == .group else {
            let found = parent.kind(of: name) == nil ? "nothing" : "another kind of object"
            throw layout(path, "expected the group \(path) of a MYND recording, found \(found)"
                         + (parent.path == "/" ? " (groups: \(((try? file.childNames()) ?? []).joined(separator: ", ")))" : ""))
        }
        return try parent.openGroup(name)
    }

    func dataset(_ parent: HDF5Group, _ name: String, required: Bool = true) throws -> HDF5Dataset? {
        guard parent.kind(of: name) == .dataset else {
            if required { throw layout("\(parent.path)/\(name)", "expected the dataset \(parent.path)/\(name), found nothing") }
            return nil
        }
        return try parent.openDataset(name)
    }

    mutating func read() throws -> MYNDRecording {
        let recording = try group(file, "Recording")
        let paradigmGroup = try group(file, "Paradigm")
        let name = MYNDFileName(path: sourceFile)
        if name == nil || name?.kind != .recording {
            warn(.nameUnparsed, nil,
                 "the file name does not follow r_<scenario>_<day>_<session>_<run>_<UUID>.hdf; read by content")
        }
        let attributes = try RecordingAttributes(recording: recording, paradigm: paradigmGroup)
        let datasets = try sampleDatasets(recording)
        let channelNames = try readChannelNames(recording, attributes: attributes, columns: datasets.columns)
        let samples = try retainedSamples(datasets)

        // Metadata (all strings in Version 3, numbers included).
        let device = attributes.text("device")
        if device == "oscillator" {
            warn(.device, "/Recording@device", "synthetic test source (oscillator), not EEG")
        }
        let rate = samplingRate(attributes, device: device)
        checkEpochTimestamps(samples.timestamps)
        let paradigm = try readParadigm(paradigmGroup, attributes: attributes)

        var result = MYNDRecording(
            sourceFile: sourceFile, fileName: name, attributes: attributes.all,
            subjectID: attributes.text("subjectID")?.uppercased() ?? name?.subjectID,
            day: attributes.integer("/Recording", "day") ?? name?.day,
            sessionID: attributes.integer("/Recording", "Session") ?? attributes.integer("/Recording", "sessionID")
                ?? name?.sessionID,
            runID: attributes.integer("/Recording", "Run") ?? attributes.integer("/Recording", "runID") ?? name?.runID,
            version: attributes.integer("/Recording", "Version"), device: device, samplingRate: rate,
            channelNames: channelNames, channels: samples.channels, markers: samples.markers,
            timestamps: samples.timestamps, droppedRowZero: samples.droppedRowZero,
            fittingTime: attributes.number("/Recording", "fittingTime"),
            recordingTime: attributes.number("/Recording", "recordingTime"), recordingStart: nil, recordingEnd: nil,
            sessionStart: nil, locale: attributes.text("locale"), paradigm: paradigm, anomalies: [])
        result.recordingStart = localized("recordingStartTime", attributes)
        result.recordingEnd = localized("recordingEndTime", attributes)
        result.sessionStart = localized("sessionStartTime", attributes)
        checkNames(result, attributes: attributes)
        result.anomalies = anomalies
        return result
    }

    /// `/Recording`'s Data, Marker and TimeStamp datasets, their shapes checked: Data is N × C numbers (or N), the
    /// other two N numbers each.
    struct SampleDatasets {
        var data: HDF5Dataset
        var marker: HDF5Dataset
        var timeStamp: HDF5Dataset
        /// N and C.
        var rows: Int
        var columns: Int
    }

    /// Opens the sample datasets and checks their shapes (spec §3.1).
    func sampleDatasets(_ recording: HDF5Group) throws -> SampleDatasets {
        let dataSet = try dataset(recording, "Data")!
        let markerSet = try dataset(recording, "Marker")!
        let timeSet = try dataset(recording, "TimeStamp")!
        let dims = dataSet.dimensions
        guard dims.count == 2 || dims.count == 1 else {
            throw layout(dataSet.path, "expected a 2-D dataset [N x C], found \(dims.count) dimensions")
        }
        guard dataSet.storedClass == .float || dataSet.storedClass == .integer else {
            throw layout(dataSet.path, "expected numbers, found \(dataSet.storedClass)")
        }
        _ = try dataSet.elementCount()  // refuses an impossible extent before any dimension becomes an Int
        let rows = Int(dims[0]), columns = dims.count == 2 ? Int(dims[1]) : 1
        guard rows > 0, columns > 0 else { throw layout(dataSet.path, "expected samples, found an empty dataset") }
        for set in [markerSet, timeSet] {
            guard set.storedClass == .integer || set.storedClass == .float else {
                throw layout(set.path, "expected integers, found \(set.storedClass)")
            }
            let count = try set.elementCount(), first = set.dimensions.first.map(Int.init) ?? 0
            guard count == rows, first == rows else {
                throw layout(set.path, "expected \(rows) rows like /Recording/Data, found \(first)"
                             + (count != first ? " x \(count / max(1, first))" : ""))
            }
        }
        return SampleDatasets(data: dataSet, marker: markerSet, timeStamp: timeSet, rows: rows, columns: columns)
    }

    /// Channel names: the dataset, else the attribute's Swift array text, else Channel1… (spec §3.2); one per
    /// column of Data.
    mutating func readChannelNames(_ recording: HDF5Group, attributes: RecordingAttributes, columns: Int) throws -> [String] {
        var channelNames: [String]
        if let namesSet = try dataset(recording, "ChannelNames", required: false) {
            channelNames = try namesSet.readStringsOfAnyCharset()
        } else if let listed = attributes.text("channelNames").map(MYNDRecordingText.swiftArray), !listed.isEmpty {
            channelNames = listed
            warn(.type, "/Recording/ChannelNames", "no ChannelNames dataset; names taken from the channelNames attribute")
        } else {
            channelNames = (1...columns).map { "Channel\($0)" }
            warn(.type, "/Recording/ChannelNames", "no channel names stored; named Channel1…Channel\(columns)")
        }
        guard channelNames.count == columns else {
            throw layout("/Recording/ChannelNames",
                         "expected \(columns) channel names like the columns of /Recording/Data, found \(channelNames.count)")
        }
        return channelNames
    }

    /// The samples, markers and timestamps with row 0 dropped where it is the quirk.
    struct RetainedSamples {
        /// One array of samples per channel.
        var channels: [[Double]]
        var markers: [Int]
        var timestamps: [Int64]
        var droppedRowZero: Bool
    }

    /// Reads the sample datasets, drops row 0 when its TimeStamp is 0 (spec §3.3) and splits Data into channels,
    /// counting values that are not finite.
    mutating func retainedSamples(_ datasets: SampleDatasets) throws -> RetainedSamples {
        let values = try datasets.data.readDoubles()
        let markers = try datasets.marker.readInt64s().map { Int(clamping: $0) }
        let timestamps = try datasets.timeStamp.readInt64s()

        // Row 0 quirk (spec §3.3).
        let dropped = timestamps.first == 0
        if !dropped {
            warn(.row0, "/Recording/TimeStamp", "TimeStamp[0] is \(timestamps.first ?? 0), not 0: row 0 kept")
        }
        let start = dropped ? 1 : 0
        let channels = splitChannels(values, rows: datasets.rows, columns: datasets.columns, from: start)
        return RetainedSamples(channels: channels, markers: Array(markers[start...]),
                               timestamps: Array(timestamps[start...]), droppedRowZero: dropped)
    }

    /// The columns of row-major `values` from row `start` on; warns of NaN or infinite values.
    mutating func splitChannels(_ values: [Double], rows: Int, columns: Int, from start: Int) -> [[Double]] {
        var channels = [[Double]](repeating: [], count: columns)
        var nanCount = 0
        for c in 0..<columns {
            channels[c].reserveCapacity(rows - start)
            for r in start..<rows {
                let value = values[r * columns + c]
                if !value.isFinite { nanCount += 1 }
                channels[c].append(value)
            }
        }
        if nanCount > 0 {
            warn(.nan, "/Recording/Data", "\(nanCount) NaN or infinite sample values", raw: String(nanCount))
        }
        return channels
    }

    /// The `samplingRate` attribute, else the device's nominal rate (128 Hz oscillator, 256 Hz Muse) with a warning.
    mutating func samplingRate(_ attributes: RecordingAttributes, device: String?) -> Double {
        if let rate = attributes.number("/Recording", "samplingRate"), rate > 0, rate.isFinite,
           rate <= MYNDRecording.maximumRate {
            return rate
        }
        let nominal: Double = device == "oscillator" ? 128 : 256
        warn(.rate, "/Recording@samplingRate", "no usable samplingRate attribute; assuming \(Int(nominal)) Hz for \(device ?? "muse")",
             raw: attributes.text("samplingRate"))
        return nominal
    }

    /// Warns when the TimeStamps are not µs since 1970 (absolute times are then NA).
    mutating func checkEpochTimestamps(_ timestamps: [Int64]) {
        if let first = timestamps.first, first < 1_000_000_000_000_000 {
            warn(.tsNotEpoch, "/Recording/TimeStamp",
                 "TimeStamp values are not µs since 1970 (first \(first)); absolute times are NA", raw: String(first))
        }
    }

    /// A local time attribute, with a warning when only partly read.
    mutating func localized(_ name: String, _ attributes: RecordingAttributes) -> LocalizedTime? {
        guard let raw = attributes.text(name) else { return nil }
        let time = LocalizedTime(raw)
        if let problem = time.problem {
            warn(.timeUnparsed, "/Recording@\(name)", "\(name) only partly read (\(problem))", raw: raw)
        }
        return time
    }

    /// The `/Paradigm` group: its attributes and condition datasets (spec §3.1, §5.1); as many labels as markers.
    mutating func readParadigm(_ paradigmGroup: HDF5Group, attributes: RecordingAttributes) throws -> Paradigm {
        let paradigm = Paradigm(name: attributes.attribute("/Paradigm", "Paradigm")?.value.stringValue,
                                baseTime: paradigmSeconds("BaseTime", attributes),
                                trialTime: paradigmSeconds("TrialTime", attributes),
                                conditionCount: attributes.integer("/Paradigm", "ConditionCount"),
                                conditionLabels: try paradigmStrings(paradigmGroup, "ConditionLabels"),
                                conditionMarkers: try paradigmInts(paradigmGroup, "ConditionMarkers"),
                                baseMarkers: try paradigmInts(paradigmGroup, "BaseMarkers"))
        guard paradigm.conditionLabels.count == paradigm.conditionMarkers.count else {
            throw layout("/Paradigm/ConditionLabels", "expected \(paradigm.conditionMarkers.count) labels like "
                         + "/Paradigm/ConditionMarkers, found \(paradigm.conditionLabels.count)")
        }
        if paradigm.trialTime == nil { warn(.type, "/Paradigm@TrialTime", "no TrialTime: no condition epochs") }
        return paradigm
    }

    /// A `/Paradigm` string dataset; empty, with a warning, when missing.
    mutating func paradigmStrings(_ paradigmGroup: HDF5Group, _ name: String) throws -> [String] {
        guard let set = try dataset(paradigmGroup, name, required: false) else {
            warn(.type, "/Paradigm/\(name)", "no /Paradigm/\(name) dataset")
            return []
        }
        return try set.readStringsOfAnyCharset()
    }

    /// A `/Paradigm` integer dataset; empty, with a warning, when missing.
    mutating func paradigmInts(_ paradigmGroup: HDF5Group, _ name: String) throws -> [Int] {
        guard let set = try dataset(paradigmGroup, name, required: false) else {
            warn(.type, "/Paradigm/\(name)", "no /Paradigm/\(name) dataset")
            return []
        }
        return try set.readInt64s().map { Int(clamping: $0) }
    }

    /// A `/Paradigm` time attribute in s; missing, with a warning, when not finite or beyond ``MYNDRecording/maximumTrialTime``.
    mutating func paradigmSeconds(_ name: String, _ attributes: RecordingAttributes) -> Double? {
        guard let value = attributes.number("/Paradigm", name) else { return nil }
        guard value.isFinite, abs(value) <= MYNDRecording.maximumTrialTime else {
            warn(.type, "/Paradigm@\(name)", "\(name) \(value) is not a plausible time in s; taken as missing",
                 raw: String(value))
            return nil
        }
        return value
    }

    /// Name fields against the content (warning `name-mismatch`, spec §7.3).
    mutating func checkNames(_ recording: MYNDRecording, attributes: RecordingAttributes) {
        guard let name = recording.fileName else { return }
        let pairs: [(String, Int?, Int)] = [
            ("day", attributes.integer("/Recording", "day"), name.day),
            ("Session", attributes.integer("/Recording", "Session"), name.sessionID),
            ("sessionID", attributes.integer("/Recording", "sessionID"), name.sessionID),
            ("Run", attributes.integer("/Recording", "Run"), name.runID),
            ("runID", attributes.integer("/Recording", "runID"), name.runID),
        ]
        for (attribute, value, expected) in pairs {
            if let value, value != expected {
                warn(.nameMismatch, "/Recording@\(attribute)", "\(attribute) is \(value) but the file name says \(expected)",
                     raw: String(value))
            }
        }
        if let subject = recording.subjectID, subject != name.subjectID {
            warn(.nameMismatch, "/Recording@subjectID", "subjectID is \(subject) but the file name says \(name.subjectID)",
                 raw: subject)
        }
        if let scenario = recording.paradigm.name, scenario != name.scenario {
            warn(.nameMismatch, "/Paradigm@Paradigm", "Paradigm is \(scenario) but the file name says \(name.scenario)",
                 raw: scenario)
        }
    }
}

/// Text forms of the app's attribute values.
enum MYNDRecordingText {
    /// The elements of a Swift array's description, `["Left Ear", "Left Front"]`.
    static func swiftArray(_ text: String) -> [String] {
        guard let value = try? JSONDocument.parse(Array(text.utf8)), case .array(let items) = value else { return [] }
        return items.compactMap(\.text)
    }
}
