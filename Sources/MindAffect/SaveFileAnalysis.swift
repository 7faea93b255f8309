import Tables

/// The options that change numbers (recorded in the provenance).
public struct SaveFileAnalysisOptions: Sendable, Codable, Equatable {
    /// The clock for message times (`--clock`).
    public var clock: ClockChoice
    /// A gap between stimulus events above this starts a trial (`--iti-ms`).
    public var itiMs: Int
    /// The per-sample timestamp rule (`--timestamps`).
    public var timestampRule: TimestampRule
    /// The longest heartbeat gap in ms before `W_HB_GAP` (MessageSpec's 4 s).
    public var heartbeatGapMs: Int
    /// Where the noise codes come from: a family name or a table path.
    public var codes: String

    public init(clock: ClockChoice = .sts, itiMs: Int = 1000, timestampRule: TimestampRule = .interp,
                heartbeatGapMs: Int = 4000, codes: String = GoldCodeFamily.mgold65_6532.rawValue) {
        self.clock = clock
        self.itiMs = itiMs
        self.timestampRule = timestampRule
        self.heartbeatGapMs = heartbeatGapMs
        self.codes = codes
    }

    enum CodingKeys: String, CodingKey {
        case clock, itiMs = "iti_ms", timestampRule = "timestamp_rule", heartbeatGapMs = "heartbeat_gap_ms", codes
    }
}

/// How per-sample times are made (spec §2.2).
public enum TimestampRule: String, Sendable, Codable, CaseIterable {
    /// Even interpolation between packet times; the first packet laid back at the nominal rate.
    case interp
    /// PMB's offline loader (compat): de-jittered packet times, integer ms, first packet all at T₀.
    case pymindaffect
}

/// The DATAHEADER as logged, and whether its fs and nch are swapped (T1).
public struct DataHeaderReport: Sendable, Equatable {
    public var fs: Double
    public var channelCount: Int
    public var line: Int
    /// The header's fs equals the packets' nch and its ch does not.
    public var swapped: Bool
}

/// Everything `nt-analyze` derives from one save file (spec §2).
public struct SaveFileAnalysis: Sendable {
    public var file: SaveFile
    public var options: SaveFileAnalysisOptions
    public var times: MessageTimes
    public var timeline: SampleTimeline
    /// The compat timestamps, under `--timestamps pymindaffect`.
    public var pymindaffect: PymindaffectTimestamps?
    public var stimuli: StimulusSequence
    public var trials: [Trial]
    public var header: DataHeaderReport?
    /// The share of (trial, frame, object k ≥ 1) cells whose state equals code k−1 at frame f mod frames.
    public var codeAgreement: Double?
    /// Every anomaly of the file, sorted by line (rows without a line last).
    public var anomalies: [Anomaly]

    /// Analyses a parsed file; `codes` is the code table for the agreement check (nil: none).
    public init(_ file: SaveFile, options: SaveFileAnalysisOptions = SaveFileAnalysisOptions(), codes: NoiseCodeTable?) {
        self.file = file
        self.options = options
        times = MessageTimes(file, clock: options.clock)
        timeline = SampleTimeline(file, times: times)
        if options.timestampRule == .pymindaffect {
            let compat = PymindaffectTimestamps(file, times: times)
            pymindaffect = compat
            timeline.sampleMs = compat.sampleTs.map { Double($0 + compat.offsetToMessageClock) }
        } else {
            pymindaffect = nil
        }
        stimuli = StimulusSequence(file, times: times)
        let segmentation = TrialSegmentation(file, times: times, stimuli: stimuli, itiMs: options.itiMs)
        trials = segmentation.trials
        var found: [Anomaly] = file.anomalies + times.anomalies + timeline.anomalies + segmentation.anomalies

        header = nil
        for message in file.messages {
            guard case .dataHeader(let fs, let channels, _) = message.payload else { continue }
            let packetChannels = file.channelCount.map(Double.init)
            let swapped = packetChannels == fs && file.channelCount != channels
            header = DataHeaderReport(fs: fs, channelCount: channels, line: message.line, swapped: swapped)
            if swapped {
                found.append(Anomaly(sourceFile: file.sourceFile, line: message.line,
                                     code: .header,
                                     message: "DATAHEADER has fs and nch swapped (fs\(fs) ch[\(channels)] for \(file.channelCount ?? 0)-channel packets): header ignored"))
            }
            break
        }
        found += Self.heartbeatGaps(file, times: times, limitMs: Int64(options.heartbeatGapMs))

        codeAgreement = nil
        if let codes, codes.frameCount > 0 {
            var same = 0, cells = 0
            for index in trials.indices {
                let trial = trials[index]
                var trialSame = 0, trialCells = 0
                for objectID in trial.objectIDs {
                    guard let code = codes.code(forObject: objectID), let column = stimuli.column(of: objectID) else { continue }
                    var objectSame = 0
                    for (frame, event) in trial.events.enumerated()
                    where stimuli.state(event: event, column: column) == code[frame % code.count] { objectSame += 1 }
                    trialSame += objectSame
                    trialCells += trial.frameCount
                    if objectID == trial.cuedTarget {
                        trials[index].codeAgreement = Double(objectSame) / Double(trial.frameCount)
                    }
                }
                same += trialSame
                cells += trialCells
            }
            codeAgreement = cells > 0 ? Double(same) / Double(cells) : nil
        }
        anomalies = found.sortedByLine()
    }

    /// W_HB_GAP: a client whose consecutive heartbeats are more than `limitMs` apart (by rts).
    static func heartbeatGaps(_ file: SaveFile, times: MessageTimes, limitMs: Int64) -> [Anomaly] {
        var last: [Int: Int64] = [:]
        var rows: [Anomaly] = []
        for (index, message) in file.messages.enumerated() where message.name == MessageName.heartbeat {
            let time = times.rtsMs[index]
            if let previous = last[message.client], time - previous > limitMs {
                rows.append(Anomaly(sourceFile: file.sourceFile, line: message.line, code: .hbGap,
                                    message: "\(time - previous) ms since the previous HEARTBEAT of \(file.clients[message.client]) (more than \(limitMs) ms: stalled client?)"))
            }
            last[message.client] = time
        }
        return rows
    }

    /// The modes: (line, t_ms, mode) per MODECHANGE, in file order.
    public var modeChanges: [(line: Int, tMs: Int64, mode: String)] {
        file.messages.indices.compactMap { index in
            guard case .modeChange(let mode) = file.messages[index].payload else { return nil }
            return (file.messages[index].line, times.tMs[index], mode)
        }
    }
}
