import Foundation
import MindAffect
import Tables

/// The options of `nt-analyze decode`, as the provenance records them (with the pymindaffectBCI version followed).
public struct DecodeOptions: Sendable, Codable, Equatable {
    /// The pymindaffectBCI release whose offline analysis this follows.
    public var follows = "pymindaffectBCI 0.9.24"
    public var epoching = EpochingOptions()
    public var model = CCAOptions()
    public var evaluation = EvaluationOptions()
    /// Unreadable lines become anomalies rows instead of failing the input.
    public var skipBadLines = false

    public init() {}

    enum CodingKeys: String, CodingKey {
        case follows, epoching, model, evaluation, skipBadLines = "skip_bad_lines"
    }
}

/// One save file decoded: the recording as cut for the decoder, the result, and what was odd.
public struct DecodedFile: Sendable {
    public var recording: EpochedRecording
    public var result: DecodeResult
    /// The save file's own anomalies and the decoder's.
    public var anomalies: [Anomaly]

    /// Parses, cuts and decodes one save file.
    public static func decode(_ data: [UInt8], sourceFile: String, options: DecodeOptions) throws -> DecodedFile {
        let file = try SaveFile.parse(Data(data), sourceFile: sourceFile, skipBadLines: options.skipBadLines)
        return try decode(file, options: options)
    }

    /// Cuts and decodes a parsed save file.
    public static func decode(_ file: SaveFile, options: DecodeOptions) throws -> DecodedFile {
        let analysis = SaveFileAnalysis(file, options: SaveFileAnalysisOptions(timestampRule: .pymindaffect), codes: nil)
        let recording = try EpochedRecording(analysis, options: options.epoching)
        let result = try NoiseTagDecoder.decode(recording, model: options.model, evaluation: options.evaluation)
        var anomalies = file.anomalies + analysis.times.anomalies + analysis.timeline.anomalies
        for dropped in recording.droppedTrials {
            anomalies.append(Anomaly(sourceFile: file.sourceFile, line: dropped.line, code: .decodeShortTrial,
                                     message: "trial of \(Int(dropped.durationMs)) ms is not over \(options.epoching.minTrialFraction) of the \(Int(recording.trialLengthMs)) ms trial length: left out"))
        }
        for (trial, cued) in result.cuedOutput.enumerated() where cued == nil {
            anomalies.append(Anomaly(sourceFile: file.sourceFile, line: recording.trialFirstLine[trial], code: .decodeNoCue,
                                     message: "decoded trial \(trial): no output copies objID 0 (over 95 % of its events)"))
        }
        if recording.clockWrapped {
            anomalies.append(Anomaly(sourceFile: file.sourceFile, line: nil, code: .decodeClockWrap,
                                     message: "the decoder clock (sts mod 2^24) wraps during the recording: unwrapped (pymindaffectBCI 0.9.24 loses data here)"))
        }
        // By line, rows without a line last (as `nt-analyze` sorts them).
        let sorted = anomalies.sortedByLine()
        return DecodedFile(recording: recording, result: result, anomalies: sorted)
    }
}
